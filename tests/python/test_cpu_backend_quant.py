"""The CPU backend on quantized programs (ember.quantize): each unit the
exporter produces (docs/quantization.md) lowers to one int8 op, and the
backend's result equals the portable kernels' (the reference) within one
quantization step per element (static int8; a model output that is a
dequantized int8 tensor, so the step is its scale) or float rounding
(dynamic int8 and 8da4w, float out)."""

from __future__ import annotations

import ember
import ember.runtime
import pytest
import torch
from cpu_backend_util import RecordingCpuBackend
from ember.quantize import sqnr
from torch import nn
from torch.nn import functional as F


def _seeded(model: nn.Module) -> nn.Module:
    torch.manual_seed(0)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
    return model.eval()


def _both(qmodel, inputs, tmp_path, threads=(1, 2)):
    """(portable output, [backend output per thread count], backend's op kinds)."""
    backend = RecordingCpuBackend()
    portable_path, backend_path = str(tmp_path / "portable.pte"), str(tmp_path / "cpu.pte")
    ember.export(qmodel, inputs, backends=()).save(portable_path)
    program = ember.export(qmodel, inputs, backends=[backend])
    program.save(backend_path)
    expected = torch.as_tensor(ember.runtime.load(portable_path).forward(*inputs))
    actual = [torch.as_tensor(ember.runtime.load(backend_path, threads=t).forward(*inputs))
              for t in threads]
    return expected, actual, backend.ops, program


def _step(values: torch.Tensor) -> float:
    """The quantization step of a dequantized int8 tensor: its values' least gap."""
    levels = torch.unique(values.flatten())
    return float((levels[1:] - levels[:-1]).min())


def _assert_within_steps(expected: torch.Tensor, actual: list[torch.Tensor], steps: float) -> None:
    """Every backend output within `steps` quantization steps of the portable
    one, and fewer than 2% of its elements off by more than half a step."""
    step = _step(expected)
    for a in actual:
        diff = (a - expected).abs()
        assert float(diff.max()) <= steps * step, (float(diff.max()), step)
        assert float((diff > step / 2).float().mean()) < 0.02


def _quantize(model, x, scheme="int8", samples=3, **kwargs):
    torch.manual_seed(1)
    calibration = [(torch.randn_like(x),) for _ in range(samples)]
    return ember.quantize(model, (x,), scheme=scheme, calibration=calibration, **kwargs)


class ConvUnit(nn.Module):
    """One quantized convolution (+ activation); the output a quantized tensor
    (a reshape of it), so the two paths can be compared step by step."""

    def __init__(self, cin, cout, k, stride=1, padding=0, dilation=1, groups=1, act=None):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride, padding, dilation, groups)
        self.act = act

    def forward(self, x):
        y = self.conv(x)
        y = self.act(y) if self.act is not None else y
        return y.reshape(y.shape[0], -1)


CONVS = {
    "3x3": (8, 16, 3, 1, 1, 1, 1, nn.ReLU()),
    "3x3_stride2_relu6": (8, 24, 3, 2, 1, 1, 1, nn.ReLU6()),
    "rgb_stem": (3, 32, 3, 2, 1, 1, 1, nn.ReLU6()),
    "pointwise": (32, 48, 1, 1, 0, 1, 1, None),
    "pointwise_stride2": (16, 32, 1, 2, 0, 1, 1, nn.ReLU()),
    "depthwise_3x3": (32, 32, 3, 1, 1, 1, 32, nn.ReLU6()),
    "depthwise_3x3_stride2": (24, 24, 3, 2, 1, 1, 24, None),
    "depthwise_5x5": (40, 40, 5, 1, 2, 1, 40, nn.ReLU()),
    "grouped": (16, 32, 3, 1, 1, 1, 4, None),
    "dilated": (8, 16, 3, 1, 2, 2, 1, None),
    # The Rows path (kernel rows gathered as runs of kw * C bytes) up to 32
    # input channels, the indirect GEMM past them; odd channels, a 5x3
    # window, stride and dilation along H only.
    "rows_32_channels": (32, 16, 3, 1, 1, 1, 1, nn.ReLU()),
    "indirect_33_channels": (33, 16, 3, 1, 1, 1, 1, None),
    "rows_5x3_dilated_rows": (20, 24, (5, 3), (2, 1), (2, 1), (2, 1), 1, None),
}


@pytest.mark.parametrize("name", list(CONVS))
def test_conv_unit_is_one_int8_op_within_one_step(name, tmp_path):
    cin, cout, k, stride, padding, dilation, groups, act = CONVS[name]
    model = _seeded(ConvUnit(cin, cout, k, stride, padding, dilation, groups, act))
    x = torch.randn(1, cin, 13, 11)
    expected, actual, ops, _ = _both(_quantize(model, x), (x,), tmp_path)
    assert ops.count("Qs8Conv2d") == 1 and "Conv2d" not in ops, ops
    _assert_within_steps(expected, actual, 1.01)


