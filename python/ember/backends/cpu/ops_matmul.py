"""Matrix products of two runtime values (bmm): the MatMul op on the f32
GEMM, each operand read in place through its view's strides, so a
transposed operand (k.transpose(-2, -1)) or a head split costs no copy of
its own. Products with a constant weight are linear layers (ops_gemm.py)."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.cpu.lowering import Builder, lowers, static_sizes
from ember.backends.cpu.ops_layout import view_of
from ember.cpu_fb import MatMul, OpParams

aten = torch.ops.aten


@lowers(aten.bmm.default)
def _bmm(b: Builder, node: Node) -> int:
    x = view_of(b, b.input(node.args[0]))  # [batch, m, k]
    y = view_of(b, b.input(node.args[1]))  # [batch, k, n]
    params = MatMul.MatMulT()
    params.aStrides, params.aOffset = list(x.strides), x.offset
    params.bStrides, params.bOffset = list(y.strides), y.offset
    params.k = x.sizes[2]
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.MatMul, params, [x.base, y.base], out)
    return out
