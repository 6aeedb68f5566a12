"""A .pte file as part of a Cortex-M image: the program and its inputs go
into flash as they are (an assembler `.incbin`, 16-byte aligned, in the
`.ember_model` sections the board's linker script places), and the memory
the runner gives the method is static, sized here from the program:

- the planned arenas: `non_const_buffer_sizes` of the method, exactly;
- the method pool: what `Method::init` takes for the method's tables,
  computed as `MethodMeta::method_table_bytes()` computes it, with the
  sizes of the runtime's types on 32-bit Arm (the runner prints the
  runtime's own number, and tests/cortex_m compares the two).

    python -m ember.targets.cortex_m.image model.pte --inputs in.bin --out-dir gen/

writes gen/model_data.cpp and gen/model_config.h and prints the numbers.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from ember.fb.InstructionArguments import InstructionArguments
from ember.fb.KernelTypes import KernelTypes
from ember.fb.Program import Program

ARENA_ALIGNMENT = 16


@dataclass(frozen=True)
class Abi:
    """Sizes of the runtime types method_table_bytes counts, on one target."""

    pointer: int
    max_align: int  # alignof(std::max_align_t)
    evalue: int
    tensor: int
    instr: int
    mutable_buffer: int
    delegate: int
    compile_spec: int


# arm-none-eabi (AAPCS, Cortex-M4 and M55 alike), measured with the
# runtime's headers; x86-64 and AArch64 Linux for comparison with the host.
ARM32 = Abi(pointer=4, max_align=8, evalue=24, tensor=48, instr=40, mutable_buffer=12, delegate=8,
            compile_spec=12)
LP64 = Abi(pointer=8, max_align=16, evalue=32, tensor=64, instr=72, mutable_buffer=24, delegate=16,
           compile_spec=24)

# runtime/executor/method.cpp: the longest operator name a program may have.
MAX_OPERATOR_NAME_LENGTH = 128


def _plan(program: Program, name: str):
    for i in range(program.ExecutionPlanLength()):
        plan = program.ExecutionPlan(i)
        if plan.Name().decode() == name:
            return plan
    raise ValueError(f"the program has no method {name!r}")


def method_table_bytes(plan, abi: Abi = ARM32) -> int:
    """Method::table_bytes (runtime/executor/method.cpp), line for line."""
    pad = abi.max_align

    def array(count: int, size: int) -> int:
        return count * size + pad

    total = array(plan.ValuesLength(), abi.evalue)
    for i in range(plan.ValuesLength()):
        value = plan.Values(i)
        kind = value.ValType()
        if kind == KernelTypes.Tensor:
            from ember.fb.Tensor import Tensor

            tensor = Tensor()
            tensor.Init(value.Val().Bytes, value.Val().Pos)
            dim = max(tensor.SizesLength(), 1)
            total += array(dim, 4) + array(dim, 1) + array(dim, 4) + array(1, abi.tensor)
            if tensor.AllocationInfo() is not None and tensor.DataBufferIdx() > 0:
                total += abi.mutable_buffer
        elif kind in (KernelTypes.BoolList, KernelTypes.IntList, KernelTypes.TensorList,
                      KernelTypes.OptionalTensorList):
            items = _list_length(value, kind)
            if kind == KernelTypes.BoolList:
                total += array(items, 1)
            elif kind == KernelTypes.IntList:
                total += array(items, abi.pointer + 8) + pad
            else:
                total += array(items, abi.pointer)
    total += pad  # the mutable buffer table's alignment
    total += array(plan.InputsLength(), 1)
    total += array(plan.DelegatesLength(), abi.delegate)
    for i in range(plan.DelegatesLength()):
        total += array(plan.Delegates(i).CompileSpecsLength(), abi.compile_spec)
    operators = plan.OperatorsLength()
    total += array(operators, abi.pointer) + operators * (MAX_OPERATOR_NAME_LENGTH + pad)
    if plan.ChainsLength() > 0 and not plan.Chains(0).InstructionsIsNone():
        chain = plan.Chains(0)
        total += array(chain.InstructionsLength(), abi.instr)
        for i in range(chain.InstructionsLength()):
            total += array(_instruction_args(chain.Instructions(i)), abi.pointer)
    return total


def _list_length(value, kind: int) -> int:
    from ember.fb.BoolList import BoolList
    from ember.fb.IntList import IntList
    from ember.fb.OptionalTensorList import OptionalTensorList
    from ember.fb.TensorList import TensorList

    table = {KernelTypes.BoolList: BoolList, KernelTypes.IntList: IntList,
             KernelTypes.TensorList: TensorList,
             KernelTypes.OptionalTensorList: OptionalTensorList}[kind]()
    table.Init(value.Val().Bytes, value.Val().Pos)
    return table.ItemsLength()


def _instruction_args(instruction) -> int:
    kind = instruction.InstrArgsType()
    if kind == InstructionArguments.KernelCall:
        from ember.fb.KernelCall import KernelCall as Call
    elif kind == InstructionArguments.DelegateCall:
        from ember.fb.DelegateCall import DelegateCall as Call
    else:
        return 0
    call = Call()
    call.Init(instruction.InstrArgs().Bytes, instruction.InstrArgs().Pos)
    return call.ArgsLength()


@dataclass
class ImageMemory:
    """The static memory a runner gives one method of a program."""

    buffer_sizes: list[int]  # the planned arenas, in memory-id order
    method_pool_bytes: int

    @property
    def arena_bytes(self) -> int:
        """The planned arenas back to back, each 16-byte aligned."""
        return sum(_align(size, ARENA_ALIGNMENT) for size in self.buffer_sizes)


def _align(n: int, alignment: int) -> int:
    return (n + alignment - 1) // alignment * alignment


def image_memory(pte: bytes, method: str = "forward", abi: Abi = ARM32) -> ImageMemory:
    program = Program.GetRootAs(pte, 0)
    plan = _plan(program, method)
    sizes = [max(int(plan.NonConstBufferSizes(i)), 0)
             for i in range(1, plan.NonConstBufferSizesLength())]
    return ImageMemory(sizes, method_table_bytes(plan, abi))


def write_sources(pte_path: str, inputs_path: str | None, out_dir: str, name: str,
                  method: str = "forward") -> ImageMemory:
    """Writes model_data.cpp (the program and inputs in flash) and
    model_config.h (the sizes) into `out_dir`; returns the sizes."""
    with open(pte_path, "rb") as f:
        memory = image_memory(f.read(), method)
    os.makedirs(out_dir, exist_ok=True)
    blobs = [("ember_model_pte", pte_path)]
    if inputs_path:
        blobs.append(("ember_model_inputs", inputs_path))
    source = ("// Generated by ember.targets.cortex_m.image: the program and its inputs in flash.\n"
              + incbin_source(blobs))
    if not inputs_path:  # an empty input blob
        source += ('__asm__(".section .ember_model.ember_model_inputs, \\"a\\"\\n"\n'
                   '        ".global ember_model_inputs\\n.global ember_model_inputs_end\\n"\n'
                   '        "ember_model_inputs:\\nember_model_inputs_end:\\n.text\\n");\n')
    _write_if_changed(os.path.join(out_dir, "model_data.cpp"), source)
    sizes = ", ".join(str(s) for s in memory.buffer_sizes) or "0"
    config = f"""// Generated by ember.targets.cortex_m.image from {os.path.basename(pte_path)}.
