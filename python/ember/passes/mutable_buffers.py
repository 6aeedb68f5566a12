"""Mutable buffers (KV caches): the write-back of a buffer update becomes an
in-place update, so a step that changes a few rows of a cache writes those
rows and copies nothing else.

`lift` ends the graph with `copy_(buffer, new_value)` for each mutated
buffer, which is always correct but copies the whole buffer on every call.
When the new value is `index_put(buffer, indices, values)` and nothing reads
the old value after that update, the update can write into the buffer
itself: the node becomes `index_put_(buffer, ...)` (ExecuTorch's reinplace
pass does the same), its readers read the buffer, and the `copy_` goes.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.passes.graph import ProgramGraph

aten = torch.ops.aten

# Functional updates of a buffer -> their in-place twins (same arguments).
_IN_PLACE = {aten.index_put.default: aten.index_put_.default}


def is_in_place(node: Node) -> bool:
    """Whether `node` is an op that writes its first argument (index_put_,
    copy_): it has no out-variant and the runtime calls it as it is."""
    target = node.target
    if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload):
        return False
    arguments = target._schema.arguments
    if not arguments or any(a.is_out for a in arguments):
        return False
    alias = arguments[0].alias_info
    return alias is not None and alias.is_write


def reinplace_buffer_updates(program: ProgramGraph) -> ProgramGraph:
    graph = program.graph
    order = {node: i for i, node in enumerate(graph.nodes)}
    for write in [n for n in graph.nodes if n.target is aten.copy_.default]:
        buffer, update = write.args[0], write.args[1]
        if not program.is_buffer(buffer) or not isinstance(update, Node):
            continue
        if update.target not in _IN_PLACE or update.args[0] is not buffer:
            continue
        # Readers of the old value must all run before the update writes it.
        readers = [u for u in buffer.users if u is not update and u is not write]
        if any(order[r] > order[update] for r in readers):
            continue
        update.target = _IN_PLACE[update.target]
        graph.erase_node(write)
    return program.recompile()
