"""The CPU backend's vector math and normalisations against eager PyTorch:
every activation, binary broadcasts (either operand smaller, channels-last
data), softmax and log-softmax over each dim, layer norm over the last one
and two dims, RMS norm in the forms torch.export produces (fused into one
op), and sum / mean / amax reductions, at 1 and 2 threads."""

import ember
import pytest
import torch
import torch.nn.functional as F
from conftest import assert_matches_eager
from cpu_backend_util import run
from ember.backends.cpu import CpuBackend

THREADS = [1, 2]


def run_and_compare(model, inputs, tmp_pte, *, atol=1e-5, rtol=None):
    """cpu_backend_util.run at each of THREADS, with every op on the backend."""
    backend, program = run(model, inputs, tmp_pte, THREADS, atol=atol, rtol=rtol)
    assert program.delegated_fraction() == 1.0, program.report()
    return backend


class Lambda(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


# --- activations -------------------------------------------------------------

ACTIVATIONS = {
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "hardswish": F.hardswish,
    "hardsigmoid": F.hardsigmoid,
    "exp": torch.exp,
    "neg": torch.neg,
    "abs": torch.abs,
    "sqrt": lambda x: torch.sqrt(x.abs()),
    "rsqrt": lambda x: torch.rsqrt(x.abs() + 0.5),
    "relu": torch.relu,
    "relu6": F.relu6,
    "hardtanh": lambda x: F.hardtanh(x, -0.5, 0.75),
    "clamp": lambda x: torch.clamp(x, min=-1.25),
    "square": lambda x: x.pow(2),
    "pow_half": lambda x: x.abs().pow(0.5),
}


@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_activation(name, tmp_pte):
    torch.manual_seed(0)
    # 2 x 3 x 1031: odd sizes exercise the kernels' tails; wide values
    # saturation and overflow (exp past 88). Relative to eager's own float
    # results: 4e-6 (32 ULP) covers both sides' few ULP; 1e-6 absolute, GELU
    # near its saturation (both compute 1 + erf(x / sqrt(2)) with erf ~ -1).
    x = torch.randn(2, 3, 1031) * 6
    x[0, 0, :8] = torch.tensor([0.0, -0.0, 20.0, -20.0, 100.0, -100.0, 1e-30, -1e-30])
    run_and_compare(Lambda(ACTIVATIONS[name]), (x,), tmp_pte, atol=1e-6, rtol=4e-6)


# --- binary ops with broadcasting -------------------------------------------------

BROADCASTS = [
    ((4, 5, 33), (4, 5, 33)),
    ((4, 5, 33), (33,)),        # a bias
    ((4, 5, 33), (5, 1)),       # a column
    ((33,), (4, 5, 33)),        # the first operand is the smaller
    ((4, 1, 33), (1, 5, 1)),    # both broadcast
    ((2, 3, 4, 5), (3, 1, 1)),  # per channel, plain NCHW
    ((4, 5, 33), ()),           # a 0-d tensor
]


@pytest.mark.parametrize("shapes", BROADCASTS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "maximum", "minimum"])
def test_binary_broadcast(shapes, op, tmp_pte):
    torch.manual_seed(1)
    a, b = torch.randn(shapes[0]), torch.randn(shapes[1]) + 3.0
    fn = getattr(torch, op)
    run_and_compare(Lambda(lambda x, y: fn(x, y)), (a, b), tmp_pte)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_binary_with_numbers(op, tmp_pte):
    torch.manual_seed(2)
    fn = getattr(torch, op)
    model = Lambda(lambda x: fn(fn(x, 1.5), torch.relu(x) + 1) + 2)
    run_and_compare(model, (torch.randn(3, 70),), tmp_pte)


class ChannelsLast(torch.nn.Module):
    """Channels-last convolution outputs meeting per-channel vectors (a
    parameter and a computed one), a plain input of the same shape, a
    spatial map and each other, with fused clamps."""

    def __init__(self, channels=24):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, channels, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(channels, channels, 1)
        self.scale = torch.nn.Parameter(torch.randn(channels, 1, 1))
        self.shift = torch.nn.Parameter(torch.randn(1, channels, 1, 1))

    def forward(self, x, plain, spatial):
        y = self.conv(x)
        a = torch.relu(y * self.scale + self.shift)           # per channel
        b = self.conv2(a) - y                                 # both NHWC
        c = b + plain                                         # plain, same shape
        d = c * spatial                                       # [H, W] against NHWC
        gate = torch.sigmoid(y.mean((2, 3), keepdim=True))    # [N, C, 1, 1]
        return F.hardtanh(d / gate, -3.0, 3.0), torch.softmax(b, 1), torch.log_softmax(c, 2)


