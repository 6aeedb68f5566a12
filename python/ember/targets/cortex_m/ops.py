"""The Cortex-M int8 operators as torch ops (namespace ember_cortex_m), with
their out-variants under the names the runtime registers
(kernels/cortex_m/ops.cpp). Their eager implementations here are the
reference arithmetic in integers (quant.py): an exported graph runs in
PyTorch exactly as the kernels run on the board, which is what the tests
compare the host runtime and the QEMU runs against.

Activations are int8 NHWC; a convolution's weight is [out_c, kh, kw, in_c],
a depthwise one's [kh, kw, out_c]. The integer parameters of an op are one
int32 tensor (pack / unpack below); the int32 bias among them already holds
the input zero point's part (bias - zero_point * sum(w)), so a padded tap
reads the zero point.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F

from ember.targets.cortex_m import quant

_lib = torch.library.Library("ember_cortex_m", "DEF")

# Each op's integer parameters travel in one constant int32 tensor, `params`
# (laid out below, then any per-channel rows), not as separate arguments:
# on a microcontroller every argument costs the method's tables RAM.
CONV_PARAMS = ("stride_h", "stride_w", "pad_h", "pad_w", "dilation_h", "dilation_w",
               "input_zero_point", "output_zero_point", "activation_min", "activation_max")
DEPTHWISE_PARAMS = CONV_PARAMS + ("depth_multiplier",)
FC_PARAMS = ("output_zero_point", "activation_min", "activation_max")
ADD_PARAMS = ("a_zero_point", "a_multiplier", "a_shift", "b_zero_point", "b_multiplier",
              "b_shift", "left_shift", "output_zero_point", "output_multiplier", "output_shift",
              "activation_min", "activation_max")
AVG_POOL_PARAMS = ("kernel_h", "kernel_w", "stride_h", "stride_w", "pad_h", "pad_w",
                   "count_include_pad", "zero_point", "activation_min", "activation_max")
MAX_POOL_PARAMS = ("kernel_h", "kernel_w", "stride_h", "stride_w", "pad_h", "pad_w",
                   "activation_min", "activation_max")
SOFTMAX_PARAMS = ("inv_output_scale_q16", "output_zero_point")  # then the 256-entry exp table
REQUANTIZE_PARAMS = ("input_zero_point", "multiplier", "shift", "output_zero_point")

_SCHEMAS = {
    # params: CONV_PARAMS, then bias[out_c], multiplier[out_c], shift[out_c]
    "conv2d_s8": ("Tensor input, Tensor weight, Tensor params, int scratch_bytes",
                  ["out", "scratch"]),
    "depthwise_conv2d_s8": ("Tensor input, Tensor weight, Tensor params", ["out"]),
    "fully_connected_s8": ("Tensor input, Tensor weight, Tensor params", ["out"]),
    "fully_connected_s8_f32": (
        "Tensor input, Tensor weight, Tensor bias, Tensor scale, Tensor? float_bias", ["out"]),
    "add_s8": ("Tensor a, Tensor b, Tensor params", ["out"]),
    "avg_pool2d_s8": ("Tensor input, Tensor params", ["out"]),
    "max_pool2d_s8": ("Tensor input, Tensor params", ["out"]),
    "softmax_s8": ("Tensor input, Tensor params", ["out"]),
    "requantize_s8": ("Tensor input, Tensor params", ["out"]),
    "quantize_s8": ("Tensor input, float scale, int zero_point, int quant_min, int quant_max",
                    ["out"]),
    "dequantize_s8": ("Tensor input, float scale, int zero_point", ["out"]),
}


def pack(names: tuple[str, ...], values: dict[str, int], *rows: torch.Tensor) -> torch.Tensor:
    """An op's params tensor: the named values in order, then the rows."""
    head = torch.tensor([int(values[n]) for n in names], dtype=torch.int32)
    return torch.cat([head, *(r.to(torch.int32).reshape(-1) for r in rows)])


def unpack(names: tuple[str, ...], params: torch.Tensor, rows: int = 0,
           row_length: int = 0) -> tuple[dict[str, int], list[torch.Tensor]]:
    head = {n: int(v) for n, v in zip(names, params[:len(names)].tolist())}
    tail = params[len(names):].to(torch.int64)
    return head, [tail[i * row_length:(i + 1) * row_length] for i in range(rows)]


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


