"""Elementwise ops: binary arithmetic, maximum and minimum with broadcasting
(either operand may be the smaller one, in either layout; a per-channel
vector meets channels-last data as is) and activations."""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.backends.cpu.lowering import (
    CLAMPABLE,
    CLAMPS,
    FLOAT,
    FUSIONS,
    PLAIN,
    Builder,
    clamp_bounds,
    lowers,
    static_sizes,
)
from ember.backends.cpu.ops_norm import rms_norm_lowering
from ember.cpu_fb import Binary, BinaryOp, OpParams, Unary, UnaryOp
from ember.passes.graph import ProgramGraph

aten = torch.ops.aten

_BINARY = {
    aten.add.Tensor: BinaryOp.BinaryOp.Add, aten.sub.Tensor: BinaryOp.BinaryOp.Sub,
    aten.mul.Tensor: BinaryOp.BinaryOp.Mul, aten.div.Tensor: BinaryOp.BinaryOp.Div,
    aten.add.Scalar: BinaryOp.BinaryOp.Add, aten.sub.Scalar: BinaryOp.BinaryOp.Sub,
    aten.mul.Scalar: BinaryOp.BinaryOp.Mul, aten.div.Scalar: BinaryOp.BinaryOp.Div,
    aten.maximum.default: BinaryOp.BinaryOp.Max, aten.minimum.default: BinaryOp.BinaryOp.Min,
}
_UNARY = {
    aten.sigmoid.default: UnaryOp.UnaryOp.Sigmoid, aten.tanh.default: UnaryOp.UnaryOp.Tanh,
    aten.silu.default: UnaryOp.UnaryOp.Silu, aten.hardswish.default: UnaryOp.UnaryOp.HardSwish,
    aten.hardsigmoid.default: UnaryOp.UnaryOp.HardSigmoid, aten.exp.default: UnaryOp.UnaryOp.Exp,
    aten.neg.default: UnaryOp.UnaryOp.Neg, aten.sqrt.default: UnaryOp.UnaryOp.Sqrt,
    aten.rsqrt.default: UnaryOp.UnaryOp.Rsqrt, aten.abs.default: UnaryOp.UnaryOp.Abs,
}
# pow(x, e) for the exponents it lowers: 2 as x * x, 0.5 as sqrt (PyTorch
# computes both so).
_POW_EXPONENTS = (2, 0.5)
CLAMPABLE.update(_BINARY)


