"""Quantized units on the int8 kernels (docs/quantization.md has the graphs).

Static int8 (`scheme="int8"`): a convolution or linear layer between a
`dequantize_per_tensor` of its int8 input (with a `dequantize_per_channel`
of its constant int8 weight) and the `quantize_per_tensor` of its output,
with the relu / relu6 between them, lowers to one Qs8Conv2d or Qs8Linear
running in int8 (activations NHWC inside convolution chains, as the f32 path
keeps them); an add (+relu) between dequantizes and a quantize to one
Qs8Binary. A linear whose output stays float (a model output) is a
Qs8Linear with float output. Every other `quantize_per_tensor` and
`dequantize_per_tensor` becomes a Qs8Convert, so the graph's float input and
output, and the float ops of a quantized model (pools, reshapes, means, an
op the quantizer left float), run on the f32 ops between conversions; but a
max pool or a constant pad between a dequantize and a quantize of the same
parameters runs on the int8 values (Pool2d, Pad).

Dynamic (`int8-dynamic`, `8da4w`): choose_qparams_per_token_asymmetric ->
quantize_per_token -> dequantize_per_token -> (view) -> addmm / mm with a
dequantized per-channel int8 or per-group 4-bit weight -> (view) lowers to
one Qd8Linear (per-token quantization and the int8 GEMM with float out).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch.fx import Node

import ember.quantize.ops  # noqa: F401  (defines ember_quant::unpack_int4)
from ember.backends.backend import OpSupport
from ember.backends.cpu import lowering, ops_layout, ops_pool
from ember.backends.cpu.lowering import (
    CLAMPS,
    NHWC,
    PLAIN,
    Builder,
    clamp_bounds,
    lowers,
    static_sizes,
)
from ember.cpu_fb import (
    BinaryOp,
    DataType,
    OpParams,
    Qd8Linear,
    Qs8Binary,
    Qs8Conv2d,
    Qs8Convert,
    Qs8Linear,
)
from ember.passes.graph import ProgramGraph

aten = torch.ops.aten
qd = torch.ops.quantized_decomposed
QUANTIZE = qd.quantize_per_tensor.default
DEQUANTIZE = qd.dequantize_per_tensor.default
DEQUANTIZE_CHANNEL = qd.dequantize_per_channel.default
DEQUANTIZE_GROUP = qd.dequantize_per_channel_group.default
UNPACK_INT4 = torch.ops.ember_quant.unpack_int4.default
CHOOSE_PER_TOKEN = qd.choose_qparams_per_token_asymmetric.default
QUANTIZE_TOKEN = qd.quantize_per_token.default
DEQUANTIZE_TOKEN = qd.dequantize_per_token.default
INT8 = DataType.DataType.Int8
lowering.DTYPES[torch.int8] = INT8
lowering._ELEMENT_SIZE[INT8] = 1

IsConstant = Callable[[Any], bool]


# --- per-tensor parameters ---

@dataclass(frozen=True)
class QParams:
    scale: float
    zero: int
    qmin: int
    qmax: int


def _qparams(node: Node) -> QParams | None:
    """The parameters of an int8 quantize/dequantize_per_tensor, or None."""
    if node.op != "call_function" or node.target not in (QUANTIZE, DEQUANTIZE):
        return None
    scale, zero, qmin, qmax, dtype = node.args[1:6]
    if (dtype != torch.int8 or not isinstance(scale, float) or not isinstance(zero, int)
            or not scale > 0 or not -128 <= qmin <= zero <= qmax <= 127):
        return None
    return QParams(scale, zero, qmin, qmax)


def _quantized(value: float, q: QParams) -> int:
    """quantize_per_tensor of one float (float32 arithmetic, as torch)."""
    if value == float("inf"):
        return q.qmax
    if value == float("-inf"):
        return q.qmin
    inv = np.float32(1.0 / q.scale)
    code = int(np.rint(np.float32(value) * inv)) + q.zero
    return min(max(code, q.qmin), q.qmax)


def _output_range(clamp: Node | None, q: QParams) -> tuple[int, int]:
    """The int8 clamp a fused relu / relu6 / clamp before `q` amounts to."""
    if clamp is None:
        return q.qmin, q.qmax
    low, high = clamp_bounds(clamp)
    return _quantized(low, q), _quantized(high, q)


def _single_user(node: Any, user: Node) -> bool:
    return isinstance(node, Node) and list(node.users) == [user]


# --- the units ---

@dataclass
class Unit:
    """A pattern lowered as one op at its last node: `nodes` are all of it.
    `shared` (of `nodes`) may belong to other units too: a per-token
    quantization that several linear layers read (q, k and v), which each
    op names again as its input (the C++ backend quantizes it once for all
    of them)."""
    nodes: list[Node]
    lower: Callable[[Builder], int]
    shared: list[Node] = field(default_factory=list)
    last: Node = field(init=False)

    def __post_init__(self) -> None:
        self.last = self.nodes[-1]


def _weight_per_channel(node: Any, is_constant: IsConstant,
                        constant: Callable[[Node], torch.Tensor]) -> bool:
    """dequantize_per_channel of constant int8 weights, symmetric, axis 0."""
    if not isinstance(node, Node) or node.target is not DEQUANTIZE_CHANNEL:
        return False
    w, scales, zeros = node.args[:3]
    axis, dtype = node.args[3], node.args[6]
    if axis != 0 or dtype != torch.int8 or not is_constant(w) or not is_constant(scales):
        return False
    return zeros is None or (is_constant(zeros) and not constant(zeros).any())


def _quantized_output(node: Node) -> tuple[Node | None, Node] | None:
    """(the fused clamp or None, the quantize_per_tensor) that alone read node's output."""
    users = list(node.users)
    if len(users) != 1:
        return None
    user = users[0]
    if user.target in CLAMPS:
        after = list(user.users)
        if len(after) == 1 and _qparams(after[0]) is not None and after[0].target is QUANTIZE:
            return user, after[0]
        return None
    if _qparams(user) is not None and user.target is QUANTIZE:
        return None, user
    return None


