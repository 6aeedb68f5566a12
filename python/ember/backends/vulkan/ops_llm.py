"""Ember's LLM operators (ember.llm.ops) that the GPU runs, lowered to op
kinds of the blob both runtimes have, so that a delegate holding them still
falls back to the CPU backend: `rms_norm` to one LayerNorm (rms) op and
`swiglu` to silu then a product. The CPU backend leaves them to their
portable kernels (it claims none of ember.llm.ops but qlinear); on the GPU
they keep a transformer layer's norms and MLP inside one delegate, so that a
decode step submits a few command buffers per layer instead of one per
linear layer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch.fx import Node

import ember.llm.ops  # noqa: F401  (defines the ember:: operators)
from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import FLOAT, PLAIN, Builder, static_sizes
from ember.backends.cpu.ops_elementwise import unary
from ember.cpu_fb import Binary, BinaryOp, LayerNorm, OpParams, UnaryOp

LOWERINGS: dict[Any, Callable[[Builder, Node], int]] = {}
SUPPORT: dict[Any, OpSupport] = {}


def _lowers(target: Any) -> Callable:
    def register(fn: Callable[[Builder, Node], int]) -> Callable[[Builder, Node], int]:
        LOWERINGS[target] = fn
        SUPPORT[target] = OpSupport(FLOAT)
        return fn
    return register


@_lowers(torch.ops.ember.rms_norm.default)
def _rms_norm(b: Builder, node: Node) -> int:
    x, weight, eps = node.args
    params = LayerNorm.LayerNormT()
    params.normalizedDims, params.eps, params.rms, params.bias = 1, float(eps), True, -1
    params.weight = b.in_layout(b.input(weight), PLAIN)
    out = b.value(static_sizes(node))
    b.op(OpParams.OpParams.LayerNorm, params, [b.in_layout(b.input(x), PLAIN)], out)
    return out


@_lowers(torch.ops.ember.swiglu.default)
def _swiglu(b: Builder, node: Node) -> int:
    gate, up = node.args
    sizes = static_sizes(node)
    activated = b.in_layout(unary(b, UnaryOp.UnaryOp.Silu, gate, sizes, {node}), PLAIN)
    params = Binary.BinaryT()
    params.op = BinaryOp.BinaryOp.Mul
    out = b.value(sizes)
    b.op(OpParams.OpParams.Binary, params, [activated, b.in_layout(b.input(up), PLAIN)], out)
    return out
