"""EmberQuantizer: a torchao PT2E `Quantizer` that annotates a captured graph
for one of Ember's schemes (docs/quantization.md has the graphs they give):

- "int8": static int8. Weights per output channel, symmetric (qmin -127);
  activations per tensor, affine, signed int8 (ExecuTorch/XNNPACK's qs8),
  observed on the calibration inputs. Quantized units: conv and linear with
  their activation (relu, relu6/hardtanh, conv+bn is folded by PT2E first),
  matmul/bmm, add with its relu. Pools, reshapes, cat and friends take their
  input's parameters, so they run on the int8 values as they are.
- "int8-dynamic": linear layers with int8 per-channel weights and int8
  activations quantized per token at run time.
- "8da4w": the same with signed 4-bit weights in groups of `group_size`
  (32, 64 or 128) along the input dim.
- "int8-weight" / "int4-weight": weight-only linears (activations float),
  8-bit per channel or 4-bit in groups.

Every scheme quantizes embedding tables too, weight-only: int8 per row, or
4-bit groups along the row in the 4-bit schemes (int8 per row where the row
is not a whole number of groups); ember.quantize.embedding then makes each
table lookup dequantize only the rows it reads.

An op no scheme covers is left unannotated, so it stays in float between a
dequantize and a quantize; ember.quantize's report lists those ops.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch.fx import GraphModule, Node
from torchao.quantization.pt2e import HistogramObserver, PerChannelMinMaxObserver
from torchao.quantization.pt2e.quantizer import (
    QuantizationAnnotation,
    QuantizationSpec,
    Quantizer,
    SharedQuantizationSpec,
)

from ember.quantize import GROUP_SIZES, SCHEMES
from ember.quantize.observers import GroupWeightObserver, PerTokenDynamicObserver
from ember.quantize.report import QuantizedUnit

aten = torch.ops.aten


_EPS = 2**-12  # XNNPACK's smallest scale

STATIC_ACTIVATION = QuantizationSpec(
    dtype=torch.int8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_affine,
    observer_or_fake_quant_ctr=HistogramObserver.with_args(eps=_EPS))
WEIGHT_INT8 = QuantizationSpec(
    dtype=torch.int8, quant_min=-127, quant_max=127, qscheme=torch.per_channel_symmetric,
    ch_axis=0, observer_or_fake_quant_ctr=PerChannelMinMaxObserver.with_args(eps=_EPS))
DYNAMIC_ACTIVATION = QuantizationSpec(
    dtype=torch.int8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_affine,
    observer_or_fake_quant_ctr=PerTokenDynamicObserver)  # dynamic: the observer converts itself


def weight_int4(group_size: int) -> QuantizationSpec:
    return QuantizationSpec(
        dtype=torch.int8, quant_min=-8, quant_max=7, qscheme=torch.per_channel_symmetric,
        ch_axis=0, observer_or_fake_quant_ctr=GroupWeightObserver.with_args(group_size=group_size))


_CONV = {aten.conv1d.default, aten.conv2d.default}
_LINEAR = {aten.linear.default}
_MATMUL = {aten.matmul.default, aten.bmm.default, aten.mm.default}
_ADD = {aten.add.Tensor, aten.add_.Tensor}
# relu6 is aten.relu6 from F.relu6 and aten.hardtanh(x, 0, 6) from nn.ReLU6.
_ACTIVATIONS = {aten.relu.default, aten.relu_.default, aten.relu6.default, aten.hardtanh.default,
                aten.hardtanh_.default, aten.clamp.default}
# Ops whose int8 output takes its input's parameters (they move or pick values).
_SHARING = {
    aten.max_pool2d.default, aten.adaptive_avg_pool2d.default, aten.avg_pool2d.default,
    aten.mean.dim, aten.flatten.using_ints, aten.view.default, aten.reshape.default,
    aten.permute.default, aten.transpose.int, aten.squeeze.dim, aten.squeeze.dims,
    aten.squeeze.default, aten.unsqueeze.default, aten.dropout.default, aten.contiguous.default,
    aten.clone.default, aten.slice.Tensor, aten.select.int, aten.pad.default,
    aten.constant_pad_nd.default, aten.upsample_nearest2d.vec,
}
_CAT = {aten.cat.default, aten.concat.default}
_EMBEDDING = {aten.embedding.default}


@dataclass
class Annotation:
    units: list[QuantizedUnit] = field(default_factory=list)
    shared: list[str] = field(default_factory=list)  # ops running on their input's int8 values


def _annotate(node: Node, inputs: dict[Node, object], output: object = None) -> None:
    node.meta["quantization_annotation"] = QuantizationAnnotation(
        input_qspec_map=inputs, output_qspec=output, _annotated=True)


def _annotated(node: Node) -> bool:
    annotation = node.meta.get("quantization_annotation")
    return annotation is not None and annotation._annotated


def _is_float_tensor(node: object) -> bool:
    if not isinstance(node, Node):
        return False
    value = node.meta.get("val")
    return isinstance(value, torch.Tensor) and value.dtype == torch.float32


def _fused_activation(node: Node) -> Node | None:
    """The relu / relu6 that is `node`'s only user, if any."""
    if len(node.users) != 1:
        return None
    user = next(iter(node.users))
    if user.op != "call_function" or user.target not in _ACTIVATIONS or _annotated(user):
        return None
    if user.target in (aten.hardtanh.default, aten.hardtanh_.default, aten.clamp.default):
        low = user.args[1] if len(user.args) > 1 else user.kwargs.get("min_val", -1.0)
        if low != 0 and low != 0.0:  # only clamps at zero fuse as "relu6"-like
            return None
    return user


