"""The integer parameters of the Cortex-M int8 kernels, and their arithmetic
as a reference (kernels/cortex_m/quant_math.h, which every kernel variant
computes bit for bit).

A real multiplier becomes a Q31 `multiplier` in [2^30, 2^31) and a `shift`
(real = multiplier * 2^(shift - 31)); requantization is then
    x = acc << max(shift, 0);  y = (x * multiplier + 2^30) >> 31;
    z = (y + 2^(r - 1)) >> r with r = max(-shift, 0)
(both roundings half up: Helium's VQRDMULH and VRSHL).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from ember.passes.graph import ExportError

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
ADD_LEFT_SHIFT = 20  # TFLite's headroom for int8 add


def quantize_multiplier(real: float) -> tuple[int, int]:
    """(multiplier, shift) for a real multiplier >= 0; (0, 0) for one too
    small to matter (below 2^-32: every int32 accumulator rounds to 0)."""
    if not math.isfinite(real) or real < 0:
        raise ExportError(f"cannot requantize by {real}")
    if real == 0:
        return 0, 0
    mantissa, exponent = math.frexp(real)  # real = mantissa * 2^exponent, mantissa in [0.5, 1)
    q = math.floor(mantissa * 2**31 + 0.5)
    if q == 2**31:
        q //= 2
        exponent += 1
    if exponent < -31:
        return 0, 0
    if exponent > 30:
        raise ExportError(f"a requantization multiplier of {real} is too large for int8 kernels")
    return q, exponent


def requantize(acc: torch.Tensor, multiplier: torch.Tensor | int,
               shift: torch.Tensor | int) -> torch.Tensor:
    """quant_math.h's requantize on int64 tensors (broadcasting)."""
    multiplier = torch.as_tensor(multiplier, dtype=torch.int64)
    shift = torch.as_tensor(shift, dtype=torch.int64)
    left = shift.clamp(min=0)
    right = (-shift).clamp(min=0)
    shifted = _wrap_int32(acc.to(torch.int64) * (1 << left))
    high = (shifted * multiplier + (1 << 30)) >> 31
    return (high + ((1 << right) >> 1)) >> right


def requantize_s8(acc: torch.Tensor, multiplier, shift, zero_point: int, low: int,
                  high: int) -> torch.Tensor:
    return (requantize(acc, multiplier, shift) + zero_point).clamp(low, high).to(torch.int8)


def _wrap_int32(x: torch.Tensor) -> torch.Tensor:
    return ((x + 2**31) % 2**32) - 2**31


def quantize_float(value: float, scale: float, zero_point: int, qmin: int, qmax: int) -> int:
    """quantize_per_tensor of one float, in float32 as the kernels compute it."""
    if value == math.inf:
        return qmax
    if value == -math.inf:
        return qmin
    inv = np.float32(1.0 / scale)
    code = int(np.rint(np.float32(value) * inv)) + zero_point
    return min(max(code, qmin), qmax)


def add_params(a_scale: float, b_scale: float, out_scale: float) -> dict[str, int]:
    """TFLite's int8 add: both inputs to a common scale with 20 bits of
    headroom, the sum back to the output's."""
    twice_max = 2 * max(a_scale, b_scale)
    a_mult, a_shift = quantize_multiplier(a_scale / twice_max)
    b_mult, b_shift = quantize_multiplier(b_scale / twice_max)
    out_mult, out_shift = quantize_multiplier(twice_max / ((1 << ADD_LEFT_SHIFT) * out_scale))
    return {"a_multiplier": a_mult, "a_shift": a_shift, "b_multiplier": b_mult,
            "b_shift": b_shift, "left_shift": ADD_LEFT_SHIFT,
            "output_multiplier": out_mult, "output_shift": out_shift}


def softmax_table(input_scale: float) -> torch.Tensor:
    """exp(-d * input_scale) in Q16 for d = 0..255: what softmax_s8 sums."""
    d = torch.arange(256, dtype=torch.float64)
    return torch.round(torch.exp(-d * input_scale) * 65536).to(torch.int32)


def softmax_inv_scale(output_scale: float) -> int:
    value = round(65536 / output_scale)
    if not 0 <= value <= INT32_MAX:
        raise ExportError(f"softmax output scale {output_scale} is out of range")
    return value


def fits_int32(values: torch.Tensor, bound: int = INT32_MAX) -> bool:
    return bool(values.numel() == 0 or int(values.abs().max()) <= bound)
