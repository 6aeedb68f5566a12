"""Bounds for data-dependent output sizes that the op itself implies.

nonzero, masked_select, unique, unique_consecutive and bincount return
tensors whose length depends on the values, not the shapes: torch.export
names that length with an unbacked symbol (u0). Planning memory needs an upper
bound for it. This pass sets the bound the op implies (nonzero, unique: at
most the input's element count; masked_select: the broadcast shape's; unique
along a dim: that dim's size; bincount of 8- or 16-bit integers: 2^bits bins),
replacing torch's where it has one (torch's for masked_select ignores
broadcasting), so such models export without the user naming one. The kernel
then resizes its output within the bound and the caller sees the true size. A size no op bounds (bincount of int64 values, x.item()) keeps failing
in the emitter, with a message that says how to bound it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import sympy
import torch
from torch.fx import Node
from torch.utils._sympy.value_ranges import ValueRanges, bound_sympy

from ember.passes.graph import ExportError, ProgramGraph, all_graphs

aten = torch.ops.aten

_INT_LIMIT = 2**31 - 1


def _numel_bound(tensor: torch.Tensor, ranges: dict[Any, Any]) -> int | None:
    return _upper(sympy.sympify(tensor.numel()) if isinstance(tensor.numel(), int)
                  else tensor.numel().node.expr, ranges)


def _upper(expr: Any, ranges: dict[Any, Any]) -> int | None:
    if isinstance(expr, int):
        return expr
    expr = sympy.sympify(expr)
    if expr.is_number:
        return int(expr)
    upper = bound_sympy(expr, ranges).upper
    return int(upper) if upper.is_number and upper <= _INT_LIMIT else None


def _fake(arg: Any) -> torch.Tensor | None:
    value = arg.meta.get("val") if isinstance(arg, Node) else None
    return value if isinstance(value, torch.Tensor) else None


def _input_numel(node: Node, ranges: dict[Any, Any]) -> int | None:
    fake = _fake(node.args[0]) if node.args else None
    return _numel_bound(fake, ranges) if fake is not None else None


def _broadcast_numel(node: Node, ranges: dict[Any, Any]) -> int | None:
    """masked_select(self, mask): at most the broadcast shape's element count."""
    fakes = [_fake(a) for a in node.args[:2]]
    if any(f is None for f in fakes):
        return None
    shape = torch.broadcast_shapes(*(f.shape for f in fakes))
    bound = 1
    for size in shape:
        upper = _upper(size if isinstance(size, int) else size.node.expr, ranges)
        if upper is None:
            return None
        bound *= upper
    return bound


def _unique_dim_bound(node: Node, ranges: dict[Any, Any]) -> int | None:
    fake = _fake(node.args[0])
    dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim")
    if fake is None or not isinstance(dim, int) or fake.dim() == 0:
        return None
    return _upper(fake.shape[dim] if isinstance(fake.shape[dim], int)
                  else fake.shape[dim].node.expr, ranges)


def _unique_consecutive_bound(node: Node, ranges: dict[Any, Any]) -> int | None:
    dim = node.args[3] if len(node.args) > 3 else node.kwargs.get("dim")
    if dim is None:
        return _input_numel(node, ranges)
    fake = _fake(node.args[0])
    if fake is None or not isinstance(dim, int):
        return None
    size = fake.shape[dim]
    return _upper(size if isinstance(size, int) else size.node.expr, ranges)


# bincount has max(input) + 1 bins: the input's dtype bounds that for small
# integer types.
_DTYPE_BINS = {torch.uint8: 256, torch.int8: 128, torch.int16: 32768}


def _bincount_bound(node: Node, ranges: dict[Any, Any]) -> int | None:
    fake = _fake(node.args[0])
    if fake is None or fake.dtype not in _DTYPE_BINS:
        return None
    minlength = node.args[2] if len(node.args) > 2 else node.kwargs.get("minlength", 0)
    if not isinstance(minlength, int):
        return None
    return max(_DTYPE_BINS[fake.dtype], minlength)


# op -> the upper bound of its data-dependent output length, or None.
BOUNDS: dict[Any, Callable[[Node, dict[Any, Any]], int | None]] = {
    aten.nonzero.default: _input_numel,
    aten.masked_select.default: _broadcast_numel,
    aten._unique2.default: _input_numel,
    aten.unique_consecutive.default: _unique_consecutive_bound,
    aten.unique_dim.default: _unique_dim_bound,
    aten.bincount.default: _bincount_bound,
}

