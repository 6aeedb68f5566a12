"""Comparing two tensors: per-dtype tolerances, error statistics and the
summaries a report shows of each tensor."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from ember.quantize.report import sqnr


@dataclass(frozen=True)
class Tolerance:
    """|actual - expected| <= atol * max(1, max|expected|) + rtol * |expected|,
    elementwise: atol scales with the tensor's magnitude, so that one number
    serves activations of any size."""

    rtol: float
    atol: float


# Float programs: what a different summation order or a fused kernel may
# change. Integers and booleans must match exactly.
FLOAT_TOLERANCES: dict[torch.dtype, Tolerance] = {
    torch.float32: Tolerance(1e-3, 1e-4),
    torch.float64: Tolerance(1e-7, 1e-9),
    torch.float16: Tolerance(1e-2, 1e-2),
    torch.bfloat16: Tolerance(2e-2, 2e-2),
}
EXACT = Tolerance(0.0, 0.0)
# Quantized programs: Ember's integer kernels may round an element to the
# next quantization step where PyTorch's reference arithmetic does not.
QUANTIZED_FLOAT = Tolerance(5e-2, 2e-2)
QUANTIZED_INT = Tolerance(0.0, 1.0)


def tolerance_for(dtype: torch.dtype, quantized: bool,
                  overrides: dict[torch.dtype, Tolerance] | None = None) -> Tolerance:
    if overrides and dtype in overrides:
        return overrides[dtype]
    if dtype.is_floating_point:
        return QUANTIZED_FLOAT if quantized else FLOAT_TOLERANCES.get(dtype, Tolerance(1e-3, 1e-4))
    if quantized and dtype in (torch.int8, torch.uint8):
        return QUANTIZED_INT
    return EXACT


@dataclass
class Summary:
    shape: list[int]
    dtype: str
    min: float
    max: float
    mean: float
    std: float

    def __str__(self) -> str:
        return (f"{self.dtype}{self.shape} min {self.min:.4g} max {self.max:.4g} "
                f"mean {self.mean:.4g} std {self.std:.4g}")


def summarize(t: torch.Tensor) -> Summary:
    d = t.detach().double()
    if d.numel() == 0:
        return Summary(list(t.shape), str(t.dtype).removeprefix("torch."), 0.0, 0.0, 0.0, 0.0)
    return Summary(list(t.shape), str(t.dtype).removeprefix("torch."), float(d.min()),
                   float(d.max()), float(d.mean()), float(d.std()) if d.numel() > 1 else 0.0)


@dataclass
class Comparison:
    within_tolerance: bool
    max_abs_error: float
    mean_abs_error: float
    max_rel_error: float  # |diff| / (|expected| + tiny), at its worst
    sqnr_db: float
    mismatched: int  # elements beyond tolerance
    numel: int
    expected: Summary
    actual: Summary
    reason: str = ""  # set when the tensors cannot be compared (shape, dtype)

    def __str__(self) -> str:
        if self.reason:
            return self.reason
        return (f"max |diff| {self.max_abs_error:.3g}, mean |diff| {self.mean_abs_error:.3g}, "
                f"max rel {self.max_rel_error:.3g}, SQNR {self.sqnr_db:.1f} dB, "
                f"{self.mismatched}/{self.numel} elements beyond tolerance")


def compare(expected: torch.Tensor, actual: torch.Tensor | np.ndarray,
            tolerance: Tolerance) -> Comparison:
    got = torch.as_tensor(actual) if isinstance(actual, np.ndarray) else actual
    want_summary, got_summary = summarize(expected), summarize(got)
    if list(expected.shape) != list(got.shape):
        return Comparison(False, math.inf, math.inf, math.inf, -math.inf, expected.numel(),
                          expected.numel(), want_summary, got_summary,
                          f"shape {list(got.shape)} instead of {list(expected.shape)}")
    want, have = expected.detach().double(), got.detach().double()
    if want.numel() == 0:
        return Comparison(True, 0.0, 0.0, 0.0, math.inf, 0, 0, want_summary, got_summary)
    diff = (want - have).abs()
    # NaN where both are NaN agrees; NaN on one side only is infinitely wrong.
    both_nan = torch.isnan(want) & torch.isnan(have)
    diff = torch.where(both_nan, torch.zeros_like(diff), diff)
    diff = torch.where(torch.isnan(diff), torch.full_like(diff, math.inf), diff)
    scale = max(1.0, float(want.abs().nan_to_num(0.0, 0.0, 0.0).max()))
    allowed = tolerance.atol * scale + tolerance.rtol * want.abs().nan_to_num(0.0, 0.0, 0.0)
    beyond = diff > allowed
    rel = diff / (want.abs() + 1e-12)
    return Comparison(
        within_tolerance=not bool(beyond.any()),
        max_abs_error=float(diff.max()),
        mean_abs_error=float(diff.mean()),
        max_rel_error=float(rel.max()),
        sqnr_db=sqnr(want.nan_to_num(0.0), have.nan_to_num(0.0)),
        mismatched=int(beyond.sum()),
        numel=want.numel(),
        expected=want_summary,
        actual=got_summary,
    )
