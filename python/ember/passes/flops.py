"""An op's floating-point work, for the export report's "share of FLOPs
delegated": multiply-adds count 2, everything else one per output element.
An estimate from the shapes torch.export recorded, not a measurement; an op
with a dynamic shape counts 0."""

from __future__ import annotations

import math

import torch
from torch.fx import Node

aten = torch.ops.aten


def _numel(value: object) -> int:
    if isinstance(value, torch.Tensor):
        shape = _sizes(value)
        return math.prod(shape) if shape is not None else 0
    if isinstance(value, (list, tuple)):
        return sum(_numel(v) for v in value)
    return 0


def _sizes(value: torch.Tensor) -> list[int] | None:
    # A symbolic size counts as unknown: int() on it would make torch.export's
    # shape environment specialise the dim to its example value.
    if all(isinstance(s, int) for s in value.shape):
        return list(value.shape)
    return None


def _shape(node: object) -> list[int] | None:
    value = node.meta.get("val") if isinstance(node, Node) else None
    return _sizes(value) if isinstance(value, torch.Tensor) else None


def op_flops(node: Node) -> int:
    """Estimated floating-point operations of one call of `node`'s op."""
    out_numel = _numel(node.meta.get("val"))
    target = node.target
    if target is aten.convolution.default:
        weight = _shape(node.args[1])
        if weight is None:
            return 0
        transposed = bool(node.args[6]) if len(node.args) > 6 else False
        if transposed:  # every input element meets every weight of its group's slice
            x = _shape(node.args[0])
            return 2 * math.prod(x or [0]) * math.prod(weight[1:]) if x else 0
        return 2 * out_numel * math.prod(weight[1:])
    if target in (aten.mm.default, aten.bmm.default, aten.addmm.default, aten.baddbmm.default):
        a = _shape(node.args[1] if target in (aten.addmm.default, aten.baddbmm.default)
                   else node.args[0])
        return 2 * out_numel * a[-1] if a else 0
    return out_numel
