"""Ops on the f32 GEMM: linear layers (addmm, mm with a constant weight) and
2-D convolutions, which run channels-last."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    CLAMPABLE,
    FLOAT,
    NHWC,
    PLAIN,
    Builder,
    lowers,
    static_sizes,
)
from ember.cpu_fb import Conv2d, Linear, OpParams

aten = torch.ops.aten
CLAMPABLE.update({aten.addmm.default, aten.mm.default, aten.convolution.default})


def _constant_2d_weight(node: Node) -> str | None:
    weight = node.args[2] if node.target is aten.addmm.default else node.args[1]
    if not (isinstance(weight, Node) and weight.op == "placeholder"):
        return "weight is computed at run time"
    return None


def _addmm_claim(node: Node) -> str | None:
    if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
        return "alpha or beta is not 1"
    bias = node.args[0]
    if isinstance(bias, Node) and len(bias.meta["val"].shape) > 1:
        return "bias is not a vector"
    return _constant_2d_weight(node)


def _conv_claim(node: Node) -> str | None:
    x, weight, transposed = node.args[0], node.args[1], node.args[6]
    if x.meta["val"].dim() != 4:
        return "not a 2-D convolution"
    if transposed:
        return "transposed convolution"
    if not (isinstance(weight, Node) and weight.op == "placeholder"):
        return "weight is computed at run time"
    return None


@lowers(aten.convolution.default, support=OpSupport(FLOAT, constraint=_conv_claim))
def _conv(b: Builder, node: Node) -> int:
    x, weight, bias, stride, padding, dilation, _, _, groups = node.args
    params = Conv2d.Conv2dT()
    params.weight = b.input(weight)
    params.bias = b.input(bias) if bias is not None else -1
    params.stride, params.padding, params.dilation = list(stride), list(padding), list(dilation)
    params.groups = groups
    out = b.value(static_sizes(node), layout=NHWC)
    b.op(OpParams.OpParams.Conv2d, params, [b.in_layout(b.input(x), NHWC)], out)
    return out


@lowers(aten.addmm.default, support=OpSupport(FLOAT, constraint=_addmm_claim))
@lowers(aten.mm.default, support=OpSupport(FLOAT, constraint=_constant_2d_weight))
def _linear(b: Builder, node: Node) -> int:
    if node.target is aten.addmm.default:
        bias, x, weight = node.args[:3]
    else:
        bias, (x, weight) = None, node.args[:2]
    params = Linear.LinearT()
    params.weight = b.input(weight)  # [in, out]: already transposed by the graph
    params.bias = b.input(bias) if bias is not None else -1
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.Linear, params, [b.in_layout(b.input(x), PLAIN)], out)
    return out


