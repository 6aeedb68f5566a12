"""Writes the malformed-file corpus: tests/malformed/<case>.pte, each a real
program (a golden file or a fuzzing seed) with one meaning-level fault, and
tests/malformed/cases.tsv, the error each must give. The C++ runtime tests
(tests/cpp/runtime/malformed_test.cpp) and the Python tests
(tests/python/test_malformed.py) load every file and require exactly that
error, at that stage, through Module with the limits below. The outputs are
committed; rerun this after adding a case (the bases never change, so the
other files come out the same).

    .venv/bin/python tests/malformed/make_malformed.py

cases.tsv columns: file, stage (load: the program; init: the forward method;
execute: a run on zero inputs shaped as the program says), the Error's name,
and text the one-line error message must contain.
"""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from ember.fb.Bool import BoolT
from ember.fb.DataLocation import DataLocation
from ember.fb.EValue import EValueT
from ember.fb.ExecutionPlan import ExecutionPlanT
from ember.fb.KernelTypes import KernelTypes
from pte_edit import PteFile, patch_header, read_header

OUT = os.path.join(ROOT, "tests", "malformed")

# The limits the tests load every case with (ModuleOptions / ember.runtime.load).
MAX_MEMORY_BYTES = 256 << 20
MAX_INSTRUCTIONS = 100_000

BASES = {
    # Ember, portable kernels: addmm, relu, addmm, gelu, addmm; constants in a segment.
    "mlp": "tests/compat/et12_v0_ember_mlp.pte",
    # Int lists, a bool, a Tensor[] return (batch norm), max pool with indices.
    "convnet": "tests/compat/et12_v0_ember_convnet.pte",
    # Two delegate calls to the test backend around an addmm; blobs in segments.
    "delegated": "tests/compat/delegated/et12_v0_ember_test_backend.pte",
    # torch.cond: jumps and moves.
    "cond": "tests/fuzz/seeds/cond_portable.pte",
    # torch.while_loop: a backward jump.
    "loop": "tests/fuzz/seeds/while_loop_portable.pte",
    # A reshape of a dynamic batch: sym_size and executorch_prim ops.
    "reshape": "tests/fuzz/seeds/reshape_dynamic_portable.pte",
    # The arith seed with a FreeCall.
    "free": "tests/fuzz/seeds/free_call_portable.pte",
    # One delegate call to the CPU backend.
    "cpu": "tests/fuzz/seeds/conv_cpu_backend.pte",
}


@dataclass
class Case:
    name: str
    base: str
    edit: Callable[[PteFile], None] | None  # edits the program's flatbuffer objects
    stage: str
    error: str
    message: str
    raw: Callable[[bytes], bytes] | None = None  # or edits the file's bytes


def _plan(pte: PteFile) -> ExecutionPlanT:
    return pte.plan()


def _instr(pte: PteFile, k: int):
    return pte.plan().chains[0].instructions[k].instrArgs


def _tensor(pte: PteFile, v: int):
    return pte.plan().values[v].val


def _set(obj, **fields):
    for name, value in fields.items():
        setattr(obj, name, value)


def _append_value(pte: PteFile, kind: int, payload) -> int:
    value = EValueT()
    value.valType = kind
    value.val = payload
    pte.plan().values.append(value)
    return len(pte.plan().values) - 1


def _true(pte: PteFile) -> int:
    payload = BoolT()
    payload.boolVal = True
    return _append_value(pte, KernelTypes.Bool, payload)


def _segment_bytes(pte: PteFile, index: int, edit: Callable[[bytearray], None]) -> None:
    segment = pte.program.segments[index]
    data = bytearray(pte.segment_data)
    blob = bytearray(data[segment.offset:segment.offset + segment.size])
    edit(blob)
    data[segment.offset:segment.offset + segment.size] = blob
    pte.segment_data = bytes(data)


def _magic(new: bytes) -> Callable[[bytearray], None]:
    def edit(blob: bytearray) -> None:
        blob[0:4] = new
    return edit