def _input(node: Any, reader: Node) -> Node | None:
    """The dequantize_per_tensor that `reader` alone reads, or None."""
    if isinstance(node, Node) and node.target is DEQUANTIZE and _qparams(node) is not None \
            and _single_user(node, reader):
        return node
    return None


def _conv_unit(node: Node, is_constant: IsConstant, constant: Callable[[Node], torch.Tensor]
               ) -> Unit | None:
    x, weight, bias, stride, padding, dilation, transposed, _, groups = node.args
    dq = _input(x, node)
    out = _quantized_output(node)
    if (dq is None or out is None or transposed or len(node.meta["val"].shape) != 4
            or not _weight_per_channel(weight, is_constant, constant) or not _single_user(weight, node)
            or (bias is not None and not is_constant(bias))):
        return None
    clamp, q = out

    def lower(b: Builder) -> int:
        params = Qs8Conv2d.Qs8Conv2dT()
        _weights(b, params, weight, bias, constant)
        params.stride, params.padding, params.dilation = list(stride), list(padding), list(dilation)
        params.groups = groups
        _requant(params, _qparams(dq), _qparams(q), clamp)
        xv = b.in_layout(b.input(dq.args[0]), NHWC)
        result = b.value(static_sizes(q), layout=NHWC, dtype=INT8)
        b.op(OpParams.OpParams.Qs8Conv2d, params, [xv], result)
        return result

    return Unit([n for n in (weight, dq, node, clamp, q) if n is not None], lower)


def _linear_parts(node: Node, is_constant: IsConstant) -> tuple[Any, Node, Node] | None:
    """(bias, x, dequantized weight) of addmm(bias, x, permute(wd)) / mm(x, permute(wd))."""
    if node.target is aten.addmm.default:
        if node.kwargs.get("beta", 1) != 1 or node.kwargs.get("alpha", 1) != 1:
            return None
        bias, x, wt = node.args[:3]
        if bias is not None and (not is_constant(bias) or len(bias.meta["val"].shape) != 1):
            return None
    else:
        bias, (x, wt) = None, node.args[:2]
    if (not isinstance(wt, Node) or wt.target is not aten.permute.default
            or list(wt.args[1]) != [1, 0] or not _single_user(wt, node)):
        return None
    return bias, x, wt