class Residual(nn.Module):
    """conv -> conv, add (+relu) of the two: MobileNetV2's / ResNet's join."""

    def __init__(self, relu: bool):
        super().__init__()
        self.a = nn.Conv2d(8, 16, 3, padding=1)
        self.b = nn.Conv2d(16, 16, 1)
        self.relu = relu

    def forward(self, x):
        y = self.a(x)
        z = y + self.b(y)
        return (torch.relu(z) if self.relu else z).flatten(1)


@pytest.mark.parametrize("relu", [False, True], ids=["add", "add_relu"])
def test_residual_add_is_one_int8_op(relu, tmp_path):
    model = _seeded(Residual(relu))
    x = torch.randn(2, 8, 9, 9)
    expected, actual, ops, _ = _both(_quantize(model, x), (x,), tmp_path)
    assert ops.count("Qs8Binary") == 1 and ops.count("Qs8Conv2d") == 2, ops
    _assert_within_steps(expected, actual, 2.01)


class PooledStem(nn.Module):
    """ResNet's stem: conv, relu, 3x3 stride-2 max pool (padded), then a conv."""

    def __init__(self, ceil_mode: bool):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 7, 2, 3)
        self.pool = nn.MaxPool2d(3, 2, 1, ceil_mode=ceil_mode)
        self.conv = nn.Conv2d(16, 24, 1)

    def forward(self, x):
        return self.conv(self.pool(torch.relu(self.stem(x)))).flatten(1)


@pytest.mark.parametrize("ceil_mode", [False, True], ids=["floor", "ceil"])
def test_max_pool_between_int8_convs_runs_on_int8_codes(ceil_mode, tmp_path):
    """The pool's output shares its input's parameters, so it takes the int8
    codes as they are: no conversion to float and back around it."""
    model = _seeded(PooledStem(ceil_mode))
    x = torch.randn(1, 3, 29, 27)
    expected, actual, ops, _ = _both(_quantize(model, x), (x,), tmp_path)
    assert ops.count("Pool2d") == 1 and ops.count("Qs8Conv2d") == 2, ops
    start = ops.index("Qs8Conv2d")
    assert ops[start:start + 3] == ["Qs8Conv2d", "Pool2d", "Qs8Conv2d"], ops
    _assert_within_steps(expected, actual, 2.01)


class SamePaddedStem(nn.Module):
    """EfficientNet-Lite's TF-style "same" padding: an explicit asymmetric pad
    before each strided convolution, here also a pad with a non-zero fill and
    one that crops."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, 2)
        self.down = nn.Conv2d(16, 16, 3, 2, groups=16)
        self.point = nn.Conv2d(16, 24, 1)

    def forward(self, x):
        y = torch.relu(self.stem(F.pad(x, (0, 1, 0, 1))))
        y = torch.relu(self.down(F.pad(y, (1, 1, 0, 2), value=0.75)))
        return self.point(F.pad(y, (-1, 0, 0, -1))).flatten(1)


def test_pad_between_int8_convs_runs_on_int8_codes(tmp_path):
    """A pad whose output shares its input's parameters copies the int8 codes
    and fills with the code of its value: no conversion to float and back."""
    model = _seeded(SamePaddedStem())
    x = torch.randn(1, 3, 33, 30)
    expected, actual, ops, _ = _both(_quantize(model, x), (x,), tmp_path)
    assert ops.count("Qs8Conv2d") == 3, ops
    start = ops.index("Qs8Conv2d")
    assert ops[start:start + 5] == ["Qs8Conv2d", "Pad", "Qs8Conv2d", "Pad", "Qs8Conv2d"], ops
    _assert_within_steps(expected, actual, 2.01)


class Classifier(nn.Module):
    """Convolutions, pooling (the max on int8, the mean in float), linear + relu,
    linear out (a float model output on the qd8-f32 GEMM)."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU6(),
            nn.Conv2d(16, 16, 3, 1, 1, groups=16), nn.ReLU6(),
            nn.Conv2d(16, 32, 1), nn.MaxPool2d(2))
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        y = self.features(x).mean((2, 3))
        return self.fc2(torch.relu(self.fc1(y)))


def test_classifier_runs_in_one_delegate_as_portable(tmp_path):
    model = _seeded(Classifier())
    x = torch.randn(2, 3, 32, 32)
    qmodel = _quantize(model, x)
    expected, actual, ops, program = _both(qmodel, (x,), tmp_path)
    assert "100% of ops" in program.report()
    assert ops.count("Qs8Linear") == 2 and ops.count("Qs8Conv2d") == 3, ops
    for a in actual:
        assert sqnr(expected, a) > 35.0
    with torch.no_grad():
        assert sqnr(qmodel(x), actual[0]) > 30.0


@pytest.mark.slow
def test_mobilenet_v2_int8_matches_portable(tmp_path):
    from examples.models import mobilenet_v2

    torch.manual_seed(0)
    model = mobilenet_v2().eval()
    x = torch.randn(1, 3, 64, 64)
    expected, actual, ops, program = _both(_quantize(model, x, samples=1), (x,), tmp_path,
                                           threads=(2,))
    assert "100% of ops" in program.report()
    assert ops.count("Qs8Conv2d") == 52 and ops.count("Qs8Binary") == 10, ops
    assert sqnr(expected, actual[0]) > 30.0