def _number(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


def _binary_claim(node: Node) -> str | None:
    if node.kwargs.get("alpha", 1) != 1 or (len(node.args) > 2 and node.args[2] != 1):
        return "alpha is not 1"
    if not isinstance(node.args[0], Node):
        return "the first operand is a number"
    other = node.args[1]
    if not isinstance(other, Node) and not _number(other):
        return f"operand {other!r} is not a number"
    if node.meta["val"].dim() > 8:
        return "more than 8 dims"
    return None


@lowers(*_BINARY, support=OpSupport(FLOAT, constraint=_binary_claim))
def _binary(b: Builder, node: Node) -> int:
    fused = rms_norm_lowering(b, node)
    if fused is not None:
        return fused
    sizes = static_sizes(node)
    a, other = node.args[0], node.args[1]
    params = Binary.BinaryT()
    params.op = _BINARY[node.target]
    a_id = b.input(a)
    if not isinstance(other, Node):
        params.hasScalar, params.scalar = True, float(other)
        out = b.value(sizes, layout=b.values[a_id].layout)
        b.op(OpParams.OpParams.Binary, params, [a_id], out)
        return out
    if node.target is aten.add.Tensor:
        for source, addend in ((a, other), (other, a)):
            fused = b.fuse_residual(node, source, addend)
            if fused is not None:
                return fused
    return _binary_values(b, params, a_id, b.input(other), sizes)


def _binary_values(b: Builder, params: Binary.BinaryT, a_id: int, other_id: int,
                   sizes: list[int]) -> int:
    # The output takes the layout of an operand of its full shape (a first);
    # an operand of the full shape in the other layout is converted, a
    # smaller one is read through broadcast strides in whatever layout it has.
    a_full = b.values[a_id].sizes == sizes
    other_full = b.values[other_id].sizes == sizes
    if a_full:
        layout = b.values[a_id].layout
    elif other_full:
        layout = b.values[other_id].layout
    else:
        layout = PLAIN
    if a_full:
        a_id = b.in_layout(a_id, layout)
    if other_full:
        other_id = b.in_layout(other_id, layout)
    out = b.value(sizes, layout=layout)
    b.op(OpParams.OpParams.Binary, params, [a_id, other_id], out)
    return out


def _pow_claim(node: Node) -> str | None:
    exponent = node.args[1]
    return None if _number(exponent) and exponent in _POW_EXPONENTS else f"exponent {exponent!r}"


@lowers(aten.pow.Tensor_Scalar, support=OpSupport(FLOAT, constraint=_pow_claim))
def _pow(b: Builder, node: Node) -> int:
    fused = rms_norm_lowering(b, node)
    if fused is not None:
        return fused
    x_id = b.input(node.args[0])
    if node.args[1] == 2:
        params = Binary.BinaryT()
        params.op = BinaryOp.BinaryOp.Mul
        return _binary_values(b, params, x_id, x_id, static_sizes(node))
    params = Unary.UnaryT()
    params.op = UnaryOp.UnaryOp.Sqrt
    out = b.value(static_sizes(node), layout=b.values[x_id].layout)
    b.op(OpParams.OpParams.Unary, params, [x_id], out)
    return out


@lowers(aten.relu.default, aten.hardtanh.default, aten.clamp.default)
def _clamp(b: Builder, node: Node) -> int:
    params = Unary.UnaryT()
    params.op = UnaryOp.UnaryOp.Clamp
    x_id = b.input(node.args[0])
    out = b.value(static_sizes(node), layout=b.values[x_id].layout)
    b.op(OpParams.OpParams.Unary, params, [x_id], out, clamp_bounds(node))
    return out


@lowers(*_UNARY, aten.gelu.default)
def _unary(b: Builder, node: Node) -> int:
    fused = rms_norm_lowering(b, node)
    if fused is not None:
        return fused
    if node.target is aten.gelu.default:
        approximate = node.kwargs.get("approximate", node.args[1] if len(node.args) > 1 else "none")
        kind = UnaryOp.UnaryOp.GeluTanh if approximate == "tanh" else UnaryOp.UnaryOp.Gelu
    else:
        kind = _UNARY[node.target]
    return unary(b, kind, node.args[0], static_sizes(node), {node})


def unary(b: Builder, kind: int, x: Node, sizes: list[int], nodes: set[Node]) -> int:
    """kind(x), computed by `nodes`: fused into the Linear or Conv2d that
    produces x when nothing else reads x, else a Unary op."""
    fused = b.fuse_activation(x, kind, nodes)
    if fused is not None:
        return fused
    params = Unary.UnaryT()
    params.op = kind
    x_id = b.input(x)
    out = b.value(sizes, layout=b.values[x_id].layout)
    b.op(OpParams.OpParams.Unary, params, [x_id], out)
    return out


# --- activations that torch.export decomposes: one Unary op (or a fused
# activation) instead of their pieces ---

def _only_user(node: Node) -> Node | None:
    return next(iter(node.users)) if isinstance(node, Node) and len(node.users) == 1 else None


def _is_call(node: object, *targets: object) -> bool:
    return isinstance(node, Node) and node.op == "call_function" and node.target in targets


def _operands(node: Node) -> tuple[object, object]:
    return node.args[0], node.args[1]


def _match_silu(mul: Node) -> tuple[Node, list[Node]] | None:
    """x * sigmoid(x) (either order): x and the inner nodes."""
    a, c = _operands(mul)
    for x, s in ((a, c), (c, a)):
        if _is_call(s, aten.sigmoid.default) and s.args[0] is x and _only_user(s) is mul:
            return x, [s]
    return None


def _clamp_chain(node: object) -> tuple[Node, float, float, list[Node]] | None:
    """clamp(...clamp(v)) with single-user links: v, the combined bounds, the clamps."""
    low, high, chain = -math.inf, math.inf, []
    while _is_call(node, *CLAMPS):
        lo, hi = clamp_bounds(node)
        low, high = max(low, lo), min(high, hi)
        chain.append(node)
        inner = node.args[0]
        if _only_user(inner) is not node:
            break
        node = inner
    if not chain:
        return None
    return chain[-1].args[0], low, high, chain


def _match_relu6_of_x_plus_3(node: object) -> tuple[Node, list[Node]] | None:
    """clamp(x + 3, 0, 6), the clamps possibly split in two: x and the inner nodes."""
    chain = _clamp_chain(node)
    if chain is None or (chain[1], chain[2]) != (0.0, 6.0):
        return None
    add, clamps = chain[0], chain[3]
    if (not _is_call(add, aten.add.Tensor, aten.add.Scalar) or add.args[1] != 3
            or len(add.args) > 2 or add.kwargs or _only_user(add) is not clamps[-1]
            or not isinstance(add.args[0], Node)):
        return None
    return add.args[0], [add, *clamps]


def _match_hard(div: Node) -> tuple[int, Node, list[Node]] | None:
    """x * relu6(x + 3) / 6 (hardswish) or relu6(x + 3) / 6 (hardsigmoid)."""
    if len(div.args) != 2 or div.args[1] != 6 or div.kwargs:
        return None
    top = div.args[0]
    if not isinstance(top, Node) or _only_user(top) is not div:
        return None
    if _is_call(top, aten.mul.Tensor):
        a, c = _operands(top)
        for x, r in ((a, c), (c, a)):
            inner = _match_relu6_of_x_plus_3(r)
            if inner is not None and inner[0] is x and _only_user(r) is top:
                return UnaryOp.UnaryOp.HardSwish, x, [top, *inner[1]]
        return None
    inner = _match_relu6_of_x_plus_3(top)
    if inner is not None:
        return UnaryOp.UnaryOp.HardSigmoid, inner[0], inner[1]
    return None


def find_activations(subgraph: ProgramGraph) -> dict[Node, Callable[[Builder, Node], int] | None]:
    fusions: dict[Node, Callable[[Builder, Node], int] | None] = {}
    for node in subgraph.graph.nodes:
        if _is_call(node, aten.mul.Tensor):
            m = _match_silu(node)
            if m is not None and not any(n in fusions for n in [node, *m[1]]):
                for inner in m[1]:
                    fusions[inner] = None
                fusions[node] = lambda b, n, x=m[0], nodes={node, *m[1]}: unary(
                    b, UnaryOp.UnaryOp.Silu, x, static_sizes(n), nodes)
        elif _is_call(node, aten.div.Tensor, aten.div.Scalar):
            h = _match_hard(node)
            if h is not None and not any(n in fusions for n in [node, *h[2]]):
                for inner in h[2]:
                    fusions[inner] = None
                fusions[node] = lambda b, n, kind=h[0], x=h[1], nodes={node, *h[2]}: unary(
                    b, kind, x, static_sizes(n), nodes)
    return fusions


FUSIONS.append(find_activations)
