"""Ember's own PT2E observers, for the quantizations torchao's observers do not
convert into the ops ExecuTorch and Ember run:

- `PerTokenDynamicObserver`: int8 activations quantized per token (each row
  of the last dim) at run time, XNNPACK's qd8: converts into
  choose_qparams_per_token_asymmetric -> quantize_per_token -> dequantize_per_token.
- `GroupWeightObserver`: a linear's weight in signed 4-bit groups along its
  input dim (8da4w, int4 weight-only): converts into the packed 4-bit
  constant -> ember_quant::unpack_int4 -> dequantize_per_channel_group.

torchao's convert calls an observer's own `convert(model, node)` when it has
one, so each observer writes its ops into the graph itself.
"""

from __future__ import annotations

import operator

import torch
from torch.fx import GraphModule, Node
from torchao.quantization.pt2e import ObserverBase
from torchao.quantization.pt2e.utils import create_getattr_from_value

from ember.quantize import ops

qd = torch.ops.quantized_decomposed


class PerTokenDynamicObserver(ObserverBase):
    """Dynamic int8 per-token activations: nothing to observe at calibration."""

    def __init__(self, dtype: torch.dtype = torch.int8, **kwargs: object) -> None:
        super().__init__(dtype=dtype, is_dynamic=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def calculate_qparams(self) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError("per-token quantization parameters are chosen at run time")

    def convert(self, model: GraphModule, observer_node: Node) -> None:
        graph = model.graph
        x = observer_node.args[0]
        with graph.inserting_before(observer_node):
            qparams = graph.call_function(qd.choose_qparams_per_token_asymmetric.default,
                                          (x, torch.int8))
            scales = graph.call_function(operator.getitem, (qparams, 0))
            zero_points = graph.call_function(operator.getitem, (qparams, 1))
            quantized = graph.call_function(qd.quantize_per_token.default,
                                            (x, scales, zero_points, -128, 127, torch.int8))
            dequantized = graph.call_function(
                qd.dequantize_per_token.default,
                (quantized, scales, zero_points, -128, 127, torch.int8, torch.float32))
        observer_node.replace_all_uses_with(dequantized)
        graph.erase_node(observer_node)


def group_quantize_int4(weight: torch.Tensor, group_size: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Symmetric signed 4-bit groups of a [N, K] weight: (int8 values in [-8, 7],
    float32 scales [N, K / group_size]), rounded half to even as PyTorch's
    quantize ops round. The scale maps the group's largest magnitude to -8 or 7
    whichever fits it better, torchao's `int4` symmetric mapping (amax / 7.5)."""
    n, k = weight.shape
    if k % group_size:
        raise ValueError(f"4-bit groups of {group_size} need the input dim ({k}) to be a "
                         f"multiple of {group_size}")
    groups = weight.detach().float().reshape(n, k // group_size, group_size)
    amax = groups.abs().amax(dim=-1, keepdim=True)
    scales = (amax / 7.5).clamp(min=torch.finfo(torch.float32).eps)
    values = torch.clamp(torch.round(groups * (1.0 / scales)), -8, 7).to(torch.int8)
    return values.reshape(n, k), scales.reshape(n, k // group_size)


class GroupWeightObserver(ObserverBase):
    """A linear's [N, K] weight as signed 4-bit groups of `group_size` along K."""

    def __init__(self, group_size: int = 32, dtype: torch.dtype = torch.int8,
                 **kwargs: object) -> None:
        super().__init__(dtype=dtype, is_dynamic=False)
        self.group_size = group_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def calculate_qparams(self) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError("group parameters are computed at convert")

    def convert(self, model: GraphModule, observer_node: Node) -> None:
        graph = model.graph
        weight_node = observer_node.args[0]
        weight = constant_value(model, weight_node)
        if weight is None or weight.dim() != 2:
            raise ValueError(f"{observer_node.name}: 4-bit groups need a constant [N, K] weight")
        values, scales = group_quantize_int4(weight, self.group_size)
        with graph.inserting_before(observer_node):
            packed = create_getattr_from_value(model, graph, "_packed_int4_weight",
                                               ops.pack_int4(values))
            scales_node = create_getattr_from_value(model, graph, "_int4_scales", scales)
            unpacked = graph.call_function(ops.unpack_int4, (packed,))
            dequantized = graph.call_function(
                qd.dequantize_per_channel_group.default,
                (unpacked, scales_node, None, -8, 7, torch.int8, self.group_size,
                 torch.float32))
        observer_node.replace_all_uses_with(dequantized)
        graph.erase_node(observer_node)


def constant_value(model: GraphModule, node: object) -> torch.Tensor | None:
    """The tensor a get_attr node of `model` reads; None for anything else."""
    if not isinstance(node, Node) or node.op != "get_attr":
        return None
    value: object = model
    for part in str(node.target).split("."):
        value = getattr(value, part)
    return value if isinstance(value, torch.Tensor) else None
