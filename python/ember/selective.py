"""Selective builds: what a set of programs needs from the runtime.

`ember selective m1.pte m2.pte -o selection.yaml` lists, from the programs
themselves, every operator their instructions call with the dtypes (and dim
orders) of the call's tensors, the backends their delegate calls name, and for
Ember's CPU backend the ops inside its blobs. CMake reads the file
(`-DEMBER_SELECT_YAML=selection.yaml`, or `-DEMBER_SELECT_FROM=m.pte`, which
runs this module) and builds a runtime with only those kernels, dtypes, backends
and backend ops (docs/size.md).

Reads the .pte with the flatbuffer reader only: no torch needed.
"""

from __future__ import annotations

import argparse
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ember.fb.DataLocation import DataLocation
from ember.fb.InstructionArguments import InstructionArguments
from ember.fb.KernelCall import KernelCall
from ember.fb.KernelTypes import KernelTypes
from ember.fb.Program import Program

EMBER_CPU_BACKEND = "EmberCpuBackend"

# ScalarType codes as the runtime names them (runtime/core/scalar_type.cpp).
DTYPE_NAMES = {
    0: "Byte", 1: "Char", 2: "Short", 3: "Int", 4: "Long", 5: "Half", 6: "Float",
    7: "Double", 8: "ComplexHalf", 9: "ComplexFloat", 10: "ComplexDouble", 11: "Bool",
    12: "QInt8", 13: "QUInt8", 14: "QInt32", 15: "BFloat16", 16: "QUInt4x2", 17: "QUInt2x4",
}
DTYPE_CODES = {name: code for code, name in DTYPE_NAMES.items()}

# torch's type promotion by category, enough to name the dtype a kernel
# computes in when a Python number takes part (int tensor > 1.5 compares in
# Float), which no tensor of the call has.
_INTEGRAL = ("Byte", "Char", "Short", "Int", "Long")
_FLOATING = ("Half", "BFloat16", "Float", "Double")


@dataclass
class Selection:
    """Operators (with the dtypes and dim orders of their calls' tensors),
    backends and CPU-backend ops that a set of programs uses."""

    programs: list[str] = field(default_factory=list)
    operators: dict[str, set[str]] = field(default_factory=dict)
    dim_orders: dict[str, set[str]] = field(default_factory=dict)
    backends: set[str] = field(default_factory=set)
    cpu_backend_ops: set[str] = field(default_factory=set)
    # Executor features the programs use (runtime/executor/features.h):
    # delegates, control_flow (moves and jumps), dim_orders (tensors not
    # row-major).
    features: set[str] = field(default_factory=set)

    def add_operator(self, name: str, dtypes: set[str], dim_orders: set[str]) -> None:
        self.operators.setdefault(name, set()).update(dtypes)
        self.dim_orders.setdefault(name, set()).update(dim_orders)

    def merge(self, other: Selection) -> None:
        self.programs += other.programs
        for name, dtypes in other.operators.items():
            self.add_operator(name, dtypes, other.dim_orders.get(name, set()))
        self.backends |= other.backends
        self.cpu_backend_ops |= other.cpu_backend_ops
        self.features |= other.features

    def to_yaml(self) -> str:
        lines = [
            "# What these programs need from the runtime (ember selective): each",
            "# operator with the dtypes and dim orders of its calls' tensors, the",
            "# backends of their delegate calls and the CPU backend's ops.",
            "programs:",
            *[f"  - {p}" for p in self.programs],
            "operators:" if self.operators else "operators: {}",
        ]
        for name in sorted(self.operators):
            dtypes = ", ".join(sorted(self.operators[name], key=lambda d: DTYPE_CODES[d]))
            orders = ", ".join(f'"{o}"' for o in sorted(self.dim_orders.get(name, ())))
            lines += [f'  "{name}":', f"    dtypes: [{dtypes}]", f"    dim_orders: [{orders}]"]
        lines.append(f"backends: [{', '.join(sorted(self.backends))}]")
        lines.append(f"cpu_backend_ops: [{', '.join(sorted(self.cpu_backend_ops))}]")
        lines.append(f"features: [{', '.join(sorted(self.features))}]")
        return "\n".join(lines) + "\n"


def _promoted(dtypes: list[str], scalars: list[str]) -> str | None:
    """The category-promoted dtype of a call's tensors and Python numbers
    (torch.result_type's rule that a number only raises the category)."""
    if not dtypes:
        return None
    best = max(dtypes, key=lambda d: (d in _FLOATING, d in _INTEGRAL, DTYPE_CODES[d]))
    if "Double" in scalars and best not in _FLOATING and not best.startswith("Complex"):
        return "Float"
    if "Long" in scalars and best == "Bool":
        return "Long"
    return best


def _segments(data: bytes) -> tuple[int, bool]:
    """The segment base offset from the extended header, and whether there is one."""
    if data[8:12] != b"eh00":
        return 0, False
    _length, _program_size, segment_base, _data_size = struct.unpack_from("<IQQQ", data, 12)
    return segment_base, True


def _cpu_backend_ops(blob: bytes) -> set[str]:
    from ember.cpu_fb.Graph import Graph
    from ember.cpu_fb.OpParams import OpParams

    names = {v: k for k, v in vars(OpParams).items() if not k.startswith("_") and k != "NONE"}
    graph = Graph.GetRootAs(blob, 0)
    return {names[graph.Ops(i).ParamsType()] for i in range(graph.OpsLength())}


