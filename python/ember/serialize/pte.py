"""The .pte container: flatbuffer, extended header and data segments.

Layout (all numbers little-endian):
  [0:4]   flatbuffer root offset      [4:8] file identifier "ET12"
  [8:40]  extended header: "eh00", header length (32), program size,
          segment base offset, segment data size
  ...     rest of the flatbuffer
  ...     padding to the segment alignment, then the segments
The header is inserted into the finished flatbuffer; since flatbuffer offsets
are relative, only the root offset at [0:4] needs to move.
"""

from __future__ import annotations

import struct

import flatbuffers

from ember.fb.DataLocation import DataLocation
from ember.fb.DataSegment import DataSegmentT
from ember.fb.Program import ProgramT
from ember.fb.SubsegmentOffsets import SubsegmentOffsetsT

FILE_IDENTIFIER = b"ET12"
HEADER_MAGIC = b"eh00"
HEADER_LENGTH = 32  # magic, length, program size, segment base, segment data size
SEGMENT_ALIGNMENT = 128  # ExecuTorch's default; keeps files interchangeable
CONSTANT_ALIGNMENT = 64  # a cache line: lets SIMD kernels load weights aligned
SCHEMA_VERSION = 0


def _align(n: int, alignment: int) -> int:
    return (n + alignment - 1) // alignment * alignment


def _constant_segment(constants: list[bytes]) -> tuple[bytes, list[int]]:
    """Concatenates constants (entry 0 reserved) with aligned starts."""
    data = bytearray()
    offsets = [0]
    for blob in constants[1:]:
        data.extend(b"\0" * (_align(len(data), CONSTANT_ALIGNMENT) - len(data)))
        offsets.append(len(data))
        data.extend(blob)
    return bytes(data), offsets


def serialize_program(program: ProgramT, constants: list[bytes],
                      delegate_blobs: list[bytes] = (), mutable_data: list[bytes] = ()) -> bytes:
    """The bytes of a .pte file for `program`: `constants` in the first
    segment, the initial data of mutable buffers (`mutable_data`, entry 0
    reserved) in the next, then one segment per delegate blob. BackendDelegates
    refer to their blob by its index in `delegate_blobs`; here that becomes the
    index of its segment. Identical blobs share a segment, as ExecuTorch writes
    them."""
    program.version = SCHEMA_VERSION
    segments: list[bytes] = []
    if len(constants) > 1:
        data, offsets = _constant_segment(constants)
        constant_segment = SubsegmentOffsetsT()
        constant_segment.segmentIndex = len(segments)
        constant_segment.offsets = offsets
        program.constantSegment = constant_segment
        segments.append(data)
    else:
        empty = SubsegmentOffsetsT()
        empty.segmentIndex = 0
        empty.offsets = [0]
        program.constantSegment = empty

    if len(mutable_data) > 1:
        # ExecuTorch reads mutable_data_segments[0] only; its offsets index
        # by a tensor's data_buffer_idx.
        data, offsets = _constant_segment(list(mutable_data))
        mutable_segment = SubsegmentOffsetsT()
        mutable_segment.segmentIndex = len(segments)
        mutable_segment.offsets = offsets
        program.mutableDataSegments = [mutable_segment]
        segments.append(data)

    blob_segment: dict[bytes, int] = {}
    for blob in delegate_blobs:
        if blob not in blob_segment:
            blob_segment[blob] = len(segments)
            segments.append(blob)
    for plan in program.executionPlan or []:
        for delegate in plan.delegates or []:
            if delegate.processed.location == DataLocation.SEGMENT:
                delegate.processed.index = blob_segment[delegate_blobs[delegate.processed.index]]

    # Segment offsets are relative to the segment base, so they are known
    # before the flatbuffer is built.
    program.segments = []
    cursor = 0
    for blob in segments:
        entry = DataSegmentT()
        entry.offset = cursor
        entry.size = len(blob)
        program.segments.append(entry)
        cursor = _align(cursor + len(blob), SEGMENT_ALIGNMENT)

    builder = flatbuffers.Builder(1024)
    builder.Finish(program.Pack(builder), file_identifier=FILE_IDENTIFIER)
    flat = bytes(builder.Output())
    if not segments:
        return flat  # no segments: no extended header, as ExecuTorch writes it

    program_size = len(flat) + HEADER_LENGTH
    segment_base = _align(program_size, SEGMENT_ALIGNMENT)
    segment_data_size = program.segments[-1].offset + program.segments[-1].size
    (root,) = struct.unpack_from("<I", flat, 0)
    header = HEADER_MAGIC + struct.pack("<IQQQ", HEADER_LENGTH, program_size, segment_base,
                                        segment_data_size)
    out = bytearray(struct.pack("<I", root + HEADER_LENGTH) + flat[4:8] + header + flat[8:])
    for entry, blob in zip(program.segments, segments):
        start = segment_base + entry.offset
        out.extend(b"\0" * (start - len(out)))
        out.extend(blob)
    return bytes(out)
