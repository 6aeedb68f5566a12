"""Partitioning and delegate lowering.

For each backend, in the order the user lists them (the first that claims a
node gets it): the backend says which nodes it can run; torch's capability
partitioner groups those into connected subgraphs that create no cycle; each
subgraph becomes one `call_module` node whose module, a LoweredDelegate,
holds the bytes of the backend's `preprocess` and the original subgraph (so
the graph still runs in eager PyTorch). Constants that only a delegate uses
move into it. Every op node gets a Placement for the export report: where it
runs, and why each backend declined it.

No blob is emitted that the backend's runtime would refuse: each is first
given to the backend's own init (Backend.validate, the C++ init through
ember._C), and when init refuses one, the nodes it names (all of the
subgraph's when it names none) are withheld from that backend and the rest
is partitioned again. The withheld nodes run on the portable kernels, and
their placements carry init's reason for the report.
"""

from __future__ import annotations

import heapq
import operator
from collections.abc import Sequence

import torch
from torch.fx import GraphModule, Node
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase
from torch.fx.passes.utils.fuser_utils import fuse_as_graphmodule

from ember.backends.backend import Backend
from ember.passes.flops import op_flops
from ember.passes.graph import (
    ExportError,
    GraphPass,
    Placement,
    ProgramGraph,
    op_name,
    source_location,
    subgraphs,
)
from ember.passes.out_variants import is_kernel_call

PORTABLE = "portable"


