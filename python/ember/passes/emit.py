"""Emission: the last graph pass. Walks the out-variant graph and writes an
Ember program: a value table, one instruction per kernel call, delegate call,
move or jump, and the constant data. It decides nothing about memory: every
planned tensor's lifetime (the instructions between its definition and its
last use) is recorded for the memory planner, which runs next.

The program objects are the flatbuffer object API generated from
schema/program.fbs (package ember.fb); serialization is in ember.serialize.
"""

from __future__ import annotations

import math
import operator
import warnings
from dataclasses import dataclass, field
from typing import Any

import sympy
import torch
from torch.fx import Node
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
from torch.utils._sympy.value_ranges import bound_sympy

from ember.fb.BackendDelegate import BackendDelegateT
from ember.fb.BackendDelegateDataReference import BackendDelegateDataReferenceT
from ember.fb.Bool import BoolT
from ember.fb.BoolList import BoolListT
from ember.fb.Chain import ChainT
from ember.fb.CompileSpec import CompileSpecT
from ember.fb.ContainerMetadata import ContainerMetadataT
from ember.fb.DataLocation import DataLocation
from ember.fb.DelegateCall import DelegateCallT
from ember.fb.Double import DoubleT
from ember.fb.DoubleList import DoubleListT
from ember.fb.EValue import EValueT
from ember.fb.ExecutionPlan import ExecutionPlanT
from ember.fb.ExtraTensorInfo import ExtraTensorInfoT
from ember.fb.Frame import FrameT
from ember.fb.FrameList import FrameListT
from ember.fb.Instruction import InstructionT
from ember.fb.InstructionArguments import InstructionArguments
from ember.fb.Int import IntT
from ember.fb.IntList import IntListT
from ember.fb.JumpFalseCall import JumpFalseCallT
from ember.fb.KernelCall import KernelCallT
from ember.fb.KernelTypes import KernelTypes
from ember.fb.MoveCall import MoveCallT
from ember.fb.Null import NullT
from ember.fb.Operator import OperatorT
from ember.fb.OptionalTensorList import OptionalTensorListT
from ember.fb.String import StringT
from ember.fb.Tensor import TensorT
from ember.fb.TensorList import TensorListT
from ember.fb.TensorShapeDynamism import TensorShapeDynamism
from ember.passes.data_dependent import unbounded_hint
from ember.passes.debug_handles import debug_handle
from ember.passes.delegation import delegate_of, is_delegate_call
from ember.passes.dim_order import dim_order_of
from ember.passes.graph import ExportError, ProgramGraph, user_frame
from ember.passes.kernel_names import KERNEL_NAMES
from ember.passes.memory_planning import Lifetime, MemoryPlan
from ember.passes.mutable_buffers import is_in_place
from ember.passes.out_variants import alloc, alloc_list, is_kernel_call, kernel_name
from ember.passes.scalar_types import LAYOUT, MEMORY_FORMAT, SCALAR_TYPE, scalar_type

# Python operators on symbolic ints, as the runtime's primitive ops (the
# names ExecuTorch uses, so files stay interchangeable).
_SYM_OPS = {
    operator.add: "executorch_prim::add.Scalar",
    operator.sub: "executorch_prim::sub.Scalar",
    operator.mul: "executorch_prim::mul.Scalar",
    operator.floordiv: "executorch_prim::floordiv.Scalar",
    operator.truediv: "executorch_prim::truediv.Scalar",
    operator.mod: "executorch_prim::mod.Scalar",
    operator.eq: "executorch_prim::eq.Scalar",
    operator.gt: "executorch_prim::gt.Scalar",
    operator.lt: "executorch_prim::lt.Scalar",
    operator.ge: "executorch_prim::ge.Scalar",
    operator.le: "executorch_prim::le.Scalar",
    operator.neg: "executorch_prim::neg.Scalar",
    torch.sym_max: "executorch_prim::sym_max.Scalar",
    torch.sym_min: "executorch_prim::sym_min.Scalar",
    torch.sym_float: "executorch_prim::sym_float.Scalar",
    torch.sym_int: "executorch_prim::sym_int.Scalar",
    math.ceil: "executorch_prim::ceil.Scalar",
    math.trunc: "executorch_prim::trunc.Scalar",
    round: "executorch_prim::round.Scalar",
    torch.ops.aten.sym_size.int: "aten::sym_size.int",
    torch.ops.aten.sym_numel.default: "aten::sym_numel",
}


