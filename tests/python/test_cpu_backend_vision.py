"""The CPU backend on vision graphs, against eager PyTorch at 1 and 2 threads:
pools (padding, ceil_mode, strides, count_include_pad, divisor_override),
convolutions of every shape the backend runs differently (pointwise GEMM,
indirect GEMM, depthwise), transposed and 1-D convolutions, fused clamps, and the three benchmark models at
small input sizes, which must run wholly on the backend."""

import ember
import pytest
import torch
from cpu_backend_util import run
from ember.backends.cpu import CpuBackend
from torch import nn
from torch.nn import functional as F

from examples import models


def _run(model, inputs, tmp_pte, *, atol=1e-4):
    """Exports once, runs at 1 and at 2 threads, compares each with eager."""
    return run(model, inputs, tmp_pte, atol=atol)[1]


def _run_fused(model, inputs, tmp_pte):
    """As _run, and the model's activation must have fused into its producer:
    the delegate has no op of its own for it."""
    backend, program = run(model, inputs, tmp_pte, atol=1e-4)
    assert "Unary" not in backend.ops, backend.ops
    return program


def _portable_ops(program) -> list[str]:
    return [p.op for p in program.placements if p.where == "portable"]


class Lambda(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


# Each pool between two convolutions, so that it runs inside an NHWC chain,
# and once on the delegate's own (plain) input.
POOLS = {
    "max3s2p1": lambda x: F.max_pool2d(x, 3, 2, 1),
    "max2": lambda x: F.max_pool2d(x, 2),
    "max3s2_ceil": lambda x: F.max_pool2d(x, 3, 2, ceil_mode=True),
    "max_dilated": lambda x: F.max_pool2d(x, 3, 1, 1, dilation=2),
    "max_rect": lambda x: F.max_pool2d(x, (2, 3), (1, 2), (1, 0)),
    "avg3s2p1": lambda x: F.avg_pool2d(x, 3, 2, 1),
    "avg3s2p1_nopad": lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
    "avg3_ceil": lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True),
    "avg3_ceil_nopad": lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
    "avg2_divisor": lambda x: F.avg_pool2d(x, 2, divisor_override=3),
    # EfficientNet's head: a window larger than the input, ceil mode.
    "avg_huge_ceil": lambda x: F.avg_pool2d(x, 40, ceil_mode=True),
    "max_huge_ceil": lambda x: F.max_pool2d(x, 40, ceil_mode=True),
    "avg_rect": lambda x: F.avg_pool2d(x, (3, 2), (2, 1), (1, 1)),
    "adaptive1": lambda x: F.adaptive_avg_pool2d(x, 1),
    "adaptive_3x2": lambda x: F.adaptive_avg_pool2d(x, (3, 2)),
    "adaptive_5": lambda x: F.adaptive_avg_pool2d(x, 5),
    "mean_hw": lambda x: x.mean((2, 3)),
    "mean_hw_keepdim": lambda x: x.mean((-1, -2), keepdim=True),
}


class PoolBetweenConvs(nn.Module):
    def __init__(self, pool):
        super().__init__()
        self.pool = pool
        self.conv1 = nn.Conv2d(3, 19, 3, padding=1)
        self.conv2 = nn.Conv2d(19, 8, 1)

    def forward(self, x):
        y = self.pool(self.conv1(x))
        # A mean leaves [N, C] (or [N, C, 1, 1]); a 1x1 conv still applies.
        return self.conv2(y if y.dim() == 4 else y.view(*y.shape, 1, 1)), self.pool(x)


@pytest.mark.parametrize("name", list(POOLS))
def test_pools_match_eager(name, tmp_pte):
    torch.manual_seed(0)
    model = PoolBetweenConvs(Lambda(POOLS[name])).eval()
    x = torch.randn(2, 3, 13, 11)
    program = _run(model, (x,), tmp_pte)
    assert _portable_ops(program) == [], program.report()


def test_max_pool_with_used_indices_stays_portable(tmp_pte):
    model = Lambda(lambda x: F.max_pool2d(x, 2, return_indices=True)[1].float())
    program = _run(model, (torch.randn(1, 3, 8, 8),), tmp_pte)
    assert any("max_pool2d_with_indices" in op for op in _portable_ops(program)), program.report()
    assert "the indices are used" in program.report()


