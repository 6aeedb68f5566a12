"""The Python side of EmberTestBackend (tests/backend/test_backend.h): claims
float32 add, mul and relu with static shapes and no broadcasting, and writes
the ETB1 blob its C++ side runs."""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping

import torch
from ember.backends import Backend, OpSupport, check_op_support
from ember.passes.graph import ProgramGraph
from torch.fx import Node

aten = torch.ops.aten
SCALAR = 0xFFFFFFFF
_OPS = {aten.add.Tensor: 1, aten.mul.Tensor: 2, aten.relu.default: 3}


def _same_shape_or_scalar(node: Node) -> str | None:
    if node.kwargs.get("alpha", 1) != 1 or (len(node.args) > 2 and node.args[2] != 1):
        return "alpha is not 1"
    other = node.args[1] if len(node.args) > 1 else None
    if isinstance(other, Node):
        if other.meta["val"].shape != node.meta["val"].shape:
            return "broadcasts"
    elif isinstance(other, bool) or not isinstance(other, (int, float)):
        return f"operand {other!r} is neither a tensor nor a number"
    if node.args[0].meta["val"].shape != node.meta["val"].shape:
        return "broadcasts"
    return None


_FLOAT = frozenset({torch.float32})
SUPPORT = {
    aten.add.Tensor: OpSupport(_FLOAT, constraint=_same_shape_or_scalar),
    aten.mul.Tensor: OpSupport(_FLOAT, constraint=_same_shape_or_scalar),
    aten.relu.default: OpSupport(_FLOAT),
}


class TestBackend(Backend):
    __test__ = False  # a backend, not a pytest test class

    id = "EmberTestBackend"

    def check_node(self, node: Node, program: ProgramGraph) -> str | None:
        return check_op_support(node, SUPPORT)

    def preprocess(self, subgraph: ProgramGraph, compile_specs: Mapping[str, bytes]) -> bytes:
        inputs = subgraph.user_inputs()
        constants = [n for n in subgraph.placeholders() if subgraph.is_constant(n)]
        steps = [n for n in subgraph.graph.nodes if n.op == "call_function"]
        outputs = list(subgraph.graph.output_node().args[0])
        computed = [n for n in steps if n not in outputs]
        slots: dict[Node, int] = {}
        for node in [*inputs, *constants, *computed, *outputs]:
            slots.setdefault(node, len(slots))
        numel = [math.prod(node.meta["val"].shape) for node in slots]
        blob = bytearray(b"ETB1")
        blob += struct.pack("<5I", len(inputs), len(outputs), len(constants), len(computed),
                            len(steps))
        blob += struct.pack(f"<{len(numel)}I", *numel)
        for node in constants:
            blob += subgraph.constant(node).to(torch.float32).contiguous().numpy().tobytes()
        for node in steps:
            a = node.args[0]
            other = node.args[1] if len(node.args) > 1 else 0.0
            b, scalar = (slots[other], 0.0) if isinstance(other, Node) else (SCALAR, float(other))
            blob += struct.pack("<3IfI", _OPS[node.target], slots[a], b, scalar, slots[node])
        return bytes(blob)