def select_program(data: bytes, label: str = "") -> Selection:
    """What one .pte file's methods need."""
    if data[4:8] != b"ET12":
        raise ValueError(f"{label or 'the file'} is not a .pte program (no ET12 identifier)")
    program = Program.GetRootAs(data, 0)
    segment_base, has_segments = _segments(data)
    selection = Selection(programs=[label] if label else [])
    for p in range(program.ExecutionPlanLength()):
        plan = program.ExecutionPlan(p)
        names = []
        for o in range(plan.OperatorsLength()):
            op = plan.Operators(o)
            name, overload = op.Name().decode(), (op.Overload() or b"").decode()
            names.append(f"{name}.{overload}" if overload else name)
        for c in range(plan.ChainsLength()):
            chain = plan.Chains(c)
            for i in range(chain.InstructionsLength()):
                instr = chain.Instructions(i)
                kind = instr.InstrArgsType()
                if kind in (InstructionArguments.MoveCall, InstructionArguments.JumpFalseCall):
                    selection.features.add("control_flow")
                if kind == InstructionArguments.DelegateCall:
                    selection.features.add("delegates")
                if kind != InstructionArguments.KernelCall:
                    continue
                call = KernelCall()
                table = instr.InstrArgs()
                call.Init(table.Bytes, table.Pos)
                dtypes, scalars, orders = _call_values(plan, call)
                promoted = _promoted(dtypes, scalars)
                selection.add_operator(names[call.OpIndex()],
                                       set(dtypes) | ({promoted} if promoted else set()), orders)
        if _has_other_dim_orders(plan):
            selection.features.add("dim_orders")
        for d in range(plan.DelegatesLength()):
            delegate = plan.Delegates(d)
            backend = delegate.Id().decode()
            selection.backends.add(backend)
            if backend != EMBER_CPU_BACKEND:
                continue
            ref = delegate.Processed()
            if ref.Location() == DataLocation.SEGMENT and has_segments:
                seg = program.Segments(ref.Index())
                start = segment_base + seg.Offset()
                blob = data[start:start + seg.Size()]
            elif ref.Location() == DataLocation.INLINE:
                blob = bytes(program.BackendDelegateData(ref.Index()).DataAsNumpy())
            else:
                raise ValueError(f"{label}: delegate {d} has no readable blob")
            selection.cpu_backend_ops |= _cpu_backend_ops(blob)
    return selection


def _has_other_dim_orders(plan) -> bool:
    """Whether some tensor of the method is not row-major."""
    from ember.fb.Tensor import Tensor

    for v in range(plan.ValuesLength()):
        value = plan.Values(v)
        if value.ValType() != KernelTypes.Tensor:
            continue
        t = Tensor()
        t.Init(value.Val().Bytes, value.Val().Pos)
        if any(t.DimOrder(k) != k for k in range(t.DimOrderLength())):
            return True
    return False


def _call_values(plan, call) -> tuple[list[str], list[str], set[str]]:
    """Dtypes of the call's tensors (lists included), kinds of its numbers,
    and its tensors' dim orders."""
    from ember.fb.Tensor import Tensor
    from ember.fb.TensorList import TensorList

    dtypes: list[str] = []
    scalars: list[str] = []
    orders: set[str] = set()

    def tensor(index: int) -> None:
        value = plan.Values(index)
        if value.ValType() != KernelTypes.Tensor:
            return
        t = Tensor()
        t.Init(value.Val().Bytes, value.Val().Pos)
        code = t.ScalarType()
        if code not in DTYPE_NAMES:
            raise ValueError(f"a tensor has an unknown dtype code {code}")
        dtypes.append(DTYPE_NAMES[code])
        orders.add(",".join(str(t.DimOrder(k)) for k in range(t.DimOrderLength())))

    for a in range(call.ArgsLength()):
        index = call.Args(a)
        value = plan.Values(index)
        kind = value.ValType()
        if kind == KernelTypes.Tensor:
            tensor(index)
        elif kind in (KernelTypes.TensorList, KernelTypes.OptionalTensorList):
            items = TensorList()
            items.Init(value.Val().Bytes, value.Val().Pos)
            for k in range(items.ItemsLength()):
                tensor(items.Items(k))
        elif kind == KernelTypes.Double:
            scalars.append("Double")
        elif kind == KernelTypes.Int:
            scalars.append("Long")
    return dtypes, scalars, orders


def select_files(paths: list[str]) -> Selection:
    selection = Selection()
    for path in paths:
        selection.merge(select_program(Path(path).read_bytes(), str(path)))
    return selection


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("programs", nargs="+", help=".pte files")
    parser.add_argument("-o", "--output", help="the selection YAML (default: stdout)")


def _run(args: argparse.Namespace) -> int:
    try:
        text = select_files(args.programs).to_yaml()
    except (OSError, ValueError) as e:
        print(f"ember selective: {e}", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def add_command(commands) -> None:
    """`ember selective` in the CLI."""
    parser = commands.add_parser(
        "selective", help="list what .pte programs need from the runtime (a selective build's "
                          "selection.yaml)")
    _add_arguments(parser)
    parser.set_defaults(handler=_run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ember selective", description=__doc__.split("\n")[0])
    _add_arguments(parser)
    return _run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
