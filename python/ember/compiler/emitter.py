"""Turns a core-ATen graph into an Ember program: a value table, a list of
kernel calls on out-variants, planned memory and constant data.

The program objects are the flatbuffer object API generated from
schema/program.fbs (package ember.fb); serialization is in ember.serialize.
"""

from __future__ import annotations

import math
import operator
import os
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

import sympy
import torch
from torch.fx import Node
from torch.utils._sympy.value_ranges import bound_sympy

from ember.compiler import memory_planning
from ember.compiler.graph_lowering import ExportError
from ember.compiler.out_variants import kernel_name, out_variant
from ember.compiler.scalar_types import LAYOUT, MEMORY_FORMAT, SCALAR_TYPE, scalar_type
from ember.fb.AllocationDetails import AllocationDetailsT
from ember.fb.Bool import BoolT
from ember.fb.BoolList import BoolListT
from ember.fb.Chain import ChainT
from ember.fb.ContainerMetadata import ContainerMetadataT
from ember.fb.Double import DoubleT
from ember.fb.DoubleList import DoubleListT
from ember.fb.EValue import EValueT
from ember.fb.ExecutionPlan import ExecutionPlanT
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

# Graph nodes that only assert facts torch.export already proved.
# Ops that only choose a tensor's memory layout. Ember plans activations
# row-major, so each is a plain copy.
_LAYOUT_COPIES = {torch.ops.prims.copy_strided.default}

_NO_OP_TARGETS = {
    torch.ops.aten._assert_scalar.default,
    torch.ops.aten.sym_constrain_range_for_size.default,
    torch.ops.aten.sym_constrain_range.default,
    torch.ops.aten._assert_tensor_metadata.default,
    torch.ops.aten._assert_async.msg,
}

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
}
_SYM_SIZE_OPS = {
    torch.ops.aten.sym_size.int: "aten::sym_size.int",
    torch.ops.aten.sym_numel.default: "aten::sym_numel",
}


@dataclass
class InstructionInfo:
    """Where an instruction came from: for error messages and profiling."""

    debug_handle: int
    node_name: str
    operator: str
    filename: str
    lineno: int
    source: str


@dataclass
class EmittedProgram:
    plan: ExecutionPlanT
    constants: list[bytes]  # index 0 is reserved and empty
    memory_plan: memory_planning.MemoryPlan
    instructions: list[InstructionInfo] = field(default_factory=list)


_TORCH_DIR = os.path.dirname(torch.__file__)


