"""The Vulkan backend's op suite against the portable kernels, on whatever
Vulkan device the machine has (lavapipe, Mesa's software driver, on the
development machines): every op family the GPU claims, on edge sizes (one
element, sizes that leave partial workgroups and tiles, broadcasts, strides,
padding), each program wholly on the GPU. Skipped, with the reason, where no
Vulkan device is reachable (make test-vulkan installs lavapipe)."""

import ember
import pytest
import torch
from ember.backends.vulkan import VulkanBackend
from torch import nn
from torch.nn import functional as F
from vulkan_util import against_portable, requires_vulkan

pytestmark = requires_vulkan


class Fn(nn.Module):
    def __init__(self, fn, *params):
        super().__init__()
        self.fn = fn
        self.params = nn.ParameterList(params)

    def forward(self, *x):
        return self.fn(*x, *self.params)


def _p(*shape):
    return nn.Parameter(torch.randn(*shape), requires_grad=False)


# --- elementwise -------------------------------------------------------------

BINARY = {
    "same_shape": lambda a, b: (a + b, a - b, a * b, a / (b.abs() + 0.5),
                                torch.maximum(a, b), torch.minimum(a, b)),
    "broadcast_row": lambda a, b: (a + b[0, :1], a * b[:, :1, :1], b[0, 0] - a),
    "scalar": lambda a, b: (a * 2.5 - 1.0, (a + 3.0) / 4.0, torch.clamp(a, -0.5, 0.25)),
}


@pytest.mark.parametrize("shape", [(1,), (3, 5, 7), (2, 3, 257)])
def test_binary_and_scalar_ops(shape, tmp_path):
    torch.manual_seed(0)
    a, b = torch.randn(*shape), torch.randn(*shape)
    if len(shape) < 3:
        fns = [BINARY["same_shape"], BINARY["scalar"]]
    else:
        fns = list(BINARY.values())
    model = Fn(lambda a, b: tuple(t for fn in fns for t in fn(a, b)))
    backend, _ = against_portable(model, (a, b), tmp_path)
    assert "Binary" in backend.ops


def test_max_and_min_propagate_nan(tmp_path):
    a = torch.tensor([1.0, float("nan"), 3.0, -2.0])
    b = torch.tensor([float("nan"), 0.0, 1.0, -1.0])
    against_portable(Fn(lambda a, b: (torch.maximum(a, b), torch.minimum(a, b))), (a, b), tmp_path)


ACTIVATIONS = [torch.relu, F.relu6, lambda x: F.hardtanh(x, -0.3, 0.7), F.gelu,
               lambda x: F.gelu(x, approximate="tanh"), F.silu, torch.sigmoid, torch.tanh,
               F.hardswish, F.hardsigmoid, torch.exp, torch.neg, lambda x: torch.sqrt(x.abs()),
               lambda x: torch.rsqrt(x.abs() + 0.1), torch.abs]


def test_unary_activations_on_wide_inputs(tmp_path):
    # Large magnitudes too: tanh, sigmoid and the GELUs saturate without NaN.
    x = torch.cat([torch.linspace(-60, 60, 241), torch.randn(300)]).reshape(1, 541)
    model = Fn(lambda x: tuple(fn(x) for fn in ACTIVATIONS))
    backend, _ = against_portable(model, (x,), tmp_path, atol=2e-5)
    assert backend.ops.count("Unary") >= 10, backend.ops


# --- products ------------------------------------------------------------------

class Linear(nn.Module):
    def __init__(self, k, n, bias=True, act=None, residual=False):
        super().__init__()
        self.fc = nn.Linear(k, n, bias=bias)
        self.act, self.residual = act, residual

    def forward(self, x):
        y = self.fc(x)
        if self.residual:
            y = y + x[..., : y.shape[-1]] * 0.5 if x.shape[-1] >= y.shape[-1] else y + 1.0
        return self.act(y) if self.act is not None else y


@pytest.mark.parametrize("rows,k,n", [(1, 1, 1), (1, 70, 65), (5, 33, 17), (70, 40, 130),
                                      (129, 16, 64)])
def test_linear_edge_sizes(rows, k, n, tmp_path):
    torch.manual_seed(rows + k + n)
    backend, _ = against_portable(Linear(k, n), (torch.randn(rows, k),), tmp_path)
    assert backend.ops == ["Linear"], backend.ops


@pytest.mark.parametrize("rows", [2, 67])
def test_linear_with_fused_activation_and_residual(rows, tmp_path):
    torch.manual_seed(1)
    model = nn.Sequential(Linear(48, 32, act=F.gelu), Linear(32, 32, bias=False, act=torch.relu,
                                                                     residual=True),
                          Linear(32, 24, act=F.silu))
    backend, _ = against_portable(model, (torch.randn(3, rows, 48),), tmp_path)
    assert "Unary" not in backend.ops, backend.ops