@pytest.mark.parametrize("channels", [8, 24, 35])
def test_channels_last_elementwise(channels, tmp_pte):
    torch.manual_seed(3)
    model = ChannelsLast(channels)
    inputs = (torch.randn(2, 3, 9, 11), torch.randn(2, channels, 9, 11), torch.randn(9, 11))
    run_and_compare(model, inputs, tmp_pte, atol=1e-4)


# --- softmax ---------------------------------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, 2, 3, -1])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_over_each_dim(dim, log, tmp_pte):
    torch.manual_seed(4)
    fn = torch.log_softmax if log else torch.softmax
    x = torch.randn(3, 17, 9, 40) * 4
    run_and_compare(Lambda(lambda t: fn(t, dim)), (x,), tmp_pte)


def test_softmax_rows_with_infinities_and_nan(tmp_pte):
    x = torch.randn(6, 33)
    x[1, 3] = float("-inf")
    x[2, :] = float("-inf")
    x[3, 5] = float("inf")
    x[4, 7] = float("nan")
    model = Lambda(lambda t: (torch.softmax(t, -1), torch.log_softmax(t, -1)))
    model = model.eval()
    program = ember.export(model, (x,), backends=[CpuBackend()])
    program.save(tmp_pte)
    for threads in THREADS:
        actual = ember.runtime.load(tmp_pte, threads=threads).forward(x)
        for a, e in zip(actual, model(x)):
            torch.testing.assert_close(a, e, equal_nan=True, atol=1e-6, rtol=1e-5)


# --- layer norm and RMS norm ----------------------------------------------------


@pytest.mark.parametrize("shape", [(64,), (5, 64), (33,)])
@pytest.mark.parametrize("affine", ["weight_bias", "weight", "none"])
def test_layer_norm(shape, affine, tmp_pte):
    torch.manual_seed(5)
    norm = torch.nn.LayerNorm(shape, elementwise_affine=affine != "none", bias=affine == "weight_bias")
    if affine != "none":
        torch.nn.init.uniform_(norm.weight, 0.5, 1.5)
    if affine == "weight_bias":
        torch.nn.init.uniform_(norm.bias, -0.5, 0.5)
    x = torch.randn(3, 5, *shape[-1:]) * 2 + 1 if len(shape) == 1 else torch.randn(3, *shape)
    backend = run_and_compare(norm, (x,), tmp_pte)
    assert backend.ops == ["LayerNorm"]


def test_layer_norm_large_mean(tmp_pte):
    """Mean 1000, spread 1: a one-pass variance would lose every digit."""
    torch.manual_seed(6)
    x = torch.randn(4, 768) + 1000.0
    run_and_compare(torch.nn.LayerNorm(768), (x,), tmp_pte, atol=5e-4)


class HandRms(torch.nn.Module):
    """x * rsqrt(mean(x^2) + eps) * w, written out (weight on either side)."""

    def __init__(self, dim, square="pow", weight_first=False, normalized_dims=1):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.rand(dim) + 0.5)
        self.square, self.weight_first, self.dims = square, weight_first, normalized_dims

    def forward(self, x):
        sq = x.pow(2) if self.square == "pow" else x * x
        dims = tuple(range(-self.dims, 0))
        n = x * torch.rsqrt(sq.mean(dims, keepdim=True) + 1e-6)
        return self.weight * n if self.weight_first else n * self.weight


def llama_rms_norm(dim):
    from transformers.models.llama.modeling_llama import LlamaRMSNorm

    norm = LlamaRMSNorm(dim, eps=1e-6)
    torch.nn.init.uniform_(norm.weight, 0.5, 1.5)
    return norm


def torch_rms_norm(dim, eps=1e-5, affine=True):
    norm = torch.nn.RMSNorm(dim, eps=eps, elementwise_affine=affine)
    if affine:
        torch.nn.init.uniform_(norm.weight, 0.5, 1.5)
    return norm


