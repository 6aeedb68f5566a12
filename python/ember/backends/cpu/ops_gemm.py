"""Ops on the f32 GEMM: linear layers (addmm, mm with a constant weight) and
convolutions, which run channels-last: 2-D, and 1-D as 2-D over [N, C, 1, L];
transposed ones too (conv_transpose, on the indirect GEMM)."""

from __future__ import annotations

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    CLAMPABLE,
    CONSTANT_ARGS,
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
# Weights packed at init: a weight the caller passes in stays on portable.
# (mm with a runtime right operand is a MatMul: ops_matmul.py.)
CONSTANT_ARGS.update({aten.addmm.default: (2,), aten.convolution.default: (1,)})


def _addmm_claim(node: Node) -> str | None:
    if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
        return "alpha or beta is not 1"
    bias = node.args[0]
    if isinstance(bias, Node) and len(bias.meta["val"].shape) > 1:
        return "bias is not a vector"
    return None  # the weight: CONSTANT_ARGS


def _conv_claim(node: Node) -> str | None:
    x = node.args[0].meta["val"]
    if x.dim() not in (3, 4):
        return "not a 1-D or 2-D convolution"
    if x.shape[1] == 0:
        # PyTorch then returns an empty tensor of the input's shape, not the
        # output's: nothing to compute, and no geometry the op could check.
        return "no input channels"
    return None  # the weight: CONSTANT_ARGS


@lowers(aten.convolution.default, support=OpSupport(FLOAT, constraint=_conv_claim))
def _conv(b: Builder, node: Node) -> int:
    x, weight, bias, stride, padding, dilation, transposed, output_padding, groups = node.args
    params = Conv2d.Conv2dT()
    params.bias = b.input(bias) if bias is not None else -1
    params.groups = groups
    params.transposed = bool(transposed)
    params.outputPadding = list(output_padding)
    if x.meta["val"].dim() == 4:
        params.weight = b.input(weight)
        params.stride, params.padding, params.dilation = list(stride), list(padding), list(dilation)
        out = b.value(static_sizes(node), layout=NHWC)
        b.op(OpParams.OpParams.Conv2d, params, [b.in_layout(b.input(x), NHWC)], out)
        return out
    # 1-D: a 2-D convolution over [N, C, 1, L] with a 1 x K kernel. Its
    # input and output stay channels-last ([N, C, L] stored as N, L, C), the
    # same memory as [N, C, 1, L] in NHWC, so a chain of 1-D convolutions
    # and elementwise ops converts layouts only at its ends.
    params.weight = b.constant(b.subgraph.constant(weight).unsqueeze(2))
    params.stride, params.padding = [1, stride[0]], [0, padding[0]]
    params.dilation, params.outputPadding = [1, dilation[0]], [0, *output_padding]
    # The [N, C, 1, L] views are aliases: the same memory, no copy.
    n, c, length = static_sizes(x)
    x4 = b.value([n, c, 1, length], layout=NHWC, alias_of=b.in_layout(b.input(x), NHWC))
    sizes = static_sizes(node)
    out4 = b.value([sizes[0], sizes[1], 1, sizes[2]], layout=NHWC)
    b.op(OpParams.OpParams.Conv2d, params, [x4], out4)
    return b.value(sizes, layout=NHWC, alias_of=out4)


@lowers(aten.addmm.default, support=OpSupport(FLOAT, constraint=_addmm_claim))
def linear(b: Builder, node: Node) -> int:
    """addmm(bias, x, weight) or mm(x, weight) with a constant weight: Linear."""
    if node.target is aten.addmm.default:
        bias, x, weight = node.args[:3]
    else:
        bias, (x, weight) = None, node.args[:2]
    # The weight is [in, out]: already transposed by the graph.
    return linear_op(b, b.input(x), b.input(weight), b.input(bias) if bias is not None else -1,
                     static_sizes(node))


def linear_op(b: Builder, x: int, weight: int, bias: int, sizes: list[int]) -> int:
    """A Linear op: x's rows (plain) times the constant `weight` ([in, out]),
    plus `bias` (-1: none); returns its output, of `sizes`."""
    params = Linear.LinearT()
    params.weight, params.bias = weight, bias
    out = b.value(sizes)
    b.op(OpParams.OpParams.Linear, params, [b.in_layout(x, PLAIN)], out)
    return out