@pytest.mark.parametrize("case", ["bmm", "transposed", "broadcast", "mm_short"])
def test_matmul(case, tmp_path):
    torch.manual_seed(2)
    if case == "bmm":
        inputs, fn = (torch.randn(3, 70, 20), torch.randn(3, 20, 66)), torch.bmm
    elif case == "transposed":
        inputs = (torch.randn(2, 4, 9, 16), torch.randn(2, 4, 11, 16))
        fn = lambda a, b: torch.relu(a @ b.transpose(-1, -2))
    elif case == "broadcast":
        inputs, fn = (torch.randn(2, 3, 5, 8), torch.randn(8, 7)), torch.matmul
    else:
        inputs, fn = (torch.randn(3, 40), torch.randn(40, 9)), torch.mm
    backend, _ = against_portable(Fn(fn), inputs, tmp_path)
    assert "MatMul" in backend.ops or "Linear" in backend.ops, backend.ops


# --- convolutions --------------------------------------------------------------

CONVS = {
    "3x3_pad": lambda: nn.Conv2d(3, 16, 3, padding=1),
    "stride2_rect": lambda: nn.Conv2d(5, 7, (3, 2), stride=2, padding=(1, 0)),
    "dilated_grouped": lambda: nn.Conv2d(8, 12, 3, padding=2, dilation=2, groups=4, bias=False),
    "depthwise": lambda: nn.Conv2d(6, 6, 3, padding=1, groups=6),
    "depthwise_multiplier": lambda: nn.Conv2d(4, 8, 3, stride=2, groups=4),
    "pointwise": lambda: nn.Conv2d(9, 70, 1),
    "transposed": lambda: nn.ConvTranspose2d(6, 4, 3, stride=2, padding=1, output_padding=1),
    "transposed_grouped": lambda: nn.ConvTranspose2d(4, 6, 2, stride=2, groups=2),
}


@pytest.mark.parametrize("name", list(CONVS))
def test_conv2d(name, tmp_path):
    torch.manual_seed(3)
    conv = CONVS[name]()
    x = torch.randn(2, conv.in_channels, 11, 9)
    model = nn.Sequential(conv, nn.ReLU6())
    backend, _ = against_portable(model, (x,), tmp_path)
    assert "Conv2d" in backend.ops and "Unary" not in backend.ops, backend.ops


class ConvResidual(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Conv2d(8, 8, 3, padding=1), nn.Conv2d(8, 8, 1)
        self.c = nn.Conv1d(8, 5, 3, padding=1)

    def forward(self, x):
        y = torch.relu(self.b(torch.relu(self.a(x))) + x)
        return F.hardswish(y), self.c(y.flatten(2))


def test_conv_residual_activation_and_conv1d(tmp_path):
    torch.manual_seed(4)
    against_portable(ConvResidual(), (torch.randn(1, 8, 6, 7),), tmp_path)


# --- pools ---------------------------------------------------------------------

POOLS = {
    "max3s2p1": lambda x: F.max_pool2d(x, 3, 2, 1),
    "max3s2_ceil": lambda x: F.max_pool2d(x, 3, 2, ceil_mode=True),
    "max_dilated": lambda x: F.max_pool2d(x, 3, 1, 1, dilation=2),
    "avg3s2p1_nopad": lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
    "avg3_ceil": lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True),
    "avg2_divisor": lambda x: F.avg_pool2d(x, 2, divisor_override=3),
    "avg_huge_ceil": lambda x: F.avg_pool2d(x, 40, ceil_mode=True),
    "adaptive_3x2": lambda x: F.adaptive_avg_pool2d(x, (3, 2)),
    "mean_hw": lambda x: x.mean((2, 3)),
}


def test_pools(tmp_path):
    torch.manual_seed(5)
    conv = nn.Conv2d(3, 19, 3, padding=1)
    model = Fn(lambda x: tuple(pool(conv(x)) for pool in POOLS.values()))
    model.conv = conv
    backend, _ = against_portable(model, (torch.randn(2, 3, 13, 10),), tmp_path)
    assert {"Pool2d", "AdaptiveAvgPool2d"} <= set(backend.ops), backend.ops


# --- norms, softmax, reductions ------------------------------------------------

class Norms(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.ln = nn.LayerNorm(n)
        self.ln2 = nn.LayerNorm([3, n], elementwise_affine=False)
        self.rms = nn.RMSNorm(n, eps=1e-6)

    def forward(self, x):
        return (self.ln(x), self.ln2(x), self.rms(x), torch.softmax(x, -1),
                torch.log_softmax(x, 1), torch.softmax(x * 100.0, 0), x.sum(-1), x.mean((1, 2)),
                x.amax(-1, keepdim=True))


@pytest.mark.parametrize("n", [1, 7, 300])
def test_norms_softmax_and_reductions(n, tmp_path):
    torch.manual_seed(6)
    backend, _ = against_portable(Norms(n), (torch.randn(2, 3, n) * 3.0,), tmp_path)
    assert {"LayerNorm", "Softmax", "Reduce"} <= set(backend.ops), backend.ops


# --- layout ops ----------------------------------------------------------------

def test_layout_ops(tmp_path):
    torch.manual_seed(7)

    def fn(x, y):
        t = x.transpose(1, 2).contiguous() * 2.0
        p = x.permute(2, 0, 1) + 1.0
        c = torch.cat([x, y, x[:, :1]], dim=1) - 1.0
        s = x[:, 1:3, ::2] * 3.0
        padded = F.pad(x, (2, 1, 0, 3), value=-1.5)
        cropped = F.pad(x, (-1, 2))
        return t, p, c, s, padded, cropped

    against_portable(Fn(fn), (torch.randn(2, 5, 6), torch.randn(2, 3, 6)), tmp_path)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32])