def _last_frame(stack_trace: str | None) -> tuple[str, int, str, str]:
    """(file, line, function, source text) of the innermost frame in the
    user's code, skipping torch's own modules (nn.Linear.forward, ...)."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)', stack_trace or "")
    user_frames = [f for f in frames if not f[0].startswith(_TORCH_DIR)]
    if not user_frames:
        return "", 0, "", ""
    filename, lineno, name, source = user_frames[-1]
    return filename, int(lineno), name, source.strip()


class _Emitter:
    def __init__(self, program: torch.export.ExportedProgram):
        self.program = program
        self.values: list[EValueT] = []
        self.node_values: dict[Node, Any] = {}
        self.instructions: list[InstructionT] = []
        self.frames: list[FrameListT] = []
        self.infos: list[InstructionInfo] = []
        self.operators: list[OperatorT] = []
        self.operator_index: dict[str, int] = {}
        self.constants: list[bytes] = [b""]
        self.planned: dict[int, memory_planning.Lifetime] = {}  # value id -> lifetime
        self.tensor_values: dict[int, TensorT] = {}
        self.null_value: int | None = None
        self.folded: dict[Node, torch.Tensor] = {}  # nodes computed at export time
        self.moves: list[tuple[int, int]] = []  # (source, target) of MoveCalls
        self.ranges = dict(program.range_constraints)

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

    def _null(self) -> int:
        if self.null_value is None:
            self.null_value = self._add_value(KernelTypes.Null, NullT())
        return self.null_value

    def _upper_bound(self, size: Any, what: str) -> int:
        if isinstance(size, int):
            return size
        expr = size.node.expr if isinstance(size, torch.SymInt) else size
        if isinstance(expr, sympy.Integer):
            return int(expr)
        upper = bound_sympy(expr, self.ranges).upper
        if not upper.is_number or upper > 2**31 - 1:  # int_oo compares greater too
            raise ExportError(
                f"{what}: dynamic size {expr} has no upper bound; give each dynamic dim a "
                f"maximum, e.g. torch.export.Dim('batch', max=64)"
            )
        return int(upper)

    def _tensor_value(self, fake: torch.Tensor, what: str, planned: bool) -> int:
        tensor = TensorT()
        tensor.scalarType = scalar_type(fake.dtype)
        tensor.sizes = [self._upper_bound(s, what) for s in fake.shape]
        # Activations are written row-major by the portable kernels.
        tensor.dimOrder = list(range(fake.dim()))
        dynamic = any(not isinstance(s, int) for s in fake.shape)
        tensor.shapeDynamism = (
            TensorShapeDynamism.DYNAMIC_BOUND if dynamic else TensorShapeDynamism.STATIC
        )
        tensor.dataBufferIdx = 0
        value_id = self._add_value(KernelTypes.Tensor, tensor)
        self.tensor_values[value_id] = tensor
        if planned:
            nbytes = math.prod(tensor.sizes) * fake.element_size()
            self.planned[value_id] = memory_planning.Lifetime(
                value_id, nbytes, len(self.instructions), len(self.instructions)
            )
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
        self.tensor_values[value_id] = tensor
        return value_id

    def _use(self, value_id: int) -> None:
        lifetime = self.planned.get(value_id)
        if lifetime is not None:
            lifetime.end = max(lifetime.end, len(self.instructions))

    # --- arguments ----------------------------------------------------------

    def _node_value(self, node: Node) -> int:
        if node not in self.node_values and node in self.folded:
            # Constants are stored when first used, so folded-away ones vanish.
            self.node_values[node] = self._constant_value(self.folded[node])
        if node not in self.node_values:
            raise ExportError(f"node {node.name} is used before it is defined")
        value = self.node_values[node]
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
            value_id = self._node_value(value)
            self._use(value_id)
            return value_id
        if isinstance(schema_type, torch._C.ListType):
            return self._list_arg(list(value), schema_type.getElementType(), what)
        if isinstance(schema_type, torch._C.TensorType) and isinstance(value, (bool, int, float)):
            # A Python number where the schema wants a tensor (mul.Tensor(x, 2)
            # in a cond branch): a 0-d constant, which like PyTorch's wrapped
            # numbers only raises the type category in promotion.
            dtype = (torch.bool if isinstance(value, bool)
                     else torch.int64 if isinstance(value, int) else torch.get_default_dtype())
            return self._constant_value(torch.tensor(value, dtype=dtype))
        if isinstance(value, bool):
            payload = BoolT()
            payload.boolVal = value
            return self._add_value(KernelTypes.Bool, payload)
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
                self._node_value(item) if isinstance(item, Node) else self._int(item)
                for item in items
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
        instruction = InstructionT()
        instruction.instrArgsType = InstructionArguments.KernelCall
        instruction.instrArgs = call
        self._append(node, instruction, name)

    def _append(self, node: Node, instruction: InstructionT, name: str) -> None:
        filename, lineno, _, source = _last_frame(node.meta.get("stack_trace"))
        frame = FrameT()
        frame.filename, frame.lineno, frame.name, frame.context = filename, lineno, node.name, source
        frames = FrameListT()
        frames.items = [frame]
        self.instructions.append(instruction)
        self.frames.append(frames)
        self.infos.append(
            InstructionInfo(len(self.infos), node.name, name, filename, lineno, source)
        )

    def _emit_sym_op(self, node: Node, name: str) -> None:
        inputs = [
            self._node_value(a) if isinstance(a, Node) else self._arg(a, torch._C.IntType.get(), node.name)
            for a in node.args
        ]
        out = self._int(0)
        self.node_values[node] = out
        self._kernel_call(node, name, [*inputs, out])

    def _fold(self, node: Node) -> bool:
        """Computes `node` now if it depends on constants only (e.g. a weight
        transpose), so the program stores its result instead of recomputing
        it on every run."""
        inputs = [n for n in node.all_input_nodes]
        if not inputs or any(n not in self.folded for n in inputs):
            return False
        if torch.Tag.nondeterministic_seeded in node.target.tags:
            return False
        args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), lambda n: self.folded[n])
        with torch.no_grad():
            result = node.target(*args, **kwargs)
        if not isinstance(result, torch.Tensor):
            return False
        self.folded[node] = result
        return True

    def _emit_op(self, node: Node) -> None:
        target = node.target
        out_op = out_variant(target)
        if out_op is None:
            raise ExportError(
                f"{node.name}: operator {target} has no out-variant, so Ember cannot run it "
                f"(at {_last_frame(node.meta.get('stack_trace'))[0] or 'unknown location'})"
            )
        # Bind the node's arguments by name, as the functional schema orders them.
        given: dict[str, Any] = dict(node.kwargs)
        for schema_arg, value in zip(target._schema.arguments, node.args):
            given[schema_arg.name] = value
        what = f"{node.name} ({kernel_name(out_op)})"
        args: list[int] = []
        for schema_arg in out_op._schema.arguments:
            if schema_arg.is_out:
                continue
            if schema_arg.name in given:
                value = given[schema_arg.name]
            elif schema_arg.has_default_value():
                value = schema_arg.default_value
            else:
                raise ExportError(f"{what}: no value for argument '{schema_arg.name}'")
            args.append(self._arg(value, schema_arg.type, what))

        outs = [a for a in out_op._schema.arguments if a.is_out]
        fake = node.meta["val"]
        if len(outs) == 1 and isinstance(outs[0].type, torch._C.ListType):
            # Tensor[] result (split_copy, unbind_copy): a list of outputs.
            ids = [self._tensor_value(f, what, planned=True) for f in fake]
            payload = TensorListT()
            payload.items = ids
            list_id = self._add_value(KernelTypes.TensorList, payload)
            self.node_values[node] = ids
            self._kernel_call(node, kernel_name(out_op), [*args, list_id, list_id])
            return
        fakes = list(fake) if isinstance(fake, (tuple, list)) else [fake]
        if len(fakes) != len(outs):
            raise ExportError(f"{what}: {len(fakes)} results but {len(outs)} out arguments")
        out_ids = [self._tensor_value(f, what, planned=True) for f in fakes]
        self.node_values[node] = out_ids if isinstance(fake, (tuple, list)) else out_ids[0]
        # The returns follow the arguments, as ExecuTorch writes them: the out
        # tensor again, or one list of all outs for a multi-output op.
        if len(out_ids) == 1:
            returns = out_ids
        else:
            payload = TensorListT()
            payload.items = out_ids
            returns = [self._add_value(KernelTypes.TensorList, payload)]
        self._kernel_call(node, kernel_name(out_op), [*args, *out_ids, *returns])

    # --- the graph ----------------------------------------------------------

    def emit(self) -> EmittedProgram:
        program = self.program
        signature = program.graph_signature
        if signature.buffers_to_mutate:
            raise ExportError(
                "the model mutates buffers ("
                + ", ".join(signature.buffers_to_mutate.values())
                + "); mutable state is not supported yet"
            )
        constants = {**program.state_dict, **program.constants}
        input_ids: list[int] = []
        placeholders = [n for n in program.graph.nodes if n.op == "placeholder"]
        for node, spec in zip(placeholders, signature.input_specs):
            if spec.kind == torch.export.graph_signature.InputKind.USER_INPUT:
                fake = node.meta.get("val")
                if not isinstance(fake, torch.Tensor):
                    raise ExportError(f"input {node.name}: only tensor inputs are supported, got {fake!r}")
                value_id = self._tensor_value(fake, f"input {node.name}", planned=True)
                self.planned[value_id].start = -1
                input_ids.append(value_id)
                self.node_values[node] = value_id
            else:
                if spec.target not in constants:
                    raise ExportError(f"input {node.name}: no data for {spec.target}")
                self.folded[node] = constants[spec.target]

        results = self._emit_graph(program.graph)
        output_ids = [self._output(result) for result in results]

        end = len(self.instructions)
        for value_id in output_ids:
            if value_id in self.planned:
                self.planned[value_id].end = end
        self._extend_moved_lifetimes()
        plan = memory_planning.plan(list(self.planned.values()))
        for value_id, offset in plan.offsets.items():
            details = AllocationDetailsT()
            details.memoryId = 1
            details.memoryOffsetLow = offset & 0xFFFFFFFF
            details.memoryOffsetHigh = offset >> 32
            self.tensor_values[value_id].allocationInfo = details

        chain = ChainT()
        chain.inputs = input_ids
        chain.outputs = output_ids
        chain.instructions = self.instructions
        chain.stacktrace = self.frames
        execution_plan = ExecutionPlanT()
        execution_plan.name = "forward"
        meta = ContainerMetadataT()
        meta.encodedInpStr = _spec_string(program.call_spec.in_spec)
        meta.encodedOutStr = _spec_string(program.call_spec.out_spec)
        execution_plan.containerMetaType = meta
        execution_plan.values = self.values
        execution_plan.inputs = input_ids
        execution_plan.outputs = output_ids
        execution_plan.chains = [chain]
        execution_plan.operators = self.operators
        execution_plan.delegates = []
        execution_plan.nonConstBufferSizes = [0, plan.arena_size]
        return EmittedProgram(execution_plan, self.constants, plan, self.infos)

    def _emit_graph(self, graph: torch.fx.Graph) -> list[Any]:
        """Emits the call_function nodes of `graph`; returns its outputs."""
        for node in graph.nodes:
            if node.op != "call_function":
                if node.op == "output":  # a tuple, or one node (a while_loop's condition)
                    results = node.args[0]
                    return list(results) if isinstance(results, (tuple, list)) else [results]
                continue
            target = node.target
            if target in _NO_OP_TARGETS:
                continue
            if target is operator.getitem:
                source, index = node.args
                self.node_values[node] = self.node_values[source][index]
            elif target in _SYM_SIZE_OPS:
                self._emit_sym_op(node, _SYM_SIZE_OPS[target])
            elif target in _SYM_OPS:
                self._emit_sym_op(node, _SYM_OPS[target])
            elif target is torch.ops.higher_order.cond:
                self._emit_cond(node)
            elif target is torch.ops.higher_order.while_loop:
                self._emit_while_loop(node)
            elif target in _LAYOUT_COPIES:
                out = self._tensor_value(node.meta["val"], node.name, planned=True)
                self._copy(node, self._arg(node.args[0], torch._C.TensorType.get(), node.name), out)
                self.node_values[node] = out
            elif isinstance(target, torch._ops.OpOverload):
                if not self._fold(node):
                    self._emit_op(node)
            else:
                raise ExportError(f"{node.name}: {target} is not supported yet")
        return []

    # --- control flow -------------------------------------------------------

    def _jump_if_false(self, node: Node, condition: int) -> InstructionT:
        jump = JumpFalseCallT()
        jump.condValueIndex = condition
        jump.destinationInstruction = -1  # patched once the target is known
        instruction = InstructionT()
        instruction.instrArgsType = InstructionArguments.JumpFalseCall
        instruction.instrArgs = jump
        self._append(node, instruction, "jump_false")
        return instruction

    def _move(self, node: Node, source: int, target: int) -> None:
        move = MoveCallT()
        move.moveFrom = source
        move.moveTo = target
        instruction = InstructionT()
        instruction.instrArgsType = InstructionArguments.MoveCall
        instruction.instrArgs = move
        self._append(node, instruction, "move")
        self._use(source)
        self.moves.append((source, target))

    def _emit_cond(self, node: Node) -> None:
        """torch.cond as jumps: test, true branch, jump over, false branch.
        Each branch moves its results into the cond's output values."""
        predicate, true_graph, false_graph, operands = node.args
        what = f"{node.name} (cond)"
        condition = self._arg(predicate, torch._C.BoolType.get(), what)
        fakes = node.meta["val"]
        # Planned like any tensor (a file without data for a tensor is
        # rejected); after the branch runs, the move makes them alias its results.
        outputs = [self._tensor_value(f, what, planned=True) for f in fakes]
        self.node_values[node] = outputs
        skip_true = self._jump_if_false(node, condition)
        self._emit_branch(node, true_graph, operands, outputs)
        payload = BoolT()
        payload.boolVal = False
        always = self._add_value(KernelTypes.Bool, payload)
        skip_false = self._jump_if_false(node, always)
        skip_true.instrArgs.destinationInstruction = len(self.instructions)
        self._emit_branch(node, false_graph, operands, outputs)
        skip_false.instrArgs.destinationInstruction = len(self.instructions)

    def _emit_branch(self, node: Node, graph_node: Node, operands: Any, outputs: list[int]) -> None:
        results = self._emit_subgraph(graph_node, operands)
        for result, output in zip(results, outputs):
            self._move(node, self._node_value(result), output)

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
            elif operand in self.folded and operand not in self.node_values:
                self.folded[placeholder] = self.folded[operand]
            else:
                self.node_values[placeholder] = self._node_value(operand)
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
            carried.append(self._tensor_value(fake, what, planned=True))
            self._copy(node, self._arg(operand, torch._C.TensorType.get(), what), carried[-1])
        self.node_values[node] = carried
        head = len(self.instructions)
        (predicate,) = self._emit_subgraph(cond_graph, [*carried, *additional])
        exit_jump = self._jump_if_false(node, self._arg(predicate, torch._C.BoolType.get(), what))
        results = [self._node_value(r) for r in self._emit_subgraph(body_graph, [*carried, *additional])]
        # A result that is itself carried (returned unchanged or swapped) goes
        # through a fresh tensor, so no copy reads a tensor an earlier one wrote.
        for i, result in enumerate(results):
            if result in carried and result != carried[i]:
                staged = self._tensor_value(_meta_tensor_like(self.tensor_values[result]), what, True)
                self._copy(node, result, staged)
                results[i] = staged
        for result, target in zip(results, carried):
            if result != target:
                self._copy(node, result, target)
        payload = BoolT()
        payload.boolVal = False
        back = self._jump_if_false(node, self._add_value(KernelTypes.Bool, payload))
        back.instrArgs.destinationInstruction = head
        exit_jump.instrArgs.destinationInstruction = len(self.instructions)
        # Later iterations read again what was alive when the loop began.
        last = len(self.instructions) - 1
        for lifetime in self.planned.values():
            if lifetime.start < head <= lifetime.end:
                lifetime.end = max(lifetime.end, last)

    def _copy(self, node: Node, source: int, target: int) -> None:
        self._use(source)
        self._use(target)
        clone = torch.ops.aten.clone.out
        self._kernel_call(node, kernel_name(clone), [source, self._null(), target, target])

    def _extend_moved_lifetimes(self) -> None:
        """A moved-into value aliases its source's memory, so the source must
        stay alive as long as the value it was moved into is used."""
        for source, target in reversed(self.moves):  # outer conds first
            if source in self.planned and target in self.planned:
                lifetime = self.planned[source]
                lifetime.end = max(lifetime.end, self.planned[target].end)

    def _output(self, result: Any) -> int:
        if not isinstance(result, Node):
            raise ExportError(f"output {result!r} is not a tensor; only tensor outputs are supported")
        value_id = self._node_value(result)
        if value_id in self.planned and self.planned[value_id].start >= 0:
            return value_id
        # An input or a constant returned as is: copy it into planned memory,
        # so that every output is the method's own.
        tensor = self.tensor_values.get(value_id)
        if tensor is None:
            raise ExportError(f"output {result.name} is not a tensor")
        fake = result.meta.get("val")
        if not isinstance(fake, torch.Tensor):
            fake = _meta_tensor_like(tensor)
        out_id = self._tensor_value(fake, f"output {result.name}", planned=True)
        self._copy(result, value_id, out_id)
        return out_id


def _spec_string(spec: Any) -> str:
    """The pytree spec as text; empty for containers pytree cannot name
    (torch.return_types), which only front ends rebuilding outputs need."""
    with warnings.catch_warnings():  # torch deprecates a spec class it still emits
        warnings.simplefilter("ignore", FutureWarning)
        try:
            return torch.utils._pytree.treespec_dumps(spec)
        except NotImplementedError:
            return ""


def _meta_tensor_like(tensor: TensorT) -> torch.Tensor:
    dtype = next(d for d, n in SCALAR_TYPE.items() if n == tensor.scalarType)
    return torch.empty(tensor.sizes, dtype=dtype, device="meta")


def emit(program: torch.export.ExportedProgram) -> EmittedProgram:
    return _Emitter(program).emit()
