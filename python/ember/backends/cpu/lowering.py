"""One claimed subgraph -> the CPU backend's blob (backends/cpu/schema/cpu_delegate.fbs).

Three steps:
1. each node becomes an op on values (graph inputs, outputs, constants and
   scratch values), with a fused clamp where an activation follows an op that
   can apply it on the way out and nothing else reads the unclamped result;
2. layouts: convolutions and pools work channels-last (NHWC); an elementwise
   op follows its inputs; everything else, and the delegate's own inputs and
   outputs, is plain (PyTorch's row-major order). A ToLayout op converts where
   a value is needed in the other layout;
3. scratch values get offsets in one scratch arena, planned from their
   lifetimes like the program's own activations. A value may alias another
   (a view whose data is unchanged: same bytes, other sizes); it shares its
   root's memory, and the root lives as long as any alias is used. Ops whose
   results nothing uses (a copy that a later op reads through strides
   instead) are dropped first.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flatbuffers
import numpy as np
import torch
from torch.fx import Node

from ember.backends.backend import OpSupport
from ember.cpu_fb import (
    Activation,
    Clamp,
    Constant,
    DataType,
    Graph,
    Layout,
    Op,
    OpParams,
    Reshape,
    ToLayout,
    Value,
    ValueKind,
)
from ember.passes.debug_handles import debug_handle
from ember.passes.graph import ExportError, ProgramGraph
from ember.passes.memory_planning import Lifetime, plan

aten = torch.ops.aten

PLAIN, NHWC = Layout.Layout.Plain, Layout.Layout.NHWC


def channels_last_order(rank: int) -> list[int]:
    """The memory order (outermost first) of an NHWC value's logical dims:
    channels last for any rank from 3 ([N, C, L] stored as N, L, C, a 1-D
    convolution's) up ([N, C, H, W] as N, H, W, C)."""
    return [0, *range(2, rank), 1]

# The ops that apply a fused activation (and residual) to their output tiles.
_ACTIVATABLE = {OpParams.OpParams.Linear, OpParams.OpParams.Conv2d, OpParams.OpParams.Qd8Linear}

# Ops whose output a following relu/hardtanh/clamp fuses into (they apply the
# clamp on the way out); families add theirs.
CLAMPABLE: set[Any] = set()
CLAMPS = {aten.relu.default, aten.hardtanh.default, aten.clamp.default}
# node.meta key of a value that depends on no input, computed at export.
STATIC = "ember_static_value"


@dataclass
class _Value:
    sizes: list[int]
    layout: int = Layout.Layout.Plain
    kind: int = ValueKind.ValueKind.Scratch
    index: int = 0
    offset: int = 0
    nbytes: int = 0
    dtype: int = DataType.DataType.Float32
    # The value whose memory this one shares (same start, as many elements or
    # fewer): a view of unchanged data. Resolved to the root when planning.
    alias_of: int | None = None


# Element type of a value's data, by torch dtype (float32 unless listed).
DTYPES = {torch.int64: DataType.DataType.Int64, torch.int32: DataType.DataType.Int32}
_ELEMENT_SIZE = {DataType.DataType.Float32: 4, DataType.DataType.Int64: 8,
                 DataType.DataType.Int32: 4, DataType.DataType.Bool: 1}


@dataclass
class _Op:
    params_type: int
    params: Any
    inputs: list[int]
    outputs: list[int]
    clamp: tuple[float, float] | None = None
    debug_handle: int = 0
    # The node whose value the output is once the op ran (_tag_values).
    value_handle: int = 0
    # A fused activation (UnaryOp), applied before the clamp: the _ACTIVATABLE ops only.
    activation: int | None = None


@dataclass
class Builder:
    subgraph: ProgramGraph
    values: list[_Value] = field(default_factory=list)
    constants: list[bytes] = field(default_factory=list)
    ops: list[_Op] = field(default_factory=list)
    of_node: dict[Node, int] = field(default_factory=dict)
    # value id -> the value holding the same data in the other layout
    converted: dict[tuple[int, int], int] = field(default_factory=dict)
    # The op a fused clamp goes to, when a lowering's last op is not it (set
    # by the lowering; default: the last op).
    clamp_op: int | None = None
    # value id -> how its elements lie in another value's memory, for ops
    # that read through strides (ops_layout.View); views record theirs.
    views: dict[int, Any] = field(default_factory=dict)

    def root(self, value_id: int) -> int:
        """The value whose memory `value_id` uses (itself unless an alias)."""
        while self.values[value_id].alias_of is not None:
            value_id = self.values[value_id].alias_of
        return value_id

    def value(self, sizes, **kwargs) -> int:
        self.values.append(_Value(list(sizes), **kwargs))
        return len(self.values) - 1

    def constant(self, tensor: torch.Tensor) -> int:
        data = tensor.detach().to(torch.float32).contiguous()
        self.constants.append(data.numpy().tobytes())
        return self.value(data.shape, kind=ValueKind.ValueKind.Constant,
                          index=len(self.constants) - 1)

    def raw_constant(self, tensor: torch.Tensor, dtype: int) -> int:
        """A constant stored as its own bytes (int8 weights stay one byte each)."""
        data = tensor.detach().contiguous()
        self.constants.append(data.numpy().tobytes())
        return self.value(list(data.shape), kind=ValueKind.ValueKind.Constant,
                          index=len(self.constants) - 1, dtype=dtype)

    def input(self, node: Any) -> int:
        if isinstance(node, Node) and node not in self.of_node:
            if self.subgraph.is_constant(node):
                self.of_node[node] = self._read_constant(self.subgraph.constant(node))
            elif STATIC in node.meta:
                # A value computed at export (ops_static.py): a constant,
                # stored only when some op reads it.
                self.of_node[node] = self._read_constant(node.meta[STATIC])
        return self.of_node[node]

    def _read_constant(self, tensor: torch.Tensor) -> int:
        """A constant an op reads: int8 ones (a quantized position embedding,
        folded at export) stay int8 for the int8 ops, the rest are float32."""
        if tensor.dtype == torch.int8 and torch.int8 in DTYPES:
            return self.raw_constant(tensor, DTYPES[torch.int8])
        return self.constant(tensor)

    def op(self, params_type: int, params: Any, inputs: list[int], out: int,
           clamp: tuple[float, float] | None = None) -> None:
        self.ops.append(_Op(params_type, params, inputs, [out], clamp))

    def fuse_activation(self, source: Node, kind: int, readers: set[Node]) -> int | None:
        """Makes the _ACTIVATABLE op that wrote `source`'s value apply
        activation `kind` to it, when only `readers` (the activation's nodes)
        read the value and that op has no clamp or activation yet; returns
        the value, or None."""
        if (not isinstance(source, Node) or not set(source.users) <= readers
                or source not in self.of_node):
            return None
        value_id = self.of_node[source]
        if self.values[value_id].kind != ValueKind.ValueKind.Scratch:
            return None
        root = self.root(value_id)
        producer = next((op for op in reversed(self.ops) if root in op.outputs), None)
        if (producer is None or producer.params_type not in _ACTIVATABLE
                or producer.clamp is not None or producer.activation is not None):
            return None
        producer.activation = kind
        return value_id

    def _producer(self, value_id: int) -> int | None:
        """The index of the last op that wrote value_id's memory, or None."""
        root = self.root(value_id)
        return next((i for i in range(len(self.ops) - 1, -1, -1) if root in self.ops[i].outputs),
                    None)

    def fuse_residual(self, node: Node, source: Node, other: Node) -> int | None:
        """Makes add(source, other) (node) the residual step of the _ACTIVATABLE
        op that wrote source's value: that op adds other's value to its
        output as it finishes each tile. Only when node alone reads source,
        other has the output's shape and layout and is ready before that op
        runs, and the op applies nothing on the way out yet; returns the
        value, or None."""
        if (not isinstance(source, Node) or not isinstance(other, Node) or source is other
                or not set(source.users) <= {node} or source not in self.of_node):
            return None
        value_id = self.of_node[source]
        at = self._producer(value_id)
        if at is None or self.values[value_id].kind != ValueKind.ValueKind.Scratch:
            return None
        producer = self.ops[at]
        if (producer.params_type not in _ACTIVATABLE or len(producer.inputs) != 1
                or producer.clamp is not None or producer.activation is not None):
            return None
        other_id = self.input(other)
        mine = self.values[value_id]
        # In the output's layout: as is, or a conversion made already (the
        # conv's own input, converted to NHWC for it).
        if self.values[other_id].layout != mine.layout:
            other_id = self.converted.get((other_id, mine.layout), other_id)
        other_at = self._producer(other_id)
        theirs = self.values[other_id]
        written = self.values[producer.outputs[0]]
        if (theirs.sizes != mine.sizes or theirs.layout != mine.layout
                or theirs.dtype != DataType.DataType.Float32 or list(static_sizes(node)) != mine.sizes
                or (other_at is not None and other_at >= at)
                or math.prod(mine.sizes) != math.prod(written.sizes)):
            return None
        if mine is not written:
            # The source is a view of all of the op's output (a 1-D
            # convolution's [N, C, L] of its [N, C, 1, L], or that transposed
            # back to [N, L, C]): same bytes, so the addend, lying as the view
            # does, read as the op's output is the same bytes as well.
            other_id = self.value(written.sizes, layout=written.layout, alias_of=other_id)
        producer.inputs.append(other_id)
        self.clamp_op = at  # a clamp after the add applies after the residual
        return value_id

    def in_layout(self, value_id: int, layout: int) -> int:
        """`value_id`'s data in `layout`, converting once when it is not."""
        if self.values[value_id].layout == layout:
            return value_id
        key = (value_id, layout)
        if key not in self.converted:
            out = self.value(self.values[value_id].sizes, layout=layout,
                             dtype=self.values[value_id].dtype)
            self.ops.append(_Op(OpParams.OpParams.ToLayout, ToLayout.ToLayoutT(), [value_id], [out]))
            self.converted[key] = out
        return self.converted[key]


def lower(subgraph: ProgramGraph,
          extra: dict[Any, Callable[[Builder, Node], int]] | None = None) -> bytes:
    """`extra`: another backend's lowerings (to this blob format) of targets
    the CPU backend does not claim (the Vulkan backend's), tried first."""
    builder = Builder(subgraph)
    for i, node in enumerate(subgraph.user_inputs()):
        dtype = node.meta["val"].dtype
        # A bool input is an attention's mask (ops_attention): no other op claims one.
        dtype = (DataType.DataType.Bool if dtype == torch.bool
                 else DTYPES.get(dtype, DataType.DataType.Float32))
        builder.of_node[node] = builder.value(static_sizes(node), kind=ValueKind.ValueKind.Input,
                                              index=i, dtype=dtype)
    fused: set[Node] = set()
    patterns: dict[Node, Callable[[Builder, Node], int] | None] = {}
    for find in FUSIONS:
        patterns.update(find(subgraph))
    for node in subgraph.graph.nodes:
        if node.op != "call_function" or node in fused:
            continue
        if node in patterns:
            # Part of a pattern lowered as one op at its last node.
            if patterns[node] is not None:
                first_op = len(builder.ops)
                builder.of_node[node] = patterns[node](builder, node)
                _tag_ops(builder, first_op, node)
            continue
        clamp_node = _fusable_clamp(node, subgraph)
        builder.clamp_op = None
        first_op = len(builder.ops)
        out = _lower_node(builder, node, extra)
        _tag_ops(builder, first_op, node)
        if clamp_node is not None:
            at = builder.clamp_op if builder.clamp_op is not None else -1
            builder.ops[at].clamp = clamp_bounds(clamp_node)
            fused.add(clamp_node)
            builder.of_node[clamp_node] = out
    outputs = list(subgraph.graph.output_node().args[0])
    for i, node in enumerate(outputs):
        if patterns.get(node, 0) is None and node not in builder.of_node and STATIC not in node.meta:
            # Lowered to nothing (an attention mask evaluated at export) and
            # used in another delegate, by nodes lowered to nothing as well:
            # nobody reads it, so the output is left unwritten.
            continue
        value_id = builder.in_layout(builder.input(node), Layout.Layout.Plain)
        if (builder.values[value_id].kind != ValueKind.ValueKind.Scratch
                or builder.values[value_id].alias_of is not None):
            # An input or constant returned as is, a value returned twice, or
            # an alias (whose memory is its root's): copy it.
            copy = builder.value(builder.values[value_id].sizes,
                                 dtype=builder.values[value_id].dtype)
            builder.ops.append(_Op(OpParams.OpParams.Reshape, Reshape.ReshapeT(), [value_id], [copy]))
            value_id = copy
        builder.values[value_id].kind = ValueKind.ValueKind.Output
        builder.values[value_id].index = i
    _drop_dead_ops(builder)
    _tag_values(builder, subgraph)
    scratch_bytes = _plan_scratch(builder)
    return _serialize(builder, len(subgraph.user_inputs()), len(outputs), scratch_bytes)


def _tag_ops(b: Builder, first: int, node: Node) -> None:
    """The ops lowered from `node` carry its debug handle (for the profiler)."""
    for op in b.ops[first:]:
        if op.debug_handle == 0:
            op.debug_handle = debug_handle(node)


def _tag_values(b: Builder, subgraph: ProgramGraph) -> None:
    """Marks the last op writing each value with the handle of the node whose
    value that memory holds afterwards: the node lowered last onto it (an
    activation or residual add fused into a conv is that value's final node;
    a view of it counts too). Only when that node's value is the op's output
    itself, with its shape and dtype, so that a capturing tracer sees
    exactly the node's value."""
    order = {n: i for i, n in enumerate(subgraph.graph.nodes)}
    last_node: dict[int, tuple[Node, int]] = {}  # root value -> (node, its value)
    for node, value_id in b.of_node.items():
        if node.op != "call_function" or not isinstance(value_id, int) or value_id < 0:
            continue
        root = b.root(value_id)
        if root not in last_node or order[node] > order[last_node[root][0]]:
            last_node[root] = (node, value_id)
    last_writer = {v: i for i, op in enumerate(b.ops) for v in op.outputs}
    for root, (node, value_id) in last_node.items():
        val = node.meta.get("val")
        value = b.values[value_id]
        if (value_id != root or root not in last_writer or not isinstance(val, torch.Tensor)
                or val.dtype not in _CAPTURABLE or list(val.shape) != value.sizes
                or DTYPES.get(val.dtype, DataType.DataType.Float32) != value.dtype):
            continue
        b.ops[last_writer[root]].value_handle = debug_handle(node)


_CAPTURABLE = (torch.float32, torch.int64, torch.int32)


def static_sizes(node: Node) -> list[int]:
    shape = node.meta["val"].shape
    if any(not isinstance(s, int) for s in shape):
        raise ExportError(f"{node.name}: the CPU backend needs static shapes")
    return list(shape)


def _fusable_clamp(node: Node, subgraph: ProgramGraph) -> Node | None:
    if node.target not in CLAMPABLE or len(node.users) != 1:
        return None
    (user,) = node.users
    return user if user.target in CLAMPS else None


def clamp_bounds(node: Node) -> tuple[float, float]:
    if node.target is aten.relu.default:
        return 0.0, math.inf
    if node.target is aten.hardtanh.default:
        return (float(node.args[1]) if len(node.args) > 1 else -1.0,
                float(node.args[2]) if len(node.args) > 2 else 1.0)
    low = node.args[1] if len(node.args) > 1 else node.kwargs.get("min")
    high = node.args[2] if len(node.args) > 2 else node.kwargs.get("max")
    return (-math.inf if low is None else float(low), math.inf if high is None else float(high))


# Patterns of several nodes lowered as one op (ops_attention.py). A finder
# maps the nodes of each pattern it finds in a subgraph to None, except the
# pattern's last node, which maps to the function lowering the whole pattern.
# CLAIMS: functions (node, program) -> True for nodes the backend runs as part
# of such a pattern, whatever SUPPORT says of the node on its own.
FUSIONS: list[Callable[[ProgramGraph], dict[Node, Callable[[Builder, Node], int] | None]]] = []
CLAIMS: list[Callable[[Node, ProgramGraph], bool]] = []
# GROUPS: functions program -> the node sets of its patterns that must be
# delegated whole (Backend.fused_groups): a finder only sees its subgraph.
GROUPS: list[Callable[[ProgramGraph], list[set[Node]]]] = []

# target -> function(builder, node) -> the output value id, and what the
# backend claims of it. Each op family (ops_*.py) registers its ops with
# @lowers; the backend claims exactly what is registered.
LOWERINGS: dict[Any, Callable[[Builder, Node], int]] = {}
SUPPORT: dict[Any, OpSupport] = {}
FLOAT = frozenset({torch.float32})


# target -> the argument positions that must be constants of the program
# (weights the backend packs at init), checked with the program at claim time.
CONSTANT_ARGS: dict[Any, tuple[int, ...]] = {}


def check_constant_args(node: Node, program: ProgramGraph) -> str | None:
    for i in CONSTANT_ARGS.get(node.target, ()):
        arg = node.args[i] if i < len(node.args) else None
        if isinstance(arg, Node) and not program.is_constant(arg):
            return f"argument {i} (a weight) is not a constant of the program"
    return None


def lowers(*targets: Any, support: OpSupport | None = None) -> Callable:
    """Registers a lowering for `targets`, claimed as `support` says (float32,
    static shapes, no further constraint by default)."""
    def register(fn: Callable[[Builder, Node], int]) -> Callable[[Builder, Node], int]:
        for target in targets:
            if target in LOWERINGS:
                raise RuntimeError(f"two CPU-backend lowerings for {target}")
            LOWERINGS[target] = fn
            SUPPORT[target] = support if support is not None else OpSupport(FLOAT)
        return fn
    return register


# source target -> the lowering of getitem(source, i), for multi-output ops
# whose outputs are not simply "output 0" (split: each piece is a view).
GETITEM_LOWERINGS: dict[Any, Callable[[Builder, Node], int]] = {}


def _getitem(b: Builder, node: Node) -> int:
    """getitem(op, i) of a multi-output op the backend claimed (the partitioner
    takes getitems with their op). By default output 0 is the op's value and
    the op's claim guarantees that nothing reads the others (max pooling's
    indices, layer norm's mean and rstd), so no value backs them."""
    source, index = node.args
    special = GETITEM_LOWERINGS.get(source.target)
    if special is not None:
        return special(b, node)
    return b.of_node[source] if index == 0 else -1


# Not a claim: a getitem goes wherever its op goes.
LOWERINGS[operator.getitem] = _getitem


def _lower_node(b: Builder, node: Node,
                extra: dict[Any, Callable[[Builder, Node], int]] | None = None) -> int:
    fn = (extra or {}).get(node.target) or LOWERINGS.get(node.target)
    if fn is None:
        raise ExportError(f"{node.name}: the CPU backend claimed {node.target} but cannot lower it")
    out = fn(b, node)
    b.of_node[node] = out
    return out


def _drop_dead_ops(b: Builder) -> None:
    """Drops ops whose outputs nothing reads (a copy of a view that its
    consumers read through strides instead); the values only they wrote are
    serialized empty, as are inputs no op reads (a mask a fused pattern
    evaluated at export), which the runtime then does not check."""
    live = {v for v, value in enumerate(b.values) if value.kind == ValueKind.ValueKind.Output}
    kept = []
    for op in reversed(b.ops):
        if not any(v in live for v in op.outputs):
            continue
        kept.append(op)
        for v in op.inputs:
            live.add(v)
            live.add(b.root(v))
    b.ops = kept[::-1]
    used: set[int] = set()
    for op in b.ops:
        for v in [*op.inputs, *op.outputs]:
            # The value and every alias between it and its root.
            while v is not None and v not in used:
                used.add(v)
                v = b.values[v].alias_of
    for v, value in enumerate(b.values):
        if value.kind in (ValueKind.ValueKind.Scratch, ValueKind.ValueKind.Input) and v not in used:
            value.kind, value.index, value.sizes = ValueKind.ValueKind.Scratch, 0, [0]
            value.dtype, value.alias_of = DataType.DataType.Float32, None
            value.layout = Layout.Layout.Plain


def _plan_scratch(b: Builder) -> int:
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, op in enumerate(b.ops):
        for v in [*op.inputs, *op.outputs]:
            root = b.root(v)
            first.setdefault(root, i)
            last[root] = i
    # A Pad right before the convolution that reads it: the runtime may fold
    # the pad into a depthwise convolution's taps (cpu_backend.cpp,
    # fold_pad_into_next), which then reads the Pad's input; it must live on.
    convolutions = (OpParams.OpParams.Conv2d, OpParams.OpParams.Qs8Conv2d)
    for i, op in enumerate(b.ops[:-1]):
        after = b.ops[i + 1]
        if (op.params_type == OpParams.OpParams.Pad and after.params_type in convolutions and
                after.inputs[:1] == op.outputs):
            root = b.root(op.inputs[0])
            last[root] = max(last[root], i + 1)
    lifetimes = []
    for v, value in enumerate(b.values):
        if value.kind == ValueKind.ValueKind.Scratch and value.alias_of is None and v in first:
            nbytes = _ELEMENT_SIZE[value.dtype] * math.prod(value.sizes)
            lifetimes.append(Lifetime(v, nbytes, first[v], last[v]))
    memory = plan(lifetimes)
    for v, offset in memory.offsets.items():
        b.values[v].offset = offset
    # An alias takes its root's place: its kind, index and offset.
    for v, value in enumerate(b.values):
        if value.alias_of is not None:
            root = b.values[b.root(v)]
            value.kind, value.index, value.offset = root.kind, root.index, root.offset
    return memory.arena_size


def _serialize(b: Builder, num_inputs: int, num_outputs: int, scratch_bytes: int) -> bytes:
    graph = Graph.GraphT()
    graph.values = []
    for v in b.values:
        value = Value.ValueT()
        value.sizes, value.layout, value.kind = v.sizes, v.layout, v.kind
        value.index, value.offset = v.index, v.offset
        value.dtype = v.dtype
        graph.values.append(value)
    graph.constants = []
    for data in b.constants:
        constant = Constant.ConstantT()
        # As an array, which flatbuffers copies at once (a list of bytes goes
        # one byte per call: minutes for an embedding table).
        constant.data = np.frombuffer(data, dtype=np.uint8)
        graph.constants.append(constant)
    graph.ops = []
    for op in b.ops:
        entry = Op.OpT()
        entry.paramsType, entry.params = op.params_type, op.params
        entry.inputs, entry.outputs = op.inputs, op.outputs
        entry.debugHandle = op.debug_handle
        entry.valueHandle = op.value_handle
        if op.clamp is not None:
            entry.clamp = Clamp.ClampT()
            entry.clamp.min, entry.clamp.max = op.clamp
        if op.activation is not None:
            entry.activation = Activation.ActivationT()
            entry.activation.op = op.activation
        graph.ops.append(entry)
    graph.numInputs, graph.numOutputs, graph.scratchBytes = num_inputs, num_outputs, scratch_bytes
    builder = flatbuffers.Builder(1024)
    builder.Finish(graph.Pack(builder), file_identifier=b"ECP1")
    return bytes(builder.Output())