def _cases() -> list[Case]:
    ip, it, ex = "load", "init", "execute"
    c: list[Case] = []

    def case(name, base, edit, stage, error, message, raw=None):
        c.append(Case(name, base, edit, stage, error, message, raw))

    # --- the file and its header ---
    case("empty_file", "mlp", None, ip, "InvalidProgram", "the file is empty",
         raw=lambda b: b"")
    case("identifier_newer_format", "mlp", None, ip, "NotSupported",
         "program format 'ET13' is not supported", raw=lambda b: b[:4] + b"ET13" + b[8:])
    case("identifier_not_ember", "mlp", None, ip, "InvalidProgram", "identifier is not ET12",
         raw=lambda b: b[:4] + b"XXXX" + b[8:])
    case("header_program_size_past_file", "mlp", None, ip, "InvalidProgram",
         "header program size", raw=lambda b: patch_header(b, program_size=len(b) + 100))
    case("header_program_size_tiny", "mlp", None, ip, "InvalidProgram", "header program size 8",
         raw=lambda b: patch_header(b, program_size=8))
    case("header_length_below_minimum", "mlp", None, ip, "InvalidProgram",
         "extended header length 4 is below the minimum",
         raw=lambda b: b[:12] + (4).to_bytes(4, "little") + b[16:])
    case("header_segments_overlap_program", "mlp", None, ip, "InvalidProgram",
         "segments overlap the program", raw=lambda b: patch_header(b, segment_base=64))
    case("header_segment_data_past_file", "mlp", None, ip, "InvalidProgram",
         "file is truncated: segments need",
         raw=lambda b: patch_header(b, segment_data_size=1 << 40))
    case("truncated_segments", "mlp", None, ip, "InvalidProgram", "file is truncated",
         raw=lambda b: b[:-100])
    case("truncated_flatbuffer", "mlp", None, ip, "InvalidProgram",
         "header program size", raw=lambda b: b[:read_header(b).program_size // 2])

    # --- segments ---
    case("segment_offset_past_file", "mlp",
         lambda p: _set(p.program.segments[0], offset=1 << 40), ip, "InvalidProgram",
         "segment 0 [1099511627776, +1984) lies outside the file")
    case("segment_size_past_file", "mlp",
         lambda p: _set(p.program.segments[0], size=1 << 62), ip, "InvalidProgram",
         "segment 0 [0, +4611686018427387904) lies outside the file")
    case("segment_offset_overflows", "mlp",
         lambda p: _set(p.program.segments[0], offset=(1 << 64) - 64, size=128), ip,
         "InvalidProgram", "lies outside the file")
    case("constant_segment_index_out_of_range", "mlp",
         lambda p: _set(p.program.constantSegment, segmentIndex=7), ip, "InvalidProgram",
         "constant segment index 7 out of range (1 segments)")
    case("constant_segment_missing", "mlp",
         lambda p: _set(p.program, segments=[]), ip, "InvalidProgram",
         "constant segment index 0 out of range (0 segments)")
    case("constant_offset_past_segment", "mlp",
         lambda p: p.program.constantSegment.offsets.__setitem__(3, 1 << 30), ip,
         "InvalidProgram", "constant 3 offset 1073741824 is past its segment (1984 bytes)")
    case("constant_runs_past_segment", "mlp",
         lambda p: p.program.constantSegment.offsets.__setitem__(6, 1984 - 16), it,
         "InvalidProgram", "constant 6 (256 bytes at 1968) is past the constant segment")
    case("constant_misaligned", "mlp",
         lambda p: p.program.constantSegment.offsets.__setitem__(2, 66), it, "InvalidProgram",
         "value 2: its data is not aligned to its 4-byte elements")
    case("constant_index_out_of_range", "mlp",
         lambda p: _set(_tensor(p, 2), dataBufferIdx=999), it, "InvalidProgram",
         "constant buffer index 999 out of range (7 buffers)")

    # --- the flatbuffer's unions ---
    case("value_union_without_table", "mlp", lambda p: _set(p.plan().values[5], val=None), ip,
         "InvalidProgram", "method 0 value 5 is a Tensor without data")
    case("instruction_union_without_table", "mlp",
         lambda p: _set(p.plan().chains[0].instructions[1], instrArgs=None), ip,
         "InvalidProgram", "method 0 chain 0 instruction 1 is a KernelCall without arguments")

    # --- the method's structure ---
    case("method_without_name", "mlp", lambda p: _set(p.plan(), name=None), ip,
         "InvalidProgram", "method 0 has no name")
    case("method_name_twice", "mlp",
         lambda p: p.program.executionPlan.append(copy.deepcopy(p.plan())), ip,
         "InvalidProgram", "methods 0 and 1 are both named 'forward'")
    case("no_value_table", "mlp", lambda p: _set(p.plan(), values=None), it,
         "InvalidProgram", "method has no value table")
    case("no_chain", "mlp", lambda p: _set(p.plan(), chains=[]), it, "NotSupported",
         "method must have exactly one chain, it has 0")
    case("two_chains", "mlp", lambda p: p.plan().chains.append(copy.deepcopy(p.plan().chains[0])),
         it, "NotSupported", "method must have exactly one chain, it has 2")
    case("input_index_out_of_range", "mlp", lambda p: p.plan().inputs.__setitem__(0, 999), it,
         "InvalidProgram", "input 0: value index 999 out of range")
    case("output_index_negative", "mlp", lambda p: p.plan().outputs.__setitem__(0, -3), it,
         "InvalidProgram", "output 0: value index -3 out of range")
    case("input_is_a_constant", "mlp", lambda p: p.plan().inputs.__setitem__(0, 2), it,
         "InvalidProgram", "input 0 (value 2) is a constant tensor")

    # --- tensors: sizes, dim orders, dtypes ---
    case("tensor_negative_size", "mlp", lambda p: _tensor(p, 5).sizes.__setitem__(0, -4), it,
         "InvalidProgram", "value 5: negative size -4")
    case("tensor_huge_size", "mlp",
         lambda p: _tensor(p, 5).sizes.__setitem__(1, 2**31 - 1), it, "InvalidProgram",
         "value 5: tensor has too many elements")
    case("tensor_numel_overflows_64_bits", "mlp",
         lambda p: _set(_tensor(p, 5), sizes=[2**31 - 1] * 4, dimOrder=[0, 1, 2, 3]), it,
         "InvalidProgram", "value 5: tensor has too many elements")
    case("tensor_rank_past_limit", "mlp",
         lambda p: _set(_tensor(p, 5), sizes=[1] * 17, dimOrder=list(range(17))), it,
         "NotSupported", "value 5: rank 17 exceeds the limit of 16")
    case("dim_order_repeats_a_dim", "mlp", lambda p: _set(_tensor(p, 5), dimOrder=[1, 1]), it,
         "InvalidProgram", "value 5: dim order is not a permutation")
    case("dim_order_out_of_range", "mlp", lambda p: _set(_tensor(p, 5), dimOrder=[0, 7]), it,
         "InvalidProgram", "value 5: dim order is not a permutation")
    case("dim_order_wrong_length", "mlp", lambda p: _set(_tensor(p, 5), dimOrder=[0]), it,
         "InvalidProgram", "value 5: dim order has 1 entries for rank 2")
    case("dtype_out_of_range", "mlp", lambda p: _set(_tensor(p, 5), scalarType=99), it,
         "InvalidProgram", "value 5: invalid dtype 99")
    case("dtype_in_a_gap", "mlp", lambda p: _set(_tensor(p, 5), scalarType=20), it,
         "InvalidProgram", "value 5: invalid dtype 20")
    case("dtype_negative", "mlp", lambda p: _set(_tensor(p, 5), scalarType=-3), it,
         "InvalidProgram", "value 5: invalid dtype -3")
    case("bool_constant_not_0_or_1", "mlp", lambda p: _set(_tensor(p, 2), scalarType=11), it,
         "InvalidProgram", "value 2: bool constant holds 34 at element 0; a bool is 0 or 1")
    case("storage_offset", "mlp", lambda p: _set(_tensor(p, 5), storageOffset=4), it,
         "NotSupported", "value 5: non-zero storage offset")
    case("dynamic_unbound", "mlp", lambda p: _set(_tensor(p, 5), shapeDynamism=2), it,
         "NotSupported", "value 5: unbounded dynamic shapes are not supported")
    # A planned tensor with initial data is a mutable buffer: its data must exist.
    case("mutable_buffer_data_missing", "mlp", lambda p: _set(_tensor(p, 5), dataBufferIdx=1),
         it, "InvalidProgram", "mutable buffer initial data 1 does not exist (0 entries)")
    case("tensor_without_memory", "mlp", lambda p: _set(_tensor(p, 5), allocationInfo=None), it,
         "InvalidProgram", "value 5: tensor has neither planned memory nor constant data")

    # --- planned memory ---
    case("arena_sizes_missing", "mlp", lambda p: _set(p.plan(), nonConstBufferSizes=[]), it,
         "InvalidProgram", "value 0: memory id 1 out of range (0 buffers)")
    case("arena_size_zero", "mlp", lambda p: _set(p.plan(), nonConstBufferSizes=[0, 0]), it,
         "InvalidProgram", "value 0: 96 bytes at offset 192 overflow planned buffer 1 (0 bytes)")
    case("arena_size_negative", "mlp", lambda p: _set(p.plan(), nonConstBufferSizes=[0, -64]),
         it, "InvalidProgram", "planned buffer 0 has size -64")
    case("arena_size_enormous", "mlp",
         lambda p: _set(p.plan(), nonConstBufferSizes=[0, 1 << 62]), it, "MemoryAllocationFailed",
         f"more than the limit of {MAX_MEMORY_BYTES} bytes")
    case("arena_sizes_overflow_when_added", "mlp",
         lambda p: _set(p.plan(), nonConstBufferSizes=[0, 2**63 - 1, 2**63 - 1]), it,
         "MemoryAllocationFailed", f"more than the limit of {MAX_MEMORY_BYTES} bytes")
    case("memory_id_zero", "mlp", lambda p: _set(_tensor(p, 5).allocationInfo, memoryId=0), it,
         "InvalidProgram", "value 5: memory id 0 out of range (1 buffers)")
    case("memory_id_past_arenas", "mlp",
         lambda p: _set(_tensor(p, 5).allocationInfo, memoryId=3), it, "InvalidProgram",
         "value 5: memory id 3 out of range (1 buffers)")
    case("offset_past_arena", "mlp",
         lambda p: _set(_tensor(p, 5).allocationInfo, memoryOffsetLow=384), it,
         "InvalidProgram", "value 5: 192 bytes at offset 384 overflow planned buffer 1 (384 bytes)")
    case("tensor_runs_past_arena", "mlp",
         lambda p: _set(_tensor(p, 5).allocationInfo, memoryOffsetLow=320), it,
         "InvalidProgram", "value 5: 192 bytes at offset 320 overflow planned buffer 1")
    case("offset_high_word", "mlp",
         lambda p: _set(_tensor(p, 5).allocationInfo, memoryOffsetHigh=1), it, "InvalidProgram",
         "value 5: 192 bytes at offset 4294967296 overflow planned buffer 1")
    case("offset_misaligned", "mlp",
         lambda p: _set(_tensor(p, 5).allocationInfo, memoryOffsetLow=2), it, "InvalidProgram",
         "value 5: its data is not aligned to its 4-byte elements")

    # --- lists ---
    # convnet: value 27 is batch norm's Tensor[] return, value 5 an int list.
    case("tensor_list_names_an_int", "convnet",
         lambda p: _tensor(p, 27).items.__setitem__(0, 16), it, "InvalidProgram",
         "value 27: list item 0 is a Int, not a tensor")
    case("tensor_list_names_itself", "convnet",
         lambda p: _tensor(p, 27).items.__setitem__(1, 27), it, "InvalidProgram",
         "value 27: list item 1 is a None, not a tensor")
    case("tensor_list_item_out_of_range", "convnet",
         lambda p: _tensor(p, 27).items.__setitem__(2, 4096), it, "InvalidProgram",
         "value 27: list item 2 index 4096 out of range")
    case("int_list_names_a_tensor", "convnet", lambda p: _tensor(p, 5).items.__setitem__(0, 0),
         it, "InvalidProgram", "value 5: int list item 0 does not name an int value")
    case("int_list_names_itself", "convnet", lambda p: _tensor(p, 5).items.__setitem__(1, 5),
         it, "InvalidProgram", "value 5: int list item 1 does not name an int value")

    # --- kernel calls ---
    case("operator_index_out_of_range", "mlp", lambda p: _set(_instr(p, 1), opIndex=40), it,
         "InvalidProgram", "instruction 1: operator index 40 out of range")
    case("operator_index_negative", "mlp", lambda p: _set(_instr(p, 1), opIndex=-1), it,
         "InvalidProgram", "instruction 1: operator index -1 out of range")
    case("operator_unknown", "mlp", lambda p: _set(p.plan().operators[1], name="aten::no_such"),
         it, "OperatorMissing", "instruction 1: no kernel for operator aten::no_such.out")
    case("operator_name_too_long", "mlp",
         lambda p: _set(p.plan().operators[1], name="aten::" + "x" * 200), it, "InvalidProgram",
         "operator 1 name is too long")
    case("operator_without_name", "mlp", lambda p: _set(p.plan().operators[1], name=None), it,
         "InvalidProgram", "operator 1 has no name")
    case("kernel_arg_index_out_of_range", "mlp",
         lambda p: _instr(p, 1).args.__setitem__(0, 9999), it, "InvalidProgram",
         "instruction 1: argument 0 value index 9999 out of range")
    case("kernel_arg_index_negative", "mlp", lambda p: _instr(p, 1).args.__setitem__(0, -1), it,
         "InvalidProgram", "instruction 1: argument 0 value index -1 out of range")
    case("kernel_arg_wrong_kind", "mlp", lambda p: _instr(p, 0).args.__setitem__(0, 3), it,
         "InvalidProgram",
         "instruction 0 (aten::addmm.out): argument 0 should be Tensor, the program passes Int")
    case("kernel_scalar_arg_is_a_tensor", "mlp", lambda p: _instr(p, 0).args.__setitem__(3, 2),
         it, "InvalidProgram",
         "instruction 0 (aten::addmm.out): argument 3 should be Scalar, the program passes Tensor")
    case("kernel_too_few_args", "mlp", lambda p: _set(_instr(p, 0), args=[1, 0]), it,
         "InvalidProgram", "instruction 0 (aten::addmm.out): expects 6 arguments, the program passes 2")
    case("kernel_more_args_than_schema", "mlp", lambda p: _set(_instr(p, 1), args=[5, 6, 6, 6]),
         it, "InvalidProgram",
         "instruction 1 (aten::relu.out): takes 2 arguments and returns its 1 out, but the "
         "program passes 4 values")
    case("kernel_return_is_not_its_out", "mlp", lambda p: _set(_instr(p, 1), args=[5, 6, 5]),
         it, "InvalidProgram", "instruction 1 (aten::relu.out): takes 2 arguments and returns its "
         "1 out, but the program passes 3 values")
    case("kernel_writes_a_constant", "mlp", lambda p: _set(_instr(p, 1), args=[5, 2, 2]), it,
         "InvalidProgram", "instruction 1 (aten::relu.out): out argument 1 is a constant or an "
         "unplanned input")
    case("kernel_dtype_without_kernel", "mlp", lambda p: _set(_tensor(p, 5), scalarType=11), it,
         "OperatorMissing", "instruction 1: aten::relu.out has no kernel for dtype Bool")
    case("prim_output_is_a_tensor", "reshape", lambda p: _instr(p, 0).args.__setitem__(2, 0), it,
         "InvalidProgram", "instruction 0 (aten::sym_size.int): output is a Tensor, not a scalar")
    case("prim_extra_argument", "reshape",
         lambda p: _set(_instr(p, 0), args=[*_instr(p, 0).args, 1]), it, "InvalidProgram",
         "instruction 0 (aten::sym_size.int): expects 3 values, the program passes 4")

    # --- delegates ---
    case("delegate_index_out_of_range", "delegated", lambda p: _set(_instr(p, 2), delegateIndex=5),
         it, "InvalidProgram", "instruction 2: delegate index 5 out of range")
    case("delegate_index_negative", "delegated", lambda p: _set(_instr(p, 0), delegateIndex=-2),
         it, "InvalidProgram", "instruction 0: delegate index -2 out of range")
    case("delegate_arg_index_out_of_range", "delegated",
         lambda p: _instr(p, 0).args.__setitem__(1, 77), it, "InvalidProgram",
         "instruction 0: argument 1 value index 77 out of range")
    case("delegate_unknown_backend", "delegated",
         lambda p: _set(p.plan().delegates[1], id="NoSuchBackend"), it, "NotFound",
         "delegate 1 needs backend 'NoSuchBackend', which is not linked into this runtime")
    case("delegate_segment_out_of_range", "delegated",
         lambda p: _set(p.plan().delegates[0].processed, index=99), it, "InvalidProgram",
         "segment index 99 out of range")
    case("delegate_segment_past_file", "delegated",
         lambda p: _set(p.program.segments[1], offset=1 << 40), ip, "InvalidProgram",
         "segment 1 [1099511627776, +236) lies outside the file")
    case("delegate_inline_data_out_of_range", "delegated",
         lambda p: _set(p.plan().delegates[0].processed, location=DataLocation.INLINE, index=3),
         it, "InvalidProgram", "delegate 0: inline data 3 out of range")
    case("delegate_blob_corrupt", "delegated",
         lambda p: _segment_bytes(p, 1, _magic(b"XXXX")), it, "DelegateInvalidCompatibility",
         "backend 'EmberTestBackend' failed to init delegate 0")
    case("delegate_writes_a_constant", "delegated",
         lambda p: _instr(p, 0).args.__setitem__(2, 4), it, "InvalidProgram",
         "instruction 0 (EmberTestBackend): output 0 (value 4) is a constant or an unplanned input")
    case("cpu_delegate_blob_corrupt", "cpu", lambda p: _segment_bytes(p, 0, _magic(b"\0\0\0\0")),
         it, "DelegateInvalidCompatibility", "backend 'EmberCpuBackend' failed to init delegate 0")

    # --- control flow ---
    case("jump_past_the_end", "cond", lambda p: _set(_instr(p, 2), destinationInstruction=9), it,
         "InvalidProgram", "instruction 2: jump destination 9 out of range")
    case("jump_negative", "cond", lambda p: _set(_instr(p, 5), destinationInstruction=-1), it,
         "InvalidProgram", "instruction 5: jump destination -1 out of range")
    case("jump_condition_out_of_range", "cond", lambda p: _set(_instr(p, 2), condValueIndex=64),
         it, "InvalidProgram", "instruction 2: condition index out of range")
    case("jump_condition_not_a_bool", "cond", lambda p: _set(_instr(p, 2), condValueIndex=0), ex,
         "InvalidProgram", "instruction 2: jump condition is a Tensor, not a bool")
    case("jump_condition_an_int", "cond", lambda p: _set(_instr(p, 2), condValueIndex=6), ex,
         "InvalidProgram", "instruction 2: jump condition is a Int, not a bool")
    case("move_index_out_of_range", "cond", lambda p: _set(_instr(p, 4), moveFrom=300), it,
         "InvalidProgram", "instruction 4: move index out of range")
    case("move_changes_kind", "cond", lambda p: _set(_instr(p, 4), moveFrom=6), it,
         "InvalidProgram", "instruction 4: move from value 6 (Int) to value 7 (Tensor) changes")
    case("move_changes_dtype", "cond", lambda p: _set(_instr(p, 4), moveFrom=5), it,
         "InvalidProgram", "instruction 4: move from value 5 (Tensor) to value 7 (Tensor) changes")
    case("free_index_out_of_range", "free", lambda p: _set(_instr(p, 7), valueIndex=512), it,
         "InvalidProgram", "instruction 7: free index out of range")
    # The loop's exit test (instruction 4) reads a bool that is always true.
    case("loop_never_ends", "loop", lambda p: _set(_instr(p, 4), condValueIndex=_true(p)), ex,
         "InvalidState", f"after {MAX_INSTRUCTIONS} instructions, the limit the application set")
    case("jump_to_itself", "loop", lambda p: _set(_instr(p, 9), destinationInstruction=9), ex,
         "InvalidState", "execute stopped at instruction 9")
    return c


def main() -> None:
    cases = _cases()
    names = [case.name for case in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    for old in os.listdir(OUT):
        if old.endswith(".pte"):
            os.remove(os.path.join(OUT, old))
    rows = ["# file\tstage\terror\tmessage (written by make_malformed.py)"]
    for case in cases:
        with open(os.path.join(ROOT, BASES[case.base]), "rb") as f:
            data = f.read()
        if case.edit is not None:
            pte = PteFile.parse(data)
            case.edit(pte)
            data = pte.write()
        if case.raw is not None:
            data = case.raw(data)
        with open(os.path.join(OUT, f"{case.name}.pte"), "wb") as f:
            f.write(data)
        rows.append(f"{case.name}.pte\t{case.stage}\t{case.error}\t{case.message}")
    with open(os.path.join(OUT, "cases.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    print(f"wrote {len(cases)} cases to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