class Transformerish(nn.Module):
    """BERT-like: q/k/v/o projections of 3-D activations, softmax attention
    (float), a GELU MLP."""

    def __init__(self, width=64, heads=4):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (nn.Linear(width, width) for _ in range(4))
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width, bias=False)
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        b, length, width = x.shape

        def split(t):
            return t.view(b, length, self.heads, -1).transpose(1, 2)

        att = torch.softmax(split(self.q(x)) @ split(self.k(x)).transpose(-1, -2) / 4.0, -1)
        h = self.norm(x + self.o((att @ split(self.v(x))).transpose(1, 2).reshape(b, length, width)))
        return h + self.down(nn.functional.gelu(self.up(h)))


@pytest.mark.parametrize("scheme", ["int8-dynamic", "8da4w"])
def test_dynamic_linears_are_one_op_each_as_portable(scheme, tmp_path):
    model = _seeded(Transformerish())
    x = torch.randn(2, 7, 64)
    qmodel = _quantize(model, x, scheme=scheme, group_size=32)
    expected, actual, ops, _ = _both(qmodel, (x,), tmp_path)
    assert ops.count("Qd8Linear") == 6, ops
    assert "Linear" not in ops
    # The GELU and both residual adds run inside the linears' tiles.
    assert "Unary" not in ops and "Binary" not in ops, ops
    for a in actual:
        # The same int8 inputs and weights; the sums differ by float rounding.
        torch.testing.assert_close(a, expected, rtol=1e-4, atol=1e-4 * float(expected.abs().max()))


def test_quantized_files_stay_small_with_the_backend():
    """The backend's blob keeps int8 weights once (packing happens at init)."""
    model = _seeded(Classifier())
    x = torch.randn(1, 3, 32, 32)
    float_bytes = len(ember.export(model, (x,)).buffer)
    # Widen the layers so that weights dominate the file.
    big = _seeded(nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Conv2d(64, 128, 3),
                                nn.Flatten(1), nn.Linear(128 * 4 * 4, 256)))
    x = torch.randn(1, 3, 8, 8)
    float_bytes = len(ember.export(big, (x,)).buffer)
    int8_bytes = len(ember.export(_quantize(big, x), (x,)).buffer)
    assert int8_bytes <= 0.3 * float_bytes, int8_bytes / float_bytes
    mlp = _seeded(nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256)))
    x = torch.randn(2, 256)
    float_bytes = len(ember.export(mlp, (x,)).buffer)
    four_bit = len(ember.export(_quantize(mlp, x, scheme="8da4w", group_size=32), (x,)).buffer)
    assert four_bit <= 0.2 * float_bytes, four_bit / float_bytes


class _Tampering(RecordingCpuBackend):
    """The CPU backend with one change made to each blob it writes (a
    malformed blob: the runtime must refuse it at load, never crash)."""

    def __init__(self, change):
        super().__init__()
        self.change = change

    def validate(self, processed, compile_specs):
        return None  # no export-time check: the program must reach init

    def preprocess(self, subgraph, compile_specs):
        import flatbuffers
        from ember.cpu_fb import Graph

        blob = super().preprocess(subgraph, compile_specs)
        graph = Graph.GraphT.InitFromObj(Graph.Graph.GetRootAs(blob, 0))
        self.change(graph)
        builder = flatbuffers.Builder(1024)
        builder.Finish(graph.Pack(builder), file_identifier=b"ECP1")
        return bytes(builder.Output())


def _first(graph, kind):
    from ember.cpu_fb import OpParams

    return next(op for op in graph.ops if op.paramsType == getattr(OpParams.OpParams, kind))


def _int8_input_to_float_op(graph):
    from ember.cpu_fb import DataType

    op = _first(graph, "Reduce")  # the mean, on floats: init refuses it first
    graph.values[op.outputs[0]].dtype = DataType.DataType.Int8


def _scales_are_the_weights(graph):
    op = _first(graph, "Qs8Conv2d")
    op.params.weightScales = op.params.weight


def _empty_clamp(graph):
    op = _first(graph, "Qs8Conv2d")
    op.params.outMin, op.params.outMax = 5, 4


def _conv_reads_float(graph):
    from ember.cpu_fb import DataType

    graph.values[_first(graph, "Qs8Conv2d").inputs[0]].dtype = DataType.DataType.Float32


@pytest.mark.parametrize("change", [_int8_input_to_float_op, _scales_are_the_weights,
                                    _empty_clamp, _conv_reads_float])
def test_malformed_int8_blobs_are_refused_at_load(change, tmp_path):
    model = _seeded(Classifier())
    x = torch.randn(1, 3, 16, 16)
    path = str(tmp_path / "bad.pte")
    ember.export(_quantize(model, x, samples=1), (x,), backends=[_Tampering(change)]).save(path)
    with pytest.raises(Exception, match="(?i)invalid|delegate|init|backend"):
        ember.runtime.load(path).forward(x)
