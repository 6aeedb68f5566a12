"""Attention as one op: softmax(q @ k^T * scale [+ mask | masked_fill]) @ v,
as HF's eager attention and Ember's own scaled_dot_product_attention
decomposition write it, becomes the Attention op (a flash-style tiled kernel
that never holds the full score matrix).

The pattern, on core ATen after decomposition:

    bmm(q, k^T) -> view -> [mul | div by a number] -> [add mask | where(cond, -inf, .)]
      -> _softmax(-1) -> [clone, view, expand ...] -> bmm(., v)

q, k and v are views (head splits, the transpose of k) that the op reads in
place through their strides. A mask that depends on no input (the all-zero
padding mask of a full sequence, a causal mask built from arange) is
evaluated at export: no mask, `causal` (the kernel skips the blocks above the
diagonal), or a constant; a mask computed from inputs is read at run time,
additive (float) or as masked_fill's bool condition (HF's padding masks), the
op taking the mask itself where the condition is its logical_not.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
import dataclasses
from dataclasses import dataclass

import torch
from torch.fx import Node

from ember.backends.cpu import lowering
from ember.backends.cpu.lowering import Builder
from ember.backends.cpu.ops_layout import View, dense, materialize, view_of
from ember.backends.cpu.ops_static import static_value
from ember.cpu_fb import Attention, DataType, OpParams
from ember.passes.graph import ExportError, ProgramGraph

aten = torch.ops.aten

# Ops between the products and the softmax that leave the data as it is.
_PASS = {aten.view.default, aten._unsafe_view.default, aten.expand.default, aten.clone.default,
         aten.alias.default}
# A mask value at or below this is "masked out" (HF fills with finfo.min).
_MASKED = -1e30
META_KEY = "ember_attention_mask"
# node.meta key of the nodes computing a mask evaluated at export.
EXPORT_ONLY = "ember_attention_mask_at_export"


@dataclass
class Match:
    qk: Node                 # bmm(q, k^T)
    pv: Node                 # bmm(p, v): the pattern's last node
    softmax: Node
    nodes: list[Node]        # every node the op replaces
    scale: float
    mask: Node | None        # the additive mask, or the condition of a masked_fill
    fill: Node | None        # masked_fill's value (a scalar tensor), else None
    # The safe-softmax guard after pv (where, its condition, its zero), which
    # the op absorbs by zeroing the queries that see no key; empty if none.
    guard: list[Node] = dataclasses.field(default_factory=list)
    # mask = logical_not(keep) (bitwise_not on bool too) read by the masked_fill
    # alone: a bool mask read at run time is then `keep` itself.
    negation: Node | None = None


def _val(node: object) -> torch.Tensor | None:
    value = node.meta.get("val") if isinstance(node, Node) else None
    return value if isinstance(value, torch.Tensor) else None


def _is_pass(node: Node) -> bool:
    if node.op != "call_function":
        return False
    if node.target in _PASS:
        return node.target is not aten.clone.default or node.kwargs.get("memory_format") in (
            None, torch.contiguous_format, torch.preserve_format)
    if node.target is aten._to_copy.default:  # .to(the same dtype)
        source = _val(node.args[0])
        return (source is not None and set(node.kwargs) <= {"dtype"}
                and node.kwargs.get("dtype", source.dtype) == source.dtype)
    return False


def _reshapes_only(start: Node, chain: list[Node]) -> bool:
    """Whether `chain` (pass ops from `start`) keeps start's data dense and in order."""
    tensor = torch.empty(tuple(_val(start).shape), device="meta")
    for node in chain:
        if node.target in (aten.clone.default, aten.alias.default, aten._to_copy.default):
            continue
        try:
            tensor = node.target(tensor, *node.args[1:], **node.kwargs)
        except RuntimeError:
            return False
    return (tensor.is_contiguous() and tensor.storage_offset() == 0
            and tensor.numel() == _val(start).numel())


def _single_user(node: Node) -> bool:
    return len(node.users) == 1


def _scores(node: Node) -> tuple[Node, float, list[Node]] | None:
    """node = [scale](view chain of bmm(q, k^T)): the bmm, the scale, the nodes."""
    scale, nodes = 1.0, []
    if (node.target in (aten.mul.Tensor, aten.div.Tensor) and _single_user(node)
            and isinstance(node.args[1], (int, float)) and not isinstance(node.args[1], bool)):
        factor = float(node.args[1])
        if node.target is aten.div.Tensor:
            if factor == 0:
                return None
            factor = 1.0 / factor
        scale, nodes = factor, [node]
        node = node.args[0]
    chain = []
    while isinstance(node, Node) and _is_pass(node) and _single_user(node):
        chain.append(node)
        node = node.args[0]
    if not (isinstance(node, Node) and node.target is aten.bmm.default and _single_user(node)):
        return None
    if not _reshapes_only(node, chain[::-1]):
        return None
    return node, scale, [node, *chain[::-1], *nodes]


