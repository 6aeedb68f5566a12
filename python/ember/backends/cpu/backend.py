"""CpuBackend: the ember.backends.Backend of Ember's CPU delegate."""

from __future__ import annotations

from collections.abc import Mapping

from torch.fx import Node

from ember.backends.backend import Backend, check_op_support
from ember.backends.cpu import (  # noqa: F401
    lowering,
    ops_elementwise,
    ops_gemm,
    ops_layout,
    ops_norm,
    ops_pool,
)
from ember.passes.graph import ProgramGraph


class CpuBackend(Backend):
    """Claims the float32 ops some ops_*.py family lowers (lowering.SUPPORT)."""

    id = "EmberCpuBackend"

    def check_node(self, node: Node, program: ProgramGraph) -> str | None:
        reason = check_op_support(node, lowering.SUPPORT)
        return reason if reason is not None else lowering.check_constant_args(node, program)

    def preprocess(self, subgraph: ProgramGraph, compile_specs: Mapping[str, bytes]) -> bytes:
        return lowering.lower(subgraph)