# Ops whose bound torch sets too small.
_TORCH_BOUND_WRONG = {aten.masked_select.default}

# Why a size stays unbounded, for the emitter's error (by op packet: the
# emitter sees out-variants).
UNBOUNDED_HINTS = {
    aten.bincount: "bincount has as many bins as the input's largest value + 1, "
                           "which an int32/int64 input does not bound",
}


def _unbacked_symbols(node: Node) -> list[sympy.Symbol]:
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

    value = node.meta.get("val")
    values = value if isinstance(value, (list, tuple)) else [value]
    symbols: list[sympy.Symbol] = []
    for fake in values:
        if not isinstance(fake, torch.Tensor):
            continue
        for size in fake.shape:
            if isinstance(size, torch.SymInt):
                symbols += sorted(free_unbacked_symbols(size.node.expr), key=str)
    return symbols


def _unique_consecutive_with_negative_dim(node: Node) -> None:
    """torch 2.13's meta function of unique_consecutive does not normalize a
    negative dim: for dim=-1 on [5] it gives values [u0, 5] and counts [5]
    where the op returns [u0] and [u0], so memory would be planned at the
    wrong rank. The dim and the three outputs' shapes are put right here
    (values: the input's shape with u0 at dim; inverse: [size at dim];
    counts: [u0]); a value that other ops then read was shape-propagated from
    the wrong one, which export refuses rather than plan."""
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

    args = list(node.args)
    dim = args[3] if len(args) > 3 else node.kwargs.get("dim")
    fake = _fake(node.args[0])
    outputs = node.meta.get("val")
    if not isinstance(dim, int) or dim >= 0 or fake is None or fake.dim() == 0 or \
            not isinstance(outputs, (tuple, list)) or len(outputs) != 3:
        return
    d = dim + fake.dim()
    length = next((size for size in outputs[0].shape if isinstance(size, torch.SymInt)
                   and free_unbacked_symbols(size.node.expr)), None)
    if length is None:
        return
    sizes = list(fake.shape)
    values = outputs[0].new_empty([*sizes[:d], length, *sizes[d + 1:]])
    fixed = (values, outputs[1].new_empty([sizes[d]]), outputs[2].new_empty([length]))
    for user in node.users:
        if user.target is not operator.getitem:
            continue
        # What reads the value: the program's output, or its length u0 (the
        # same symbol, at the same place) for torch's size checks.
        if any(u.op != "output" and u.target is not aten.sym_size.int for u in user.users):
            raise ExportError(
                f"{node.name}: unique_consecutive with dim={dim} gets wrong output shapes from "
                f"torch's meta function; pass dim={d} (the same dim, counted from the front)")
        user.meta["val"] = fixed[user.args[1]]
    node.meta["val"] = fixed
    if len(args) > 3:
        args[3] = d
        node.args = tuple(args)
    else:
        node.kwargs = {**node.kwargs, "dim": d}


def bound_data_dependent_sizes(program: ProgramGraph) -> ProgramGraph:
    ranges = program.range_constraints
    for module in all_graphs(program):
        for node in module.graph.nodes:
            if node.op == "call_function" and node.target is aten.unique_consecutive.default:
                _unique_consecutive_with_negative_dim(node)
            bound_of = BOUNDS.get(node.target) if node.op == "call_function" else None
            if bound_of is None:
                continue
            for symbol in _unbacked_symbols(node):
                bound = bound_of(node, ranges)
                if bound is None:
                    continue
                known = ranges.get(symbol, ValueRanges.unknown_int())
                # A tighter bound torch or the user (torch._check) set stays,
                # except where torch's is wrong (masked_select's ignores
                # broadcasting).
                if (node.target not in _TORCH_BOUND_WRONG and known.upper.is_number
                        and known.upper < bound):
                    bound = int(known.upper)
                lower = known.lower if known.lower.is_number else 0
                ranges[symbol] = ValueRanges(min(lower, bound), bound)
    return program


def unbounded_hint(node: Node) -> str:
    """Why `node`'s data-dependent size has no bound, for an error message."""
    packet = getattr(node.target, "overloadpacket", None)
    return UNBOUNDED_HINTS.get(packet, "")
