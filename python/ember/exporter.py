"""ember.export(): a PyTorch model in, a runnable .pte program out."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from ember.backends.backend import Backend
from ember.fb.Program import ProgramT
from ember.passes.emit import InstructionInfo
from ember.passes.graph import ExportError, GraphPass, Placement
from ember.passes.memory_planning import MemoryPlan
from ember.passes.pipeline import default_passes, lower, run_pass
from ember.serialize import serialize_program


@dataclass
class ExportedProgram:
    """An exported model: the .pte bytes plus what the exporter learned."""

    buffer: bytes
    memory_plan: MemoryPlan
    instructions: list[InstructionInfo]
    operators: list[str]
    placements: list[Placement]
    backends: list[str]
    delegate_bytes: int
    # ember.quantize's accuracy report, when the model was a QuantizedModel.
    quantization: Any = None

    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "wb") as f:
            f.write(self.buffer)

    def delegated_fraction(self) -> float:
        """The fraction of the model's ops that a backend runs."""
        if not self.placements:
            return 0.0
        return sum(p.where != "portable" for p in self.placements) / len(self.placements)

    def delegated_flops_fraction(self) -> float:
        """The fraction of the model's estimated FLOPs that a backend runs."""
        total = sum(p.flops for p in self.placements)
        if total == 0:
            return 0.0
        return sum(p.flops for p in self.placements if p.where != "portable") / total

    def report(self, nodes: bool | None = None) -> str:
        """A summary; with `nodes` (the default when backends were asked for)
        also one line per op: where it runs, its source line, and why each
        backend declined it."""
        plan = self.memory_plan
        summary = (
            f"{len(self.instructions)} instructions, {len(self.operators)} distinct operators; "
            f"activation arena {plan.arena_size / 1024:.1f} KiB for "
            f"{plan.total_tensor_bytes / 1024:.1f} KiB of tensors "
            f"({plan.savings:.0%} saved by planning); .pte {len(self.buffer) / 1024:.1f} KiB"
        )
        lines = [summary]
        if self.backends:
            where = Counter(p.where for p in self.placements)
            parts = [f"{count} on {name}" for name, count in sorted(where.items())]
            lines.append(f"ops: {len(self.placements)} ({', '.join(parts)}); "
                         f"{self.delegated_fraction():.0%} of ops and "
                         f"{self.delegated_flops_fraction():.0%} of FLOPs delegated; "
                         f"delegate blobs {self.delegate_bytes / 1024:.1f} KiB")
        if self.quantization is not None:
            lines.append(str(self.quantization))
        if nodes if nodes is not None else bool(self.backends):
            lines.append(_placement_table(self.placements))
        return "\n".join(lines)


def _placement_table(placements: list[Placement]) -> str:
    rows = [("node", "op", "runs on", "source", "not delegated because")]
    for p in placements:
        why = "; ".join(f"{backend}: {reason}" for backend, reason in p.why_not_delegated.items())
        rows.append((p.node, p.op, p.where, p.source, why if p.where == "portable" else ""))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "\n".join(
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4]
        for row in rows).rstrip()


def export(
    model: torch.nn.Module,
    example_inputs: Sequence[Any] | torch.Tensor,
    dynamic_shapes: Mapping[str, Any] | Sequence[Any] | None = None,
    backends: Sequence[Backend] | None = None,
    passes: Sequence[GraphPass] | None = None,
) -> ExportedProgram:
    """Exports `model` for Ember's runtime.

    `example_inputs` are the positional inputs (a tuple, or one tensor).
    `dynamic_shapes` is passed to torch.export; every dynamic dim needs an
    upper bound (torch.export.Dim("batch", max=N)), which sizes the plan.
    `backends` take the subgraphs they support, in the order given; the rest
    runs on the portable kernels. By default that is Ember's CPU backend
    (ember.backends.cpu); `backends=()` gives a portable-only program, the
    kind ExecuTorch runs too. `passes` replaces the default list of
    graph passes (ember.passes.pipeline.default_passes(backends)).
    """
    if backends is None:
        from ember.backends.cpu import CpuBackend

        backends = [CpuBackend()]
    backends = list(backends)
    for backend in backends:
        if not isinstance(backend, Backend):
            raise ExportError(f"backends must be ember.backends.Backend instances, got {backend!r}")
    graph_passes = default_passes(backends) if passes is None else list(passes)
    program, emitted = lower(model, example_inputs, dynamic_shapes, graph_passes)
    container = ProgramT()
    container.executionPlan = [emitted.plan]
    buffer = run_pass("serialize", serialize_program, container, emitted.constants,
                      emitted.delegate_blobs)
    return ExportedProgram(
        buffer=buffer,
        memory_plan=emitted.memory_plan,
        instructions=emitted.instructions,
        operators=[
            f"{op.name}.{op.overload}" if op.overload else op.name for op in emitted.plan.operators
        ],
        placements=program.placements,
        backends=[b.id for b in backends],
        delegate_bytes=sum(len(b) for b in emitted.delegate_blobs),
        quantization=getattr(model, "quantization_report", None),
    )