@dataclass
class InstructionInfo:
    """Where an instruction came from: for error messages and profiling."""

    debug_handle: int  # the node's (ember.passes.debug_handles), 0 when it has none
    node_name: str
    operator: str
    filename: str
    lineno: int
    source: str
    # (argument position, debug handle) of each output tensor the
    # instruction writes that stands for an exported node's value.
    outputs: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class EmittedProgram:
    """One method, emitted: the execution plan and what the planner and the
    serializer need beside it."""

    plan: ExecutionPlanT
    constants: list[bytes]  # index 0 is reserved and empty
    delegate_blobs: list[bytes]  # BackendDelegate k refers to blob k
    tensors: dict[int, TensorT]  # value id -> tensor, for the planner
    lifetimes: dict[int, Lifetime]  # planned value id -> instructions it is alive for
    moves: list[tuple[int, int]]  # (source, target) value ids of MoveCalls, in order
    loops: list[tuple[int, int]]  # (head, last) instruction of each loop, inner loops first
    instructions: list[InstructionInfo] = field(default_factory=list)
    memory_plan: MemoryPlan | None = None
    # Mutable buffers: value id -> (fully qualified name, initial data). The
    # planner puts them in the shared arena (memory id 2) and the serializer
    # their initial bytes in the mutable data segment.
    buffers: dict[int, tuple[str, bytes]] = field(default_factory=dict)