def conv2d_s8(input, weight, params, scratch_bytes):
    p, (bias, multiplier, shift) = unpack(CONV_PARAMS, params, 3, weight.shape[0])
    acc = _window_sums(input, weight.permute(0, 3, 1, 2), (p["stride_h"], p["stride_w"]),
                       (p["pad_h"], p["pad_w"]), (p["dilation_h"], p["dilation_w"]),
                       p["input_zero_point"], 1) + bias
    out = quant.requantize_s8(acc, multiplier, shift, p["output_zero_point"],
                              p["activation_min"], p["activation_max"])
    return out, torch.zeros(scratch_bytes, dtype=torch.int8)


def depthwise_conv2d_s8(input, weight, params):
    p, (bias, multiplier, shift) = unpack(DEPTHWISE_PARAMS, params, 3, weight.shape[2])
    w = weight.permute(2, 0, 1).unsqueeze(1)  # [out_c, 1, kh, kw]
    acc = _window_sums(input, w, (p["stride_h"], p["stride_w"]), (p["pad_h"], p["pad_w"]),
                       (p["dilation_h"], p["dilation_w"]), p["input_zero_point"],
                       input.shape[3]) + bias
    return quant.requantize_s8(acc, multiplier, shift, p["output_zero_point"],
                               p["activation_min"], p["activation_max"])


def _fc_acc(input, weight, bias) -> torch.Tensor:
    acc = input.to(torch.float64) @ weight.to(torch.float64).t()
    return acc.to(torch.int64) + bias.to(torch.int64)


def fully_connected_s8(input, weight, params):
    p, (bias, multiplier, shift) = unpack(FC_PARAMS, params, 3, weight.shape[0])
    return quant.requantize_s8(_fc_acc(input, weight, bias), multiplier, shift,
                               p["output_zero_point"], p["activation_min"], p["activation_max"])


def fully_connected_s8_f32(input, weight, bias, scale, float_bias):
    out = _fc_acc(input, weight, bias).to(torch.float32) * scale
    return out + float_bias if float_bias is not None else out


def add_s8(a, b, params):
    p, _ = unpack(ADD_PARAMS, params)
    shift = p["left_shift"]
    sa = quant.requantize((a.to(torch.int64) - p["a_zero_point"]) << shift, p["a_multiplier"],
                          p["a_shift"])
    sb = quant.requantize((b.to(torch.int64) - p["b_zero_point"]) << shift, p["b_multiplier"],
                          p["b_shift"])
    return quant.requantize_s8(sa + sb, p["output_multiplier"], p["output_shift"],
                               p["output_zero_point"], p["activation_min"], p["activation_max"])


def avg_pool2d_s8(input, params):
    p, _ = unpack(AVG_POOL_PARAMS, params)
    kernel, stride = (p["kernel_h"], p["kernel_w"]), (p["stride_h"], p["stride_w"])
    padding = (p["pad_h"], p["pad_w"])
    ones = torch.ones(input.shape[3], 1, *kernel, dtype=torch.int8)
    pad_value = p["zero_point"] if p["count_include_pad"] else 0
    sums = _window_sums(input, ones, stride, padding, (1, 1), pad_value, input.shape[3])
    if p["count_include_pad"]:
        count = torch.tensor(kernel[0] * kernel[1], dtype=torch.int64)
    else:
        inside = torch.ones_like(input[..., :1])
        count = _window_sums(inside, ones[:1], stride, padding, (1, 1), 0, 1)
    # rounded half away from zero, as TFLite
    rounded = torch.sign(sums) * ((sums.abs() + count // 2) // count)
    return rounded.clamp(p["activation_min"], p["activation_max"]).to(torch.int8)


def max_pool2d_s8(input, params):
    p, _ = unpack(MAX_POOL_PARAMS, params)
    out = F.max_pool2d(_nchw(input).to(torch.float32), [p["kernel_h"], p["kernel_w"]],
                       [p["stride_h"], p["stride_w"]], [p["pad_h"], p["pad_w"]])
    return _nhwc(out).clamp(p["activation_min"], p["activation_max"]).to(torch.int8)


def softmax_s8(input, params):
    p, (exp_table,) = unpack(SOFTMAX_PARAMS, params, 1, 256)
    x = input.to(torch.int64)
    d = x.amax(dim=-1, keepdim=True) - x
    e = exp_table[d]
    denominator = e.sum(dim=-1, keepdim=True) << 16
    q = (e * p["inv_output_scale_q16"] + denominator // 2) // denominator
    return (q + p["output_zero_point"]).clamp(-128, 127).to(torch.int8)


def requantize_s8(input, params):
    p, _ = unpack(REQUANTIZE_PARAMS, params)
    return quant.requantize_s8(input.to(torch.int64) - p["input_zero_point"], p["multiplier"],
                               p["shift"], p["output_zero_point"], -128, 127)


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


_define()

cm = torch.ops.ember_cortex_m
