"""The portable kernels of the quantized operators against PyTorch's reference
quantized arithmetic (torch.ao.quantization.fx._decomposed, which torchao's
PT2E convert emits), on random inputs: each op is exported alone
(backends=()), run on the C++ runtime and compared bit for bit with eager.
Random inputs include values on rounding ties (k + 0.5 steps) and past the
clamp range, so rounding half to even and the clamp order are exercised."""

from __future__ import annotations

import ember
import ember.runtime
import pytest
import torch
from ember.quantize import ops

qd = torch.ops.quantized_decomposed


class OpModule(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *inputs):
        return self.fn(*inputs)


def _run(fn, inputs, tmp_pte):
    program = ember.export(OpModule(fn), inputs, backends=())
    program.save(tmp_pte)
    actual = ember.runtime.load(tmp_pte).forward(*inputs)
    return actual if isinstance(actual, (tuple, list)) else (actual,)


def _assert_same(actual, expected):
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        a = torch.as_tensor(a)
        assert a.dtype == e.dtype and a.shape == e.shape, (a.dtype, e.dtype, a.shape, e.shape)
        assert torch.equal(a, e), f"max diff {(a.double() - e.double()).abs().max()}"


def _floats(*shape, scale=0.05, seed=0):
    """Random floats, a quarter of them exact ties of the quantization step."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=g) * 3
    ties = (torch.randint(-300, 300, shape, generator=g) + 0.5) * scale
    pick = torch.rand(*shape, generator=g) < 0.25
    return torch.where(pick, ties, x)


QTYPES = {torch.int8: (-128, 127), torch.uint8: (0, 255), torch.int16: (-32768, 32767)}


@pytest.mark.parametrize("dtype", list(QTYPES), ids=lambda d: str(d).split(".")[-1])
def test_quantize_and_dequantize_per_tensor(dtype, tmp_pte):
    qmin, qmax = QTYPES[dtype]
    zp = 3 if dtype != torch.uint8 else 128
    x = _floats(4, 33)

    def fn(x):
        q = qd.quantize_per_tensor.default(x, 0.05, zp, qmin, qmax, dtype)
        return q, qd.dequantize_per_tensor.default(q, 0.05, zp, qmin, qmax, dtype)

    _assert_same(_run(fn, (x,), tmp_pte), fn(x))


def test_quantize_per_tensor_clamps_to_a_narrow_range(tmp_pte):
    x = _floats(64)

    def fn(x):
        return qd.quantize_per_tensor.default(x, 0.01, -2, -127, 100, torch.int8)

    _assert_same(_run(fn, (x,), tmp_pte), fn(x))


def test_per_tensor_with_tensor_qparams(tmp_pte):
    x = _floats(3, 17)
    scale = torch.tensor([0.037], dtype=torch.float64)
    zp = torch.tensor([-7], dtype=torch.int64)

    def fn(x, scale, zp):
        q = qd.quantize_per_tensor.tensor(x, scale, zp, -128, 127, torch.int8)
        return q, qd.dequantize_per_tensor.tensor(q, scale, zp, -128, 127, torch.int8)

    _assert_same(_run(fn, (x, scale, zp), tmp_pte), fn(x, scale, zp))


@pytest.mark.parametrize("scale_dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_per_channel(axis, scale_dtype, tmp_pte):
    x = _floats(6, 5, 4)
    channels = x.shape[axis]
    g = torch.Generator().manual_seed(1)
    scales = (torch.rand(channels, generator=g) * 0.1 + 0.01).to(scale_dtype)
    zps = torch.randint(-5, 5, (channels,), generator=g)

    def fn(x, scales, zps):
        q = qd.quantize_per_channel.default(x, scales, zps, axis, -127, 127, torch.int8)
        return q, qd.dequantize_per_channel.default(q, scales, zps, axis, -127, 127, torch.int8), \
            qd.dequantize_per_channel.default(q, scales, None, axis, -127, 127, torch.int8)

    _assert_same(_run(fn, (x, scales, zps), tmp_pte), fn(x, scales, zps))


@pytest.mark.parametrize("shape", [(7, 48), (2, 3, 16), (1, 1)], ids=str)
def test_per_token_dynamic_quantization(shape, tmp_pte):
    x = _floats(*shape, seed=3)
    x[0] = x[0].abs()  # a token with no negative values
    if shape[0] > 1:
        x[1] = 0.0  # and one that is all zeros (scale eps)

    def fn(x):
        scales, zps = qd.choose_qparams_per_token_asymmetric.default(x, torch.int8)
        q = qd.quantize_per_token.default(x, scales, zps, -128, 127, torch.int8)
        return scales, zps, q, qd.dequantize_per_token.default(
            q, scales, zps, -128, 127, torch.int8, torch.float32)

    _assert_same(_run(fn, (x,), tmp_pte), fn(x))


@pytest.mark.parametrize("group_size", [32, 64, 128])
def test_packed_int4_groups(group_size, tmp_pte):
    g = torch.Generator().manual_seed(group_size)
    values = torch.randint(-8, 8, (6, 256), generator=g, dtype=torch.int8)
    packed = ops.pack_int4(values)
    scales = torch.rand(6, 256 // group_size, generator=g) * 0.1
    zps = torch.randint(-2, 3, (6 * 256 // group_size,), generator=g, dtype=torch.int32)

    def fn(packed, scales, zps):
        w = ops.unpack_int4(packed)
        return w, qd.dequantize_per_channel_group.default(
            w, scales, None, -8, 7, torch.int8, group_size, torch.float32), \
            qd.dequantize_per_channel_group.default(
                w, scales, zps, -8, 7, torch.int8, group_size, torch.float32)

    assert torch.equal(ops.unpack_int4(packed), values)
    _assert_same(_run(fn, (packed, scales, zps), tmp_pte), fn(packed, scales, zps))


def test_a_wrong_quantized_dtype_is_an_error_not_a_crash(tmp_pte):
    """The kernel checks the dtype argument against the tensor it describes."""
    x = torch.randint(-128, 127, (4,), dtype=torch.int8)

    def fn(x):
        return qd.dequantize_per_tensor.default(x, 0.1, 0, -128, 127, torch.int8)

    program = ember.export(OpModule(fn), (x,), backends=())
    program.save(tmp_pte)
    with pytest.raises(Exception, match="int8|Char|dtype"):
        ember.runtime.load(tmp_pte).forward(x.to(torch.uint8))


def _reference_table_rows(codes, scales, zero_points, qmin, qmax, indices):
    """ExecuTorch's reference: the whole table dequantized by PyTorch's
    dequantize_per_channel_group, then aten.embedding."""
    group_size = codes.shape[1] // (scales.shape[1] if scales.dim() == 2 else 1)
    table = qd.dequantize_per_channel_group.default(
        codes, scales, zero_points, qmin, qmax, codes.dtype, group_size, scales.dtype)
    return torch.nn.functional.embedding(indices, table)


TABLE_CASES = {  # id -> (code dtype, scale dtype, groups a row, zero points)
    "int8_per_row": (torch.int8, torch.float32, 0, False),
    "uint8_groups_zero_points": (torch.uint8, torch.float32, 4, True),
    "int8_half_scales": (torch.int8, torch.float16, 2, True),
    "int8_float64_groups": (torch.int8, torch.float64, 8, False),
}


def _table_parameters(rows, dim, scale_dtype, groups, zero_points, seed):
    g = torch.Generator().manual_seed(seed)
    shape = (rows, groups) if groups else (rows,)
    scales = (torch.rand(*shape, generator=g) * 0.05 + 0.001).to(scale_dtype)
    zps = torch.randint(-3, 4, shape, generator=g).to(scale_dtype) if zero_points else None
    indices = torch.randint(0, rows, (3, 5), generator=g)
    indices[0, 0], indices[-1, -1] = 0, rows - 1  # the first and the last row
    return scales, zps, indices


@pytest.mark.parametrize("case", list(TABLE_CASES))
def test_embedding_byte(case, tmp_pte):
    code_dtype, scale_dtype, groups, zero_points = TABLE_CASES[case]
    rows, dim = 40, 32
    g = torch.Generator().manual_seed(7)
    lo, hi = QTYPES[code_dtype][0], QTYPES[code_dtype][1]
    codes = torch.randint(lo, hi + 1, (rows, dim), generator=g).to(code_dtype)
    scales, zps, indices = _table_parameters(rows, dim, scale_dtype, groups, zero_points, 8)

    def fn(codes, scales, indices):
        return ops.embedding_byte(codes, scales, zps, lo, hi, indices)

    expected = fn(codes, scales, indices)
    _assert_same([expected], _reference_table_rows(codes, scales, zps, lo, hi, indices))
    _assert_same(_run(fn, (codes, scales, indices), tmp_pte), expected)


@pytest.mark.parametrize("groups", [0, 2, 8])
def test_embedding_4bit(groups, tmp_pte):
    rows, dim = 24, 64
    g = torch.Generator().manual_seed(groups)
    codes = torch.randint(-8, 8, (rows, dim), generator=g, dtype=torch.int8)
    # ExecuTorch's order: element 2j in the high nibble, each stored as q + 8.
    biased = (codes + 8).to(torch.uint8)
    packed = (biased[:, 0::2] << 4) | biased[:, 1::2]
    assert torch.equal(ops.unpack_int4_table(packed), codes)
    scales, zps, indices = _table_parameters(rows, dim, torch.float32, groups, groups == 2, 9)

    def fn(packed, scales, indices):
        return ops.embedding_4bit(packed, scales, zps, -8, 7, indices)

    expected = fn(packed, scales, indices)
    _assert_same([expected], _reference_table_rows(codes, scales, zps, -8, 7, indices))
    _assert_same(_run(fn, (packed, scales, indices), tmp_pte), expected)


def test_an_embedding_index_out_of_range_is_an_error(tmp_pte):
    codes = torch.zeros(10, 8, dtype=torch.int8)
    scales = torch.ones(10)

    def fn(indices):
        return ops.embedding_byte(codes, scales, None, -127, 127, indices)

    program = ember.export(OpModule(fn), (torch.tensor([1, 2]),), backends=())
    program.save(tmp_pte)
    with pytest.raises(Exception, match="out of range"):
        ember.runtime.load(tmp_pte).forward(torch.tensor([3, 10]))
