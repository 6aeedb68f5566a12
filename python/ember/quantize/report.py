"""The accuracy report of a quantized model: per quantized unit, the
signal-to-quantization-noise ratio of its output against the float model's on
the calibration inputs; for the model's outputs, SQNR, max abs difference,
top-1 agreement (classifier-shaped outputs) and cosine similarity (per row,
the worst one: embeddings); and the ops no scheme covered, left in float."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.fx import GraphModule, Interpreter, Node



def sqnr(reference: torch.Tensor, actual: torch.Tensor) -> float:
    """10 log10(|ref|^2 / |ref - actual|^2) in dB; inf when they are equal."""
    reference, actual = reference.double(), actual.double()
    noise = float((reference - actual).pow(2).sum())
    signal = float(reference.pow(2).sum())
    if noise == 0.0:
        return math.inf
    if signal == 0.0:
        return -math.inf
    return 10.0 * math.log10(signal / noise)


@dataclass
class QuantizedUnit:
    """One quantized unit of the graph: its ops and the node whose output the
    report compares with the float model."""

    kind: str  # "conv", "linear", "matmul", "add", "embedding"
    nodes: list[str]
    output: str


@dataclass
class LayerAccuracy:
    name: str
    kind: str
    sqnr_db: float


@dataclass
class OutputAccuracy:
    index: int
    sqnr_db: float
    max_abs_diff: float
    min_cosine: float
    top1_agreement: float | None  # None when the output is not [batch, classes]


@dataclass
class QuantizationReport:
    scheme: str
    layers: list[LayerAccuracy]
    outputs: list[OutputAccuracy]
    float_ops: dict[str, int] = field(default_factory=dict)  # op -> count left in float
    samples: int = 0

    def __str__(self) -> str:
        lines = [f"quantization: {self.scheme}, {len(self.layers)} quantized layers, "
                 f"compared with float on {self.samples} calibration sample(s)"]
        for out in self.outputs:
            parts = [f"SQNR {out.sqnr_db:.1f} dB", f"max |diff| {out.max_abs_diff:.3g}",
                     f"cosine >= {out.min_cosine:.4f}"]
            if out.top1_agreement is not None:
                parts.append(f"top-1 agreement {out.top1_agreement:.0%}")
            lines.append(f"  output {out.index}: " + ", ".join(parts))
        if self.layers:
            width = max(len(layer.name) for layer in self.layers)
            lines.append("  per layer (SQNR of its output against float):")
            lines += [f"    {layer.name.ljust(width)}  {layer.kind:<6}  {layer.sqnr_db:6.1f} dB"
                      for layer in self.layers]
        if self.float_ops:
            lines.append("  left in float (no quantized form in this scheme): " + ", ".join(
                f"{op} x{count}" for op, count in sorted(self.float_ops.items())))
        return "\n".join(lines)


class _Recorder(Interpreter):
    """Runs a graph and keeps the outputs of the named nodes."""

    def __init__(self, module: GraphModule, names: set[str]) -> None:
        super().__init__(module)
        self.names = names
        self.values: dict[str, torch.Tensor] = {}

    def run_node(self, n: Node) -> Any:
        result = super().run_node(n)
        if n.name in self.names and isinstance(result, torch.Tensor):
            self.values[n.name] = result.detach()
        return result


def _record(module: GraphModule, names: set[str], inputs: Sequence[Any]) -> tuple[dict, list]:
    recorder = _Recorder(module, names)
    with torch.no_grad():
        outputs = recorder.run(*inputs)
    flat = outputs if isinstance(outputs, (tuple, list)) else [outputs]
    return recorder.values, [o.detach() for o in flat if isinstance(o, torch.Tensor)]


def _cat(parts: list[torch.Tensor]) -> torch.Tensor:
    return torch.cat([p.reshape(-1) for p in parts])


def _output_accuracy(index: int, ref: list[torch.Tensor], got: list[torch.Tensor]) -> OutputAccuracy:
    rows_ref = [r.float().reshape(-1, r.shape[-1]) if r.dim() else r.reshape(1, 1) for r in ref]
    rows_got = [g.float().reshape(-1, g.shape[-1]) if g.dim() else g.reshape(1, 1) for g in got]
    cosines = torch.cat([torch.nn.functional.cosine_similarity(r, g, dim=-1)
                         for r, g in zip(rows_ref, rows_got)])
    top1 = None
    if all(r.dim() == 2 and r.shape[-1] > 1 for r in ref):
        agree = [(r.argmax(-1) == g.argmax(-1)).float() for r, g in zip(ref, got)]
        top1 = float(torch.cat(agree).mean())
    return OutputAccuracy(
        index=index, sqnr_db=sqnr(_cat(ref), _cat(got)),
        max_abs_diff=float((_cat(ref).double() - _cat(got).double()).abs().max()),
        min_cosine=float(cosines.min()), top1_agreement=top1)


# Ops that carry no arithmetic of their own: not worth listing as "in float".
_NOT_COMPUTE = ("getitem", "view", "reshape", "flatten", "permute", "transpose", "squeeze",
                "unsqueeze", "contiguous", "clone", "dropout", "size", "sym_", "expand",
                "slice", "select", "t.default", "_assert", "alias", "detach", "to.", "_to_copy",
                "type_as")


def float_ops(module: GraphModule, quantized: set[str]) -> dict[str, int]:
    """The compute ops of the converted graph that are not `quantized`."""
    counts: Counter[str] = Counter()
    for node in module.graph.nodes:
        if node.op != "call_function" or node.name in quantized:
            continue
        name = str(node.target)
        if any(part in name for part in ("quantized_decomposed", "ember_quant", "torchao")):
            continue
        if any(part in name for part in _NOT_COMPUTE) or not name.startswith("aten."):
            continue
        counts[name.removeprefix("aten.")] += 1
    return dict(counts)


def build_report(scheme: str, float_module: GraphModule, quantized: GraphModule,
                 units: list[QuantizedUnit], shared: list[str],
                 samples: Sequence[Sequence[Any]]) -> QuantizationReport:
    names = {unit.output for unit in units}
    ref_layers: dict[str, list[torch.Tensor]] = {n: [] for n in names}
    got_layers: dict[str, list[torch.Tensor]] = {n: [] for n in names}
    ref_outputs: list[list[torch.Tensor]] = []
    got_outputs: list[list[torch.Tensor]] = []
    for sample in samples:
        ref_values, ref_out = _record(float_module, names, sample)
        got_values, got_out = _record(quantized, names, sample)
        for name in names:
            if name in ref_values and name in got_values:
                ref_layers[name].append(ref_values[name])
                got_layers[name].append(got_values[name])
        ref_outputs.append(ref_out)
        got_outputs.append(got_out)
    layers = [LayerAccuracy(unit.output, unit.kind,
                            sqnr(_cat(ref_layers[unit.output]), _cat(got_layers[unit.output])))
              for unit in units if ref_layers[unit.output]]
    outputs = [_output_accuracy(i, [o[i] for o in ref_outputs], [o[i] for o in got_outputs])
               for i in range(len(ref_outputs[0]) if ref_outputs else 0)]
    in_int8 = {name for unit in units for name in unit.nodes} | set(shared)
    return QuantizationReport(scheme, layers, outputs, float_ops(quantized, in_int8), len(samples))
