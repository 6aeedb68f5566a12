"""ember.quantize: a model in, a quantized model out that ember.export takes.

    qmodel = ember.quantize(model, (x,), scheme="int8", calibration=[(x1,), (x2,)])
    print(qmodel.report())                      # per-layer SQNR, output agreement
    program = ember.export(qmodel, (x,))        # quantize/dequantize ops kept as data

It is PyTorch's PT2E flow (torchao.quantization.pt2e): capture with
torch.export, prepare with Ember's quantizer (ember.quantize.quantizer),
calibrate on the samples, convert. Schemes: "int8" (static), "int8-dynamic",
"8da4w" (group_size 32, 64 or 128), "int8-weight", "int4-weight".
torchao is imported on the first call only: `import ember` stays light.
"""

from __future__ import annotations

import contextlib
import copy
import logging
from collections.abc import Iterator, Sequence
from typing import Any

import torch

from ember.quantize import ops  # noqa: F401  (registers the out-variants)
from ember.quantize.report import QuantizationReport, build_report, sqnr

SCHEMES = ("int8", "int8-dynamic", "8da4w", "int8-weight", "int4-weight")
GROUP_SIZES = (32, 64, 128)

__all__ = ["GROUP_SIZES", "SCHEMES", "QuantizationReport", "QuantizedModel", "quantize", "sqnr"]


class QuantizedModel(torch.nn.Module):
    """A converted PT2E model: runs in eager PyTorch (simulated quantization,
    PyTorch's reference arithmetic) and exports with ember.export."""

    def __init__(self, graph_module: torch.fx.GraphModule, report: QuantizationReport) -> None:
        super().__init__()
        self.graph_module = graph_module
        self.quantization_report = report

    def forward(self, *args: Any) -> Any:
        return self.graph_module(*args)

    def train(self, mode: bool = True) -> QuantizedModel:
        """The converted graph is in inference form already; torchao refuses
        train()/eval() on it, which torch.export and ember.export call."""
        self.training = mode
        return self

    def report(self) -> str:
        return str(self.quantization_report)


@contextlib.contextmanager
def _quiet_torchao_import() -> Iterator[None]:
    """torchao logs a warning for each CUDA extension a CPU wheel cannot load."""
    loggers = [logging.getLogger(name) for name in ("torchao", "torch.utils._pytree", "root")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def _as_tuple(sample: Any) -> tuple[Any, ...]:
    return (sample,) if isinstance(sample, torch.Tensor) else tuple(sample)


def quantize(
    model: torch.nn.Module,
    example_inputs: Sequence[Any] | torch.Tensor,
    scheme: str = "int8",
    calibration: Sequence[Any] | None = None,
    group_size: int = 32,
    dynamic_shapes: Any = None,
) -> QuantizedModel:
    """Quantizes `model` with `scheme`, calibrated on `calibration` (a list of
    input tuples, or of single tensors; the example inputs when None). The
    report compares each quantized layer and the outputs with the float model
    on those samples."""
    with _quiet_torchao_import():
        from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
        from torchao.quantization.pt2e.utils import _fuse_conv_bn_

        from ember.quantize.embedding import fuse_quantized_embeddings
        from ember.quantize.quantizer import EmberQuantizer

    quantizer = EmberQuantizer(scheme, group_size)
    example = _as_tuple(example_inputs)
    samples = [_as_tuple(s) for s in calibration] if calibration else [example]
    model = model.eval()
    with torch.no_grad():
        captured = torch.export.export(model, example, dynamic_shapes=dynamic_shapes).module()
    reference = copy.deepcopy(captured)
    _fuse_conv_bn_(reference)  # the graph PT2E annotates, in float
    prepared = prepare_pt2e(captured, quantizer)
    with torch.no_grad():
        for sample in samples:
            prepared(*sample)
    converted = fuse_quantized_embeddings(convert_pt2e(prepared))
    report = build_report(scheme, reference, converted, quantizer.annotation.units,
                          quantizer.annotation.shared, samples)
    return QuantizedModel(converted, report)