class _Emitter:
    def __init__(self, program: ProgramGraph):
        self.program = program
        self.values: list[EValueT] = []
        self.node_values: dict[Node, Any] = {}
        self.instructions: list[InstructionT] = []
        self.frames: list[FrameListT] = []
        self.infos: list[InstructionInfo] = []
        self.operators: list[OperatorT] = []
        self.operator_index: dict[str, int] = {}
        self.constants: list[bytes] = [b""]
        self.constant_nodes: dict[Node, torch.Tensor] = {}  # stored when first used
        self.delegates: list[BackendDelegateT] = []
        self.delegate_blobs: list[bytes] = []
        self.lifetimes: dict[int, Lifetime] = {}
        self.tensors: dict[int, TensorT] = {}
        self.null_value: int | None = None
        self.list_values: dict[Node, int] = {}  # Tensor[] outs: alloc_list node -> its list value
        self.moves: list[tuple[int, int]] = []
        self.loops: list[tuple[int, int]] = []
        self.ranges = dict(program.range_constraints)
        self.buffers: dict[int, tuple[str, bytes]] = {}

    # --- values -------------------------------------------------------------

    def _add_value(self, kind: int, payload: Any) -> int:
        value = EValueT()
        value.valType = kind
        value.val = payload
        self.values.append(value)
        return len(self.values) - 1

    def _int(self, v: int) -> int:
        payload = IntT()
        payload.intVal = int(v)
        return self._add_value(KernelTypes.Int, payload)

    def _bool(self, v: bool) -> int:
        payload = BoolT()
        payload.boolVal = bool(v)
        return self._add_value(KernelTypes.Bool, payload)

    def _null(self) -> int:
        if self.null_value is None:
            self.null_value = self._add_value(KernelTypes.Null, NullT())
        return self.null_value

    def _upper_bound(self, size: Any, what: str, hint: str = "") -> int:
        if isinstance(size, int):
            return size
        expr = size.node.expr if isinstance(size, torch.SymInt) else size
        if isinstance(expr, sympy.Integer):
            return int(expr)
        upper = bound_sympy(expr, self.ranges).upper
        if not upper.is_number or upper > 2**31 - 1:  # int_oo compares greater too
            if free_unbacked_symbols(expr):
                raise ExportError(
                    f"{what}: the data-dependent size {expr} has no upper bound"
                    f"{'; ' + hint if hint else ''}; bound it where it is made, e.g. "
                    f"torch._check(y.shape[0] <= 64) after y = ..."
                )
            raise ExportError(
                f"{what}: dynamic size {expr} has no upper bound; give each dynamic dim a "
                f"maximum, e.g. torch.export.Dim('batch', max=64)"
            )
        return int(upper)

    def _planned_tensor(self, fake: torch.Tensor, what: str, dim_order: list[int] | None = None,
                        hint: str = "") -> int:
        """A tensor in planned memory, alive from the next instruction on."""
        tensor = TensorT()
        tensor.scalarType = scalar_type(fake.dtype)
        tensor.sizes = [self._upper_bound(s, what, hint) for s in fake.shape]
        # Kernels write row-major unless a dim-order op asks for another order.
        tensor.dimOrder = list(dim_order) if dim_order is not None else list(range(fake.dim()))
        dynamic = any(not isinstance(s, int) for s in fake.shape)
        tensor.shapeDynamism = (
            TensorShapeDynamism.DYNAMIC_BOUND if dynamic else TensorShapeDynamism.STATIC
        )
        tensor.dataBufferIdx = 0
        value_id = self._add_value(KernelTypes.Tensor, tensor)
        self.tensors[value_id] = tensor
        nbytes = math.prod(tensor.sizes) * fake.element_size()
        here = len(self.instructions)
        self.lifetimes[value_id] = Lifetime(value_id, nbytes, here, here)
        return value_id

    def _constant_value(self, data: torch.Tensor) -> int:
        data = data.detach().contiguous().cpu()
        tensor = TensorT()
        tensor.scalarType = scalar_type(data.dtype)
        tensor.sizes = list(data.shape)
        tensor.dimOrder = list(range(data.dim()))
        tensor.shapeDynamism = TensorShapeDynamism.STATIC
        # Raw bytes without numpy, so every dtype (bfloat16 included) works.
        raw = data.view(-1).view(torch.uint8).numpy().tobytes() if data.numel() else b""
        self.constants.append(raw)
        tensor.dataBufferIdx = len(self.constants) - 1
        value_id = self._add_value(KernelTypes.Tensor, tensor)
        self.tensors[value_id] = tensor
        return value_id

    def _buffer_value(self, node: Node) -> int:
        """A mutable buffer: planned for the whole method (the planner gives it
        a place in the arena methods share), starting from its initial data."""
        data = self.program.buffers[node.target].detach().contiguous().cpu()
        fqn = self.program.buffer_names.get(node.target, node.target)
        tensor = TensorT()
        tensor.scalarType = scalar_type(data.dtype)
        tensor.sizes = list(data.shape)
        tensor.dimOrder = list(range(data.dim()))
        tensor.shapeDynamism = TensorShapeDynamism.STATIC
        tensor.dataBufferIdx = 0  # the serializer points it at the initial data
        info = ExtraTensorInfoT()
        info.fullyQualifiedName = fqn
        tensor.extraTensorInfo = info
        value_id = self._add_value(KernelTypes.Tensor, tensor)
        self.tensors[value_id] = tensor
        raw = data.view(-1).view(torch.uint8).numpy().tobytes() if data.numel() else b""
        self.buffers[value_id] = (fqn, raw)
        return value_id

    def _use(self, value_id: int) -> None:
        lifetime = self.lifetimes.get(value_id)
        if lifetime is not None:
            lifetime.end = max(lifetime.end, len(self.instructions))

    # --- arguments ----------------------------------------------------------

    def _node_value(self, node: Node) -> Any:
        if node not in self.node_values and node in self.constant_nodes:
            # Constants are stored when first used, so unused ones vanish.
            self.node_values[node] = self._constant_value(self.constant_nodes[node])
        if node not in self.node_values:
            raise ExportError(f"node {node.name} is used before it is defined")
        return self.node_values[node]

    def _single(self, node: Node) -> int:
        value = self._node_value(node)
        if isinstance(value, list):
            raise ExportError(f"node {node.name} is a list; expected a single value")
        return value

    def _arg(self, value: Any, schema_type: torch._C.JitType, what: str) -> int:
        if isinstance(schema_type, torch._C.OptionalType):
            if value is None:
                return self._null()
            schema_type = schema_type.getElementType()
        if value is None:
            return self._null()
        if isinstance(value, Node):
            value_id = self._single(value)
            self._use(value_id)
            return value_id
        if isinstance(schema_type, torch._C.ListType):
            return self._list_arg(list(value), schema_type.getElementType(), what)
        if isinstance(schema_type, torch._C.TensorType) and isinstance(
                value, (bool, int, float, complex)):
            # A Python number where the schema wants a tensor (mul.Tensor(x, 2)
            # in a cond branch): a 0-d constant, which like PyTorch's wrapped
            # numbers only raises the type category in promotion.
            dtype = (torch.bool if isinstance(value, bool)
                     else torch.int64 if isinstance(value, int)
                     else torch.complex128 if isinstance(value, complex)
                     else torch.get_default_dtype())
            return self._constant_value(torch.tensor(value, dtype=dtype))
        if isinstance(value, complex):
            # The .pte has no complex scalar: a complex Scalar travels as a
            # one-element ComplexDouble constant, which kernels read as a Scalar.
            return self._constant_value(torch.tensor(value, dtype=torch.complex128))
        if isinstance(value, bool):
            return self._bool(value)
        if isinstance(value, torch.dtype):
            return self._int(scalar_type(value))
        if isinstance(value, torch.memory_format):
            if value not in MEMORY_FORMAT:
                raise ExportError(f"{what}: memory format {value} is not supported")
            return self._int(MEMORY_FORMAT[value])
        if isinstance(value, torch.layout):
            return self._int(LAYOUT[value])
        if isinstance(value, torch.device):
            return self._null()
        if isinstance(value, int) and not isinstance(schema_type, torch._C.FloatType):
            return self._int(value)
        if isinstance(value, (int, float)):
            payload = DoubleT()
            payload.doubleVal = float(value)
            return self._add_value(KernelTypes.Double, payload)
        if isinstance(value, str):
            payload = StringT()
            payload.stringVal = value
            return self._add_value(KernelTypes.String, payload)
        raise ExportError(f"{what}: cannot pass a {type(value).__name__} to a kernel")

    def _list_arg(self, items: list[Any], element_type: torch._C.JitType, what: str) -> int:
        element = element_type
        optional = isinstance(element, torch._C.OptionalType)
        if optional:
            element = element.getElementType()
        if isinstance(element, torch._C.TensorType):
            ids = [self._null() if item is None else self._arg(item, element, what) for item in items]
            payload = OptionalTensorListT() if optional else TensorListT()
            payload.items = ids
            kind = KernelTypes.OptionalTensorList if optional else KernelTypes.TensorList
            return self._add_value(kind, payload)
        if isinstance(element, (torch._C.IntType, torch._C.SymIntType)):
            payload = IntListT()
            # Items are value indices, so symbolic sizes can flow in.
            payload.items = [
                self._single(item) if isinstance(item, Node) else self._int(item) for item in items
            ]
            return self._add_value(KernelTypes.IntList, payload)
        if isinstance(element, torch._C.FloatType):
            payload = DoubleListT()
            payload.items = [float(item) for item in items]
            return self._add_value(KernelTypes.DoubleList, payload)
        if isinstance(element, torch._C.BoolType):
            payload = BoolListT()
            payload.items = [bool(item) for item in items]
            return self._add_value(KernelTypes.BoolList, payload)
        raise ExportError(f"{what}: lists of {element} are not supported")

    # --- instructions -------------------------------------------------------

    def _operator(self, name: str) -> int:
        if name not in self.operator_index:
            op = OperatorT()
            op.name, _, op.overload = name.partition(".")
            self.operators.append(op)
            self.operator_index[name] = len(self.operators) - 1
        return self.operator_index[name]

    def _kernel_call(self, node: Node, name: str, args: list[int]) -> None:
        call = KernelCallT()
        call.opIndex = self._operator(name)
        call.args = args
        self._append(node, InstructionArguments.KernelCall, call, name)

    def _append(self, node: Node, kind: int, payload: Any, name: str) -> InstructionT:
        instruction = InstructionT()
        instruction.instrArgsType = kind
        instruction.instrArgs = payload
        filename, lineno, _, source = user_frame(node)
        frame = FrameT()
        frame.filename, frame.lineno, frame.name, frame.context = filename, lineno, node.name, source
        frames = FrameListT()
        frames.items = [frame]
        self.instructions.append(instruction)
        self.frames.append(frames)
        self.infos.append(
            InstructionInfo(debug_handle(node), node.name, name, filename, lineno, source))
        return instruction

    def _emit_sym_op(self, node: Node, name: str) -> None:
        inputs = [
            self._single(a) if isinstance(a, Node) else self._arg(a, torch._C.IntType.get(), node.name)
            for a in node.args
        ]
        out = self._int(0)
        self.node_values[node] = out
        self._kernel_call(node, name, [*inputs, out])

    def _emit_alloc(self, node: Node) -> None:
        fake = node.meta["val"]
        if node.target is alloc_list:
            ids = [self._planned_tensor(f, node.name) for f in fake]
            payload = TensorListT()
            payload.items = ids
            self.node_values[node] = ids
            self.list_values[node] = self._add_value(KernelTypes.TensorList, payload)
            return
        users = [u for u in node.users if is_kernel_call(u)]
        order = dim_order_of(users[0]) if users else None
        what = f"{node.name} (out of {users[0].name})" if users else node.name
        hint = unbounded_hint(users[0]) if users else ""
        self.node_values[node] = self._planned_tensor(fake, what, order, hint)

    def _emit_kernel(self, node: Node) -> None:
        """An out-variant call: arguments in schema order, then the outs, then
        the returns (the out again, or one list of all outs), as ExecuTorch
        writes them."""
        op = node.target
        name = kernel_name(op)
        name = KERNEL_NAMES.get(name, name)
        what = f"{node.name} ({name})"
        args: list[int] = []
        outs: list[int] = []
        if is_in_place(node):
            # index_put_, copy_: the schema's arguments, then the return, which
            # is the written argument itself.
            for position, schema_arg in enumerate(op._schema.arguments):
                if position < len(node.args):
                    value = node.args[position]
                elif schema_arg.name in node.kwargs:
                    value = node.kwargs[schema_arg.name]
                elif schema_arg.has_default_value():
                    value = schema_arg.default_value
                else:
                    raise ExportError(f"{what}: no value for argument '{schema_arg.name}'")
                args.append(self._arg(value, schema_arg.type, what))
            self.node_values[node] = args[0]
            self._kernel_call(node, name, [*args, args[0]])
            return
        for schema_arg in op._schema.arguments:
            if schema_arg.name in node.kwargs:
                value = node.kwargs[schema_arg.name]
            elif schema_arg.has_default_value():
                value = schema_arg.default_value
            else:
                raise ExportError(f"{what}: no value for argument '{schema_arg.name}'")
            if schema_arg.is_out:
                if value in self.list_values:  # a Tensor[] out: the list is the out and the return
                    list_id = self.list_values[value]
                    for item in self.node_values[value]:
                        self._use(item)
                    self._kernel_call(node, name, [*args, list_id, list_id])
                    self.node_values[node] = self.node_values[value]
                    return
                out = self._single(value)
                self._use(out)
                outs.append(out)
            else:
                args.append(self._arg(value, schema_arg.type, what))
        if not outs and not op._schema.returns:  # a check: nothing to return
            returns = []
            self.node_values[node] = None
        elif len(outs) == 1:
            returns = outs
            self.node_values[node] = outs[0]
        else:
            payload = TensorListT()
            payload.items = outs
            returns = [self._add_value(KernelTypes.TensorList, payload)]
            self.node_values[node] = outs
        self._kernel_call(node, name, [*args, *outs, *returns])
        if len(outs) == 1:
            self.infos[-1].outputs = [(len(args), debug_handle(node))]

    def _emit_delegate(self, node: Node) -> None:
        lowered = delegate_of(node)
        inputs = [self._arg(a, torch._C.TensorType.get(), node.name) for a in node.args]
        outputs = [self._planned_tensor(f, node.name) for f in node.meta["val"]]
        for out in outputs:
            self._use(out)
        self.node_values[node] = outputs
        reference = BackendDelegateDataReferenceT()
        reference.location = DataLocation.SEGMENT
        reference.index = len(self.delegate_blobs)  # the serializer maps blobs to segments
        self.delegate_blobs.append(lowered.processed)
        entry = BackendDelegateT()
        entry.id = lowered.backend_id
        entry.processed = reference
        entry.compileSpecs = []
        for key, value in lowered.compile_specs.items():
            spec = CompileSpecT()
            spec.key = key
            spec.value = list(value)
            entry.compileSpecs.append(spec)
        self.delegates.append(entry)
        call = DelegateCallT()
        call.delegateIndex = len(self.delegates) - 1
        call.args = [*inputs, *outputs]
        self._append(node, InstructionArguments.DelegateCall, call, lowered.backend_id)
        handles = node.meta.get("output_debug_handles", [])
        self.infos[-1].outputs = [(len(inputs) + k, h) for k, h in enumerate(handles) if h]

    # --- the graph ----------------------------------------------------------

    def emit(self) -> EmittedProgram:
        program = self.program
        input_ids: list[int] = []
        input_nodes: list[Node] = []
        for node in program.placeholders():
            if program.is_constant(node):
                self.constant_nodes[node] = program.constant(node)
                continue
            if program.is_buffer(node):
                self.node_values[node] = self._buffer_value(node)
                continue
            input_nodes.append(node)
            value_id = self._planned_tensor(node.meta["val"], f"input {node.name}")
            self.lifetimes[value_id].start = -1
            input_ids.append(value_id)
            self.node_values[node] = value_id

        results = self._emit_graph(program.graph)
        output_ids = [self._output(result) for result in results]
        end = len(self.instructions)
        for value_id in output_ids:
            if value_id in self.lifetimes:
                self.lifetimes[value_id].end = end

        chain = ChainT()
        chain.inputs = input_ids
        chain.outputs = output_ids
        chain.instructions = self.instructions
        chain.stacktrace = self.frames
        plan = ExecutionPlanT()
        plan.name = "forward"
        meta = ContainerMetadataT()
        meta.encodedInpStr = _spec_string(program.in_spec)
        meta.encodedOutStr = _spec_string(program.out_spec)
        # What the runtime checks inputs against, naming them (Ember's addition).
        meta.inputNames = [node.name for node in input_nodes]
        meta.inputDynamicDims = [_dynamic_dims(node.meta["val"]) for node in input_nodes]
        plan.containerMetaType = meta
        plan.values = self.values
        plan.inputs = input_ids
        plan.outputs = output_ids
        plan.chains = [chain]
        plan.operators = self.operators
        plan.delegates = self.delegates
        plan.nonConstBufferSizes = [0]  # the memory planner fills in the arena
        return EmittedProgram(plan, self.constants, self.delegate_blobs, self.tensors,
                              self.lifetimes, self.moves, self.loops, self.infos,
                              buffers=self.buffers)

    def _emit_graph(self, graph: torch.fx.Graph) -> list[Any]:
        """Emits the nodes of `graph`; returns its outputs."""
        for node in graph.nodes:
            if node.op == "output":  # a tuple, or one node (a while_loop's condition)
                results = node.args[0]
                return list(results) if isinstance(results, (tuple, list)) else [results]
            if node.op == "call_module" and is_delegate_call(node):
                self._emit_delegate(node)
                continue
            if node.op != "call_function":
                continue  # placeholders are bound by the caller; get_attr names a subgraph
            target = node.target
            if target is operator.getitem:
                source, index = node.args
                self.node_values[node] = self.node_values[source][index]
            elif target in (alloc, alloc_list):
                self._emit_alloc(node)
            elif target in _SYM_OPS:
                self._emit_sym_op(node, _SYM_OPS[target])
            elif target is torch.ops.higher_order.cond:
                self._emit_cond(node)
            elif target is torch.ops.higher_order.while_loop:
                self._emit_while_loop(node)
            elif is_kernel_call(node):
                self._emit_kernel(node)
            else:
                raise ExportError(f"{node.name}: {target} is not supported yet")
        return []

    # --- control flow -------------------------------------------------------

    def _jump_if_false(self, node: Node, condition: int) -> JumpFalseCallT:
        jump = JumpFalseCallT()
        jump.condValueIndex = condition
        jump.destinationInstruction = -1  # patched once the target is known
        self._append(node, InstructionArguments.JumpFalseCall, jump, "jump_false")
        return jump

    def _move(self, node: Node, source: int, target: int) -> None:
        move = MoveCallT()
        move.moveFrom = source
        move.moveTo = target
        self._append(node, InstructionArguments.MoveCall, move, "move")
        self._use(source)
        self.moves.append((source, target))

    def _emit_cond(self, node: Node) -> None:
        """torch.cond as jumps: test, true branch, jump over, false branch.
        Each branch moves its results into the cond's output values."""
        predicate, true_graph, false_graph, operands = node.args
        what = f"{node.name} (cond)"
        condition = self._arg(predicate, torch._C.BoolType.get(), what)
        # Planned like any tensor (a file without data for a tensor is
        # rejected); after the branch runs, the move makes them alias its results.
        outputs = [self._planned_tensor(f, what) for f in node.meta["val"]]
        self.node_values[node] = outputs
        skip_true = self._jump_if_false(node, condition)
        self._emit_branch(node, true_graph, operands, outputs)
        skip_false = self._jump_if_false(node, self._bool(False))
        skip_true.destinationInstruction = len(self.instructions)
        self._emit_branch(node, false_graph, operands, outputs)
        skip_false.destinationInstruction = len(self.instructions)

    def _emit_branch(self, node: Node, graph_node: Node, operands: Any, outputs: list[int]) -> None:
        results = self._emit_subgraph(graph_node, operands)
        for result, output in zip(results, outputs):
            self._move(node, self._single(result), output)

    def _emit_subgraph(self, graph_node: Node, operands: list[Any]) -> list[Any]:
        """Emits a control-flow subgraph with its placeholders bound to
        `operands` (nodes of the enclosing graph, or value ids); returns its outputs."""
        # Resolve in the module that owns the graph: nested conds name their
        # branches relative to the enclosing branch.
        module = getattr(graph_node.graph.owning_module, graph_node.target)
        placeholders = [n for n in module.graph.nodes if n.op == "placeholder"]
        for placeholder, operand in zip(placeholders, operands):
            if isinstance(operand, int):
                self.node_values[placeholder] = operand
            elif operand in self.constant_nodes and operand not in self.node_values:
                self.constant_nodes[placeholder] = self.constant_nodes[operand]
            else:
                self.node_values[placeholder] = self._single(operand)
        return self._emit_graph(module.graph)

    def _emit_while_loop(self, node: Node) -> None:
        """torch.while_loop as a loop of jumps over loop-carried tensors:

            copy the initial values into the carried tensors
        head:
            cond subgraph; jump to exit when false
            body subgraph; copy its results into the carried tensors
            jump to head
        exit:

        Results are copied rather than moved: a move aliases, and the next
        iteration's body would then write the tensors it is reading."""
        cond_graph, body_graph, initial, additional = node.args
        what = f"{node.name} (while_loop)"
        carried: list[int] = []
        for operand in initial:
            fake = operand.meta.get("val") if isinstance(operand, Node) else operand
            if not isinstance(fake, torch.Tensor):
                raise ExportError(f"{what}: carries {fake!r}; only tensors may be loop-carried")
            carried.append(self._planned_tensor(fake, what))
            self._copy(node, self._arg(operand, torch._C.TensorType.get(), what), carried[-1])
        self.node_values[node] = carried
        head = len(self.instructions)
        (predicate,) = self._emit_subgraph(cond_graph, [*carried, *additional])
        exit_jump = self._jump_if_false(node, self._arg(predicate, torch._C.BoolType.get(), what))
        results = [self._single(r) for r in self._emit_subgraph(body_graph, [*carried, *additional])]
        # A result that is itself carried (returned unchanged or swapped) goes
        # through a fresh tensor, so no copy reads a tensor an earlier one wrote.
        for i, result in enumerate(results):
            if result in carried and result != carried[i]:
                staged = self._planned_tensor(_meta_tensor_like(self.tensors[result]), what)
                self._copy(node, result, staged)
                results[i] = staged
        for result, target in zip(results, carried):
            if result != target:
                self._copy(node, result, target)
        back = self._jump_if_false(node, self._bool(False))
        back.destinationInstruction = head
        exit_jump.destinationInstruction = len(self.instructions)
        # Later iterations read again what was alive when the loop began.
        self.loops.append((head, len(self.instructions) - 1))

    def _copy(self, node: Node, source: int, target: int) -> None:
        self._use(source)
        self._use(target)
        clone = torch.ops.aten.clone.out
        self._kernel_call(node, kernel_name(clone), [source, self._null(), target, target])

    def _output(self, result: Any) -> int:
        if not isinstance(result, Node):
            raise ExportError(f"output {result!r} is not a tensor; only tensor outputs are supported")
        value_id = self._single(result)
        lifetime = self.lifetimes.get(value_id)
        if lifetime is not None and lifetime.start >= 0:
            return value_id
        # An input or a constant returned as is: copy it into planned memory,
        # so that every output is the method's own.
        tensor = self.tensors.get(value_id)
        if tensor is None:
            raise ExportError(f"output {result.name} is not a tensor")
        fake = result.meta.get("val")
        if not isinstance(fake, torch.Tensor):
            fake = _meta_tensor_like(tensor)
        out_id = self._planned_tensor(fake, f"output {result.name}")
        self._copy(result, value_id, out_id)
        return out_id


def _dynamic_dims(fake: torch.Tensor) -> int:
    """Bit d set for each dim d of the input that the export left symbolic."""
    return sum(1 << d for d, size in enumerate(fake.shape) if not isinstance(size, int))


def _spec_string(spec: Any) -> str:
    """The pytree spec as text; empty for containers pytree cannot name
    (torch.return_types), which only front ends rebuilding outputs need."""
    if spec is None:
        return ""
    with warnings.catch_warnings():  # torch deprecates a spec class it still emits
        warnings.simplefilter("ignore", FutureWarning)
        try:
            return torch.utils._pytree.treespec_dumps(spec)
        except NotImplementedError:
            return ""


def _meta_tensor_like(tensor: TensorT) -> torch.Tensor:
    dtype = next(d for d, n in SCALAR_TYPE.items() if n == tensor.scalarType)
    return torch.empty(tensor.sizes, dtype=dtype, device="meta")


def emit(program: ProgramGraph) -> EmittedProgram:
    return _Emitter(program).emit()
