"""Reads a .pte file into flatbuffer objects and writes it back, keeping its
segments byte for byte: what the malformed-file corpus (tests/malformed) and
the fuzzing seeds (tests/fuzz) are made with, one edit at a time.

    pte = PteFile.read("model.pte")
    pte.plan().values[3].val.sizes[0] = -2
    open("bad.pte", "wb").write(pte.write())
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

import flatbuffers
import numpy as np
from ember.fb.ExecutionPlan import ExecutionPlanT
from ember.fb.Program import Program, ProgramT
from ember.serialize.pte import FILE_IDENTIFIER, HEADER_LENGTH, HEADER_MAGIC, SEGMENT_ALIGNMENT

HEADER_OFFSET = 8  # the extended header follows the root offset and the identifier


@dataclass
class Header:
    """The extended header's fields (absent in files without segments)."""

    program_size: int
    segment_base: int
    segment_data_size: int


@dataclass
class PteFile:
    program: ProgramT
    segment_data: bytes  # everything from the segment base on, as the file has it

    @staticmethod
    def read(path: str) -> PteFile:
        with open(path, "rb") as f:
            return PteFile.parse(f.read())

    @staticmethod
    def parse(data: bytes) -> PteFile:
        if data[4:8] != FILE_IDENTIFIER:
            raise ValueError("not an ET12 .pte file")
        header = read_header(data)
        program = _editable(ProgramT.InitFromObj(Program.GetRootAs(data, 0)))
        segments = b""
        if header is not None:
            segments = data[header.segment_base:header.segment_base + header.segment_data_size]
        return PteFile(program, segments)

    def plan(self, index: int = 0) -> ExecutionPlanT:
        return self.program.executionPlan[index]

    def write(self) -> bytes:
        """The file: the flatbuffer, the extended header when there are
        segments, and the segment data at the aligned segment base. Segment
        offsets and sizes are written as the program has them, so an edit to
        them is kept rather than repaired."""
        builder = flatbuffers.Builder(1024)
        builder.Finish(self.program.Pack(builder), file_identifier=FILE_IDENTIFIER)
        flat = bytes(builder.Output())
        if not self.segment_data:
            return flat
        program_size = len(flat) + HEADER_LENGTH
        segment_base = _align(program_size, SEGMENT_ALIGNMENT)
        (root,) = struct.unpack_from("<I", flat, 0)
        header = HEADER_MAGIC + struct.pack("<IQQQ", HEADER_LENGTH, program_size, segment_base,
                                            len(self.segment_data))
        out = bytearray(struct.pack("<I", root + HEADER_LENGTH) + flat[4:8] + header + flat[8:])
        out.extend(b"\0" * (segment_base - len(out)))
        out.extend(self.segment_data)
        return bytes(out)


def read_header(data: bytes) -> Header | None:
    if data[HEADER_OFFSET:HEADER_OFFSET + 4] != HEADER_MAGIC:
        return None
    _, program_size, segment_base, segment_data_size = struct.unpack_from(
        "<IQQQ", data, HEADER_OFFSET + 4)
    return Header(program_size, segment_base, segment_data_size)


def patch_header(data: bytes, **fields: int) -> bytes:
    """`data` with extended-header fields (program_size, segment_base,
    segment_data_size) replaced."""
    header = read_header(data)
    if header is None:
        raise ValueError("the file has no extended header")
    for name, value in fields.items():
        setattr(header, name, value)
    packed = struct.pack("<QQQ", header.program_size, header.segment_base,
                         header.segment_data_size)
    start = HEADER_OFFSET + 8
    return data[:start] + packed + data[start + len(packed):]


def _editable(obj: Any) -> Any:
    """The object tree with the read-only numpy views flatbuffers gives for
    scalar vectors turned into lists, so that any field can be edited."""
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, list):
        return [_editable(item) for item in obj]
    if hasattr(obj, "__dict__"):
        for name, value in vars(obj).items():
            setattr(obj, name, _editable(value))
    return obj


def _align(n: int, alignment: int) -> int:
    return (n + alignment - 1) // alignment * alignment
