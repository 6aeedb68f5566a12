"""The numerical validator: exports a model, runs it in eager PyTorch and on
Ember's runtime on the same inputs, compares every intermediate both have
(matched by debug handle) with per-dtype tolerances, and names the first
operator that diverges, with its source line. For quantized programs it adds
ember.quantize's per-layer SQNR against the float model.

    report = ember.validate(model, (x,))
    print(report); assert report.ok
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.fx import Interpreter, Node

from ember.devtools.compare import Comparison, Tolerance, compare, tolerance_for
from ember.passes import capture as capture_passes
from ember.passes.debug_handles import assign_debug_handles, debug_handle
from ember.passes.graph import ProgramGraph, op_name, user_frame

# Per-layer SQNR (dB) of a quantized layer against float below which the
# validator flags it.
DEFAULT_SQNR_FLAG_DB = 20.0


@dataclass
class NodeComparison:
    debug_handle: int
    node: str
    op: str
    source: str  # "model.py:12"
    source_text: str
    comparison: Comparison

    def __str__(self) -> str:
        where = f" at {self.source}" if self.source else ""
        return f"{self.node} ({self.op}){where}: {self.comparison}"


@dataclass
class LayerSqnr:
    name: str
    kind: str
    sqnr_db: float
    flagged: bool


@dataclass
class ValidationReport:
    backends: list[str]
    nodes: list[NodeComparison]  # every intermediate both sides have, in graph order
    outputs: list[Comparison]  # Ember's outputs against eager PyTorch's
    first_divergence: NodeComparison | None
    quantization: Any = None  # ember.quantize's report, for a quantized model
    layers: list[LayerSqnr] = field(default_factory=list)
    outputs_vs_float: list[Comparison] = field(default_factory=list)  # quantized: against float
    uncompared: int = 0  # reference nodes Ember has no value for (fused, inside delegates)

    @property
    def ok(self) -> bool:
        """Whether every output of the program is within tolerance."""
        return all(c.within_tolerance for c in self.outputs)

    @property
    def flagged_layers(self) -> list[LayerSqnr]:
        return [layer for layer in self.layers if layer.flagged]

    def __str__(self) -> str:
        lines = [(f"validation ({', '.join(self.backends) or 'portable'}): "
                  f"{len(self.nodes)} intermediates compared, {self.uncompared} not available "
                  f"from the runtime; outputs {'within' if self.ok else 'OUT OF'} tolerance")]
        for i, out in enumerate(self.outputs):
            lines.append(f"  output {i}: {out}")
        if self.first_divergence is None:
            lines.append("  no intermediate diverges beyond tolerance")
        else:
            d = self.first_divergence
            lines.append(f"  first divergence: {d.node} ({d.op})"
                         + (f" at {d.source}: {d.source_text}" if d.source else ""))
            lines.append(f"    {d.comparison}")
            lines.append(f"    eager: {d.comparison.expected}")
            lines.append(f"    ember: {d.comparison.actual}")
        if self.layers:
            lines.append("  per quantized layer, SQNR against float (flagged: below "
                         f"{DEFAULT_SQNR_FLAG_DB:g} dB or the threshold given):")
            width = max(len(layer.name) for layer in self.layers)
            lines += [f"    {layer.name.ljust(width)}  {layer.kind:<6}  {layer.sqnr_db:6.1f} dB"
                      + ("  <- flagged" if layer.flagged else "") for layer in self.layers]
            for i, out in enumerate(self.outputs_vs_float):
                lines.append(f"  output {i} against the float model: SQNR {out.sqnr_db:.1f} dB")
        return "\n".join(lines)

    def to_html(self, path: str | os.PathLike[str] | None = None, profile: Any = None) -> str:
        """A self-contained HTML page (inline SVG charts): the error per node
        along the network and, given a Profile, the time per operator."""
        from ember.devtools.html_report import report_html

        html = report_html(self, profile)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(html)
        return html


class _Recorder(Interpreter):
    """Runs a graph, keeping every tensor a node with a debug handle computes."""

    def __init__(self, module: torch.fx.GraphModule) -> None:
        super().__init__(module)
        self.values: dict[int, torch.Tensor] = {}

    def run_node(self, n: Node) -> Any:
        result = super().run_node(n)
        handle = debug_handle(n)
        if handle and isinstance(result, torch.Tensor):
            self.values[handle] = result.detach().clone()
        return result


def reference_values(model: torch.nn.Module, inputs: tuple[Any, ...],
                     dynamic_shapes: Any = None) -> tuple[ProgramGraph, dict[int, torch.Tensor]]:
    """The exported graph as ember.export captures it (same debug handles),
    run in eager PyTorch: its nodes' values by debug handle."""
    exported = capture_passes.capture(model, inputs, dynamic_shapes)
    exported = capture_passes.decompose(exported)
    program = assign_debug_handles(capture_passes.lift(exported))
    program.reset_state()
    state = program._state or {}
    feed = iter(inputs)
    args = [program.constants[n.target] if n.target in program.constants
            else state[n.target] if n.target in state else next(feed)
            for n in program.placeholders()]
    recorder = _Recorder(program.module)
    with torch.no_grad():
        recorder.run(*args)
    return program, recorder.values