RMS_FORMS = {
    "llama": lambda: llama_rms_norm(64),
    "nn_rmsnorm": lambda: torch_rms_norm(64),
    "nn_rmsnorm_default_eps": lambda: torch_rms_norm(64, eps=None),
    "nn_rmsnorm_no_weight": lambda: torch_rms_norm(64, affine=False),
    "hand_pow": lambda: HandRms(64),
    "hand_mul_weight_first": lambda: HandRms(64, square="mul", weight_first=True),
}


@pytest.mark.parametrize("form", list(RMS_FORMS))
def test_rms_norm_is_one_op(form, tmp_pte):
    torch.manual_seed(7)
    if form == "llama":
        pytest.importorskip("transformers")
    model = RMS_FORMS[form]()
    backend = run_and_compare(model, (torch.randn(2, 7, 64) * 3,), tmp_pte)
    assert backend.ops == ["LayerNorm"], backend.ops


class RmsOverTwoDims(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.rand(6, 64) + 0.5)

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean((-2, -1), keepdim=True) + 1e-5) * self.weight


class RmsWithSharedMean(torch.nn.Module):
    def forward(self, x):
        ms = x.pow(2).mean(-1, keepdim=True)
        return x * torch.rsqrt(ms + 1e-6), ms


def test_rms_norm_over_two_dims_and_shared_intermediates(tmp_pte):
    """Over the last two dims: fused. When an intermediate is used elsewhere
    the ops run one by one, and still match."""
    torch.manual_seed(8)
    backend = run_and_compare(RmsOverTwoDims(), (torch.randn(3, 6, 64),), tmp_pte)
    assert backend.ops == ["LayerNorm"]
    backend = run_and_compare(RmsWithSharedMean(), (torch.randn(3, 5, 64),), tmp_pte)
    assert "LayerNorm" not in backend.ops


# --- reductions --------------------------------------------------------------------

REDUCTIONS = [
    ("sum", (-1,), False), ("sum", (1,), True), ("sum", (1, 2), False), ("sum", (0,), False),
    ("mean", (-1,), True), ("mean", (2, 3), False), ("mean", (0, 1), True),
    ("amax", (-1,), False), ("amax", (1,), True), ("amax", (1, 2, 3), False),
]


@pytest.mark.parametrize("reduction", REDUCTIONS, ids=lambda r: f"{r[0]}{r[1]}{'k' if r[2] else ''}")
def test_reduction(reduction, tmp_pte):
    torch.manual_seed(9)
    name, dims, keepdim = reduction
    fn = getattr(torch, name)
    model = Lambda(lambda t: fn(t, dims, keepdim=keepdim))
    run_and_compare(model, (torch.randn(3, 6, 17, 20),), tmp_pte)


def test_reductions_of_everything_and_nan(tmp_pte):
    x = torch.randn(4, 300)
    x[2, 7] = float("nan")
    model = Lambda(lambda t: (t.sum(), torch.amax(t, -1), t.mean(-1)))
    program = ember.export(model.eval(), (x,), backends=[CpuBackend()])
    assert program.delegated_fraction() == 1.0, program.report()
    program.save(tmp_pte)
    for threads in THREADS:
        actual = ember.runtime.load(tmp_pte, threads=threads).forward(x)
        for a, e in zip(actual, model(x)):
            torch.testing.assert_close(a, e, equal_nan=True, atol=1e-4, rtol=1e-5)


def test_global_average_pool_runs_channels_last(tmp_pte):
    """mean over H and W of a convolution's NHWC output needs no conversion."""
    torch.manual_seed(10)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3), torch.nn.ReLU(),
                                torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten())
    backend = run_and_compare(model, (torch.randn(2, 3, 12, 12),), tmp_pte, atol=1e-5)
    # One conversion, of the input to NHWC; none between the conv and the mean.
    assert backend.ops.count("ToLayout") == 1, backend.ops


def test_layer_norm_with_weights_passed_in_stays_portable(tmp_pte):
    # Only constant weight and bias are claimed; the program still matches eager.
    torch.manual_seed(11)
    inputs = (torch.randn(2, 3, 5), torch.randn(5), torch.randn(5))
    model = Lambda(lambda x, w, b: torch.nn.functional.layer_norm(x, (5,), w, b))
    program = ember.export(model, inputs)
    assert "is not a constant of the program" in program.report(), program.report()
    program.save(tmp_pte)
    assert_matches_eager(ember.runtime.load(tmp_pte).forward(*inputs), model(*inputs))
