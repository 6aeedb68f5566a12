"""Out-variants: every functional op becomes the out-variant that the runtime's
kernels implement, writing into a buffer that an `alloc` node stands for.

A program calls `aten::add.out(self, other, alpha, out)` where the graph had
`aten.add.Tensor(self, other, alpha)`. View ops become copies first
(`aten.view` -> `aten.view_copy`), since a planned program has no aliasing.
After this pass each kernel call's arguments are bound by name, in its
out-variant's schema, and its outs are `alloc` nodes (whose `val` metadata is
the buffer's shape and dtype): the emitter turns each alloc into a planned
tensor. The graph still runs in eager PyTorch, an alloc being an empty tensor
that the out-variant resizes.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import torch
from torch.fx import Node

from ember.passes.graph import ExportError, ProgramGraph, all_graphs, user_frame
from ember.passes.mutable_buffers import is_in_place

aten = torch.ops.aten

# Views and in-place-free aliases, replaced by their copying twins.
VIEW_TO_COPY: dict[torch._ops.OpOverload, torch._ops.OpOverload] = {
    aten.view.default: aten.view_copy.default,
    aten._unsafe_view.default: aten.view_copy.default,
    aten.reshape.default: aten.view_copy.default,
    aten.permute.default: aten.permute_copy.default,
    aten.expand.default: aten.expand_copy.default,
    aten.slice.Tensor: aten.slice_copy.Tensor,
    aten.select.int: aten.select_copy.int,
    aten.unsqueeze.default: aten.unsqueeze_copy.default,
    aten.squeeze.dims: aten.squeeze_copy.dims,
    aten.squeeze.dim: aten.squeeze_copy.dim,
    aten.squeeze.default: aten.squeeze_copy.default,
    aten.t.default: aten.t_copy.default,
    aten.transpose.int: aten.transpose_copy.int,
    aten.alias.default: aten.alias_copy.default,
    aten.detach.default: aten.detach_copy.default,
    aten.diagonal.default: aten.diagonal_copy.default,
    aten.split.Tensor: aten.split_copy.Tensor,
    aten.split_with_sizes.default: aten.split_with_sizes_copy.default,
    aten.unbind.int: aten.unbind_copy.int,
    aten.unfold.default: aten.unfold_copy.default,
    aten.as_strided.default: aten.as_strided_copy.default,
    aten.view_as_real.default: aten.view_as_real_copy.default,
    aten.view_as_complex.default: aten.view_as_complex_copy.default,
    aten.lift_fresh.default: aten.lift_fresh_copy.default,
}


# Tensor options that an out-variant takes from its `out` tensor instead.
_OPTIONS_CARRIED_BY_OUT = {"dtype", "layout", "device", "pin_memory"}


def _arg_signature(schema: torch._C.FunctionSchema, drop_options: bool) -> list[tuple[str, str]]:
    return [
        (a.name, str(a.type))
        for a in schema.arguments
        if not a.is_out and not (drop_options and a.name in _OPTIONS_CARRIED_BY_OUT)
    ]


@functools.cache
def out_variant(op: torch._ops.OpOverload) -> torch._ops.OpOverload | None:
    """The overload of `op`'s packet that takes the same inputs plus `out` tensors."""
    op = VIEW_TO_COPY.get(op, op)
    if any(a.is_out for a in op._schema.arguments):
        return op
    packet = op.overloadpacket
    candidates = [getattr(packet, name) for name in packet.overloads()]
    candidates = [c for c in candidates if any(a.is_out for a in c._schema.arguments)]
    # An exact match first; else one that differs only in tensor options
    # (full_like, _to_copy, ...), which the emitter drops.
    for drop_options in (False, True):
        want = _arg_signature(op._schema, drop_options)
        for candidate in candidates:
            if _arg_signature(candidate._schema, drop_options) == want:
                return candidate
    return None


def kernel_name(op: torch._ops.OpOverload) -> str:
    """The name the runtime looks kernels up by, e.g. 'aten::add.out'."""
    name = op._schema.name
    overload = op._schema.overload_name
    return f"{name}.{overload}" if overload else name


def alloc(dtype: torch.dtype) -> torch.Tensor:
    """An out buffer. Its planned shape is in the node's `val` metadata; run
    eagerly it is an empty tensor that the out-variant resizes."""
    return torch.empty(0, dtype=dtype)


def alloc_list(dtype: torch.dtype, count: int) -> list[torch.Tensor]:
    """A Tensor[] out (split_copy, unbind_copy): `count` buffers."""
    return [torch.empty(0, dtype=dtype) for _ in range(count)]


