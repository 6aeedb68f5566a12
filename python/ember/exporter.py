"""ember.export(): a PyTorch model in, a runnable .pte program out."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from ember.backends.backend import Backend
from ember.devtools.debug_info import graph_nodes
from ember.diagnose import lower_or_explain
from ember.fb.Bool import BoolT
from ember.fb.Chain import ChainT
from ember.fb.ContainerMetadata import ContainerMetadataT
from ember.fb.Double import DoubleT
from ember.fb.EValue import EValueT
from ember.fb.ExecutionPlan import ExecutionPlanT
from ember.fb.Int import IntT
from ember.fb.KernelTypes import KernelTypes
from ember.fb.Program import ProgramT
from ember.passes.emit import EmittedProgram, InstructionInfo
from ember.passes.graph import ExportError, GraphPass, Placement, ProgramGraph
from ember.passes.memory_planning import BufferLayout, MemoryPlan, place_buffers
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
    methods: list[str] = field(default_factory=lambda: ["forward"])
    # ember.quantize's accuracy report, when the model was a QuantizedModel.
    quantization: Any = None
    # Debug handle -> exported node and source line (ember.devtools.debug_info).
    debug_nodes: dict[int, Any] = field(default_factory=dict)
    # What the export changed by itself to capture the model (ember.diagnose.fixes).
    fixes: list[str] = field(default_factory=list)

    def save(self, path: str | os.PathLike[str], debug_info: bool = True) -> None:
        """Writes the program to `path` and, unless debug_info is False, its
        debug info to `path + ".debug"` (for the profiler and the validator)."""
        with open(path, "wb") as f:
            f.write(self.buffer)
        if debug_info:
            self.debug_info().save(os.fspath(path) + ".debug")

    def debug_info(self) -> Any:
        """Which node and source line each instruction and delegate op of
        forward (or the first method) came from."""
        from ember.devtools.debug_info import DebugInfo, InstructionDebug

        return DebugInfo([InstructionDebug(i.debug_handle, list(i.outputs))
                          for i in self.instructions], dict(self.debug_nodes))

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
        if plan.buffer_bytes:
            summary += f"; mutable buffers {plan.buffer_bytes / 1024:.1f} KiB"
        if len(self.methods) > 1:
            summary += f"; methods {', '.join(self.methods)} (report of the first)"
        lines = [summary]
        if self.backends:
            where = Counter(p.where for p in self.placements)
            parts = [f"{count} on {name}" for name, count in sorted(where.items())]
            lines.append(f"ops: {len(self.placements)} ({', '.join(parts)}); "
                         f"{self.delegated_fraction():.0%} of ops and "
                         f"{self.delegated_flops_fraction():.0%} of FLOPs delegated; "
                         f"delegate blobs {self.delegate_bytes / 1024:.1f} KiB")
            lines.extend(_refused_claims(self.placements))
        if self.quantization is not None:
            lines.append(str(self.quantization))
        lines += [f"fixed by Ember: {fix}" for fix in self.fixes]
        if nodes if nodes is not None else bool(self.backends):
            lines.append(_placement_table(self.placements))
        return "\n".join(lines)


def refused_claims(placements: list[Placement]) -> list[tuple[str, str, str]]:
    """(backend id, node, init's reason) for each op a backend claimed but
    whose blob its runtime init refused: it runs on the portable kernels."""
    return [(backend, p.node, reason) for p in placements
            for backend, reason in p.init_refused.items() if p.where != backend]


def _refused_claims(placements: list[Placement]) -> list[str]:
    refused = refused_claims(placements)
    if not refused:
        return []
    header = (f"{len(refused)} claimed op(s) refused by the backend's init at export, "
              "so on the portable kernels:")
    lines = [header]
    lines += [f"  {node} ({backend}): {reason}" for backend, node, reason in refused]
    return lines


def _placement_table(placements: list[Placement]) -> str:
    # A node that runs on a later backend shows why the earlier ones declined
    # it (the GPU's reasons, in a program for the GPU and the CPU backend).
    rows = [("node", "op", "runs on", "source", "not delegated because")]
    for p in placements:
        why = "; ".join(f"{backend}: {reason}" for backend, reason in p.why_not_delegated.items()
                        if backend != p.where)
        rows.append((p.node, p.op, p.where, p.source, why))
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

    Buffers the model mutates in place (a KV cache) are state of the
    program: planned memory that starts from the buffers' values at export
    and keeps what each call wrote for the next.
    """
    return export_methods({"forward": Method(model, example_inputs, dynamic_shapes)},
                          backends=backends, passes=passes)


@dataclass
class Method:
    """One method of a program: a model and its example inputs (for export_methods)."""

    model: torch.nn.Module
    example_inputs: Sequence[Any] | torch.Tensor
    dynamic_shapes: Mapping[str, Any] | Sequence[Any] | None = None


def export_methods(
    methods: Mapping[str, Method],
    backends: Sequence[Backend] | None = None,
    passes: Sequence[GraphPass] | None = None,
    constant_methods: Mapping[str, int | float | bool] | None = None,
) -> ExportedProgram:
    """Exports several methods into one program (for an LLM: `prefill` with a
    dynamic sequence length and `decode`, or one model exported at two
    shapes). Mutable buffers with the same fully qualified name are one
    buffer that every method reads and writes; constants stored twice with
    the same bytes are stored once. `constant_methods` become methods with
    no inputs that return one number each (ExecuTorch's constant methods:
    an LLM's context length, its end-of-sequence id). The report describes
    forward, or the first method."""
    if not methods:
        raise ExportError("export_methods needs at least one method")
    if backends is None:
        from ember.backends.cpu import CpuBackend

        backends = [CpuBackend()]
    backends = list(backends)
    for backend in backends:
        if not isinstance(backend, Backend):
            raise ExportError(f"backends must be ember.backends.Backend instances, got {backend!r}")
    graph_passes = default_passes(backends) if passes is None else list(passes)
    lowered: list[tuple[str, ProgramGraph, EmittedProgram]] = []
    fixes: list[str] = []
    # ExecuTorch emits plans in sorted name order; so does Ember.
    for name in sorted(methods):
        spec = methods[name]
        # A failure is diagnosed (kind, user's line, rewrite); a safe fix is applied.
        result = lower_or_explain(lower, spec.model, spec.example_inputs, spec.dynamic_shapes,
                                  graph_passes)
        program, emitted = result.program, result.emitted
        fixes += [fix if len(methods) == 1 else f"{name}: {fix}" for fix in result.fixes]
        emitted.plan.name = name
        lowered.append((name, program, emitted))
    layout = BufferLayout.of([emitted for _, _, emitted in lowered])
    for _, _, emitted in lowered:
        place_buffers(emitted, layout)
    constants, delegate_blobs = _merge_data([emitted for _, _, emitted in lowered])
    container = ProgramT()
    container.executionPlan = [emitted.plan for _, _, emitted in lowered]
    for name, value in sorted((constant_methods or {}).items()):
        container.executionPlan.append(constant_plan(name, value))
    buffer = run_pass("serialize", serialize_program, container, constants, delegate_blobs,
                      layout.initial_data)
    _, program, emitted = next((e for e in lowered if e[0] == "forward"), lowered[0])
    return ExportedProgram(
        buffer=buffer,
        memory_plan=emitted.memory_plan,
        instructions=emitted.instructions,
        operators=[
            f"{op.name}.{op.overload}" if op.overload else op.name for op in emitted.plan.operators
        ],
        placements=program.placements,
        backends=[b.id for b in backends],
        delegate_bytes=sum(len(b) for b in delegate_blobs),
        methods=[name for name, _, _ in lowered],
        quantization=getattr(methods.get("forward", methods[lowered[0][0]]).model,
                             "quantization_report", None),
        debug_nodes=graph_nodes(program),
        fixes=fixes,
    )


def constant_plan(name: str, value: float | bool) -> ExecutionPlanT:
    """A method without inputs or instructions that returns `value`."""
    payload: IntT | DoubleT | BoolT
    if isinstance(value, bool):
        payload, kind = BoolT(), KernelTypes.Bool
        payload.boolVal = value
    elif isinstance(value, int):
        payload, kind = IntT(), KernelTypes.Int
        payload.intVal = value
    else:
        payload, kind = DoubleT(), KernelTypes.Double
        payload.doubleVal = float(value)
    evalue = EValueT()
    evalue.valType, evalue.val = kind, payload
    chain = ChainT()
    chain.inputs, chain.outputs, chain.instructions = [], [0], []
    plan = ExecutionPlanT()
    plan.name = name
    meta = ContainerMetadataT()
    meta.encodedInpStr, meta.encodedOutStr = "", ""
    plan.containerMetaType = meta
    plan.values, plan.inputs, plan.outputs = [evalue], [], [0]
    plan.chains, plan.operators, plan.delegates = [chain], [], []
    plan.nonConstBufferSizes = [0]
    return plan


def _merge_data(methods: list[EmittedProgram]) -> tuple[list[bytes], list[bytes]]:
    """One constant table and one delegate blob list for all methods: each
    method's indices are renumbered, identical constants stored once."""
    if len(methods) == 1:
        return methods[0].constants, methods[0].delegate_blobs
    constants: list[bytes] = [b""]
    index_of: dict[bytes, int] = {}
    blobs: list[bytes] = []
    for emitted in methods:
        remap = [0]
        for data in emitted.constants[1:]:
            if data not in index_of:
                index_of[data] = len(constants)
                constants.append(data)
            remap.append(index_of[data])
        for tensor in emitted.tensors.values():
            if tensor.allocationInfo is None and tensor.dataBufferIdx > 0:
                tensor.dataBufferIdx = remap[tensor.dataBufferIdx]
        for delegate in emitted.plan.delegates or []:
            delegate.processed.index += len(blobs)
        blobs.extend(emitted.delegate_blobs)
    return constants, blobs
