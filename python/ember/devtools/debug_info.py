"""The exporter's debug info: which exported graph node, and which line of the
user's model, each instruction and each delegate op came from. Written next to
the program as `<model>.pte.debug` (ExportedProgram.save); the runtime's
devtools read it back (extension/devtools/debug_info.h has the format: a
version line, then tab-separated `i` lines per instruction and `h` lines per
debug handle)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from torch.fx import Node

from ember.passes.debug_handles import debug_handle
from ember.passes.delegation import delegate_of, is_delegate_call
from ember.passes.graph import ProgramGraph, all_graphs, op_name, user_frame

VERSION_LINE = "ember-debug-info 1"


@dataclass
class DebugNode:
    node: str
    op: str
    filename: str
    lineno: int
    source: str

    @property
    def location(self) -> str:
        """"model.py:12", or "" when the node has no user frame."""
        return f"{os.path.basename(self.filename)}:{self.lineno}" if self.filename else ""


@dataclass
class InstructionDebug:
    debug_handle: int
    outputs: list[tuple[int, int]] = field(default_factory=list)  # (argument, debug handle)


@dataclass
class DebugInfo:
    instructions: list[InstructionDebug]
    nodes: dict[int, DebugNode]

    def node(self, handle: int) -> DebugNode | None:
        return self.nodes.get(handle)

    def save(self, path: str | os.PathLike[str]) -> None:
        lines = [VERSION_LINE]
        for i, info in enumerate(self.instructions):
            outs = ",".join(f"{arg}={handle}" for arg, handle in info.outputs) or "-"
            lines.append(f"i\t{i}\t{info.debug_handle}\t{outs}")
        for handle, n in sorted(self.nodes.items()):
            cells = [n.node, n.op, n.filename, str(n.lineno), n.source]
            lines.append("\t".join(["h", str(handle), *(_clean(c) for c in cells)]))
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def _clean(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ")


def load_debug_info(path: str | os.PathLike[str]) -> DebugInfo:
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != VERSION_LINE:
        raise ValueError(f"{path}: not an Ember debug info file (version 1)")
    instructions: list[InstructionDebug] = []
    nodes: dict[int, DebugNode] = {}
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if cells[0] == "i" and len(cells) == 4:
            outputs = [] if cells[3] == "-" else [
                (int(a), int(h)) for a, h in (pair.split("=") for pair in cells[3].split(","))]
            instructions.append(InstructionDebug(int(cells[2]), outputs))
        elif cells[0] == "h" and len(cells) == 7:
            nodes[int(cells[1])] = DebugNode(cells[2], cells[3], cells[4], int(cells[5]), cells[6])
        elif line:
            raise ValueError(f"{path}:{number}: malformed line")
    return DebugInfo(instructions, nodes)


def graph_nodes(program: ProgramGraph) -> dict[int, DebugNode]:
    """Every node with a debug handle in the lowered program, delegated
    subgraphs included."""
    found: dict[int, DebugNode] = {}

    def visit(nodes: list[Node]) -> None:
        for node in nodes:
            if is_delegate_call(node):
                visit(list(delegate_of(node).subgraph.graph.nodes))
                continue
            handle = debug_handle(node)
            if handle and handle not in found:
                filename, lineno, _, source = user_frame(node)
                found[handle] = DebugNode(node.name, op_name(node), filename, lineno, source)

    for module in all_graphs(program):
        visit(list(module.graph.nodes))
    return found