def test_max_pool_propagates_nan(tmp_pte):
    model = Lambda(lambda x: F.max_pool2d(x, 2))
    x = torch.randn(1, 4, 6, 6)
    x[0, 1, 2, 3] = float("nan")
    program = ember.export(model, (x,), backends=[CpuBackend()])
    program.save(tmp_pte)
    actual = torch.as_tensor(ember.runtime.load(tmp_pte).forward(x))
    assert torch.equal(actual.isnan(), model(x).isnan())


# (in_channels, out_channels, kernel, stride, padding, dilation, groups, H, W): each
# path (pointwise GEMM, indirect GEMM, Winograd F(4x4, 3x3) for 3x3 stride 1 on
# images of 12x12 outputs and more, depthwise with unrolled and looped taps)
# with its tails.
CONVS = {
    "pointwise": (24, 40, 1, 1, 0, 1, 1, 9, 10),
    "pointwise_odd": (7, 17, 1, 1, 0, 1, 1, 5, 3),
    "pointwise_s2": (16, 32, 1, 2, 0, 1, 1, 11, 11),
    "pointwise_padded": (8, 8, 1, 1, 1, 1, 1, 5, 5),
    "3x3": (16, 33, 3, 1, 1, 1, 1, 12, 9),
    "3x3_s2": (32, 64, 3, 2, 1, 1, 1, 15, 15),
    "3x3_unpadded": (5, 6, 3, 1, 0, 1, 1, 7, 8),
    "3x3_winograd": (16, 24, 3, 1, 1, 1, 1, 26, 19),
    "3x3_winograd_unpadded_odd_c": (13, 9, 3, 1, 0, 1, 1, 17, 15),
    "3x3_dilated": (8, 12, 3, 1, 2, 2, 1, 10, 10),
    "stem7x7": (3, 64, 7, 2, 3, 1, 1, 32, 30),
    "stem3x3": (3, 32, 3, 2, 1, 1, 1, 32, 32),
    # Few input channels (the Rows path: a padded copy, taps merged along rows).
    "mono_5x3_rect_stride": (1, 6, (5, 3), (2, 1), (2, 1), 1, 1, 13, 11),
    "rgba_dilated_rows": (4, 5, 3, 1, 1, (2, 1), 1, 9, 8),
    "rgb_unpadded": (3, 7, 3, 1, 0, 1, 1, 6, 9),
    "5x5": (6, 10, 5, 1, 2, 1, 1, 9, 9),
    "1x7": (8, 8, (1, 7), 1, (0, 3), 1, 1, 9, 9),
    "grouped": (24, 36, 3, 1, 1, 1, 4, 8, 8),
    "grouped_multiplier": (8, 16, 3, 1, 1, 1, 8, 7, 7),
    "depthwise3x3": (32, 32, 3, 1, 1, 1, 32, 14, 14),
    "depthwise3x3_s2": (96, 96, 3, 2, 1, 1, 96, 15, 15),
    "depthwise_odd_c": (21, 21, 3, 1, 1, 1, 21, 8, 9),
    "depthwise5x5": (40, 40, 5, 1, 2, 1, 40, 9, 9),
    "depthwise5x5_s2": (17, 17, 5, 2, 2, 1, 17, 12, 12),
    "depthwise2x2": (12, 12, 2, 1, 0, 1, 12, 6, 6),
    "depthwise7x7_dilated": (9, 9, 7, 1, 3, 2, 9, 15, 15),
}


class ConvAct(nn.Module):
    def __init__(self, spec, act, bias):
        super().__init__()
        cin, cout, k, stride, pad, dil, groups, _, _ = spec
        self.conv = nn.Conv2d(cin, cout, k, stride, pad, dil, groups, bias=bias)
        self.act = act

    def forward(self, x):
        return self.act(self.conv(x))


# Clamps fuse as clamps; the others as the producer's fused activation (SiLU,
# hardswish and hardsigmoid from the pieces torch.export decomposes them to).
ACTS = {"none": nn.Identity(), "relu": nn.ReLU(), "relu6": nn.ReLU6(),
        "hardtanh": nn.Hardtanh(-0.5, 0.25), "silu": nn.SiLU(), "hardswish": nn.Hardswish(),
        "gelu": nn.GELU(), "gelu_tanh": nn.GELU("tanh"), "sigmoid": nn.Sigmoid(),
        "tanh": nn.Tanh(), "hardsigmoid": nn.Hardsigmoid()}
