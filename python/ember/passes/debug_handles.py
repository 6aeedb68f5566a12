"""Debug handles: a number per node of the exported graph, assigned once
after capture, that every later form of the node carries in
`node.meta["debug_handle"]` (the out-variant call, the op a backend lowers it
to, the instruction that runs it). The runtime's events and captured tensors
name handles; the debug info the exporter writes next to a program maps them
back to the node and the user's source line (ember.devtools.debug_info).
Handles start at 1; 0 means "unknown"."""

from __future__ import annotations

from ember.passes.graph import ProgramGraph, all_graphs

DEBUG_HANDLE = "debug_handle"


def assign_debug_handles(program: ProgramGraph) -> ProgramGraph:
    handle = 0
    for module in all_graphs(program):
        for node in module.graph.nodes:
            if node.op == "call_function":
                handle += 1
                node.meta[DEBUG_HANDLE] = handle
    return program


def debug_handle(node: object) -> int:
    meta = getattr(node, "meta", None)
    return int(meta.get(DEBUG_HANDLE) or 0) if meta is not None else 0
