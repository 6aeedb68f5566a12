"""ember.quantize end to end: each scheme quantizes a small model through
torchao's PT2E flow with Ember's quantizer, exports with the quantize and
dequantize ops kept, runs on the C++ runtime (portable kernels, and with the
CPU backend taking what it supports) and matches the quantized model in
eager PyTorch; the report gives per-layer SQNR and names what stayed float.
Real-weights models on real data are in test_quantize_real.py (slow)."""

from __future__ import annotations

import ember
import ember.runtime
import pytest
import torch
from ember.quantize import sqnr
from torch import nn


class ConvNet(nn.Module):
    """conv+bn+relu, depthwise conv, residual add+relu, pool, a float-only op, linear."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.dw = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        y = torch.relu(y + self.dw(y))
        y = nn.functional.max_pool2d(y, 2).mean((2, 3))
        return self.fc(torch.sigmoid(y))


class MLP(nn.Module):
    def __init__(self, width=256):
        super().__init__()
        self.up = nn.Linear(width, 2 * width)
        self.down = nn.Linear(2 * width, width)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


def _seeded(cls, *args):
    torch.manual_seed(0)
    model = cls(*args).eval()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
    return model


def _run(program, inputs, path):
    program.save(path)
    return torch.as_tensor(ember.runtime.load(path).forward(*inputs))


# scheme -> least SQNR (dB) of the quantized model against float on these random models
SCHEMES = {"int8": 25.0, "int8-dynamic": 30.0, "8da4w": 12.0, "int8-weight": 35.0,
           "int4-weight": 12.0}


@pytest.mark.parametrize("backends", [(), None], ids=["portable", "cpu_backend"])
@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_scheme_runs_on_the_runtime_as_in_eager(scheme, backends, tmp_pte):
    model = _seeded(MLP, 64)
    torch.manual_seed(1)
    calibration = [(torch.randn(3, 64),) for _ in range(4)]
    qmodel = ember.quantize(model, calibration[0], scheme=scheme, calibration=calibration)
    x = torch.randn(3, 64)
    with torch.no_grad():
        expected, reference = qmodel(x), model(x)
    actual = _run(ember.export(qmodel, (x,), backends=backends), (x,), tmp_pte)
    # Bit-exact quantized ops; the float ops between them may round differently
    # by an ulp, which can move a value by one quantization step.
    assert sqnr(expected, actual) > 35.0
    assert sqnr(reference, actual) > SCHEMES[scheme]


def test_static_int8_conv_net(tmp_pte):
    model = _seeded(ConvNet)
    torch.manual_seed(2)
    calibration = [torch.randn(1, 3, 16, 16) for _ in range(4)]
    qmodel = ember.quantize(model, (calibration[0],), scheme="int8", calibration=calibration)
    report = qmodel.quantization_report
    # conv(+bn)+relu, depthwise conv, add+relu, linear: four units.
    assert [layer.kind for layer in report.layers] == ["conv", "conv", "add", "linear"]
    assert all(layer.sqnr_db > 25 for layer in report.layers), qmodel.report()
    assert report.outputs[0].top1_agreement == 1.0
    # sigmoid has no int8 form: it stays float and the report says so; the
    # pools run on the int8 values (their input's parameters).
    assert report.float_ops == {"sigmoid.default": 1}, report.float_ops
    program = ember.export(qmodel, (calibration[0],), backends=())
    assert "quantized_decomposed::quantize_per_tensor.out" in program.operators
    assert "sigmoid.default x1" in program.report()
    x = torch.randn(1, 3, 16, 16)
    with torch.no_grad():
        expected = qmodel(x)
    assert sqnr(expected, _run(program, (x,), tmp_pte)) > 35.0


@pytest.mark.parametrize("scheme, limit", [("int8", 0.3), ("int8-dynamic", 0.3),
                                           ("int8-weight", 0.3), ("8da4w", 0.2),
                                           ("int4-weight", 0.2)])
def test_quantized_files_are_small(scheme, limit):
    model = _seeded(MLP, 512)
    x = torch.randn(2, 512)
    float_bytes = len(ember.export(model, (x,), backends=()).buffer)
    qmodel = ember.quantize(model, (x,), scheme=scheme, group_size=64)
    quantized_bytes = len(ember.export(qmodel, (x,), backends=()).buffer)
    assert quantized_bytes <= limit * float_bytes, quantized_bytes / float_bytes


def test_export_keeps_the_dequantize_of_packed_4bit_weights():
    model = _seeded(MLP, 64)
    program = ember.export(ember.quantize(model, (torch.randn(2, 64),), scheme="8da4w"),
                           (torch.randn(2, 64),), backends=())
    assert {"ember_quant::unpack_int4.out",
            "quantized_decomposed::dequantize_per_channel_group.out",
            "quantized_decomposed::choose_qparams_per_token_asymmetric.out",
            "quantized_decomposed::quantize_per_token.out",
            "quantized_decomposed::dequantize_per_token.out"} <= set(program.operators)


def test_bad_arguments_are_clear_errors():
    model = _seeded(MLP, 64)
    with pytest.raises(ValueError, match="unknown quantization scheme"):
        ember.quantize(model, (torch.randn(2, 64),), scheme="int3")
    with pytest.raises(ValueError, match="group_size"):
        ember.quantize(model, (torch.randn(2, 64),), scheme="8da4w", group_size=48)


def test_a_layer_whose_width_is_not_whole_groups_stays_float(tmp_pte):
    model = nn.Sequential(nn.Linear(48, 32), nn.ReLU(), nn.Linear(32, 8)).eval()
    x = torch.randn(2, 48)
    qmodel = ember.quantize(model, (x,), scheme="int4-weight", group_size=32)
    assert [layer.name for layer in qmodel.quantization_report.layers] == ["linear_1"]
    assert "linear.default x1" in qmodel.report()
    with torch.no_grad():
        expected = qmodel(x)
    assert sqnr(expected, _run(ember.export(qmodel, (x,), backends=()), (x,), tmp_pte)) > 35.0


class EmbeddingBag(nn.Module):
    """A token table (most of the weights, as in a small transformer), BERT's
    position and segment tables, and a linear over their sum. The position
    ids are a buffer (their lookup is folded at export), the segment ids a
    creation op (the CPU backend computes their lookup at export)."""

    def __init__(self, vocab=2000, dim=64):
        super().__init__()
        self.tokens = nn.Embedding(vocab, dim)
        self.positions = nn.Embedding(16, dim)
        self.segments = nn.Embedding(2, dim)
        self.register_buffer("position_ids", torch.arange(16).unsqueeze(0))
        self.head = nn.Linear(dim, 8)

    def forward(self, ids):
        segments = torch.zeros(ids.shape, dtype=torch.long)
        x = self.tokens(ids) + self.positions(self.position_ids[:, :ids.shape[-1]])
        return self.head(x + self.segments(segments))


# scheme -> (the table op, the largest file size against float's)
TABLE_OPS = {"int8": ("embedding_byte", 0.3), "int8-dynamic": ("embedding_byte", 0.3),
             "int8-weight": ("embedding_byte", 0.3), "8da4w": ("embedding_4bit", 0.2),
             "int4-weight": ("embedding_4bit", 0.2)}


@pytest.mark.parametrize("backends", [(), None], ids=["portable", "cpu_backend"])
@pytest.mark.parametrize("scheme", list(TABLE_OPS))
def test_embedding_tables_are_quantized_and_read_by_row(scheme, backends, tmp_pte):
    """On the CPU backend too, where the int8 adds read the quantized lookups
    that depend on no input as int8 constants."""
    model = _seeded(EmbeddingBag)
    ids = torch.randint(0, 2000, (2, 16), generator=torch.Generator().manual_seed(3))
    qmodel = ember.quantize(model, (ids,), scheme=scheme)
    layers = {layer.name: layer for layer in qmodel.quantization_report.layers}
    assert layers["embedding"].kind == "embedding" and layers["embedding"].sqnr_db > 12
    assert "embedding.default" not in qmodel.report()  # nothing left in float
    table_op, size_limit = TABLE_OPS[scheme]
    program = ember.export(qmodel, (ids,), backends=backends)
    assert f"quantized_decomposed::{table_op}.out" in program.operators
    assert "aten::embedding.out" not in program.operators  # no table dequantized whole
    float_bytes = len(ember.export(model, (ids,), backends=()).buffer)
    assert len(program.buffer) <= size_limit * float_bytes, len(program.buffer) / float_bytes
    with torch.no_grad():
        expected, reference = qmodel(ids), model(ids)
    actual = _run(program, (ids,), tmp_pte)
    assert sqnr(expected, actual) > 35.0
    assert sqnr(reference, actual) > SCHEMES[scheme]