def match(softmax: Node) -> Match | None:
    """The attention pattern around `softmax`, or None."""
    if softmax.op != "call_function" or softmax.target is not aten._softmax.default:
        return None
    x, dim, half_to_float = softmax.args[:3]
    value = _val(softmax)
    if value is None or value.dtype != torch.float32 or half_to_float or value.dim() < 2:
        return None
    if dim not in (-1, value.dim() - 1) or value.dim() > 4:
        return None
    # Forward: pass ops to the second product, as its left operand.
    chain, node = [], softmax
    while True:
        if not _single_user(node):
            return None
        (user,) = node.users
        if user.target is aten.bmm.default and user.args[0] is node and user.args[1] is not node:
            pv = user
            break
        if not _is_pass(user) or user.args[0] is not node:
            return None
        chain.append(user)
        node = user
    if not _reshapes_only(softmax, chain):
        return None
    # Backward: the mask, the scale, the first product.
    if not (isinstance(x, Node) and _single_user(x)):
        return None
    mask = fill = None
    found = None
    if x.target is aten.add.Tensor and len(x.args) == 2 and x.kwargs.get("alpha", 1) == 1:
        for scores, other in ((x.args[0], x.args[1]), (x.args[1], x.args[0])):
            if isinstance(scores, Node) and isinstance(other, Node):
                found = _scores(scores)
                if found is not None:
                    mask = other
                    break
        prefix = [x]
    elif x.target is aten.where.self:
        cond, fill, scores = x.args
        if (isinstance(cond, Node) and isinstance(fill, Node) and isinstance(scores, Node)
                and _val(cond) is not None and _val(cond).dtype == torch.bool
                and _val(fill) is not None and _val(fill).numel() == 1):
            found = _scores(scores)
            mask = cond
        prefix = [x]
    else:
        found = _scores(x)
        prefix = []
    if found is None:
        return None
    qk, scale, score_nodes = found
    if mask is not None and (_val(mask) is None or _val(mask).dim() > value.dim()
                             or (fill is None and _val(mask).dtype != torch.float32)):
        return None
    # Shapes: q [BH, L, D], k^T [BH, D, S], v [BH, S, E], p [BH, L, S].
    q, kt, v = _val(qk.args[0]), _val(qk.args[1]), _val(pv.args[1])
    if q is None or kt is None or v is None:
        return None
    bh, length, head_dim = q.shape
    if (tuple(kt.shape[:2]) != (bh, head_dim) or v.shape[0] != bh or v.shape[1] != kt.shape[2]
            or math.prod(value.shape[:-2]) != bh or tuple(value.shape[-2:]) != (length, kt.shape[2])
            or any(t.dtype != torch.float32 for t in (q, kt, v))):
        return None
    nodes = [*score_nodes, *prefix, softmax, *chain, pv]
    negation = None
    if (fill is not None and mask.target in (aten.logical_not.default, aten.bitwise_not.default)
            and _single_user(mask) and _val(mask.args[0]) is not None
            and _val(mask.args[0]).dtype == torch.bool):
        negation = mask
    return Match(qk, pv, softmax, nodes, scale, mask, fill, _safe_softmax_guard(pv, mask, fill),
                 negation)


def _safe_softmax_guard(pv: Node, mask: Node | None, fill: Node | None) -> list[Node]:
    """The guard Ember's scaled_dot_product_attention decomposition (passes/capture.py)
    puts after the second product, exactly as it writes it:

        where(any(keeps, -1, keepdim=True), view(pv), 0)
        keeps = ne(mask, -inf) for an additive mask; for a bool mask `keep`, masked_fill's
        condition is logical_not(keep) and keeps = keep

    Its nodes [where, any, ne?, zero?], or [] when pv is not followed by one."""
    if mask is None:
        return []
    node = pv
    while _single_user(node):
        (user,) = node.users
        if user.target not in (aten.view.default, aten._unsafe_view.default):
            break
        node = user
    if not _single_user(node):
        return []
    (where,) = node.users
    if where.target is not aten.where.self or where.args[1] is not node:
        return []
    cond, zero = where.args[0], where.args[2]
    shape, result = _val(node), _val(where)
    if shape is None or result is None or tuple(shape.shape) != tuple(result.shape):
        return []
    if not (isinstance(zero, Node) and zero.target is aten.scalar_tensor.default
            and zero.args[0] == 0):
        return []
    if not (isinstance(cond, Node) and cond.target is aten.any.dim and _single_user(cond)
            and len(cond.args) == 3 and cond.args[2] is True
            and cond.args[1] in (-1, _val(cond.args[0]).dim() - 1)):
        return []
    keeps = cond.args[0]
    if fill is None:
        if not (keeps.target is aten.ne.Scalar and keeps.args[0] is mask
                and keeps.args[1] == float("-inf") and _single_user(keeps)):
            return []
        guard = [where, cond, keeps]
    else:
        if not (mask.target is aten.logical_not.default and mask.args[0] is keeps):
            return []
        guard = [where, cond]
    return guard + ([zero] if _single_user(zero) else [])


