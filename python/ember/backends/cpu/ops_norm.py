"""Normalisations and reductions: softmax and log-softmax over any dim, layer
norm over the trailing dims, RMS norm (recognised from the ops PyTorch
decomposes it into) and sum / mean / amax over dims that lie next to each
other in memory."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    CONSTANT_ARGS,
    FLOAT,
    NHWC,
    PLAIN,
    Builder,
    channels_last_order,
    lowers,
    static_sizes,
)
from ember.cpu_fb import LayerNorm, OpParams, Reduce, Softmax

aten = torch.ops.aten


# --- softmax -----------------------------------------------------------------


def _softmax_claim(node: Node) -> str | None:
    if node.args[0].meta["val"].dim() == 0:
        return "softmax of a 0-d tensor"
    if node.args[2]:
        return "half_to_float"
    return None


@lowers(aten._softmax.default, aten._log_softmax.default,
        support=OpSupport(FLOAT, constraint=_softmax_claim))
def _softmax(b: Builder, node: Node) -> int:
    x_id = b.input(node.args[0])
    params = Softmax.SoftmaxT()
    params.dim = node.args[1] % node.args[0].meta["val"].dim()
    params.log = node.target is aten._log_softmax.default
    # Either layout: the dim innermost in memory runs as rows, any other as
    # columns, so NHWC data need not be converted.
    out = b.value(static_sizes(node), layout=b.values[x_id].layout)
    b.op(OpParams.OpParams.Softmax, params, [x_id], out)
    return out


# --- layer norm ----------------------------------------------------------------


def _layer_norm_claim(node: Node) -> str | None:
    for user in node.users:
        if user.target is not operator.getitem or user.args[1] != 0:
            return "its mean or rstd output is used"
    return None


# A weight or bias passed in at run time fails the LayerNorm op's init checks
# (op_specs' layer_norm case): only constant ones are claimed.
CONSTANT_ARGS[aten.native_layer_norm.default] = (2, 3)


@lowers(aten.native_layer_norm.default, support=OpSupport(FLOAT, constraint=_layer_norm_claim))
def _layer_norm(b: Builder, node: Node) -> int:
    x, shape, weight, bias, eps = node.args
    params = LayerNorm.LayerNormT()
    params.normalizedDims, params.eps, params.rms = len(shape), float(eps), False
    params.weight = b.in_layout(b.input(weight), PLAIN) if weight is not None else -1
    params.bias = b.in_layout(b.input(bias), PLAIN) if bias is not None else -1
    out = b.value(list(x.meta["val"].shape))
    b.op(OpParams.OpParams.LayerNorm, params, [b.in_layout(b.input(x), PLAIN)], out)
    return out




# --- reductions ----------------------------------------------------------------

_REDUCE = {aten.sum.dim_IntList, aten.sum.default, aten.mean.dim, aten.mean.default,
           aten.amax.default}


def _reduce_dims(node: Node) -> list[int]:
    """The reduced dims, sorted and non-negative (none listed: all)."""
    rank = node.args[0].meta["val"].dim()
    if node.target in (aten.sum.default, aten.mean.default):
        return list(range(rank))
    dims = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim")
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return list(range(rank))
    dims = [dims] if isinstance(dims, int) else list(dims)
    return sorted({d % rank for d in dims}) if rank > 0 else []


def _keepdim(node: Node) -> bool:
    if node.target in (aten.sum.default, aten.mean.default):
        return False
    return bool(node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False))


def _one_block(sizes: list[int], order: list[int], reduced: set[int]) -> bool:
    """Whether, in the memory order `order`, the reduced dims of size > 1 form
    one block and the kept ones of size > 1 keep their logical order (the
    output is plain)."""
    phase, last_kept = 0, -1
    for d in order:
        if sizes[d] == 1:
            continue
        if d in reduced:
            if phase == 2:
                return False
            phase = 1
        else:
            phase = 2 if phase == 1 else phase
            if d < last_kept:
                return False
            last_kept = d
    return True


def _reduce_claim(node: Node) -> str | None:
    dtype_at = 1 if node.target in (aten.sum.default, aten.mean.default) else 3
    if node.kwargs.get("dtype") is not None or (
            len(node.args) > dtype_at and node.args[dtype_at] is not None):
        return "a dtype is given"
    x = node.args[0].meta["val"]
    if x.dim() == 0:
        return "reduction of a 0-d tensor"
    if not _one_block(list(x.shape), list(range(x.dim())), set(_reduce_dims(node))):
        return "the reduced dims are not next to each other"
    return None


@lowers(*_REDUCE, support=OpSupport(FLOAT, constraint=_reduce_claim))
def _reduce(b: Builder, node: Node) -> int:
    fused = rms_norm_lowering(b, node)
    if fused is not None:
        return fused
    x = node.args[0]
    x_id = b.input(x)
    sizes = list(x.meta["val"].shape)
    dims = _reduce_dims(node)
    # NHWC data reduces in place when its memory order allows (a mean over H
    # and W: [N, H*W, C] -> [N, C]); otherwise it is converted first.
    order = channels_last_order(len(sizes))
    if b.values[x_id].layout == NHWC and not _one_block(sizes, order, set(dims)):
        x_id = b.in_layout(x_id, PLAIN)
    params = Reduce.ReduceT()
    params.dims, params.keepdim = dims, _keepdim(node)
    params.mean = node.target in (aten.mean.dim, aten.mean.default)
    params.max = node.target is aten.amax.default
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.Reduce, params, [x_id], out)
    return out


# --- RMS norm --------------------------------------------------------------------
#
# torch.nn.RMSNorm and transformers' LlamaRMSNorm export as
#   sq = pow(x, 2) (or x * x);  ms = mean(sq, trailing dims, keepdim=True)
#   r = rsqrt(ms + eps);        n = x * r;   out = n * weight (or weight * n)
# Each of those ops is claimed on its own (so that a partition cut anywhere
# still lowers), and when the whole chain sits in one subgraph it becomes one
# LayerNorm(rms) op: the lowering of its last node emits it, the others emit
# nothing.


@dataclass
class RmsNormMatch:
    x: Node
    eps: float
    dims: int  # normalised trailing dims
    weight: Node | None = None
    inner: set[Node] = field(default_factory=set)


def _single_user(node: Node) -> Node | None:
    return next(iter(node.users)) if len(node.users) == 1 else None


def _match_core(n: Node) -> RmsNormMatch | None:
    """n = x * rsqrt(mean(x^2, trailing dims, keepdim) + eps)."""
    if n.target is not aten.mul.Tensor or len(n.args) != 2:
        return None
    for x, r in (n.args, n.args[::-1]):
        if not (isinstance(x, Node) and isinstance(r, Node)) or r.target is not aten.rsqrt.default:
            continue
        add = r.args[0]
        if not (isinstance(add, Node) and add.target in (aten.add.Tensor, aten.add.Scalar)
                and len(add.args) == 2 and not add.kwargs):
            continue
        ms, eps = add.args
        if isinstance(eps, (Node, bool)) or not isinstance(eps, (int, float)):
            continue
        if not (isinstance(ms, Node) and ms.target is aten.mean.dim and _keepdim(ms)
                and ms.kwargs.get("dtype") is None):
            continue
        sq = ms.args[0]
        squares = isinstance(sq, Node) and (
            (sq.target is aten.pow.Tensor_Scalar and sq.args[0] is x and sq.args[1] == 2)
            or (sq.target is aten.mul.Tensor and sq.args[0] is x and sq.args[1] is x))
        if not squares:
            continue
        rank = x.meta["val"].dim()
        dims = _reduce_dims(ms)
        if not dims or dims != list(range(rank - len(dims), rank)):
            continue
        if any(_single_user(v) is not u for v, u in ((sq, ms), (ms, add), (add, r), (r, n))):
            continue
        if x.meta["val"].dtype != torch.float32:
            continue
        return RmsNormMatch(x, float(eps), len(dims), None, {sq, ms, add, r})
    return None


def _is_weight(w: object, m: RmsNormMatch) -> bool:
    """A float tensor of the normalised shape (leading 1s allowed)."""
    if not isinstance(w, Node) or not isinstance(w.meta.get("val"), torch.Tensor):
        return False
    shape = list(w.meta["val"].shape)
    normalized = list(m.x.meta["val"].shape)[-m.dims:]
    while len(shape) > len(normalized) and shape[0] == 1:
        shape = shape[1:]
    return shape == normalized and w.meta["val"].dtype == torch.float32


def _weight_mul(n: Node, m: RmsNormMatch) -> tuple[Node, Node] | None:
    """n's only user when it is n * weight (or weight * n): (that node, weight)."""
    user = _single_user(n)
    if user is None or user.target is not aten.mul.Tensor or len(user.args) != 2:
        return None
    a, c = user.args
    w = c if a is n else (a if c is n else None)
    return (user, w) if w is not None and w is not n and _is_weight(w, m) else None


