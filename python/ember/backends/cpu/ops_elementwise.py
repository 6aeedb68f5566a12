"""Elementwise ops: binary arithmetic with broadcasting (a per-channel vector
meets channels-last data as is) and activations."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    CLAMPABLE,
    FLOAT,
    NHWC,
    PLAIN,
    Builder,
    clamp_bounds,
    lowers,
    static_sizes,
)
from ember.cpu_fb import Binary, BinaryOp, OpParams, Unary, UnaryOp

aten = torch.ops.aten

_BINARY = {aten.add.Tensor: BinaryOp.BinaryOp.Add, aten.sub.Tensor: BinaryOp.BinaryOp.Sub,
           aten.mul.Tensor: BinaryOp.BinaryOp.Mul, aten.div.Tensor: BinaryOp.BinaryOp.Div}
_UNARY = {aten.sigmoid.default: UnaryOp.UnaryOp.Sigmoid, aten.tanh.default: UnaryOp.UnaryOp.Tanh,
          aten.silu.default: UnaryOp.UnaryOp.Silu, aten.hardswish.default: UnaryOp.UnaryOp.HardSwish}
CLAMPABLE.update(_BINARY)


def _binary_claim(node: Node) -> str | None:
    if "alpha" in node.kwargs and node.kwargs["alpha"] != 1:
        return "alpha is not 1"
    other = node.args[1]
    if not isinstance(other, Node) and (isinstance(other, bool) or not isinstance(other, (int, float))):
        return f"operand {other!r} is not a number"
    if isinstance(other, Node) and node.args[0].meta["val"].dim() < other.meta["val"].dim():
        return "the first operand broadcasts"
    return None


@lowers(*_BINARY, support=OpSupport(FLOAT, constraint=_binary_claim))
def _binary(b: Builder, node: Node) -> int:
    sizes = static_sizes(node)
    a, other = node.args[0], node.args[1]
    params = Binary.BinaryT()
    params.op = _BINARY[node.target]
    a_id = b.input(a)
    layout = b.values[a_id].layout
    if not isinstance(other, Node):
        params.hasScalar, params.scalar = True, float(other)
        out = b.value(sizes, layout=layout)
        b.op(OpParams.OpParams.Binary, params, [a_id], out)
        return out
    other_id = b.input(other)
    other_sizes = b.values[other_id].sizes
    # Same shape: both in a's layout. A broadcast operand stays plain, which
    # an NHWC output only meets as a per-channel ([C, 1, 1], [1, C, 1, 1]) vector.
    if other_sizes == sizes:
        other_id = b.in_layout(other_id, layout)
    else:
        other_id = b.in_layout(other_id, PLAIN)
        if layout == NHWC and not _per_channel(other_sizes, sizes):
            layout = PLAIN
            a_id = b.in_layout(a_id, PLAIN)
    out = b.value(sizes, layout=layout)
    b.op(OpParams.OpParams.Binary, params, [a_id, other_id], out)
    return out


@lowers(aten.relu.default, aten.hardtanh.default, aten.clamp.default)
def _clamp(b: Builder, node: Node) -> int:
    params = Unary.UnaryT()
    params.op = UnaryOp.UnaryOp.Clamp
    x_id = b.input(node.args[0])
    out = b.value(static_sizes(node), layout=b.values[x_id].layout)
    b.op(OpParams.OpParams.Unary, params, [x_id], out, clamp_bounds(node))
    return out


@lowers(*_UNARY, aten.gelu.default)
def _unary(b: Builder, node: Node) -> int:
    params = Unary.UnaryT()
    if node.target is aten.gelu.default:
        approximate = node.kwargs.get("approximate", node.args[1] if len(node.args) > 1 else "none")
        params.op = UnaryOp.UnaryOp.GeluTanh if approximate == "tanh" else UnaryOp.UnaryOp.Gelu
    else:
        params.op = _UNARY[node.target]
    x_id = b.input(node.args[0])
    out = b.value(static_sizes(node), layout=b.values[x_id].layout)
    b.op(OpParams.OpParams.Unary, params, [x_id], out)
    return out


def _per_channel(other: list[int], sizes: list[int]) -> bool:
    """[C, 1, 1] or [1, C, 1, 1] against [N, C, H, W]."""
    padded = [1] * (len(sizes) - len(other)) + list(other)
    return len(sizes) == 4 and padded[0] == 1 and padded[1] == sizes[1] and padded[2:] == [1, 1]