# --- masks known at export ---

def classify_mask(m: Match, program: ProgramGraph) -> tuple[str, torch.Tensor | None] | None:
    """("none" | "causal" | "constant" | "input", the constant) for m's mask,
    ("bool_input", masked_fill's value) for a masked_fill whose condition is
    computed at run time; None when the op cannot take it (a fill computed at
    run time)."""
    if m.mask is None:
        return "none", None
    memo: dict = {}
    value = static_value(m.mask, program, memo)
    if m.fill is not None:  # masked_fill: cond -> the fill value, else unchanged
        fill = static_value(m.fill, program, memo)
        if not isinstance(fill, torch.Tensor):
            return None
        if not isinstance(value, torch.Tensor):
            return "bool_input", fill.to(torch.float32)
        value = torch.where(value, fill.to(torch.float32), torch.zeros((), dtype=torch.float32))
    if not isinstance(value, torch.Tensor):
        return "input", None
    value = value.to(torch.float32)
    if bool((value == 0).all()):
        return "none", None
    length, keys = _val(m.softmax).shape[-2:]
    keep = torch.ones(length, keys, dtype=torch.bool).tril()
    full = value.broadcast_to(_val(m.softmax).shape)
    if bool((full[..., keep] == 0).all()) and bool((full[..., ~keep] <= _MASKED).all()):
        return "causal", None
    return "constant", value.contiguous()


# --- claiming, finding, lowering ---

# Per fx graph (weakly): its node count when scanned and the matched patterns.
_SCANS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _patterns(program: ProgramGraph) -> dict[Node, Match | None]:
    """node -> the pattern it belongs to, for every pattern in the program;
    nodes computing a mask the patterns took at export (none, causal or a
    constant) map to None: they are claimed too, and lower to nothing."""
    graph = program.graph
    count = len(graph.nodes)
    cached = _SCANS.get(graph)
    if cached is not None and cached[0] == count:
        return cached[1]
    found: dict[Node, Match | None] = {}
    static_masks: list[Node] = []
    for node in graph.nodes:
        if node.op == "call_function" and node.target is aten._softmax.default:
            m = match(node)
            if m is None:
                continue
            kind = classify_mask(m, program)
            if kind is None:
                continue
            # Kept on the node: the delegate's copy of the graph no longer
            # sees what the mask was computed from.
            node.meta[META_KEY] = kind
            for n in _absorbed(m, kind[0]):
                found[n] = m
            if kind[0] == "bool_input":
                static_masks.append(m.fill)
            elif kind[0] != "input":
                static_masks += [n for n in (m.mask, m.fill) if n is not None]
    # The mask's computation, where nothing else reads it, need not run.
    candidates, stack = set(), list(static_masks)
    while stack:
        node = stack.pop()
        if node.op == "call_function" and node not in candidates:
            candidates.add(node)
            stack += node.all_input_nodes
    changed = True
    while changed:
        changed = False
        for node in candidates:
            if node not in found and all(u in found for u in node.users):
                found[node] = None
                node.meta[EXPORT_ONLY] = True
                changed = True
    _SCANS[graph] = (count, found)
    return found


def _absorbed(m: Match, kind: str) -> list[Node]:
    """The nodes the op replaces, with the mask's negation when it reads the
    bool mask itself."""
    negation = [m.negation] if kind == "bool_input" and m.negation is not None else []
    return m.nodes + m.guard + negation


def claims(node: Node, program: ProgramGraph) -> bool:
    return node in _patterns(program)


def find(subgraph: ProgramGraph) -> dict[Node, Callable[[Builder, Node], int] | None]:
    fusions: dict[Node, Callable[[Builder, Node], int] | None] = {}
    for node in subgraph.graph.nodes:
        if node.op != "call_function" or node.target is not aten._softmax.default:
            continue
        m = match(node)
        if m is None or META_KEY not in node.meta:
            continue
        for n in _absorbed(m, node.meta[META_KEY][0]):
            fusions[n] = None
        fusions[m.pv] = lambda b, pv, m=m: _lower(b, m)
        if m.guard:  # the op zeroes what the guard would: its result is the view's
            fusions[m.guard[0]] = lambda b, where: b.input(where.args[1])
    for node in subgraph.graph.nodes:
        if node.meta.get(EXPORT_ONLY):
            fusions.setdefault(node, None)
    return fusions


