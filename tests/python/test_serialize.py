"""The .pte container: identifier, extended header and aligned segments."""

import struct

import ember
import torch
from ember.fb.Program import Program

from examples import models


def _program_bytes():
    return ember.export(models.seeded(models.MLP), (torch.randn(2, 64),), backends=()).buffer


def test_header_and_segments():
    data = _program_bytes()
    assert data[4:8] == b"ET12"
    assert data[8:12] == b"eh00"
    length, program_size, segment_base, segment_data_size = struct.unpack_from("<IQQQ", data, 12)
    assert length == 32
    assert program_size <= segment_base and segment_base % 128 == 0
    assert segment_base + segment_data_size == len(data)
    program = Program.GetRootAs(data, 0)
    assert program.ExecutionPlan(0).Name() == b"forward"
    constants = program.ConstantSegment()
    assert constants.OffsetsLength() > 1
    assert all(constants.Offsets(i) % 64 == 0 for i in range(constants.OffsetsLength()))


def test_constants_round_trip():
    model = models.seeded(models.MLP)
    data = ember.export(model, (torch.randn(2, 64),), backends=()).buffer
    _, _, segment_base, _ = struct.unpack_from("<IQQQ", data, 12)
    program = Program.GetRootAs(data, 0)
    plan = program.ExecutionPlan(0)
    # Export folds weight transposes into the constants, so either layout counts.
    weights = [p.detach() for p in model.parameters()]
    weights += [p.detach().t() for p in model.parameters() if p.dim() == 2]
    found = 0
    for i in range(plan.ValuesLength()):
        value = plan.Values(i)
        if value.ValType() != 5:  # Tensor
            continue
        from ember.fb.Tensor import Tensor
        tensor = Tensor()
        tensor.Init(value.Val().Bytes, value.Val().Pos)
        if tensor.DataBufferIdx() == 0:
            continue
        shape = tuple(tensor.SizesAsNumpy().tolist())
        offset = program.ConstantSegment().Offsets(tensor.DataBufferIdx())
        start = segment_base + program.Segments(0).Offset() + offset
        count = 1
        for s in shape:
            count *= s
        stored = torch.frombuffer(bytearray(data[start:start + 4 * count]), dtype=torch.float32)
        assert any(w.shape == shape and torch.equal(stored.reshape(shape), w) for w in weights)
        found += 1
    assert found == len(list(model.parameters()))


def test_instructions_keep_source_locations():
    program = ember.export(models.seeded(models.MLP), (torch.randn(2, 64),), backends=())
    assert program.instructions
    assert any(info.filename.endswith("models.py") and info.lineno > 0
               for info in program.instructions)
    data = program.buffer
    chain = Program.GetRootAs(data, 0).ExecutionPlan(0).Chains(0)
    assert chain.StacktraceLength() == chain.InstructionsLength()
