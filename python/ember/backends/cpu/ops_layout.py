"""Layout operations: views (reshape, permute, transpose, expand, slice,
select, squeeze, unsqueeze, clone), concatenation, constant padding and
embedding lookups.

A view's result is recorded as a `View`: which value's memory holds its
elements and at which strides. Views compose, so a chain (view, permute,
expand, view) is one View of the value it started from. Ops that can read
through strides (MatMul, Attention) take the View and read in place; for
everything else the view is made dense once: an alias of its base when the
elements already lie in order (no copy at all), else one strided copy
(Permute with strides). A copy that no op ends up reading is dropped when
the blob is finished (lowering._drop_dead_ops).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    DTYPES,
    FLOAT,
    GETITEM_LOWERINGS,
    NHWC,
    PLAIN,
    Builder,
    channels_last_order,
    lowers,
    static_sizes,
)
from ember.cpu_fb import Concat, Embedding, OpParams, Pad, Permute

aten = torch.ops.aten


@dataclass(frozen=True)
class View:
    """Elements [i0, i1, ...] of a tensor at base's data[offset + sum i_d * strides[d]]."""

    base: int
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]

    def meta(self, base_numel: int) -> torch.Tensor:
        """A meta tensor with this view's geometry, for torch to compute the next view's."""
        storage = torch.empty(max(base_numel, 1), device="meta")
        return storage.as_strided(self.sizes, self.strides, self.offset)

    def is_dense(self) -> bool:
        """Whether the elements lie in row-major order from the offset."""
        expected = 1
        for size, stride in zip(reversed(self.sizes), reversed(self.strides)):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True


def contiguous_strides(sizes: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    strides, expected = [], 1
    for size in reversed(sizes):
        strides.append(expected)
        expected *= size
    return tuple(reversed(strides))


def view_of(b: Builder, value_id: int) -> View:
    """How value_id's elements lie in memory: its recorded view, else its own
    data, row-major (or channels-last for an NHWC value)."""
    if value_id in b.views:
        return b.views[value_id]
    value = b.values[value_id]
    sizes = tuple(value.sizes)
    if value.layout == NHWC:
        strides = [0] * len(sizes)
        stride = 1
        for d in reversed(channels_last_order(len(sizes))):
            strides[d] = stride
            stride *= sizes[d]
        return View(value_id, 0, sizes, tuple(strides))
    return View(value_id, 0, sizes, contiguous_strides(sizes))


def materialize(b: Builder, view: View) -> int:
    """A plain value holding view's elements in row-major order: an alias of
    the base when they already lie so, else a strided copy."""
    base = b.values[view.base]
    numel = math.prod(view.sizes)
    if view.offset == 0 and view.is_dense() and numel == math.prod(base.sizes):
        out = b.value(view.sizes, alias_of=view.base)
    else:
        out = b.value(view.sizes)
        params = Permute.PermuteT()
        params.strides, params.offset = list(view.strides), view.offset
        b.op(OpParams.OpParams.Permute, params, [view.base], out)
    b.views[out] = view
    return out


def dense(b: Builder, value_id: int) -> View:
    """value_id's view if its last dim is contiguous, else the view of a dense copy."""
    view = view_of(b, value_id)
    if view.sizes and view.sizes[-1] != 1 and view.strides[-1] != 1:
        copy = materialize(b, view)
        b.views.pop(copy, None)  # read the copy itself, not through the view
        return view_of(b, copy)
    return view


# --- views ---

_VIEWS = (
    aten.view.default, aten._unsafe_view.default, aten.permute.default, aten.transpose.int,
    aten.t.default, aten.expand.default, aten.slice.Tensor, aten.select.int,
    aten.squeeze.dim, aten.squeeze.dims, aten.squeeze.default, aten.unsqueeze.default,
    aten.alias.default,
)


def apply_view(view: View, base_numel: int, node: Node) -> View | None:
    """The view `node` (a view op on `view`'s tensor) takes, or None where
    torch cannot express it as a view of the same memory."""
    if node.target in (aten.clone.default, aten.alias.default):
        return view  # the same elements
    try:
        result = node.target(view.meta(base_numel), *node.args[1:], **node.kwargs)
    except RuntimeError:
        return None
    return View(view.base, result.storage_offset(), tuple(result.shape), tuple(result.stride()))


def _row_major_clone(node: Node) -> str | None:
    if node.kwargs.get("memory_format") not in (None, torch.contiguous_format, torch.preserve_format):
        return f"memory format {node.kwargs['memory_format']}"
    return None


@lowers(*_VIEWS)
@lowers(aten.clone.default, support=OpSupport(FLOAT, constraint=_row_major_clone))
def _view(b: Builder, node: Node) -> int:
    source = b.input(node.args[0])
    view = view_of(b, source)
    base_numel = math.prod(b.values[view.base].sizes)
    result = apply_view(view, base_numel, node)
    if result is None:
        # Not a view of the base (a reshape across a permutation): of a copy.
        dense_source = materialize(b, view)
        b.views.pop(dense_source, None)
        result = apply_view(view_of(b, dense_source), math.prod(view.sizes), node)
        assert result is not None, f"{node.name}: a view of a dense value must exist"
    if list(result.sizes) != static_sizes(node):
        raise AssertionError(f"{node.name}: view sizes {result.sizes} != {static_sizes(node)}")
    return materialize(b, result)


# --- split: each piece a view, made where its getitem is lowered ---

def _split_claim(node: Node) -> str | None:
    return None if all(u.target is operator.getitem for u in node.users) else "pieces used as a list"


@lowers(aten.split_with_sizes.default, support=OpSupport(FLOAT, constraint=_split_claim))
def _split(b: Builder, node: Node) -> int:
    return b.input(node.args[0])


def _split_piece(b: Builder, node: Node) -> int:
    source, index = node.args
    sizes = source.args[1]
    dim = source.args[2] if len(source.args) > 2 else source.kwargs.get("dim", 0)
    view = view_of(b, b.input(source.args[0]))
    dim = dim if dim >= 0 else dim + len(view.sizes)
    base_numel = math.prod(b.values[view.base].sizes)
    piece = view.meta(base_numel).narrow(dim, sum(sizes[:index]), sizes[index])
    return materialize(b, View(view.base, piece.storage_offset(), tuple(piece.shape),
                               tuple(piece.stride())))


GETITEM_LOWERINGS[aten.split_with_sizes.default] = _split_piece


# --- concatenation ---

def _cat_claim(node: Node) -> str | None:
    tensors = node.args[0]
    if len(tensors) > 64:
        return "more than 64 inputs"
    if any(t.meta["val"].dim() != node.meta["val"].dim() for t in tensors):
        return "inputs of different ranks"
    return None


@lowers(aten.cat.default, support=OpSupport(FLOAT, constraint=_cat_claim))
def _cat(b: Builder, node: Node) -> int:
    inputs = [materialize_plain(b, t) for t in node.args[0]]
    dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
    params = Concat.ConcatT()
    params.dim = dim if dim >= 0 else dim + node.meta["val"].dim()
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.Concat, params, inputs, out)
    return out


