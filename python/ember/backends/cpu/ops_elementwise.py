"""Elementwise ops: binary arithmetic, maximum and minimum with broadcasting
(either operand may be the smaller one, in either layout; a per-channel
vector meets channels-last data as is) and activations."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    CLAMPABLE,
    FLOAT,
    PLAIN,
    Builder,
    clamp_bounds,
    lowers,
    static_sizes,
)
from ember.backends.cpu.ops_norm import rms_norm_lowering
from ember.cpu_fb import Binary, BinaryOp, OpParams, Unary, UnaryOp

aten = torch.ops.aten

_BINARY = {
    aten.add.Tensor: BinaryOp.BinaryOp.Add, aten.sub.Tensor: BinaryOp.BinaryOp.Sub,
    aten.mul.Tensor: BinaryOp.BinaryOp.Mul, aten.div.Tensor: BinaryOp.BinaryOp.Div,
    aten.add.Scalar: BinaryOp.BinaryOp.Add, aten.sub.Scalar: BinaryOp.BinaryOp.Sub,
    aten.mul.Scalar: BinaryOp.BinaryOp.Mul, aten.div.Scalar: BinaryOp.BinaryOp.Div,
    aten.maximum.default: BinaryOp.BinaryOp.Max, aten.minimum.default: BinaryOp.BinaryOp.Min,
}
_UNARY = {
    aten.sigmoid.default: UnaryOp.UnaryOp.Sigmoid, aten.tanh.default: UnaryOp.UnaryOp.Tanh,
    aten.silu.default: UnaryOp.UnaryOp.Silu, aten.hardswish.default: UnaryOp.UnaryOp.HardSwish,
    aten.hardsigmoid.default: UnaryOp.UnaryOp.HardSigmoid, aten.exp.default: UnaryOp.UnaryOp.Exp,
    aten.neg.default: UnaryOp.UnaryOp.Neg, aten.sqrt.default: UnaryOp.UnaryOp.Sqrt,
    aten.rsqrt.default: UnaryOp.UnaryOp.Rsqrt, aten.abs.default: UnaryOp.UnaryOp.Abs,
}
# pow(x, e) for the exponents it lowers: 2 as x * x, 0.5 as sqrt (PyTorch
# computes both so).
_POW_EXPONENTS = (2, 0.5)
CLAMPABLE.update(_BINARY)


def _number(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


def _binary_claim(node: Node) -> str | None:
    if node.kwargs.get("alpha", 1) != 1 or (len(node.args) > 2 and node.args[2] != 1):
        return "alpha is not 1"
    if not isinstance(node.args[0], Node):
        return "the first operand is a number"
    other = node.args[1]
    if not isinstance(other, Node) and not _number(other):
        return f"operand {other!r} is not a number"
    if node.meta["val"].dim() > 8:
        return "more than 8 dims"
    return None


@lowers(*_BINARY, support=OpSupport(FLOAT, constraint=_binary_claim))
def _binary(b: Builder, node: Node) -> int:
    fused = rms_norm_lowering(b, node)
    if fused is not None:
        return fused
    sizes = static_sizes(node)
    a, other = node.args[0], node.args[1]
    params = Binary.BinaryT()
    params.op = _BINARY[node.target]
    a_id = b.input(a)
    if not isinstance(other, Node):
        params.hasScalar, params.scalar = True, float(other)
        out = b.value(sizes, layout=b.values[a_id].layout)
        b.op(OpParams.OpParams.Binary, params, [a_id], out)
        return out
    return _binary_values(b, params, a_id, b.input(other), sizes)


def _binary_values(b: Builder, params: Binary.BinaryT, a_id: int, other_id: int,
                   sizes: list[int]) -> int:
    # The output takes the layout of an operand of its full shape (a first);
    # an operand of the full shape in the other layout is converted, a
    # smaller one is read through broadcast strides in whatever layout it has.
    a_full = b.values[a_id].sizes == sizes
    other_full = b.values[other_id].sizes == sizes
    if a_full:
        layout = b.values[a_id].layout
    elif other_full:
        layout = b.values[other_id].layout
    else:
        layout = PLAIN
    if a_full:
        a_id = b.in_layout(a_id, layout)
    if other_full:
        other_id = b.in_layout(other_id, layout)
    out = b.value(sizes, layout=layout)
    b.op(OpParams.OpParams.Binary, params, [a_id, other_id], out)
    return out


def _pow_claim(node: Node) -> str | None:
    exponent = node.args[1]
    return None if _number(exponent) and exponent in _POW_EXPONENTS else f"exponent {exponent!r}"


@lowers(aten.pow.Tensor_Scalar, support=OpSupport(FLOAT, constraint=_pow_claim))
def _pow(b: Builder, node: Node) -> int:
    fused = rms_norm_lowering(b, node)
    if fused is not None:
        return fused
    x_id = b.input(node.args[0])
    if node.args[1] == 2:
        params = Binary.BinaryT()
        params.op = BinaryOp.BinaryOp.Mul
        return _binary_values(b, params, x_id, x_id, static_sizes(node))
    params = Unary.UnaryT()
    params.op = UnaryOp.UnaryOp.Sqrt
    out = b.value(static_sizes(node), layout=b.values[x_id].layout)
    b.op(OpParams.OpParams.Unary, params, [x_id], out)
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
    fused = rms_norm_lowering(b, node)
    if fused is not None:
        return fused
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