#pragma once

#define EMBER_MODEL_NAME "{name}"
#define EMBER_MODEL_METHOD "{method}"
#define EMBER_MODEL_NUM_BUFFERS {len(memory.buffer_sizes)}
#define EMBER_MODEL_BUFFER_SIZES {{{sizes}}}
#define EMBER_MODEL_ARENA_BYTES {max(memory.arena_bytes, 1)}
#define EMBER_MODEL_METHOD_POOL_BYTES {memory.method_pool_bytes}
"""
    _write_if_changed(os.path.join(out_dir, "model_config.h"), config)
    return memory


def incbin_source(blobs: list[tuple[str, str]]) -> str:
    """C++ source that puts each (symbol, file) in flash as it is: an
    assembler .incbin in a .ember_model section of its own, 16-byte aligned,
    between `symbol` and `symbol_end`."""
    lines = ["// clang-format off", "__asm__("]
    for symbol, path in blobs:
        lines += [f'    ".section .ember_model.{symbol}, \\"a\\"\\n"',
                  f'    ".balign {ARENA_ALIGNMENT}\\n"',
                  f'    ".global {symbol}\\n"', f'    "{symbol}:\\n"',
                  f'    ".incbin \\"{os.path.abspath(path)}\\"\\n"',
                  f'    ".global {symbol}_end\\n"', f'    "{symbol}_end:\\n"']
    lines += ['    ".text\\n");', ""]
    return "\n".join(lines)


def _write_if_changed(path: str, text: str) -> None:
    """Leaves an unchanged file alone, so that the build does not redo it."""
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Puts a .pte program (and its inputs) into a Cortex-M image: writes "
                    "model_data.cpp and model_config.h, prints the static memory it sizes.")
    parser.add_argument("pte")
    parser.add_argument("--inputs", help="the inputs' raw bytes, back to back, in input order")
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--name", default=None, help="the model's name in the runner's output")
    parser.add_argument("--method", default="forward")
    args = parser.parse_args(argv)
    name = args.name or os.path.splitext(os.path.basename(args.pte))[0]
    memory = write_sources(args.pte, args.inputs, args.out_dir, name, args.method)
    size = os.path.getsize(args.pte)
    print(f"{name}: program {size} B in flash; planned arenas {memory.buffer_sizes} "
          f"({memory.arena_bytes} B); method pool {memory.method_pool_bytes} B")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
