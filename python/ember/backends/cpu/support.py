"""What the CPU backend runs: float32 ops with static shapes, and for each the
arguments its kernels handle. The table grows as kernels land."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport

aten = torch.ops.aten
FLOAT = frozenset({torch.float32})


def _constant_2d_weight(node: Node) -> str | None:
    weight = node.args[2] if node.target is aten.addmm.default else node.args[1]
    if not (isinstance(weight, Node) and weight.op == "placeholder"):
        return "weight is computed at run time"
    return None


def _addmm(node: Node) -> str | None:
    if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
        return "alpha or beta is not 1"
    bias = node.args[0]
    if isinstance(bias, Node) and len(bias.meta["val"].shape) > 1:
        return "bias is not a vector"
    return _constant_2d_weight(node)


def _conv(node: Node) -> str | None:
    x, weight, transposed = node.args[0], node.args[1], node.args[6]
    if x.meta["val"].dim() != 4:
        return "not a 2-D convolution"
    if transposed:
        return "transposed convolution"
    if not (isinstance(weight, Node) and weight.op == "placeholder"):
        return "weight is computed at run time"
    return None


def _binary(node: Node) -> str | None:
    if "alpha" in node.kwargs and node.kwargs["alpha"] != 1:
        return "alpha is not 1"
    other = node.args[1]
    if not isinstance(other, Node) and (isinstance(other, bool) or not isinstance(other, (int, float))):
        return f"operand {other!r} is not a number"
    if isinstance(other, Node) and node.args[0].meta["val"].dim() < other.meta["val"].dim():
        return "the first operand broadcasts"
    return None


def _row_major_clone(node: Node) -> str | None:
    if node.kwargs.get("memory_format") not in (None, torch.contiguous_format, torch.preserve_format):
        return f"memory format {node.kwargs['memory_format']}"
    return None


_ELEMENTWISE = OpSupport(FLOAT, constraint=_binary)
_UNARY = OpSupport(FLOAT)

SUPPORT: dict = {
    aten.addmm.default: OpSupport(FLOAT, constraint=_addmm),
    aten.mm.default: OpSupport(FLOAT, constraint=_constant_2d_weight),
    aten.convolution.default: OpSupport(FLOAT, constraint=_conv),
    aten.add.Tensor: _ELEMENTWISE,
    aten.sub.Tensor: _ELEMENTWISE,
    aten.mul.Tensor: _ELEMENTWISE,
    aten.div.Tensor: _ELEMENTWISE,
    aten.relu.default: _UNARY,
    aten.hardtanh.default: _UNARY,
    aten.clamp.default: _UNARY,
    aten.sigmoid.default: _UNARY,
    aten.tanh.default: _UNARY,
    aten.silu.default: _UNARY,
    aten.hardswish.default: _UNARY,
    aten.gelu.default: _UNARY,
    aten.view.default: _UNARY,
    aten.clone.default: OpSupport(FLOAT, constraint=_row_major_clone),
}