def _linear_unit(node: Node, is_constant: IsConstant, constant: Callable[[Node], torch.Tensor]
                 ) -> Unit | None:
    parts = _linear_parts(node, is_constant)
    if parts is None:
        return None
    bias, x, wt = parts
    weight = wt.args[0]
    dq = _input(x, node)
    if dq is None or not _weight_per_channel(weight, is_constant, constant) or not _single_user(weight, wt):
        return None
    out = _quantized_output(node)
    clamp, q = out if out is not None else (None, None)

    def lower(b: Builder) -> int:
        params = Qs8Linear.Qs8LinearT()
        _weights(b, params, weight, bias, constant)
        _requant(params, _qparams(dq), _qparams(q) if q is not None else None, clamp)
        params.floatOutput = q is None
        xv = b.in_layout(b.input(dq.args[0]), PLAIN)
        last = q if q is not None else node
        result = b.value(static_sizes(last), dtype=INT8 if q is not None else
                         DataType.DataType.Float32)
        b.op(OpParams.OpParams.Qs8Linear, params, [xv], result)
        return result

    return Unit([n for n in (weight, wt, dq, node, clamp, q) if n is not None], lower)


def _add_unit(node: Node, is_constant: IsConstant, constant: Callable[[Node], torch.Tensor]
              ) -> Unit | None:
    if len(node.args) != 2 or node.kwargs.get("alpha", 1) != 1:
        return None
    a, b_node = (_input(arg, node) for arg in node.args)
    out = _quantized_output(node)
    if (a is None or b_node is None or a is b_node or out is None
            or a.meta["val"].shape != node.meta["val"].shape
            or b_node.meta["val"].shape != node.meta["val"].shape):
        return None
    clamp, q = out

    def lower(b: Builder) -> int:
        qa, qb, qo = _qparams(a), _qparams(b_node), _qparams(q)
        params = Qs8Binary.Qs8BinaryT()
        params.op = BinaryOp.BinaryOp.Add
        params.aScale, params.aZero = qa.scale, qa.zero
        params.bScale, params.bZero = qb.scale, qb.zero
        params.outputScale, params.outputZero = qo.scale, qo.zero
        params.outMin, params.outMax = _output_range(clamp, qo)
        av = b.input(a.args[0])
        bv = b.in_layout(b.input(b_node.args[0]), b.values[av].layout)
        result = b.value(static_sizes(q), layout=b.values[av].layout, dtype=INT8)
        b.op(OpParams.OpParams.Qs8Binary, params, [av, bv], result)
        return result

    return Unit([n for n in (a, b_node, node, clamp, q) if n is not None], lower)


def _dynamic_linear_unit(node: Node, is_constant: IsConstant,
                         constant: Callable[[Node], torch.Tensor]) -> Unit | None:
    """[view] <- addmm/mm(view(dequantize_per_token(quantize_per_token(x, s, z))),
    permute(dequantized weight)); the chain's nodes read nothing else."""
    parts = _linear_parts(node, is_constant)
    if parts is None:
        return None
    bias, x, wt = parts
    chain: list[Node] = []
    if isinstance(x, Node) and x.target is aten.view.default and _single_user(x, node):
        chain.append(x)
        x = x.args[0]
    if not isinstance(x, Node) or x.target is not DEQUANTIZE_TOKEN:
        return None
    dq = x
    qt = dq.args[0]
    if not isinstance(qt, Node) or qt.target is not QUANTIZE_TOKEN or not _single_user(qt, dq):
        return None
    scale, zero = qt.args[1:3]
    if (not isinstance(scale, Node) or scale.target is not operator.getitem
            or not isinstance(zero, Node) or zero.target is not operator.getitem
            or scale.args[0] is not zero.args[0] or dq.args[1] is not scale
            or dq.args[2] is not zero or tuple(qt.args[3:5]) != (-128, 127)):
        return None
    choose = scale.args[0]
    if (choose.target is not CHOOSE_PER_TOKEN or choose.args[0] is not qt.args[0]
            or set(choose.users) != {scale, zero}
            or set(scale.users) != {qt, dq} or set(zero.users) != {qt, dq}):
        return None
    source = qt.args[0]
    weight = wt.args[0]
    bits, group, unpack = 8, 0, None
    if _weight_per_channel(weight, is_constant, constant) and _single_user(weight, wt):
        pass
    elif (isinstance(weight, Node) and weight.target is DEQUANTIZE_GROUP
          and _single_user(weight, wt) and isinstance(weight.args[0], Node)
          and weight.args[0].target is UNPACK_INT4 and _single_user(weight.args[0], weight)
          and is_constant(weight.args[0].args[0]) and is_constant(weight.args[1])
          and weight.args[2] is None and tuple(weight.args[3:5]) == (-8, 7)):
        bits, group, unpack = 4, int(weight.args[6]), weight.args[0]
    else:
        return None
    last = node
    users = list(node.users)
    if len(users) == 1 and users[0].target is aten.view.default:
        last = users[0]

    def lower(b: Builder) -> int:
        params = Qd8Linear.Qd8LinearT()
        params.bits, params.groupSize = bits, group
        if unpack is not None:
            packed = constant(unpack.args[0])
            params.weight = b.raw_constant(packed.view(torch.int8), INT8)
            params.weightScales = b.constant(constant(weight.args[1]))
        else:
            params.weight = b.raw_constant(constant(weight.args[0]), INT8)
            params.weightScales = b.constant(constant(weight.args[1]))
        params.bias = b.input(bias) if bias is not None else -1
        xv = b.in_layout(b.input(source), PLAIN)
        result = b.value(static_sizes(last))
        b.op(OpParams.OpParams.Qd8Linear, params, [xv], result)
        return result

    shared = [choose, scale, zero, qt, dq]
    nodes = [*shared, *chain, *(n for n in (unpack,) if n is not None), weight, wt, node]
    if last is not node:
        nodes.append(last)
    return Unit(nodes, lower, shared)