# The fast tier fuses one activation per case (each case a different one, in
# turn); the slow tier every activation into every case.
EVERY_ACT = pytest.mark.parametrize("every_act", [False, pytest.param(True, marks=pytest.mark.slow)])


def activations(cases: dict, name: str, every_act: bool) -> list[tuple[int, nn.Module]]:
    """(index, activation) pairs for case `name`: the index seeds the case."""
    acts = list(ACTS.values())
    if every_act:
        return list(enumerate(acts))
    i = list(cases).index(name) % len(acts)
    return [(i, acts[i])]


@pytest.mark.parametrize("name", list(CONVS))
@EVERY_ACT
def test_convolutions_match_eager(name, every_act, tmp_pte):
    spec = CONVS[name]
    for i, act in activations(CONVS, name, every_act):
        torch.manual_seed(i)
        model = ConvAct(spec, act, bias=i % 2 == 0).eval()
        x = torch.randn(2 if i == 1 else 1, spec[0], spec[7], spec[8])
        program = _run_fused(model, (x,), tmp_pte)
        assert _portable_ops(program) == [], program.report()


# Transposed (in, out, kernel, stride, padding, output_padding, dilation, groups, H, W):
# U-Net's 2x2 stride 2 (one GEMM per tap) and the shapes around it (the indirect GEMM).
DECONVS = {
    "unet_up": (16, 8, 2, 2, 0, 0, 1, 1, 5, 6),
    "3x3_s2_p1_outpad": (6, 10, 3, 2, 1, 1, 1, 1, 7, 5),
    "3x3_s1": (5, 7, 3, 1, 1, 0, 1, 1, 6, 6),
    "4x4_s2_p1": (9, 4, 4, 2, 1, 0, 1, 1, 5, 5),
    "dilated_rect": (4, 6, (3, 2), (1, 3), (2, 0), (0, 1), (2, 1), 1, 6, 4),
    "grouped": (12, 8, 3, 2, 1, 1, 1, 4, 5, 5),
    "depthwise": (8, 8, 3, 2, 0, 0, 1, 8, 4, 4),
    "pointwise": (17, 33, 1, 1, 0, 0, 1, 1, 4, 3),
    # Kernel = stride, no padding: the per-tap GEMM path (Blocks), groups too.
    "blocks_3x2_grouped": (8, 12, (3, 2), (3, 2), 0, 0, 1, 4, 3, 5),
    "blocks_odd": (7, 5, 3, 3, 0, 0, 1, 1, 5, 4),
}


class DeconvAct(nn.Module):
    def __init__(self, spec, act, bias):
        super().__init__()
        cin, cout, k, stride, pad, out_pad, dil, groups, _, _ = spec
        self.conv = nn.ConvTranspose2d(cin, cout, k, stride, pad, out_pad, groups, bias, dil)
        self.act = act

    def forward(self, x):
        return self.act(self.conv(x))


@pytest.mark.parametrize("name", list(DECONVS))
@EVERY_ACT
def test_transposed_convolutions_match_eager(name, every_act, tmp_pte):
    spec = DECONVS[name]
    for i, act in activations(DECONVS, name, every_act):
        torch.manual_seed(i)
        model = DeconvAct(spec, act, bias=i % 2 == 0).eval()
        x = torch.randn(2 if i == 1 else 1, spec[0], spec[8], spec[9])
        program = _run_fused(model, (x,), tmp_pte)
        assert _portable_ops(program) == [], program.report()


# 1-D (in, out, kernel, stride, padding, dilation, groups, L, transposed): Whisper's and
# wav2vec2's stems, depthwise and grouped (wav2vec2's positional conv), transposed.
CONV1DS = {
    "whisper_stem": (16, 24, 3, 1, 1, 1, 1, 30, False),
    "whisper_stem_s2": (24, 24, 3, 2, 1, 1, 1, 30, False),
    "wav2vec2_feature": (1, 32, 10, 5, 0, 1, 1, 203, False),
    "pos_conv_grouped": (32, 32, 16, 1, 8, 1, 4, 25, False),
    "depthwise_dilated": (12, 12, 5, 1, 4, 2, 12, 17, False),
    "pointwise": (7, 13, 1, 1, 0, 1, 1, 11, False),
    "transposed": (8, 6, 4, 2, 1, 1, 1, 9, True),
    "transposed_k2s2": (6, 4, 2, 2, 0, 1, 1, 7, True),
}