def _as_tuple(inputs: Sequence[Any] | torch.Tensor) -> tuple[Any, ...]:
    return (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)


def _flat_tensors(result: Any) -> list[torch.Tensor]:
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (tuple, list)):
        return [t for r in result for t in _flat_tensors(r)]
    return []


def validate(model: torch.nn.Module, inputs: Sequence[Any] | torch.Tensor,
             backends: Sequence[Any] | None = None, quantize: str | None = None,
             calibration: Sequence[Any] | None = None, dynamic_shapes: Any = None,
             tolerances: dict[torch.dtype, Tolerance] | None = None,
             sqnr_flag_db: float = DEFAULT_SQNR_FLAG_DB, threads: int = 1) -> ValidationReport:
    """Exports `model` (quantized with scheme `quantize` first, calibrated on
    `calibration` or the inputs), runs it on Ember and in eager PyTorch on
    `inputs`, and compares every intermediate both have. `backends` as for
    ember.export (default: the CPU backend; () for portable only).
    `tolerances` overrides the per-dtype defaults (ember.devtools.compare)."""
    import ember

    inputs = _as_tuple(inputs)
    float_model = model.eval()
    quantization = None
    if quantize is not None:
        model = ember.quantize(float_model, inputs, scheme=quantize, calibration=calibration,
                               dynamic_shapes=dynamic_shapes)
        quantization = model.quantization_report
    reference, values = reference_values(model, inputs, dynamic_shapes)
    program = ember.export(model, inputs, dynamic_shapes, backends=backends)
    with tempfile.TemporaryDirectory(prefix="ember-validate-") as tmp:
        path = os.path.join(tmp, "model.pte")
        program.save(path)
        module = ember.runtime.load(path, threads=threads)
        captured = module.intermediates(*inputs)
        ember_outputs = _flat_tensors(module.forward(*inputs))
    quantized = quantization is not None
    nodes: list[NodeComparison] = []
    uncompared = 0
    for node in reference.graph.nodes:
        handle = debug_handle(node)
        if not handle or handle not in values:
            continue
        if handle not in captured.values:
            uncompared += 1
            continue
        expected = values[handle]
        actual = torch.from_numpy(captured.values[handle].value)
        comparison = compare(expected, actual, tolerance_for(expected.dtype, quantized, tolerances))
        filename, lineno, _, text = user_frame(node)
        source = f"{os.path.basename(filename)}:{lineno}" if filename else ""
        nodes.append(NodeComparison(handle, node.name, op_name(node), source, text, comparison))
    with torch.no_grad():
        eager_outputs = _flat_tensors(model(*inputs))
        float_outputs = _flat_tensors(float_model(*inputs)) if quantized else []
    outputs = [compare(e, a, tolerance_for(e.dtype, quantized, tolerances))
               for e, a in zip(eager_outputs, ember_outputs)]
    if len(eager_outputs) != len(ember_outputs):
        raise ValueError(f"the model returns {len(eager_outputs)} tensors, Ember's program "
                         f"{len(ember_outputs)}")
    first = next((n for n in nodes if not n.comparison.within_tolerance), None)
    layers = []
    if quantization is not None:
        layers = [LayerSqnr(layer.name, layer.kind, layer.sqnr_db,
                            not math.isinf(layer.sqnr_db) and layer.sqnr_db < sqnr_flag_db)
                  for layer in quantization.layers]
    return ValidationReport(
        backends=list(program.backends), nodes=nodes, outputs=outputs, first_divergence=first,
        quantization=quantization, layers=layers,
        outputs_vs_float=[compare(f, a, tolerance_for(f.dtype, True, tolerances))
                          for f, a in zip(float_outputs, ember_outputs)],
        uncompared=uncompared)
