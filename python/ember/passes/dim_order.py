"""Memory formats as dim orders: a model that asks for channels-last inside its
forward (`clone`, `contiguous` or `to` with `memory_format=`) gets ExecuTorch's
dim-order copy ops, whose out tensor is planned in that dim order. Later
kernels read it through strides, or through the runtime's layout shims.

The ops are defined here in Ember's own `ember` namespace (so that importing
ExecuTorch beside Ember never collides) with ExecuTorch's schemas; the emitter
writes them under ExecuTorch's names (`dim_order_ops::...`, ember.passes.kernel_names), whose kernels
both runtimes have.
"""

from __future__ import annotations

import torch

from ember.passes.graph import ProgramGraph, all_graphs

_lib = torch.library.Library("ember", "DEF")
_lib.define("_clone_dim_order(Tensor self, *, bool non_blocking=False, int[]? dim_order=None) "
            "-> Tensor")
_lib.define("_clone_dim_order.out(Tensor self, *, bool non_blocking=False, "
            "int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!)")
_lib.define("_to_dim_order_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
            "Device? device=None, bool? pin_memory=None, bool non_blocking=False, "
            "int[]? dim_order=None) -> Tensor")
_lib.define("_to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, "
            "int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!)")

_DIM_ORDERS = {
    torch.channels_last: (0, 2, 3, 1),
    torch.channels_last_3d: (0, 2, 3, 4, 1),
}


def _memory_format(dim_order, rank: int) -> torch.memory_format:
    if dim_order is None or list(dim_order) == list(range(rank)):
        return torch.contiguous_format
    for fmt, order in _DIM_ORDERS.items():
        if list(dim_order) == list(order):
            return fmt
    raise ValueError(f"dim order {list(dim_order)} is neither contiguous nor channels-last")


def _clone(self, *, non_blocking=False, dim_order=None):
    return self.clone(memory_format=_memory_format(dim_order, self.dim()))


def _clone_out(self, *, non_blocking=False, dim_order=None, out):
    return out.resize_(self.shape).copy_(self)


def _to_copy(self, *, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
             dim_order=None):
    result = self.to(dtype=dtype if dtype is not None else self.dtype)
    return result.clone(memory_format=_memory_format(dim_order, self.dim()))


def _to_copy_out(self, *, non_blocking=False, dim_order=None, out):
    return out.resize_(self.shape).copy_(self)


for _name, _fn in [("_clone_dim_order", _clone), ("_clone_dim_order.out", _clone_out),
                   ("_to_dim_order_copy", _to_copy), ("_to_dim_order_copy.out", _to_copy_out)]:
    _lib.impl(_name, _fn, "CompositeExplicitAutograd")

_REWRITES = {
    torch.ops.aten.clone.default: torch.ops.ember._clone_dim_order.default,
    torch.ops.aten._to_copy.default: torch.ops.ember._to_dim_order_copy.default,
}
_DIM_ORDER_PACKETS = {op.overloadpacket for op in _REWRITES.values()}


def to_dim_order_ops(program: ProgramGraph) -> ProgramGraph:
    """Rewrites copies that ask for a channels-last memory format."""
    for module in all_graphs(program):
        for node in list(module.graph.nodes):
            fmt = node.kwargs.get("memory_format")
            if node.op != "call_function" or node.target not in _REWRITES or fmt not in _DIM_ORDERS:
                continue
            kwargs = {k: v for k, v in node.kwargs.items() if k != "memory_format"}
            kwargs["dim_order"] = list(_DIM_ORDERS[fmt])
            node.target = _REWRITES[node.target]
            node.kwargs = kwargs
        module.recompile()
    return program


def dim_order_of(node: torch.fx.Node) -> list[int] | None:
    """The dim order a dim-order op (functional or out-variant) asks for its
    result, or None (row-major)."""
    if (node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload)
            and node.target.overloadpacket in _DIM_ORDER_PACKETS):
        order = node.kwargs.get("dim_order")
        return list(order) if order is not None else None
    return None
