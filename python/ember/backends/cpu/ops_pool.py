"""Pooling ops, channels-last: max pooling (when only the values are used, not
the indices), average pooling and adaptive average pooling. (The mean over the
spatial dims, global average pooling, is a reduction: ops_norm.py.)"""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    CLAMPABLE,
    FLOAT,
    NHWC,
    Builder,
    lowers,
    static_sizes,
)
from ember.cpu_fb import AdaptiveAvgPool2d, OpParams, Pool2d, PoolOp
from ember.passes.graph import ExportError

aten = torch.ops.aten
CLAMPABLE.update({aten.avg_pool2d.default, aten._adaptive_avg_pool2d.default})


def _pair(value, default: list[int]) -> list[int]:
    if value is None or (isinstance(value, (list, tuple)) and len(value) == 0):
        return list(default)
    if isinstance(value, int):
        return [value, value]
    return [int(v) for v in value] * (2 if len(value) == 1 else 1)


def _is_4d_float(node: Node) -> str | None:
    x = node.args[0].meta["val"]
    if x.dim() != 4:
        return f"input is {x.dim()}-D, not [N, C, H, W]"
    if x.dtype != torch.float32:
        return f"input has dtype {str(x.dtype).replace('torch.', '')}"
    return None


def max_pool_claim(node: Node) -> str | None:
    # The indices (output 1) are int64: claimed only when nothing reads them.
    for user in node.users:
        if user.target is not operator.getitem or (user.args[1] != 0 and user.users):
            return "the indices are used"
    return _is_4d_float(node)


@lowers(aten.max_pool2d_with_indices.default,
        support=OpSupport(frozenset({torch.float32, torch.int64}), constraint=max_pool_claim))
def _max_pool(b: Builder, node: Node) -> int:
    params = max_pool_params(node)
    sizes = list(node.meta["val"][0].shape)
    if any(not isinstance(s, int) for s in sizes):
        raise ExportError(f"{node.name}: the CPU backend needs static shapes")
    out = b.value(sizes, layout=NHWC)
    b.op(OpParams.OpParams.Pool2d, params, [b.in_layout(b.input(node.args[0]), NHWC)], out)
    return out


def max_pool_params(node: Node) -> Pool2d.Pool2dT:
    """The Pool2d parameters of a max_pool2d_with_indices node."""
    args = list(node.args) + [None] * (6 - len(node.args))
    kernel = _pair(args[1], [])
    params = Pool2d.Pool2dT()
    params.op = PoolOp.PoolOp.Max
    params.kernel = kernel
    params.stride = _pair(args[2] or node.kwargs.get("stride"), kernel)
    params.padding = _pair(args[3] if args[3] is not None else node.kwargs.get("padding"), [0, 0])
    params.dilation = _pair(args[4] if args[4] is not None else node.kwargs.get("dilation"), [1, 1])
    params.ceilMode = bool(args[5] if args[5] is not None else node.kwargs.get("ceil_mode", False))
    return params


def _avg_pool_claim(node: Node) -> str | None:
    return _is_4d_float(node)


@lowers(aten.avg_pool2d.default, support=OpSupport(FLOAT, constraint=_avg_pool_claim))
def _avg_pool(b: Builder, node: Node) -> int:
    names = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
             "divisor_override"]
    defaults = [None, None, 0, False, True, None]
    args = {n: (node.args[i + 1] if len(node.args) > i + 1 else node.kwargs.get(n, d))
            for i, (n, d) in enumerate(zip(names, defaults))}
    kernel = _pair(args["kernel_size"], [])
    params = Pool2d.Pool2dT()
    params.op = PoolOp.PoolOp.Average
    params.kernel = kernel
    params.stride = _pair(args["stride"], kernel)
    params.padding = _pair(args["padding"], [0, 0])
    params.dilation = [1, 1]
    params.ceilMode = bool(args["ceil_mode"])
    params.countIncludePad = bool(args["count_include_pad"])
    params.divisorOverride = int(args["divisor_override"] or 0)
    out = b.value(static_sizes(node), layout=NHWC)
    b.op(OpParams.OpParams.Pool2d, params, [b.in_layout(b.input(node.args[0]), NHWC)], out)
    return out


@lowers(aten._adaptive_avg_pool2d.default, support=OpSupport(FLOAT, constraint=_is_4d_float))
def _adaptive_avg_pool(b: Builder, node: Node) -> int:
    sizes = static_sizes(node)
    params = AdaptiveAvgPool2d.AdaptiveAvgPool2dT()
    params.outputSize = sizes[2:]
    out = b.value(sizes, layout=NHWC)
    b.op(OpParams.OpParams.AdaptiveAvgPool2d, params, [b.in_layout(b.input(node.args[0]), NHWC)],
         out)
    return out
