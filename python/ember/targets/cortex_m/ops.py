"""The Cortex-M int8 operators as torch ops (namespace ember_cortex_m), with
their out-variants under the names the runtime registers
(kernels/cortex_m/ops.cpp). Their eager implementations here are the
reference arithmetic in integers (quant.py): an exported graph runs in
PyTorch exactly as the kernels run on the board, which is what the tests
compare the host runtime and the QEMU runs against.

Activations are int8 NHWC; a convolution's weight is [out_c, kh, kw, in_c],
a depthwise one's [kh, kw, out_c]; `bias` is int32 and already holds the
input zero point's part (bias - zero_point * sum(w)), so a padded tap
reads the zero point.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F

from ember.targets.cortex_m import quant

_lib = torch.library.Library("ember_cortex_m", "DEF")

_CONV = ("Tensor input, Tensor weight, Tensor bias, Tensor multiplier, Tensor shift, "
         "int[] stride, int[] padding, int[] dilation")
_REQUANT = "int output_zero_point, int activation_min, int activation_max"
_SCHEMAS = {
    "conv2d_s8": (f"{_CONV}, int input_zero_point, {_REQUANT}, int scratch_bytes",
                  ["out", "scratch"]),
    "depthwise_conv2d_s8": (f"{_CONV}, int depth_multiplier, int input_zero_point, {_REQUANT}",
                            ["out"]),
    "fully_connected_s8": ("Tensor input, Tensor weight, Tensor bias, Tensor multiplier, "
                           f"Tensor shift, {_REQUANT}", ["out"]),
    "fully_connected_s8_f32": ("Tensor input, Tensor weight, Tensor bias, Tensor scale, "
                               "Tensor? float_bias", ["out"]),
    "add_s8": ("Tensor a, Tensor b, int a_zero_point, int a_multiplier, int a_shift, "
               "int b_zero_point, int b_multiplier, int b_shift, int left_shift, "
               "int output_zero_point, int output_multiplier, int output_shift, "
               "int activation_min, int activation_max", ["out"]),
    "avg_pool2d_s8": ("Tensor input, int[] kernel_size, int[] stride, int[] padding, "
                      "bool count_include_pad, int zero_point, int activation_min, "
                      "int activation_max", ["out"]),
    "max_pool2d_s8": ("Tensor input, int[] kernel_size, int[] stride, int[] padding, "
                      "int activation_min, int activation_max", ["out"]),
    "softmax_s8": ("Tensor input, Tensor exp_table, int inv_output_scale_q16, "
                   "int output_zero_point", ["out"]),
    "requantize_s8": ("Tensor input, int input_zero_point, int multiplier, int shift, "
                      "int output_zero_point", ["out"]),
    "quantize_s8": ("Tensor input, float scale, int zero_point, int quant_min, int quant_max",
                    ["out"]),
    "dequantize_s8": ("Tensor input, float scale, int zero_point", ["out"]),
}


def _nchw(x: torch.Tensor) -> torch.Tensor:
    return x.permute(0, 3, 1, 2)


def _nhwc(x: torch.Tensor) -> torch.Tensor:
    return x.permute(0, 2, 3, 1).contiguous()


def _window_sums(x: torch.Tensor, weight: torch.Tensor, stride, padding, dilation, pad_value: int,
                 groups: int) -> torch.Tensor:
    """Exact int64 sums of products over each window (float64 holds them
    exactly: every term and sum is far below 2^53)."""
    x = F.pad(_nchw(x).to(torch.float64), (padding[1], padding[1], padding[0], padding[0]),
              value=float(pad_value))
    sums = F.conv2d(x, weight.to(torch.float64), stride=list(stride), dilation=list(dilation),
                    groups=groups)
    return _nhwc(sums).to(torch.int64)


def conv2d_s8(input, weight, bias, multiplier, shift, stride, padding, dilation,
              input_zero_point, output_zero_point, activation_min, activation_max, scratch_bytes):
    acc = _window_sums(input, weight.permute(0, 3, 1, 2), stride, padding, dilation,
                       input_zero_point, 1) + bias.to(torch.int64)
    out = quant.requantize_s8(acc, multiplier.to(torch.int64), shift.to(torch.int64),
                              output_zero_point, activation_min, activation_max)
    return out, torch.zeros(scratch_bytes, dtype=torch.int8)


def depthwise_conv2d_s8(input, weight, bias, multiplier, shift, stride, padding, dilation,
                        depth_multiplier, input_zero_point, output_zero_point, activation_min,
                        activation_max):
    w = weight.permute(2, 0, 1).unsqueeze(1)  # [out_c, 1, kh, kw]
    acc = _window_sums(input, w, stride, padding, dilation, input_zero_point,
                       input.shape[3]) + bias.to(torch.int64)
    return quant.requantize_s8(acc, multiplier.to(torch.int64), shift.to(torch.int64),
                               output_zero_point, activation_min, activation_max)


def _fc_acc(input, weight, bias) -> torch.Tensor:
    acc = input.to(torch.float64) @ weight.to(torch.float64).t()
    return acc.to(torch.int64) + bias.to(torch.int64)


def fully_connected_s8(input, weight, bias, multiplier, shift, output_zero_point, activation_min,
                       activation_max):
    return quant.requantize_s8(_fc_acc(input, weight, bias), multiplier.to(torch.int64),
                               shift.to(torch.int64), output_zero_point, activation_min,
                               activation_max)


def fully_connected_s8_f32(input, weight, bias, scale, float_bias):
    out = _fc_acc(input, weight, bias).to(torch.float32) * scale
    return out + float_bias if float_bias is not None else out


def add_s8(a, b, a_zero_point, a_multiplier, a_shift, b_zero_point, b_multiplier, b_shift,
           left_shift, output_zero_point, output_multiplier, output_shift, activation_min,
           activation_max):
    sa = quant.requantize((a.to(torch.int64) - a_zero_point) << left_shift, a_multiplier, a_shift)
    sb = quant.requantize((b.to(torch.int64) - b_zero_point) << left_shift, b_multiplier, b_shift)
    return quant.requantize_s8(sa + sb, output_multiplier, output_shift, output_zero_point,
                               activation_min, activation_max)


def avg_pool2d_s8(input, kernel_size, stride, padding, count_include_pad, zero_point,
                  activation_min, activation_max):
    ones = torch.ones(input.shape[3], 1, *kernel_size, dtype=torch.int8)
    pad_value = zero_point if count_include_pad else 0
    sums = _window_sums(input, ones, stride, padding, (1, 1), pad_value, input.shape[3])
    if count_include_pad:
        count = torch.tensor(kernel_size[0] * kernel_size[1], dtype=torch.int64)
    else:
        inside = torch.ones_like(input[..., :1])
        count = _window_sums(inside, ones[:1], stride, padding, (1, 1), 0, 1)
    # rounded half away from zero, as TFLite
    rounded = torch.sign(sums) * ((sums.abs() + count // 2) // count)
    return rounded.clamp(activation_min, activation_max).to(torch.int8)


def max_pool2d_s8(input, kernel_size, stride, padding, activation_min, activation_max):
    out = F.max_pool2d(_nchw(input).to(torch.float32), list(kernel_size), list(stride),
                       list(padding))
    return _nhwc(out).clamp(activation_min, activation_max).to(torch.int8)


def softmax_s8(input, exp_table, inv_output_scale_q16, output_zero_point):
    x = input.to(torch.int64)
    d = x.amax(dim=-1, keepdim=True) - x
    e = exp_table.to(torch.int64)[d]
    denominator = e.sum(dim=-1, keepdim=True) << 16
    q = (e * inv_output_scale_q16 + denominator // 2) // denominator
    return (q + output_zero_point).clamp(-128, 127).to(torch.int8)


def requantize_s8(input, input_zero_point, multiplier, shift, output_zero_point):
    return quant.requantize_s8(input.to(torch.int64) - input_zero_point, multiplier, shift,
                               output_zero_point, -128, 127)


def quantize_s8(input, scale, zero_point, quant_min, quant_max):
    inv = torch.tensor(1.0 / scale, dtype=torch.float32)
    v = torch.round(input * inv) + zero_point
    v = torch.where(torch.isnan(v), torch.tensor(float(zero_point)), v)
    return v.clamp(quant_min, quant_max).to(torch.int8)


def dequantize_s8(input, scale, zero_point):
    return (input.to(torch.float32) - zero_point) * torch.tensor(scale, dtype=torch.float32)


_IMPLS: dict[str, Callable[..., Any]] = {
    "conv2d_s8": conv2d_s8, "depthwise_conv2d_s8": depthwise_conv2d_s8,
    "fully_connected_s8": fully_connected_s8, "fully_connected_s8_f32": fully_connected_s8_f32,
    "add_s8": add_s8, "avg_pool2d_s8": avg_pool2d_s8, "max_pool2d_s8": max_pool2d_s8,
    "softmax_s8": softmax_s8, "requantize_s8": requantize_s8, "quantize_s8": quantize_s8,
    "dequantize_s8": dequantize_s8,
}


def _out_impl(impl: Callable[..., Any], outs: list[str]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        buffers = [kwargs.pop(name) for name in outs]
        results = impl(*args, **kwargs)
        results = results if isinstance(results, tuple) else (results,)
        for buffer, result in zip(buffers, results):
            buffer.resize_(result.shape).copy_(result)
        return buffers[0] if len(buffers) == 1 else tuple(buffers)
    return run


def _define() -> None:
    for name, (args, outs) in _SCHEMAS.items():
        returns = ", ".join("Tensor" for _ in outs)
        _lib.define(f"{name}({args}) -> ({returns})" if len(outs) > 1
                    else f"{name}({args}) -> Tensor")
        letters = "abcdefgh"
        out_args = ", ".join(f"Tensor({letters[i]}!) {o}" for i, o in enumerate(outs))
        out_returns = ", ".join(f"Tensor({letters[i]}!)" for i in range(len(outs)))
        _lib.define(f"{name}.out({args}, *, {out_args}) -> "
                    + (f"({out_returns})" if len(outs) > 1 else out_returns))
        impl = _IMPLS[name]
        _lib.impl(name, impl, "CompositeExplicitAutograd")
        _lib.impl(f"{name}.out", _out_impl(impl, outs), "CompositeExplicitAutograd")
        # Shapes and dtypes come from the reference on meta tensors' stand-ins.
        torch.library.register_fake(f"ember_cortex_m::{name}")(_fake(impl))


def _fake(impl: Callable[..., Any]) -> Callable[..., Any]:
    def fake(*args: Any, **kwargs: Any) -> Any:
        real = [torch.zeros(a.shape, dtype=a.dtype) if isinstance(a, torch.Tensor) else a
                for a in args]
        results = impl(*real, **kwargs)
        results = results if isinstance(results, tuple) else (results,)
        device = next(a for a in args if isinstance(a, torch.Tensor)).device
        made = tuple(torch.empty(r.shape, dtype=r.dtype, device=device) for r in results)
        return made if len(made) > 1 else made[0]
    return fake


_define()

cm = torch.ops.ember_cortex_m