# Ops that are copies only to choose a memory layout; Ember plans row-major.
_LAYOUT_COPIES = {torch.ops.prims.copy_strided.default: aten.clone.default}


def is_kernel_call(node: Node) -> bool:
    """Whether `node` is an operator the runtime runs as a kernel (not a
    symbolic-int op, a getitem, control flow or an alloc)."""
    return (node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload)
            and not isinstance(node.target, torch._ops.HigherOrderOperator)
            and node.target not in _SYMBOLIC_OPS)


_SYMBOLIC_OPS = {aten.sym_size.int, aten.sym_numel.default}


def to_out_variants(program: ProgramGraph) -> ProgramGraph:
    """In-place updates of mutable buffers (index_put_, copy_) stay as they are."""
    for module in all_graphs(program):
        for node in list(module.graph.nodes):
            if is_kernel_call(node) and not node.target._schema.returns:
                _bind_by_name(node)
            elif is_kernel_call(node) and not _is_out_call(node) and not is_in_place(node):
                _convert(module.graph, node)
        module.recompile()
    return program


def _bind_by_name(node: Node) -> None:
    """An op that returns nothing keeps its target; its arguments are bound by
    name, as the emitter reads them."""
    kwargs = dict(node.kwargs)
    for schema_arg, value in zip(node.target._schema.arguments, node.args):
        kwargs[schema_arg.name] = value
    node.args = ()
    node.kwargs = kwargs


def _is_out_call(node: Node) -> bool:
    """Already an out-variant, or an op that returns nothing (a check such as
    _linalg_check_errors), which the runtime calls as it is."""
    schema = node.target._schema
    return any(a.is_out for a in schema.arguments) or not schema.returns


def _convert(graph: torch.fx.Graph, node: Node) -> None:
    target = _LAYOUT_COPIES.get(node.target, node.target)
    if node.target in _LAYOUT_COPIES:
        node.args, node.kwargs = node.args[:1], {}
    out_op = out_variant(target)
    if out_op is None:
        filename, lineno, _, _ = user_frame(node)
        where = f"{filename}:{lineno}" if filename else "unknown location"
        raise ExportError(f"{node.name}: operator {node.target} has no out-variant, so Ember "
                          f"cannot run it (at {where})")
    # Bind the node's arguments by name, as the functional schema orders them;
    # the out-variant takes the same names (tensor options ride on the out).
    given: dict[str, Any] = dict(node.kwargs)
    for schema_arg, value in zip(target._schema.arguments, node.args):
        given[schema_arg.name] = value
    kwargs = {a.name: given[a.name] for a in out_op._schema.arguments
              if not a.is_out and a.name in given}
    outs = [a for a in out_op._schema.arguments if a.is_out]
    fake = node.meta.get("val")
    with graph.inserting_before(node):
        if len(outs) == 1 and isinstance(outs[0].type, torch._C.ListType):
            buffers = graph.call_function(alloc_list, (fake[0].dtype, len(fake)))
            buffers.meta["val"] = list(fake)
            kwargs[outs[0].name] = buffers
            # The out-variant returns nothing: readers take the buffers.
            for user in list(node.users):
                if user.target is operator.getitem:
                    user.replace_input_with(node, buffers)
        else:
            fakes = list(fake) if isinstance(fake, (tuple, list)) else [fake]
            if len(fakes) != len(outs):
                raise ExportError(f"{node.name} ({kernel_name(out_op)}): {len(fakes)} results but "
                                  f"{len(outs)} out arguments")
            for arg, value in zip(outs, fakes):
                buffer = graph.call_function(alloc, (value.dtype,))
                buffer.meta["val"] = value
                buffer.meta["stack_trace"] = node.meta.get("stack_trace")
                kwargs[arg.name] = buffer
    node.target = out_op
    node.args = ()
    node.kwargs = kwargs


def is_alloc(node: Node) -> bool:
    return node.op == "call_function" and node.target in (alloc, alloc_list)


if __name__ == "__main__":
    # Prints the out-variant kernel name and schema of each op named on the
    # command line, e.g. `python -m ember.passes.out_variants add.Tensor`.
    import sys

    for arg in sys.argv[1:]:
        packet_name, _, overload = arg.partition(".")
        functional = getattr(getattr(aten, packet_name), overload or "default")
        out = out_variant(functional)
        print(f"{arg}: " + (f"{kernel_name(out)}  {out._schema}" if out else "no out variant"))