def materialize_plain(b: Builder, node: Node) -> int:
    """node's value, plain (row-major): NHWC converted once."""
    return b.in_layout(b.input(node), PLAIN)


# --- constant padding ---

def pad_claim(node: Node) -> str | None:
    pads = node.args[1]
    if len(pads) % 2 or len(pads) > 2 * node.args[0].meta["val"].dim():
        return "more pads than dims"
    if node.meta["val"].dim() < 1:
        return "a 0-d tensor"
    return None


def pad_value(node: Node) -> float:
    return float(node.args[2]) if len(node.args) > 2 else float(node.kwargs.get("value", 0))


def lower_pad(b: Builder, node: Node, x: int, value: float) -> int:
    """A Pad of value x to node's sizes, filled with `value`, in x's dtype and
    layout (a channels-last image stays channels-last: the op pads the dims
    in memory order, so no conversion surrounds it)."""
    params = Pad.PadT()
    params.pads = [int(p) for p in node.args[1]]
    params.value = value
    x_value = b.values[x]
    out = b.value(static_sizes(node), layout=x_value.layout, dtype=x_value.dtype)
    b.op(OpParams.OpParams.Pad, params, [x], out)
    return out


@lowers(aten.constant_pad_nd.default, support=OpSupport(FLOAT, constraint=pad_claim))
def _pad(b: Builder, node: Node) -> int:
    return lower_pad(b, node, b.input(node.args[0]), pad_value(node))


# --- embedding ---

def _embedding_claim(node: Node) -> str | None:
    weight, indices = node.args[0], node.args[1]
    if weight.meta["val"].dtype != torch.float32 or weight.meta["val"].dim() != 2:
        return "the table is not a 2-D float32 tensor"
    if indices.meta["val"].dtype not in DTYPES:
        return f"indices of dtype {indices.meta['val'].dtype}"
    return None


@lowers(aten.embedding.default,
        support=OpSupport(FLOAT | frozenset(DTYPES), constraint=_embedding_claim))
def _embedding(b: Builder, node: Node) -> int:
    weight, indices = node.args[0], node.args[1]
    if b.subgraph.is_constant(indices):
        raise AssertionError(f"{node.name}: constant indices should have been folded")
    params = Embedding.EmbeddingT()
    inputs = [b.input(indices)]
    if b.subgraph.is_constant(weight):
        params.weight = b.input(weight)
    else:  # a table given or computed at run time: the op's second input
        inputs.append(b.in_layout(b.input(weight), PLAIN))
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.Embedding, params, inputs, out)
    return out