def test_embedding(dtype, tmp_path):
    torch.manual_seed(8)
    table = nn.Embedding(50, 12)
    model = Fn(lambda idx: table(idx) * 1.5)
    model.table = table
    idx = torch.tensor([[0, 49, 7], [3, 3, 12]], dtype=dtype)
    backend, _ = against_portable(model, (idx,), tmp_path)
    assert "Embedding" in backend.ops


def test_embedding_index_out_of_range_is_an_error(tmp_path):
    table = nn.Embedding(10, 4)
    model = Fn(lambda idx: table(idx) + 1.0).eval()
    model.table = table
    program = ember.export(model, (torch.tensor([1, 2]),), backends=[VulkanBackend()])
    path = str(tmp_path / "emb.pte")
    program.save(path)
    module = ember.runtime.load(path)
    assert torch.equal(module.forward(torch.tensor([1, 2])), model(torch.tensor([1, 2])).detach())
    with pytest.raises(ValueError, match="InvalidArgument"):
        module.forward(torch.tensor([1, 10]))


# --- attention -----------------------------------------------------------------

@pytest.mark.parametrize("case", ["plain", "causal", "mask", "long"])
def test_attention(case, tmp_path):
    torch.manual_seed(9)
    length = 70 if case == "long" else 9
    q, k, v = (torch.randn(2, 3, length, 16) for _ in range(3))
    if case == "mask":
        mask = torch.randn(2, 1, length, length)
        fn = lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m)
        inputs = (q, k, v, mask)
    else:
        causal = case == "causal"
        fn = lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        inputs = (q, k, v)
    backend, _ = against_portable(Fn(fn), inputs, tmp_path)
    assert "Attention" in backend.ops, backend.ops


# --- 4-bit and 8-bit weight linears --------------------------------------------

@pytest.mark.parametrize("bits", [4, 8])
@pytest.mark.parametrize("rows", [1, 6])
def test_block_quantized_linear(bits, rows, tmp_path):
    from ember.llm import llama, quant

    torch.manual_seed(10)
    blocks = quant.quantize(torch.randn(70, 96) * 0.2, quant.Q4_1 if bits == 4 else quant.Q8_0)
    model = nn.Sequential(llama.QuantLinear(blocks, bits), nn.ReLU())
    backend, _ = against_portable(model, (torch.randn(rows, 96),), tmp_path)
    assert "QLinear" in backend.ops, backend.ops


def test_llm_norm_and_mlp_ops(tmp_path):
    """ember.llm.ops' rms_norm and swiglu, which the CPU backend leaves to the
    portable kernels, run on the GPU as LayerNorm(rms), silu and a product."""
    from ember.llm import ops

    torch.manual_seed(11)
    weight = nn.Parameter(torch.rand(48) + 0.5, requires_grad=False)
    model = Fn(lambda x, g, u, w: (ops.rms_norm(x, w, 1e-5), ops.swiglu(g, u) + 1.0), weight)
    inputs = (torch.randn(1, 3, 48), torch.randn(1, 3, 40), torch.randn(1, 3, 40))
    backend, _ = against_portable(model, inputs, tmp_path)
    assert {"LayerNorm", "Unary", "Binary"} <= set(backend.ops), backend.ops


def test_half_weights(tmp_path):
    """weights="float16": linear and convolution weights stored as halves (the
    _f16w shaders); each weight rounds to 11 significant bits, so the result
    is within half-precision rounding of float32 weights."""
    torch.manual_seed(12)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, groups=8),
                          nn.Conv2d(8, 6, 1), nn.ConvTranspose2d(6, 6, 3, padding=1),
                          nn.Flatten(), nn.Linear(6 * 5 * 5, 20)).eval()
    x = torch.randn(1, 3, 7, 7)
    program = ember.export(model, (x,), backends=[VulkanBackend(weights="float16")])
    assert program.delegated_fraction() == 1.0, program.report()
    path = str(tmp_path / "half.pte")
    program.save(path)
    with torch.no_grad():
        expected = model(x)
        for name, param in model.named_parameters():  # the weights rounded to halves
            if name.endswith("weight"):
                param.copy_(param.half().float())
        rounded = model(x)
    got = torch.as_tensor(ember.runtime.load(path).forward(x))
    assert float((got - rounded).abs().max()) < 1e-4 * float(rounded.abs().max()) + 1e-5
    assert float((got - expected).abs().max()) > 0  # it did round
    with pytest.raises(ValueError, match="weights"):
        VulkanBackend(weights="int4")
