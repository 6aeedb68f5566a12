"""Maps functional ATen ops to the out-variants that the runtime's kernels implement.

A program calls `aten::add.out(self, other, alpha, out)` where the graph had
`aten.add.Tensor(self, other, alpha)`. View ops become copies first
(`aten.view` -> `aten.view_copy`), since a planned program has no aliasing.
"""

from __future__ import annotations

import functools

import torch

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


if __name__ == "__main__":
    # Prints the out-variant kernel name and schema of each op named on the
    # command line, e.g. `python -m ember.compiler.out_variants add.Tensor`.
    import sys

    for arg in sys.argv[1:]:
        packet_name, _, overload = arg.partition(".")
        functional = getattr(getattr(aten, packet_name), overload or "default")
        out = out_variant(functional)
        print(f"{arg}: " + (f"{kernel_name(out)}  {out._schema}" if out else "no out variant"))