class EmberQuantizer(Quantizer):
    def __init__(self, scheme: str = "int8", group_size: int = 32) -> None:
        super().__init__()
        if scheme not in SCHEMES:
            raise ValueError(f"unknown quantization scheme {scheme!r}; Ember has {', '.join(SCHEMES)}")
        if scheme in ("8da4w", "int4-weight") and group_size not in GROUP_SIZES:
            raise ValueError(f"group_size must be one of {GROUP_SIZES}, got {group_size}")
        self.scheme = scheme
        self.group_size = group_size
        self.annotation = Annotation()

    # --- Quantizer interface -------------------------------------------------

    def annotate(self, model: GraphModule) -> GraphModule:
        self.annotation = Annotation()
        annotate: Callable[[Node], None] = (
            self._annotate_static if self.scheme == "int8" else self._annotate_linear_only)
        for node in list(model.graph.nodes):
            if node.op == "call_function" and not _annotated(node):
                annotate(node)
        return model

    def validate(self, model: GraphModule) -> None:
        pass

    # --- static int8 ---------------------------------------------------------

    def _annotate_static(self, node: Node) -> None:
        target = node.target
        if target in _EMBEDDING:
            self._annotate_embedding(node)
        elif target in _CONV or target in _LINEAR:
            x, weight = node.args[0], node.args[1]
            if not (_is_float_tensor(x) and _is_float_tensor(weight)):
                return
            self._unit(node, "conv" if target in _CONV else "linear",
                       {x: STATIC_ACTIVATION, weight: WEIGHT_INT8})
        elif target in _MATMUL:
            a, b = node.args[0], node.args[1]
            if _is_float_tensor(a) and _is_float_tensor(b):
                self._unit(node, "matmul", {a: STATIC_ACTIVATION, b: STATIC_ACTIVATION})
        elif target in _ADD:
            a, b = node.args[0], node.args[1]
            if _is_float_tensor(a) and _is_float_tensor(b) and len(node.args) < 3:
                self._unit(node, "add", {a: STATIC_ACTIVATION, b: STATIC_ACTIVATION})
        elif target in _SHARING:
            x = node.args[0]
            if _is_float_tensor(x) and _is_float_tensor(node) and _annotated_output(x):
                _annotate(node, {x: SharedQuantizationSpec(x)}, SharedQuantizationSpec(x))
                self.annotation.shared.append(node.name)
        elif target in _CAT:
            tensors = node.args[0]
            if (tensors and all(_is_float_tensor(t) for t in tensors)
                    and all(_annotated_output(t) for t in tensors)):
                first = tensors[0]
                inputs: dict[Node, object] = {first: STATIC_ACTIVATION}
                inputs.update({t: SharedQuantizationSpec((first, node)) for t in tensors[1:]})
                _annotate(node, inputs, SharedQuantizationSpec((first, node)))
                self.annotation.shared.append(node.name)

    def _unit(self, node: Node, kind: str, inputs: dict[Node, object]) -> None:
        activation = _fused_activation(node)
        last = activation if activation is not None else node
        # A model output stays float: quantizing it would clip it to the
        # calibration range (logits larger than any calibration sample's tie).
        output = None if all(u.op == "output" for u in last.users) else STATIC_ACTIVATION
        if activation is None:
            _annotate(node, inputs, output)
            self.annotation.units.append(QuantizedUnit(kind, [node.name], node.name))
            return
        _annotate(node, inputs)
        _annotate(activation, {}, output)
        self.annotation.units.append(
            QuantizedUnit(kind, [node.name, activation.name], activation.name))

    # --- linear-only schemes -------------------------------------------------

    def _annotate_linear_only(self, node: Node) -> None:
        if node.target in _EMBEDDING:
            self._annotate_embedding(node)
            return
        if node.target not in _LINEAR:
            return
        x, weight = node.args[0], node.args[1]
        if not (_is_float_tensor(x) and _is_float_tensor(weight)) or weight.op != "get_attr":
            return
        four_bit = self.scheme in ("8da4w", "int4-weight")
        if four_bit and weight.meta["val"].shape[-1] % self.group_size:
            return  # the input dim is not a whole number of groups: stays in float
        weight_spec = weight_int4(self.group_size) if four_bit else WEIGHT_INT8
        inputs: dict[Node, object] = {weight: weight_spec}
        if self.scheme in ("int8-dynamic", "8da4w"):
            inputs[x] = DYNAMIC_ACTIVATION
        _annotate(node, inputs)
        self.annotation.units.append(QuantizedUnit("linear", [node.name], node.name))


    # --- embedding tables (every scheme) --------------------------------------

    def _annotate_embedding(self, node: Node) -> None:
        table = node.args[0]
        if not _is_float_tensor(table) or table.op != "get_attr" or table.meta["val"].dim() != 2:
            return
        four_bit = (self.scheme in ("8da4w", "int4-weight")
                    and table.meta["val"].shape[1] % self.group_size == 0)
        _annotate(node, {table: weight_int4(self.group_size) if four_bit else WEIGHT_INT8})
        self.annotation.units.append(QuantizedUnit("embedding", [node.name], node.name))


def _annotated_output(node: Node) -> bool:
    """Whether `node`'s output is quantized (directly or by sharing)."""
    annotation = node.meta.get("quantization_annotation")
    return annotation is not None and annotation.output_qspec is not None