class Conv1dAct(nn.Module):
    def __init__(self, spec, act, bias):
        super().__init__()
        cin, cout, k, stride, pad, dil, groups, _, transposed = spec
        if transposed:
            self.conv = nn.ConvTranspose1d(cin, cout, k, stride, pad, groups=groups, bias=bias,
                                           dilation=dil)
        else:
            self.conv = nn.Conv1d(cin, cout, k, stride, pad, dil, groups, bias=bias)
        self.act = act

    def forward(self, x):
        return self.act(self.conv(x))


@pytest.mark.parametrize("name", list(CONV1DS))
@EVERY_ACT
def test_1d_convolutions_match_eager(name, every_act, tmp_pte):
    spec = CONV1DS[name]
    for i, act in activations(CONV1DS, name, every_act):
        torch.manual_seed(i)
        model = Conv1dAct(spec, act, bias=i % 2 == 0).eval()
        x = torch.randn(2 if i == 1 else 1, spec[0], spec[7])
        program = _run_fused(model, (x,), tmp_pte)
        assert _portable_ops(program) == [], program.report()


class Conv1dChain(nn.Module):
    """Two 1-D convolutions back to back, a fused relu between:
    the reshapes and layout changes around each must compose."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv1d(5, 9, 3, padding=1)
        self.b = nn.Conv1d(9, 4, 3, stride=2)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


def test_1d_convolution_chain(tmp_pte):
    torch.manual_seed(0)
    program = _run(Conv1dChain().eval(), (torch.randn(2, 5, 21),), tmp_pte)
    assert _portable_ops(program) == [], program.report()


class ActivationsAfterLinears(nn.Module):
    """Linear layers with every fusable activation after one, one read twice
    (its activation cannot fuse) and one whose output is returned too."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(12, 12) for _ in ACTS)

    def forward(self, x):
        outs = []
        for layer, act in zip(self.layers, ACTS.values()):
            x = act(layer(x))
        y = self.layers[0](x)
        outs.append(torch.sigmoid(y) + y)
        z = self.layers[1](x)
        return outs[0], torch.tanh(z), z


def test_activations_fuse_into_linear_layers(tmp_pte):
    torch.manual_seed(0)
    backend, _ = run(ActivationsAfterLinears().eval(), (torch.randn(5, 12),), tmp_pte)
    # The last two activations read a value that something else reads too.
    assert backend.ops.count("Unary") == 2, backend.ops


class Residual(nn.Module):
    """conv(x) + residual, then `after` (the residual is x, or another conv
    of x lowered after this one, or a plain-layout tensor)."""

    def __init__(self, kind, after):
        super().__init__()
        self.kind, self.after = kind, after
        self.conv = nn.Conv2d(8, 8, 3, padding=1)
        self.other = nn.Conv2d(8, 8, 1)

    def forward(self, x):
        if self.kind == "identity":  # ResNet's basic block, MobileNetV2's projection
            y = self.conv(x) + x
        elif self.kind == "identity_first":
            y = x + self.conv(x)
        elif self.kind == "two_convs":  # ResNet's downsample: which conv applies it?
            y = self.conv(x) + self.other(x)
        else:  # an addend the conv's NHWC output does not share a layout with
            y = self.conv(x) + x.flatten(2).transpose(1, 2).reshape(x.shape)
        return self.after(y)


@pytest.mark.parametrize("kind", ["identity", "identity_first", "two_convs", "other_layout"])
@pytest.mark.parametrize("after", ["none", "relu", "silu"])
def test_residual_adds_fuse_into_the_convolution(kind, after, tmp_pte):
    torch.manual_seed(3)
    model = Residual(kind, ACTS[after]).eval()
    backend, _ = run(model, (torch.randn(2, 8, 9, 7),), tmp_pte)
    fused = kind != "other_layout"
    assert ("Binary" in backend.ops) != fused, backend.ops
    # Unfused, a SiLU after the add runs on its own (nothing to fuse into).
    assert ("Unary" in backend.ops) == (not fused and after == "silu"), backend.ops


