"""Removes nodes that only assert facts torch.export already proved (shape
and range checks, tensor metadata): they have no effect on a planned program."""

from __future__ import annotations

import torch

from ember.passes.graph import ProgramGraph, all_graphs

ASSERTIONS = {
    torch.ops.aten._assert_scalar.default,
    torch.ops.aten.sym_constrain_range_for_size.default,
    torch.ops.aten.sym_constrain_range.default,
    torch.ops.aten._assert_tensor_metadata.default,
    torch.ops.aten._assert_async.msg,
}


def strip_asserts(program: ProgramGraph) -> ProgramGraph:
    for module in all_graphs(program):
        for node in list(module.graph.nodes):
            if node.op == "call_function" and node.target in ASSERTIONS and not node.users:
                module.graph.erase_node(node)
        module.recompile()
    return program
