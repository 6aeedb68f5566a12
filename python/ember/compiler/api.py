"""ember.export(): a PyTorch model in, a runnable .pte program out."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from ember.compiler import emitter, graph_lowering
from ember.fb.Program import ProgramT
from ember.serialize import serialize_program


@dataclass
class ExportedProgram:
    """An exported model: the .pte bytes plus what the exporter learned."""

    buffer: bytes
    memory_plan: Any
    instructions: list[emitter.InstructionInfo]
    operators: list[str]

    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "wb") as f:
            f.write(self.buffer)

    def report(self) -> str:
        plan = self.memory_plan
        return (
            f"{len(self.instructions)} instructions, {len(self.operators)} distinct operators; "
            f"activation arena {plan.arena_size / 1024:.1f} KiB for "
            f"{plan.total_tensor_bytes / 1024:.1f} KiB of tensors "
            f"({plan.savings:.0%} saved by planning); .pte {len(self.buffer) / 1024:.1f} KiB"
        )


def export(
    model: torch.nn.Module,
    example_inputs: Sequence[Any] | torch.Tensor,
    dynamic_shapes: Mapping[str, Any] | Sequence[Any] | None = None,
) -> ExportedProgram:
    """Exports `model` for Ember's runtime.

    `example_inputs` are the positional inputs (a tuple, or one tensor).
    `dynamic_shapes` is passed to torch.export; every dynamic dim needs an
    upper bound (torch.export.Dim("batch", max=N)), which sizes the plan.
    """
    captured = graph_lowering.capture(model, example_inputs, dynamic_shapes)
    emitted = emitter.emit(captured)
    program = ProgramT()
    program.executionPlan = [emitted.plan]
    return ExportedProgram(
        buffer=serialize_program(program, emitted.constants),
        memory_plan=emitted.memory_plan,
        instructions=emitted.instructions,
        operators=[
            f"{op.name}.{op.overload}" if op.overload else op.name for op in emitted.plan.operators
        ],
    )