class LoweredDelegate(torch.nn.Module):
    """One delegate call site: the backend's blob and the subgraph it came from."""

    def __init__(self, backend_id: str, processed: bytes, compile_specs: dict[str, bytes],
                 subgraph: ProgramGraph):
        super().__init__()
        self.backend_id = backend_id
        self.processed = processed
        self.compile_specs = compile_specs
        self.subgraph = subgraph
        self.num_inputs = len(subgraph.user_inputs())
        self.num_outputs = len(subgraph.graph.output_node().args[0])

    def forward(self, *inputs: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return self.subgraph.run(*inputs)


def is_delegate_call(node: Node) -> bool:
    return node.op == "call_module" and isinstance(
        getattr(node.graph.owning_module, node.target, None), LoweredDelegate)


def delegate_of(node: Node) -> LoweredDelegate:
    return getattr(node.graph.owning_module, node.target)


def delegate(backends: Sequence[Backend]) -> GraphPass:
    """The pass that partitions for and lowers to each of `backends`."""
    ids = [b.id for b in backends]
    if len(set(ids)) != len(ids):
        raise ExportError(f"backend listed twice: {ids}")

    def delegate_pass(program: ProgramGraph) -> ProgramGraph:
        placements = _initial_placements(program)
        for backend in backends:
            for nodes, processed in accepted_partitions(program, backend, placements):
                lower(program, backend, nodes, processed)
        program.placements = list(placements.values())
        program.drop_unused_constants()
        return program.recompile()

    delegate_pass.__name__ = "delegate"
    return delegate_pass


def _initial_placements(program: ProgramGraph) -> dict[Node, Placement]:
    placements = {node: Placement(node.name, op_name(node), PORTABLE, source_location(node),
                                  flops=op_flops(node))
                  for node in program.graph.nodes if is_kernel_call(node)}
    # Ops inside control flow run where the control flow runs: on the runtime.
    for module in subgraphs(program.module):
        for node in module.graph.nodes:
            if is_kernel_call(node):
                placements[node] = Placement(node.name, op_name(node), PORTABLE,
                                             source_location(node),
                                             {"*": "inside torch.cond/while_loop"},
                                             flops=op_flops(node))
    return placements


class _Claimed(OperatorSupportBase):
    def __init__(self, nodes: set[Node]):
        self.nodes = nodes

    def is_node_supported(self, submodules, node: Node) -> bool:
        return node in self.nodes


def accepted_partitions(program: ProgramGraph, backend: Backend,
                        placements: dict[Node, Placement]) -> list[tuple[list[Node], bytes]]:
    """partition()'s groups for `backend`, each with its blob, every blob
    accepted by the backend's runtime init: a refused group's culprits are
    withheld and the claims partitioned again, until init accepts them all
    (each round withholds at least one more node, so this ends)."""
    withheld: dict[Node, str] = {}
    made: dict[frozenset[Node], tuple[bytes | None, str | None]] = {}
    fused = backend.fused_groups(program)
    while True:
        groups = partition(program, backend, placements, withheld)
        refused = False
        for nodes in groups:
            key = frozenset(nodes)
            if key not in made:
                made[key] = _make_blob(program, backend, nodes)
            processed, reason = made[key]
            if reason is None:
                continue
            refused = True
            culprits = set(backend.refused_nodes(nodes, processed, reason)) & key
            # A node of a pattern lowered as one op goes back with its pattern.
            culprits |= {n for group in fused if group & culprits for n in group}
            if not culprits - withheld.keys():
                culprits = set(nodes)
            for node in culprits:
                withheld.setdefault(node, reason)
        if not refused:
            return [(nodes, made[frozenset(nodes)][0]) for nodes in groups]
        # Claimed again from scratch in the next round.
        for nodes in groups:
            for node in nodes:
                if node in placements:
                    placements[node].where = PORTABLE


def _make_blob(program: ProgramGraph, backend: Backend,
               nodes: list[Node]) -> tuple[bytes | None, str | None]:
    """The backend's blob for `nodes` and, when its runtime would refuse it,
    why (a lowering that fails is refused the same way)."""
    subgraph, _, _ = _subgraph(program, nodes, "candidate")
    try:
        processed = _preprocess(backend, subgraph)
    except ExportError as e:
        return None, f"its lowering failed: {e}"
    return processed, backend.validate(processed, backend.compile_specs)


def partition(program: ProgramGraph, backend: Backend, placements: dict[Node, Placement],
              withheld: dict[Node, str] | None = None) -> list[list[Node]]:
    """The groups of top-level nodes `backend` takes, each in graph order;
    `withheld` nodes (-> the reason init gave) are not claimed."""
    withheld = withheld or {}
    claimed: set[Node] = set()
    for node in program.graph.nodes:
        placement = placements.get(node)
        if placement is None or placement.where != PORTABLE:
            continue
        reason = backend.check_node(node, program)
        if reason is None and node in withheld:
            placement.init_refused[backend.id] = withheld[node]
            reason = f"claimed, but the backend's init refused it: {withheld[node]}"
        if reason is None:
            claimed.add(node)
        else:
            placement.why_not_delegated[backend.id] = reason
    # A multi-output op's getitems go with it.
    for node in list(claimed):
        claimed.update(u for u in node.users if u.target is operator.getitem)
    if not claimed:
        return []
    order = {node: i for i, node in enumerate(program.graph.nodes)}
    groups = []
    for found in _partitions(program, claimed, backend.fused_groups(program), placements,
                             backend.id):
        nodes = sorted(found, key=order.__getitem__)
        if not any(is_kernel_call(n) for n in nodes):
            continue
        for node in nodes:
            if node in placements:
                placements[node].where = backend.id
        groups.append(nodes)
    return groups


def _partitions(program: ProgramGraph, claimed: set[Node], fused: list[set[Node]],
                placements: dict[Node, Placement], backend_id: str) -> list[set[Node]]:
    """torch's partitioner's subgraphs of `claimed`, with each fused group in
    one of them: the partitioner knows nothing of groups and may split one
    (q, k and v linears sharing one quantization, cut by a mask op between
    them). A split group moves whole into the subgraph holding most of it;
    where that would make a cycle, its nodes go back to the portable kernels."""
    fused = [group for group in fused if group <= claimed]
    while True:
        partitioner = CapabilityBasedPartitioner(program.module, _Claimed(claimed),
                                                 allows_single_node_partition=True)
        found = [set(p.nodes) for p in partitioner.propose_partitions()]
        split = [g for g in fused if not any(g <= p for p in found)]
        if not split:
            return found
        for group in split:
            holders = [p for p in found if p & group]
            target = max(holders, key=lambda p: len(p & group))
            for p in holders:
                p -= group
            target |= group
        found = [p for p in found if p]
        if _acyclic(program.graph, found):
            return found
        for group in split:
            claimed -= group
            fused.remove(group)
            for node in group:
                if node in placements:
                    placements[node].why_not_delegated[backend_id] = (
                        "its fused pattern does not fit in one delegated subgraph")


def _acyclic(graph: torch.fx.Graph, partitions: list[set[Node]]) -> bool:
    """Whether the graph stays acyclic with each partition contracted to one node."""
    where = {node: i for i, p in enumerate(partitions) for node in p}

    def vertex(node: Node) -> object:
        return ("partition", where[node]) if node in where else node

    edges: dict[object, set[object]] = {}
    indegree: dict[object, int] = {vertex(node): 0 for node in graph.nodes}
    for node in graph.nodes:
        v = vertex(node)
        for source in node.all_input_nodes:
            u = vertex(source)
            if u != v and v not in edges.setdefault(u, set()):
                edges[u].add(v)
                indegree[v] += 1
    ready = [v for v, count in indegree.items() if count == 0]
    visited = 0
    while ready:
        u = ready.pop()
        visited += 1
        for v in edges.get(u, ()):
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    return visited == len(indegree)


def _subgraph(program: ProgramGraph, nodes: list[Node],
              name: str) -> tuple[ProgramGraph, list[Node], list[Node]]:
    """`nodes` as a graph of their own (the program is not changed), with the
    program nodes that become its inputs and outputs."""
    sub_module, inputs, outputs = fuse_as_graphmodule(program.module, nodes, name,
                                                      always_return_tuple=True)
    # Placeholders holding constants become the delegate's own data.
    owned = {p.target: program.constant(source)
             for p, source in zip(_placeholders(sub_module), inputs) if program.is_constant(source)}
    return ProgramGraph(sub_module, owned, program.range_constraints, None, None), inputs, outputs


def _preprocess(backend: Backend, subgraph: ProgramGraph) -> bytes:
    processed = backend.preprocess(subgraph, backend.compile_specs)
    if not isinstance(processed, (bytes, bytearray)):
        raise ExportError(f"{backend.id}.preprocess returned {type(processed).__name__}, not bytes")
    return bytes(processed)


def lower(program: ProgramGraph, backend: Backend, nodes: list[Node],
          processed: bytes | None = None) -> Node:
    """Replaces `nodes` by one call of a LoweredDelegate running `processed`
    (by default the backend's preprocess of them); returns the call node."""
    module = program.module
    index = sum(isinstance(m, LoweredDelegate) for m in module.children())
    name = f"delegate_{index}"
    subgraph, inputs, outputs = _subgraph(program, nodes, name)
    if processed is None:
        processed = _preprocess(backend, subgraph)
    lowered = LoweredDelegate(backend.id, processed, dict(backend.compile_specs), subgraph)
    module.add_module(name, lowered)

    call_inputs = tuple(n for n in inputs if not program.is_constant(n))
    with program.graph.inserting_after(nodes[-1]):
        call = program.graph.call_module(name, call_inputs)
    call.meta["val"] = tuple(n.meta.get("val") for n in outputs)
    call.meta["stack_trace"] = nodes[0].meta.get("stack_trace")
    # Which exported node's value each output is (for intermediate outputs).
    call.meta["output_debug_handles"] = [n.meta.get("debug_handle", 0) for n in outputs]
    call.meta["debug_handle"] = nodes[-1].meta.get("debug_handle", 0)
    with program.graph.inserting_after(call):
        for i, output in enumerate(reversed(outputs)):
            item = program.graph.call_function(operator.getitem, (call, len(outputs) - 1 - i))
            item.meta["val"] = output.meta.get("val")
            output.replace_all_uses_with(item)
    for node in reversed(nodes):
        program.graph.erase_node(node)
    # The call sits after the partition's last node, but a reader of one of
    # its outputs may come earlier (it only had to follow that output).
    _stable_topological_sort(program.graph)
    return call


def _stable_topological_sort(graph: torch.fx.Graph) -> None:
    """Reorders `graph` so every node follows its inputs, moving as little as
    possible: among the nodes ready to go, the one that came first goes first."""
    order = {node: i for i, node in enumerate(graph.nodes)}
    waiting = {node: len(set(node.all_input_nodes)) for node in graph.nodes}
    ready = [(order[n], n) for n, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    sorted_nodes = []
    while ready:
        _, node = heapq.heappop(ready)
        sorted_nodes.append(node)
        for user in node.users:
            waiting[user] -= 1
            if waiting[user] == 0:
                heapq.heappush(ready, (order[user], user))
    if len(sorted_nodes) != len(order):
        raise ExportError("delegate lowering left a cycle in the graph")
    cursor = next(iter(graph.nodes))
    for node in sorted_nodes:
        if node is not cursor:
            cursor.prepend(node)
        else:
            cursor = node.next


def _placeholders(module: GraphModule) -> list[Node]:
    return [n for n in module.graph.nodes if n.op == "placeholder"]