def _weights(b: Builder, params: Any, weight: Node, bias: Any,
             constant: Callable[[Node], torch.Tensor]) -> None:
    w, scales = weight.args[:2]
    params.weight = b.raw_constant(constant(w), INT8)
    params.weightScales = b.constant(constant(scales))
    params.bias = b.input(bias) if bias is not None else -1


def _requant(params: Any, qin: QParams, qout: QParams | None, clamp: Node | None) -> None:
    params.inputScale, params.inputZero = qin.scale, qin.zero
    if qout is not None:
        params.outputScale, params.outputZero = qout.scale, qout.zero
        params.outMin, params.outMax = _output_range(clamp, qout)
    else:
        params.outputScale = 1.0


def _max_pool_unit(node: Node, is_constant: IsConstant,
                   constant: Callable[[Node], torch.Tensor]) -> Unit | None:
    """quantize(max_pool2d(dequantize(x))) with the same parameters both
    sides (the quantizer shares them): quantization is monotonic, so the max
    of the int8 codes is the code of the max, and the pool runs on x's int8
    values, exactly."""
    dq = _input(node.args[0], node)
    if dq is None or ops_pool.max_pool_claim(node) is not None:
        return None
    values = [u for u in node.users if u.target is operator.getitem and u.args[1] == 0]
    if len(values) != 1 or len(values[0].users) != 1:
        return None
    q = next(iter(values[0].users))
    if q.target is not QUANTIZE or _qparams(q) != _qparams(dq):
        return None

    def lower(b: Builder) -> int:
        params = ops_pool.max_pool_params(node)
        x = b.in_layout(b.input(dq.args[0]), NHWC)
        result = b.value(static_sizes(q), layout=NHWC, dtype=INT8)
        b.op(OpParams.OpParams.Pool2d, params, [x], result)
        return result

    return Unit([dq, node, values[0], q], lower)


def _pad_unit(node: Node, is_constant: IsConstant,
              constant: Callable[[Node], torch.Tensor]) -> Unit | None:
    """quantize(constant_pad_nd(dequantize(x), value)) with the same
    parameters both sides (the quantizer shares them; TF-style "same" padding
    before a strided convolution): the codes of x pass through unchanged and
    the fill is the code of `value`, as the round trip through float gives,
    so the pad runs on int8 values, a quarter of the bytes, and no
    conversions surround it."""
    dq = _input(node.args[0], node)
    value = ops_layout.pad_value(node)
    if dq is None or ops_layout.pad_claim(node) is not None or not math.isfinite(value):
        return None
    if len(node.users) != 1:
        return None
    q = next(iter(node.users))
    qparams = _qparams(dq)
    if q.target is not QUANTIZE or _qparams(q) != qparams:
        return None

    def lower(b: Builder) -> int:
        return ops_layout.lower_pad(b, node, b.input(dq.args[0]), float(_quantized(value, qparams)))

    return Unit([dq, node, q], lower)