def match_rms_norm(final: Node) -> RmsNormMatch | None:
    """The RMS norm whose last node is `final`, if any."""
    core = _match_core(final)
    if core is not None:
        # With a weight after it, the weight's mul is the last node.
        return core if _weight_mul(final, core) is None else None
    if final.target is not aten.mul.Tensor or len(final.args) != 2:
        return None
    for n in final.args:
        if isinstance(n, Node) and (core := _match_core(n)) is not None:
            found = _weight_mul(n, core)
            if found is not None and found[0] is final:
                core.weight = found[1]
                core.inner.add(n)
                return core
    return None


def rms_norm_lowering(b: Builder, node: Node) -> int | None:
    """For a node of a recognised RMS norm: the LayerNorm(rms) op's output for
    its last node, an empty placeholder value for the others (their results
    are never read), None for any other node."""
    m = match_rms_norm(node)
    if m is not None:
        params = LayerNorm.LayerNormT()
        params.normalizedDims, params.eps, params.rms, params.bias = m.dims, m.eps, True, -1
        params.weight = b.in_layout(b.input(m.weight), PLAIN) if m.weight is not None else -1
        out = b.value(static_sizes(node))
        b.op(OpParams.OpParams.LayerNorm, params, [b.in_layout(b.input(m.x), PLAIN)], out)
        return out
    # An inner node: its last node is at most five single-user steps on.
    later = node
    for _ in range(5):
        later = _single_user(later)
        if later is None:
            return None
        m = match_rms_norm(later)
        if m is not None:
            return b.value([0]) if node in m.inner else None
    return None
