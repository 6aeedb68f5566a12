"""Matrix products of two runtime values (bmm): the MatMul op on the f32
GEMM, each operand read in place through its view's strides, so a
transposed operand (k.transpose(-2, -1)) or a head split costs no copy of
its own. Products with a constant weight are linear layers (ops_gemm.py),
a bmm whose right operand is one constant matrix repeated over the batch
too."""

from __future__ import annotations

from typing import Any

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import FLOAT, PLAIN, Builder, lowers, static_sizes
from ember.backends.cpu.ops_gemm import linear, linear_op
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


def _shared_weight(b: Builder, node: Any) -> torch.Tensor | None:
    """The [k, n] matrix in every batch of a constant [batch, k, n] operand,
    or None. matmul turns a 3-D input times a weight into a bmm with the
    weight expanded over the batch when the input's rows are not one run
    (nn.MultiheadAttention's in-projection with batch_first), and constant
    folding stores that expansion."""
    if not isinstance(node, Node) or not b.subgraph.is_constant(node):
        return None
    weight = b.subgraph.constant(node)
    if weight.dim() != 3 or weight.dtype != torch.float32 or weight.shape[0] < 2:
        return None
    first = weight[:1]
    return weight[0] if torch.equal(weight, first.expand_as(weight)) else None


@lowers(aten.bmm.default)
def _bmm(b: Builder, node: Node) -> int:
    weight = _shared_weight(b, node.args[1])
    if weight is not None:
        # One linear layer over batch x m rows, its weight packed once,
        # rather than a product per batch of m rows (4 in MultiheadAttention
        # at batch 4) that reads the weight again each time.
        return linear_op(b, b.input(node.args[0]), b.constant(weight), -1, static_sizes(node))
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
