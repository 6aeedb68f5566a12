"""Matrix products of two runtime values (bmm): the MatMul op on the f32
GEMM, each operand read in place through its view's strides, so a
transposed operand (k.transpose(-2, -1)) or a head split costs no copy of
its own. Products with a constant weight are linear layers (ops_gemm.py)."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import FLOAT, PLAIN, Builder, lowers, static_sizes
from ember.backends.cpu.ops_gemm import linear
from ember.backends.cpu.ops_layout import View, materialize, view_of
from ember.cpu_fb import MatMul, OpParams

aten = torch.ops.aten


def _operand(b: Builder, node: Node) -> View:
    """node's elements as a view of a plain value (MatMul reads plain values
    only): a view of channels-last data is made dense first."""
    view = view_of(b, b.input(node))
    if b.values[view.base].layout != PLAIN:
        copy = materialize(b, view)
        b.views.pop(copy, None)
        view = view_of(b, copy)
    return view


@lowers(aten.bmm.default)
def _bmm(b: Builder, node: Node) -> int:
    x = _operand(b, node.args[0])  # [batch, m, k]
    y = _operand(b, node.args[1])  # [batch, k, n]
    params = MatMul.MatMulT()
    params.aStrides, params.aOffset = list(x.strides), x.offset
    params.bStrides, params.bOffset = list(y.strides), y.offset
    params.k = x.sizes[2]
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.MatMul, params, [x.base, y.base], out)
    return out


# mm: a linear layer (ops_gemm, weight packed at init) when its right operand
# is a constant weight, else a product of two runtime values (x @ y,
# x @ y.t()), on MatMul with a batch of one.
@lowers(aten.mm.default, support=OpSupport(FLOAT))
def _mm(b: Builder, node: Node) -> int:
    x_node, y_node = node.args[:2]
    if isinstance(y_node, Node) and b.subgraph.is_constant(y_node):
        return linear(b, node)
    x = _operand(b, x_node)  # [m, k]
    y = _operand(b, y_node)  # [k, n]
    params = MatMul.MatMulT()
    params.aStrides, params.aOffset = [0, *x.strides], x.offset
    params.bStrides, params.bOffset = [0, *y.strides], y.offset
    params.k = x.sizes[1]
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.MatMul, params, [x.base, y.base], out)
    return out
