"""The quantized operators a quantized Ember program calls, as torch ops.

The functional ops are PyTorch's own (`quantized_decomposed::*`, defined in
torch.ao.quantization.fx._decomposed, which torchao's PT2E convert emits).
What torch does not define is their out-variants: this module adds them under
the names and argument lists ExecuTorch's quantized kernels use
(`quantize_per_tensor.out`, `dequantize_per_token.out`, ...; ExecuTorch's
`kernels/quantized/quantized.yaml`), so that the exporter emits calls that
ExecuTorch runs too, and `dequantize_per_channel_group.out`, which ExecuTorch
has no portable kernel for, under the same convention.

One operator is Ember's own: `ember_quant::unpack_int4(packed) -> int8`, the
signed 4-bit weights of a linear stored two to a byte (element 2j in the low
nibble of byte j, element 2j+1 in the high one, each as q + 8, XNNPACK's qc4w
order). It feeds `dequantize_per_channel_group`, so a 4-bit weight costs half
a byte in the file; a backend reads the packed bytes directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch.ao.quantization.fx._decomposed import quantized_decomposed_lib  # noqa: F401  (defines the ops)

qd = torch.ops.quantized_decomposed

# name -> schema of each out-variant, as ExecuTorch declares it.
_OUT_SCHEMAS = {
    "quantize_per_tensor.out": (
        "quantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min, "
        "int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)"),
    "quantize_per_tensor.Tensor_out": (
        "quantize_per_tensor.Tensor_out(Tensor input, Tensor scale, Tensor zero_point, "
        "int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)"),
    "dequantize_per_tensor.out": (
        "dequantize_per_tensor.out(Tensor input, float scale, int zero_point, int quant_min, "
        "int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!) out) "
        "-> Tensor(a!)"),
    "dequantize_per_tensor.Tensor_out": (
        "dequantize_per_tensor.Tensor_out(Tensor input, Tensor scale, Tensor zero_point, "
        "int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None, "
        "Tensor(a!) out) -> Tensor(a!)"),
    "quantize_per_channel.out": (
        "quantize_per_channel.out(Tensor input, Tensor scales, Tensor zero_points, int axis, "
        "int quant_min, int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)"),
    "dequantize_per_channel.out": (
        "dequantize_per_channel.out(Tensor input, Tensor scales, Tensor? zero_points, int axis, "
        "int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None, "
        "Tensor(a!) out) -> Tensor(a!)"),
    "choose_qparams_per_token_asymmetric.out": (
        "choose_qparams_per_token_asymmetric.out(Tensor input, ScalarType dtype, *, "
        "Tensor(a!) scale_out, Tensor(b!) zero_point_out) -> (Tensor(a!), Tensor(b!))"),
    "quantize_per_token.out": (
        "quantize_per_token.out(Tensor input, Tensor scales, Tensor zero_points, int quant_min, "
        "int quant_max, ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)"),
    "dequantize_per_token.out": (
        "dequantize_per_token.out(Tensor input, Tensor scales, Tensor zero_points, "
        "int quant_min, int quant_max, ScalarType dtype, ScalarType output_dtype, *, "
        "Tensor(a!) out) -> Tensor(a!)"),
    "dequantize_per_channel_group.out": (
        "dequantize_per_channel_group.out(Tensor input, Tensor scales, Tensor? zero_points, "
        "int quant_min, int quant_max, ScalarType dtype, int group_size, "
        "ScalarType output_dtype, *, Tensor(a!) out) -> Tensor(a!)"),
}

# out-variant -> the functional op it computes.
_FUNCTIONAL = {
    "quantize_per_tensor.out": qd.quantize_per_tensor.default,
    "quantize_per_tensor.Tensor_out": qd.quantize_per_tensor.tensor,
    "dequantize_per_tensor.out": qd.dequantize_per_tensor.default,
    "dequantize_per_tensor.Tensor_out": qd.dequantize_per_tensor.tensor,
    "quantize_per_channel.out": qd.quantize_per_channel.default,
    "dequantize_per_channel.out": qd.dequantize_per_channel.default,
    "choose_qparams_per_token_asymmetric.out": qd.choose_qparams_per_token_asymmetric.default,
    "quantize_per_token.out": qd.quantize_per_token.default,
    "dequantize_per_token.out": qd.dequantize_per_token.default,
    "dequantize_per_channel_group.out": qd.dequantize_per_channel_group.default,
}


def _copy_into(outs: list[torch.Tensor], results: Any) -> None:
    results = results if isinstance(results, (tuple, list)) else (results,)
    for out, result in zip(outs, results):
        out.resize_(result.shape).copy_(result)


def _out_impl(functional: torch._ops.OpOverload, out_names: list[str]) -> Callable[..., Any]:
    def impl(*args: Any, **kwargs: Any) -> Any:
        outs = [kwargs.pop(name) for name in out_names]
        _copy_into(outs, functional(*args, **kwargs))
        return outs[0] if len(outs) == 1 else tuple(outs)
    return impl


# ExecuTorch's own AOT library defines the same out-variants when a process
# imports executorch.kernels.quantized first; then those are used as they are.
_defined = torch.library.Library("quantized_decomposed", "FRAGMENT")
for _name, _schema in _OUT_SCHEMAS.items():
    _packet, _, _overload = _name.partition(".")
    if _overload in getattr(qd, _packet).overloads():
        continue
    _defined.define(_schema)
    _outs = ["scale_out", "zero_point_out"] if _packet.startswith("choose_qparams") else ["out"]
    _defined.impl(_name, _out_impl(_FUNCTIONAL[_name], _outs), "CompositeExplicitAutograd")


# --- ember_quant: packed 4-bit weights -------------------------------------------

_ember = torch.library.Library("ember_quant", "DEF")
_ember.define("unpack_int4(Tensor packed) -> Tensor")
_ember.define("unpack_int4.out(Tensor packed, *, Tensor(a!) out) -> Tensor(a!)")


def pack_int4(values: torch.Tensor) -> torch.Tensor:
    """int8 values in [-8, 7], [..., K] with K even -> uint8 [..., K / 2]."""
    if values.shape[-1] % 2:
        raise ValueError(f"4-bit packing needs an even last dim, got {list(values.shape)}")
    if values.numel() and (int(values.min()) < -8 or int(values.max()) > 7):
        raise ValueError("4-bit values must lie in [-8, 7]")
    biased = (values.to(torch.int16) + 8).to(torch.uint8)
    return biased[..., 0::2] | (biased[..., 1::2] << 4)


def _unpack_int4(packed: torch.Tensor) -> torch.Tensor:
    if packed.dtype != torch.uint8:
        raise ValueError(f"unpack_int4 takes uint8 bytes, got {packed.dtype}")
    low = (packed & 0x0F).to(torch.int8) - 8
    high = (packed >> 4).to(torch.int8) - 8
    return torch.stack((low, high), dim=-1).reshape(*packed.shape[:-1], packed.shape[-1] * 2)


_ember.impl("unpack_int4", _unpack_int4, "CompositeExplicitAutograd")
_ember.impl("unpack_int4.out", _out_impl(_unpack_int4, ["out"]), "CompositeExplicitAutograd")


@torch.library.register_fake("ember_quant::unpack_int4")
def _unpack_int4_fake(packed: torch.Tensor) -> torch.Tensor:
    return packed.new_empty(*packed.shape[:-1], packed.shape[-1] * 2, dtype=torch.int8)


unpack_int4 = torch.ops.ember_quant.unpack_int4.default


# --- embedding tables with quantized rows ------------------------------------------
#
# ExecuTorch's embedding_byte (int8 / uint8 codes) and embedding_4bit (two
# codes a byte, element 2j in the high nibble, each stored as q + 8), with
# ExecuTorch's schemas. torch does not ship them; ExecuTorch's Python library
# declares them under quantized_decomposed, so a process importing both would
# see them declared twice: Ember declares them as ember_quant ops and the
# emitter writes ExecuTorch's names (ember.passes.kernel_names), which Ember's
# runtime runs too.
_TABLE_ARGS = ("Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, "
               "int weight_quant_min, int weight_quant_max, Tensor indices")
for _op in ("embedding_byte", "embedding_4bit"):
    _ember.define(f"{_op}({_TABLE_ARGS}) -> Tensor")
    _ember.define(f"{_op}.out({_TABLE_ARGS}, *, Tensor(a!) out) -> Tensor(a!)")


def _dequantize_rows(picked: torch.Tensor, rows: int, scales: torch.Tensor,
                     zero_points: torch.Tensor | None, indices: torch.Tensor) -> torch.Tensor:
    """The integer codes `picked` of rows `indices` of a table of `rows` rows,
    dequantized as dequantize_per_channel_group dequantizes the whole table
    (ExecuTorch's reference, before aten.embedding): (q - zero_point) * scale,
    each op in the scales' dtype."""
    if scales.dim() not in (1, 2) or scales.shape[0] != rows:
        raise ValueError(f"scales {list(scales.shape)} do not fit a table of {rows} rows")
    groups = scales.reshape(rows, -1)
    if picked.shape[-1] % groups.shape[1]:
        raise ValueError(f"{groups.shape[1]} groups do not split a row of {picked.shape[-1]}")
    grouped = picked.reshape(*picked.shape[:-1], groups.shape[1], -1)
    if zero_points is not None:
        grouped = grouped.sub(zero_points.reshape(groups.shape)[indices].unsqueeze(-1))
    return grouped.mul(groups[indices].unsqueeze(-1)).reshape(picked.shape)


def _embedding_byte(weight: torch.Tensor, scales: torch.Tensor,
                    zero_points: torch.Tensor | None, quant_min: int, quant_max: int,
                    indices: torch.Tensor) -> torch.Tensor:
    if weight.dtype not in (torch.int8, torch.uint8) or weight.dim() != 2:
        raise ValueError(f"embedding_byte takes a 2-d int8 or uint8 table, got "
                         f"{weight.dtype} {list(weight.shape)}")
    return _dequantize_rows(weight[indices], weight.shape[0], scales, zero_points, indices)


def unpack_int4_table(packed: torch.Tensor) -> torch.Tensor:
    """embedding_4bit's bytes [..., dim / 2] -> int8 codes [..., dim]."""
    high = (packed >> 4).to(torch.int8) - 8
    low = (packed & 0x0F).to(torch.int8) - 8
    return torch.stack((high, low), dim=-1).reshape(*packed.shape[:-1], -1)


def _embedding_4bit(weight: torch.Tensor, scales: torch.Tensor,
                    zero_points: torch.Tensor | None, quant_min: int, quant_max: int,
                    indices: torch.Tensor) -> torch.Tensor:
    if weight.dtype != torch.uint8 or weight.dim() != 2 or (quant_min, quant_max) != (-8, 7):
        raise ValueError(f"embedding_4bit takes a 2-d uint8 table of codes in [-8, 7], got "
                         f"{weight.dtype} {list(weight.shape)}, [{quant_min}, {quant_max}]")
    return _dequantize_rows(unpack_int4_table(weight[indices]), weight.shape[0], scales,
                            zero_points, indices)


def _table_fake(codes_a_byte: int) -> Callable[..., torch.Tensor]:
    def fake(weight, scales, zero_points, quant_min, quant_max, indices):
        return torch.empty(*indices.shape, weight.shape[1] * codes_a_byte, dtype=scales.dtype,
                           device=indices.device)
    return fake


for _op, _fn, _codes in (("embedding_byte", _embedding_byte, 1),
                         ("embedding_4bit", _embedding_4bit, 2)):
    _ember.impl(_op, _fn, "CompositeExplicitAutograd")
    _ember.impl(f"{_op}.out", _out_impl(_fn, ["out"]), "CompositeExplicitAutograd")
    torch.library.register_fake(f"ember_quant::{_op}", _table_fake(_codes))

embedding_byte = torch.ops.ember_quant.embedding_byte.default
embedding_4bit = torch.ops.ember_quant.embedding_4bit.default