class LinearResidual(nn.Module):
    """A transformer's x + dense(h) before its layer norm, and a GELU after an add."""

    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(16, 16), nn.Linear(16, 16)
        self.norm = nn.LayerNorm(16)

    def forward(self, x):
        h = self.norm(x + self.a(x))
        return F.gelu(self.b(h) + h)


def test_residual_adds_fuse_into_linear_layers(tmp_pte):
    torch.manual_seed(4)
    backend, _ = run(LinearResidual().eval(), (torch.randn(3, 5, 16),), tmp_pte)
    assert "Binary" not in backend.ops and "Unary" not in backend.ops, backend.ops


@pytest.mark.parametrize("act", ["silu", "hardswish", "hardsigmoid"])
def test_decomposed_activations_run_as_one_op(act, tmp_pte):
    """torch.export leaves SiLU, hardswish and hardsigmoid as their pieces
    (sigmoid and mul; add, clamps, mul and div): after an op that cannot fuse
    them, they still run as one Unary op."""
    model = Lambda(lambda x: ACTS[act](x + 1.5)).eval()
    backend, _ = run(model, (torch.randn(2, 7, 33) * 4,), tmp_pte)
    assert backend.ops == ["Binary", "Unary"], backend.ops


@pytest.mark.parametrize("reduce", ["mean", "sum", "amax"])
def test_reductions_of_large_images_split_over_threads(reduce, tmp_pte):
    """A mean over H and W of a few channels splits its pixels between the
    threads (partial sums per thread), not its channels."""
    conv = nn.Conv2d(3, 24, 3, padding=1)
    fn = {"mean": lambda y: y.mean((2, 3)), "sum": lambda y: y.sum((2, 3)),
          "amax": lambda y: y.amax((2, 3))}[reduce]
    torch.manual_seed(1)
    backend, _ = run(Lambda(lambda x: fn(conv(x))).eval(), (torch.randn(1, 3, 48, 47),), tmp_pte)
    assert "Reduce" in backend.ops, backend.ops


class LinearChain(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b, self.c = nn.Linear(30, 70), nn.Linear(70, 17, bias=False), nn.Linear(17, 5)

    def forward(self, x):
        return self.c(F.relu6(self.b(F.relu(self.a(x)))))


@pytest.mark.parametrize("batch", [1, 3, 9, 40])
def test_linear_with_packed_weights_and_fused_clamps(batch, tmp_pte):
    torch.manual_seed(batch)
    _run(LinearChain().eval(), (torch.randn(batch, 30),), tmp_pte)


def _resnet50():
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    config = transformers.ResNetConfig(num_labels=1000)
    model = transformers.ResNetForImageClassification(config).eval()

    class Logits(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x):
            return self.model(x).logits

    return Logits().eval()


MODELS = {
    "mobilenet_v2": (lambda: models.seeded(models.MobileNetV2), 64),
    "resnet18": (lambda: models.seeded(models.ResNet18), 64),
    "resnet50": (_resnet50, 64),
}


@pytest.mark.parametrize("name", list(MODELS))
def test_benchmark_models_run_wholly_on_the_backend(name, tmp_pte):
    factory, size = MODELS[name]
    model = factory()
    torch.manual_seed(3)
    x = torch.randn(1, 3, size, size)
    program = _run(model, (x,), tmp_pte, atol=2e-4)
    assert _portable_ops(program) == [], program.report()


class WeightsAsInputs(nn.Module):
    def forward(self, x, w, w1, lin):
        return F.conv2d(x, w, padding=1), F.conv1d(x[0], w1), x.flatten(1) @ lin


def test_conv_weights_passed_as_inputs_stay_portable(tmp_pte):
    # The backend packs conv weights at init: one the caller passes in is not
    # claimed. A matrix product of two runtime values runs on MatMul instead.
    torch.manual_seed(0)
    inputs = (torch.randn(1, 3, 8, 8), torch.randn(4, 3, 3, 3), torch.randn(5, 8, 3),
              torch.randn(192, 7))
    program = _run(WeightsAsInputs(), inputs, tmp_pte)
    portable = _portable_ops(program)
    assert portable.count("aten::convolution.default") == 2, program.report()
    assert "aten::mm.default" not in portable, program.report()
    assert "is not a constant of the program" in program.report()