_UNITS = {
    aten.convolution.default: [_conv_unit],
    aten.max_pool2d_with_indices.default: [_max_pool_unit],
    aten.constant_pad_nd.default: [_pad_unit],
    aten.addmm.default: [_linear_unit, _dynamic_linear_unit],
    aten.mm.default: [_linear_unit, _dynamic_linear_unit],
    aten.add.Tensor: [_add_unit],
}


def units(graph: torch.fx.Graph, is_constant: IsConstant,
          constant: Callable[[Node], torch.Tensor]) -> list[Unit]:
    """Every quantized unit of `graph`, none sharing a node."""
    found: list[Unit] = []
    taken: set[Node] = set()
    for node in graph.nodes:
        for match in _UNITS.get(node.target, ()) if node.op == "call_function" else ():
            unit = match(node, is_constant, constant)
            if unit is not None and not taken & (set(unit.nodes) - set(unit.shared)):
                found.append(unit)
                taken.update(set(unit.nodes) - set(unit.shared))
                break
    # A shared node's readers must all be in units, else its value is needed.
    inside: set[Node] = set()
    for unit in found:
        inside.update(unit.nodes)
    return [u for u in found if all(set(n.users) <= inside for n in u.shared)]


def find(subgraph: ProgramGraph) -> dict[Node, Callable[[Builder, Node], int] | None]:
    patterns: dict[Node, Callable[[Builder, Node], int] | None] = {}
    for unit in units(subgraph.graph, subgraph.is_constant, subgraph.constant):
        for node in unit.nodes:
            patterns[node] = None
        patterns[unit.last] = lambda b, _node, unit=unit: unit.lower(b)
    return patterns


# The last graph looked at, its node count, its units and their nodes.
_found: list[Any] = [None, 0, [], set()]


def _program_units(program: ProgramGraph) -> tuple[list[Unit], set[Node]]:
    """`program`'s units and all their nodes, found once per graph."""
    if _found[0] is not program.graph or _found[1] != len(program.graph.nodes):
        found = units(program.graph, program.is_constant, program.constant)
        nodes: set[Node] = set()
        for unit in found:
            nodes.update(unit.nodes)
        _found[:] = [program.graph, len(program.graph.nodes), found, nodes]
    return _found[2], _found[3]


def claims(node: Node, program: ProgramGraph) -> bool:
    """Whether `node` is part of a quantized unit of `program`."""
    return node in _program_units(program)[1]


def groups(program: ProgramGraph) -> list[set[Node]]:
    """The units' nodes, units that share nodes (one per-token quantization
    read by q, k and v) merged: a subgraph must hold all of them to lower any."""
    merged: list[set[Node]] = []
    for unit in _program_units(program)[0]:
        group = set(unit.nodes)
        for other in [m for m in merged if m & group]:
            group |= other
            merged.remove(other)
        merged.append(group)
    return merged


lowering.FUSIONS.append(find)
lowering.CLAIMS.append(claims)
lowering.GROUPS.append(groups)


# --- the conversions left over: float <-> int8 around float ops ---

def _convert_claim(node: Node) -> str | None:
    return None if _qparams(node) is not None else "not int8 per-tensor parameters"


_INT8_OR_FLOAT = frozenset({torch.float32, torch.int8})


@lowers(QUANTIZE, DEQUANTIZE, support=OpSupport(_INT8_OR_FLOAT, constraint=_convert_claim))
def _convert(b: Builder, node: Node) -> int:
    q = _qparams(node)
    assert q is not None
    params = Qs8Convert.Qs8ConvertT()
    params.quantize = node.target is QUANTIZE
    params.scale, params.zeroPoint, params.qmin, params.qmax = q.scale, q.zero, q.qmin, q.qmax
    x = b.input(node.args[0])
    result = b.value(static_sizes(node), layout=b.values[x].layout,
                     dtype=INT8 if params.quantize else DataType.DataType.Float32)
    b.op(OpParams.OpParams.Qs8Convert, params, [x], result)
    return result
