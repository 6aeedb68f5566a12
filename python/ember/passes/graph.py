"""ProgramGraph: the graph that every export pass after capture takes and returns.

It is a torch.fx GraphModule plus what torch.export's signature said about its
placeholders: which are user inputs and which hold constant data (parameters,
buffers, lifted constants and constants the exporter computed). Keeping that
in one small object, instead of torch's ExportedProgram, lets passes rewrite
the graph into forms torch's verifier would refuse (out-variants, delegate
calls) while it stays runnable in eager PyTorch: `run()` is the reference each
pass is tested against.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.fx import GraphModule, Node


class ExportError(ValueError):
    """The model cannot be exported to a .pte; the message says why."""


@dataclass
class Placement:
    """Where one node of the model runs, for the export report."""

    node: str
    op: str
    where: str  # a backend id, or "portable"
    source: str  # "file.py:line", or "" when the node has no user frame
    why_not_delegated: dict[str, str] = field(default_factory=dict)  # backend id -> reason
    flops: int = 0  # estimated floating-point operations (ember.passes.flops)
    # backend id -> why its runtime init refused a blob holding this node,
    # which the backend had claimed (ember.passes.delegation)
    init_refused: dict[str, str] = field(default_factory=dict)


@dataclass
class ProgramGraph:
    module: GraphModule
    # Placeholder target -> its data. Every other placeholder is a user input.
    constants: dict[str, torch.Tensor]
    range_constraints: dict[Any, Any]
    in_spec: Any
    out_spec: Any
    # Filled by the partitioner: one entry per op node of the model.
    placements: list[Placement] = field(default_factory=list)
    # Placeholder target -> initial data of a buffer the model mutates (a KV
    # cache). Neither a constant (no pass may fold it) nor a user input: the
    # runtime keeps it in planned memory across calls.
    buffers: dict[str, torch.Tensor] = field(default_factory=dict)
    # Placeholder target -> the buffer's fully qualified name in the model,
    # which methods of one program share the buffer by.
    buffer_names: dict[str, str] = field(default_factory=dict)
    # The buffers' current values when the graph runs eagerly (`run`).
    _state: dict[str, torch.Tensor] | None = field(default=None, repr=False)

    @property
    def graph(self) -> torch.fx.Graph:
        return self.module.graph

    def placeholders(self) -> list[Node]:
        return [n for n in self.graph.nodes if n.op == "placeholder"]

    def user_inputs(self) -> list[Node]:
        return [n for n in self.placeholders()
                if n.target not in self.constants and n.target not in self.buffers]

    def is_buffer(self, node: Any) -> bool:
        """Whether `node` is the placeholder of a mutable buffer."""
        return isinstance(node, Node) and node.op == "placeholder" and node.target in self.buffers

    def is_constant(self, node: Any) -> bool:
        return isinstance(node, Node) and node.op == "placeholder" and node.target in self.constants

    def constant(self, node: Node) -> torch.Tensor:
        return self.constants[node.target]

    def add_constant(self, data: torch.Tensor, name: str, like: Node | None = None) -> Node:
        """A new constant placeholder (placed after the last placeholder)."""
        target = _unique(name, {n.target for n in self.placeholders()} | set(self.constants))
        last = self.placeholders()[-1] if self.placeholders() else None
        with (self.graph.inserting_after(last) if last is not None
              else self.graph.inserting_before(next(iter(self.graph.nodes)))):
            node = self.graph.placeholder(target)
        if like is not None:
            node.meta.update({k: v for k, v in like.meta.items() if k in ("stack_trace",)})
        node.meta["val"] = data
        self.constants[target] = data
        return node

    def drop_unused_constants(self) -> None:
        for node in self.placeholders():
            if node.target in self.constants and not node.users:
                self.graph.erase_node(node)
                del self.constants[node.target]

    def run(self, *inputs: Any) -> tuple[Any, ...]:
        """Runs the graph in eager PyTorch on user inputs; returns the flat
        outputs. Mutable buffers keep their values from one run to the next,
        as the runtime keeps them (`reset_state` restores the initial data)."""
        if self._state is None:
            self.reset_state()
        state = self._state
        assert state is not None
        feed = iter(inputs)
        args = [self.constants[n.target] if n.target in self.constants
                else state[n.target] if n.target in state else next(feed)
                for n in self.placeholders()]
        with torch.no_grad():
            result = self.module(*args)
        return tuple(result) if isinstance(result, (tuple, list)) else (result,)

    def reset_state(self) -> None:
        """Mutable buffers back to their initial data, for `run`."""
        self._state = {name: data.clone() for name, data in self.buffers.items()}

    def copy(self) -> ProgramGraph:
        """An independent copy (graph and metadata; constant data is shared,
        buffers restart from their initial data)."""
        module = copy.deepcopy(self.module)
        return ProgramGraph(module, dict(self.constants), dict(self.range_constraints),
                            self.in_spec, self.out_spec, copy.deepcopy(self.placements),
                            dict(self.buffers), dict(self.buffer_names))

    def recompile(self) -> ProgramGraph:
        self.graph.lint()
        self.module.recompile()
        return self


def call_function_nodes(graph: torch.fx.Graph) -> list[Node]:
    return [n for n in graph.nodes if n.op == "call_function"]


def subgraphs(module: GraphModule) -> list[GraphModule]:
    """The control-flow branch and loop-body graphs a graph refers to, nested ones too."""
    found = []
    for node in module.graph.nodes:
        if node.op == "get_attr":
            attr = getattr(module, node.target)
            if isinstance(attr, GraphModule):
                found.append(attr)
                found.extend(subgraphs(attr))
    return found


def all_graphs(program: ProgramGraph) -> list[GraphModule]:
    """The top-level graph module and every control-flow subgraph in it."""
    return [program.module, *subgraphs(program.module)]


_TORCH_DIR = os.path.dirname(torch.__file__)


def user_frame(node: Node) -> tuple[str, int, str, str]:
    """(file, line, function, source text) of the innermost frame of `node`'s
    stack trace in the user's code, skipping torch's own modules."""
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)', trace)
    user_frames = [f for f in frames if not f[0].startswith(_TORCH_DIR)]
    if not user_frames:
        return "", 0, "", ""
    filename, lineno, name, source = user_frames[-1]
    return filename, int(lineno), name, source.strip()


def source_location(node: Node) -> str:
    filename, lineno, _, _ = user_frame(node)
    return f"{os.path.basename(filename)}:{lineno}" if filename else ""


def op_name(node: Node) -> str:
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return str(target).replace("aten.", "aten::", 1) if str(target).startswith("aten.") else str(target)
    return getattr(target, "__name__", str(target))


def _unique(name: str, taken: set[str]) -> str:
    name = re.sub(r"\W", "_", name)
    if name not in taken:
        return name
    i = 1
    while f"{name}_{i}" in taken:
        i += 1
    return f"{name}_{i}"


# A pass: ProgramGraph in, ProgramGraph out, with a name for the pipeline's log.
GraphPass = Callable[[ProgramGraph], ProgramGraph]