def _split(view: View, heads: int) -> tuple[int, int, int, int]:
    """[BH, rows, cols] strides as (batch, head, row, col) strides."""
    return view.strides[0] * heads, view.strides[0], view.strides[1], view.strides[2]


def _head_merge_follows(pv: Node) -> bool:
    """Whether pv's result goes on to view [B, H, L, E] -> permute(0, 2, 1, 3)."""
    node = pv
    while _single_user(node):
        (user,) = node.users
        if user.target is aten.permute.default:
            return list(user.args[1]) == [0, 2, 1, 3]
        if user.target not in (aten.view.default, aten._unsafe_view.default):
            return False
        node = user
    return False


def _lower(b: Builder, m: Match) -> int:
    kind, constant = m.softmax.meta[META_KEY]
    scores_shape = tuple(_val(m.softmax).shape)
    batch_dims = scores_shape[:-2]
    batch, heads = (1, 1) if not batch_dims else (
        (1, batch_dims[0]) if len(batch_dims) == 1 else batch_dims)
    bh, length, head_dim = _val(m.qk.args[0]).shape
    keys, v_dim = _val(m.pv.args[1]).shape[1:]

    q = dense(b, b.input(m.qk.args[0]))
    kt = view_of(b, b.input(m.qk.args[1]))  # [BH, D, S]
    k = View(kt.base, kt.offset, (bh, keys, head_dim), (kt.strides[0], kt.strides[2], kt.strides[1]))
    if head_dim > 1 and k.strides[2] != 1:
        copy = materialize(b, k)
        b.views.pop(copy, None)
        k = view_of(b, copy)
    v = dense(b, b.input(m.pv.args[1]))

    params = Attention.AttentionT()
    params.scale, params.causal = m.scale, kind == "causal"
    params.safeSoftmax = bool(m.guard)
    params.sizes = [batch, heads, length, keys, head_dim, v_dim]
    params.qStrides = list(_split(q, heads)[:3])
    params.kStrides = list(_split(k, heads)[:3])
    params.vStrides = list(_split(v, heads)[:3])
    inputs = [q.base, k.base, v.base]
    offsets = [q.offset, k.offset, v.offset, 0]
    params.hasMask = kind in ("input", "constant", "bool_input")
    if kind == "bool_input":
        params.boolMask = True
        params.boolMaskKeeps = m.negation is not None
        params.maskedScore = float(constant)
        mask_id = b.input(m.negation.args[0] if m.negation is not None else m.mask)
        if b.values[mask_id].dtype != DataType.DataType.Bool:
            raise ExportError("an attention's bool mask did not lower to a bool value")
    elif params.hasMask:
        mask_id = b.constant(constant) if kind == "constant" else b.input(m.mask)
    if params.hasMask:
        mask = view_of(b, mask_id)
        params.maskStrides = _mask_strides(mask, scores_shape)
        inputs.append(mask.base)
        offsets[3] = mask.offset
    else:
        params.maskStrides = [0, 0, 0, 0]

    # The output: [B, L, H, E] when the heads are merged right after (then
    # that permute is free), else [BH, L, E].
    if batch == 1 and _head_merge_follows(m.pv):
        out = b.value([batch, length, heads, v_dim])
        params.outStrides = [length * heads * v_dim, v_dim, heads * v_dim]
        result = View(out, 0, (bh, length, v_dim), (v_dim, heads * v_dim, 1))
    else:
        out = b.value([bh, length, v_dim])
        params.outStrides = [heads * length * v_dim, length * v_dim, v_dim]
        result = None
    params.offsets = [*offsets, 0]
    b.op(OpParams.OpParams.Attention, params, inputs, out)
    return out if result is None else materialize(b, result)


def _mask_strides(mask: View, scores_shape: tuple[int, ...]) -> list[int]:
    """The mask's (b, h, i, j) strides, 0 where it broadcasts."""
    rank = len(scores_shape)
    sizes = (1,) * (rank - len(mask.sizes)) + tuple(mask.sizes)
    strides = (0,) * (rank - len(mask.strides)) + tuple(mask.strides)
    per_dim = [0 if size == 1 else stride for size, stride in zip(sizes, strides)]
    per_dim = [0] * (4 - rank) + per_dim
    return per_dim


lowering.FUSIONS.append(find)
lowering.CLAIMS.append(claims)
