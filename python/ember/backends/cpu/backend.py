"""CpuBackend: the ember.backends.Backend of Ember's CPU delegate."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from torch.fx import Node

from ember.backends.backend import Backend, check_op_support, dynamic_shape
from ember.backends.cpu import (  # noqa: F401
    lowering,
    ops_attention,
    ops_elementwise,
    ops_gemm,
    ops_layout,
    ops_matmul,
    ops_norm,
    ops_pool,
    ops_qlinear,
    ops_quant,
    ops_static,
)
from ember.passes.debug_handles import debug_handle
from ember.passes.graph import ProgramGraph


class CpuBackend(Backend):
    """Claims the float32 ops some ops_*.py family lowers (lowering.SUPPORT)."""

    id = "EmberCpuBackend"

    def check_node(self, node: Node, program: ProgramGraph) -> str | None:
        # The blob's plan is static: shapes that vary per call stay portable.
        reason = dynamic_shape(node)
        if reason is not None:
            return reason
        # A node inside a pattern that lowers as one op (attention) is run
        # as part of it, whether or not its op is supported on its own.
        if any(claims(node, program) for claims in lowering.CLAIMS):
            return None
        reason = check_op_support(node, lowering.SUPPORT)
        return reason if reason is not None else lowering.check_constant_args(node, program)

    def fused_groups(self, program: ProgramGraph) -> list[set[Node]]:
        return [group for find in lowering.GROUPS for group in find(program)]

    def preprocess(self, subgraph: ProgramGraph, compile_specs: Mapping[str, bytes]) -> bytes:
        return lowering.lower(subgraph)

    def refused_nodes(self, nodes: Sequence[Node], processed: bytes | None,
                      reason: str) -> set[Node]:
        # Init names the op it refused and the node that op was lowered from
        # ("op 3 (LayerNorm, node 17) refused: ..."; cpu_backend.cpp's
        # refuse_op): that node alone goes back, unless init named none.
        found = _REFUSED_OP.search(reason)
        handle = int(found.group(1)) if found else 0
        culprits = {n for n in nodes if handle and debug_handle(n) == handle}
        return culprits or set(nodes)


_REFUSED_OP = re.compile(r"op \d+ \(\w*, node (\d+)\) refused")
