"""Values that depend on no input: computed once at export, stored as
constants in the blob (only where an op reads them), never run.

Constant folding already computes ops on constants; what is left are chains
that start at creation ops with no inputs at all (arange, full,
scalar_tensor): a rotary embedding's cos and sin tables, the attention masks
HF builds from arange. Such nodes are claimed and lowered to nothing; a
consumer that reads one gets its value as a constant (lowering.Builder.input;
float32 and int8 values only, so an integer or boolean step is claimed only
where nothing else reads it). A delegate input nothing reads is dropped.
"""

from __future__ import annotations

import weakref

import torch
from torch.fx import Node

from ember.backends.cpu import lowering
from ember.backends.cpu.lowering import STATIC
from ember.passes.graph import ProgramGraph

# Values larger than this are computed at run time rather than stored.
MAX_STATIC_BYTES = 4 << 20
# node.meta key of the nodes claimed here (the delegate's copy keeps it).
CLAIMED = "ember_static_claimed"

_SCANS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def static_value(node: object, program: ProgramGraph, memo: dict) -> object:
    """node's value when it depends on no user input, else None (memoised)."""
    if not isinstance(node, Node):
        return node
    if node in memo:
        return memo[node]
    memo[node] = None
    result = None
    if node.op == "placeholder":
        result = program.constant(node) if program.is_constant(node) else None
    elif (node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload)
          and torch.Tag.nondeterministic_seeded not in node.target.tags):
        args, kwargs = torch.fx.node.map_aggregate(
            (node.args, node.kwargs), lambda a: static_value(a, program, memo))
        if all(memo.get(a) is not None for a in node.all_input_nodes):
            with torch.no_grad():
                value = node.target(*args, **kwargs)
            if isinstance(value, torch.Tensor) and value.numel() * value.element_size() <= MAX_STATIC_BYTES:
                result = value
    memo[node] = result
    return result


def _static_nodes(program: ProgramGraph) -> set[Node]:
    """The program's op nodes whose value depends on no input and that the
    backend can take: float32 ones (read as constants) and integer or
    boolean ones that only such nodes read (lowered to nothing, not run)."""
    graph = program.graph
    count = len(graph.nodes)
    cached = _SCANS.get(graph)
    if cached is not None and cached[0] == count:
        return cached[1]
    memo: dict = {}
    values = {node: static_value(node, program, memo)
              for node in graph.nodes if node.op == "call_function"}
    found: set[Node] = set()
    for node in reversed(graph.nodes):
        value = values.get(node)
        if not isinstance(value, torch.Tensor):
            continue
        if value.dtype == torch.float32:
            node.meta[STATIC] = value.contiguous()
            found.add(node)
        elif node.users and all(user in found for user in node.users):
            found.add(node)
            if value.dtype == torch.int8:  # an int8 unit may read it (Builder.input)
                node.meta[STATIC] = value.contiguous()
        if node in found:
            node.meta[CLAIMED] = True
    _SCANS[graph] = (count, found)
    return found


def claims(node: Node, program: ProgramGraph) -> bool:
    return node in _static_nodes(program)


def find(subgraph: ProgramGraph) -> dict[Node, None]:
    """Static nodes lower to nothing: Builder.input reads their values."""
    return {node: None for node in subgraph.graph.nodes
            if node.op == "call_function" and node.meta.get(CLAIMED)}


lowering.FUSIONS.append(find)
lowering.CLAIMS.append(claims)
