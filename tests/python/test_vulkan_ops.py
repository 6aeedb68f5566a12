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
from vulkan_util import against_eager, against_portable, requires_vulkan

pytestmark = requires_vulkan


class Fn(nn.Module):
    def __init__(self, fn, *params):
        super().__init__()
        self.fn = fn
        self.params = nn.ParameterList(params)

    def forward(self, *x):
        return self.fn(*x, *self.params)


# --- elementwise -------------------------------------------------------------

BINARY = {
    "same_shape": lambda a, b: (a + b, a - b, a * b, a / (b.abs() + 0.5),
                                torch.maximum(a, b), torch.minimum(a, b)),
    "broadcast_row": lambda a, b: (a + b[0, :1], a * b[:, :1, :1], b[0, 0] - a),
    "scalar": lambda a, b: (a * 2.5 - 1.0, (a + 3.0) / 4.0, torch.clamp(a, -0.5, 0.25)),
}


def test_binary_and_scalar_ops(tmp_path):
    """One element, a shape that leaves a partial workgroup, and broadcasts of
    a row, a column block and a single element; max and min keep NaN."""
    torch.manual_seed(0)
    one = (torch.randn(1), torch.randn(1))
    small = (torch.randn(3, 5, 7), torch.randn(3, 5, 7))
    big = (torch.randn(2, 3, 257), torch.randn(2, 3, 257))
    nan_a = torch.tensor([1.0, float("nan"), 3.0, -2.0])
    nan_b = torch.tensor([float("nan"), 0.0, 1.0, -1.0])

    def fn(a1, b1, a2, b2, a3, b3, na, nb):
        out = []
        for a, b in ((a1, b1), (a2, b2), (a3, b3)):
            out += [*BINARY["same_shape"](a, b), *BINARY["scalar"](a, b)]
        out += BINARY["broadcast_row"](a2, b2) + BINARY["broadcast_row"](a3, b3)
        return (*out, torch.maximum(na, nb), torch.minimum(na, nb))

    backend, _ = against_portable(Fn(fn), (*one, *small, *big, nan_a, nan_b), tmp_path)
    assert "Binary" in backend.ops


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


LINEAR_SIZES = [(1, 1, 1), (1, 70, 65), (5, 33, 17), (70, 40, 130), (129, 16, 64)]


def test_linear_edge_sizes(tmp_path):
    """(rows, k, n): the row kernel (up to 8 rows) and the 64x64 tiles, with
    partial tiles and k not a multiple of the tile's 16."""
    torch.manual_seed(1)
    layers = nn.ModuleList(Linear(k, n) for _, k, n in LINEAR_SIZES)
    model = Fn(lambda *xs: tuple(layer(x) for layer, x in zip(layers, xs)))
    model.layers = layers
    inputs = tuple(torch.randn(rows, k) for rows, k, _ in LINEAR_SIZES)
    backend, _ = against_portable(model, inputs, tmp_path)
    assert backend.ops == ["Linear"] * len(LINEAR_SIZES), backend.ops


def test_linear_with_fused_activation_and_residual(tmp_path):
    torch.manual_seed(1)
    stack = nn.Sequential(Linear(48, 32, act=F.gelu), Linear(32, 32, bias=False, act=torch.relu,
                                                                     residual=True),
                          Linear(32, 24, act=F.silu))
    model = Fn(lambda few, many: (stack(few), stack(many)))
    model.stack = stack
    backend, _ = against_portable(model, (torch.randn(1, 2, 48), torch.randn(3, 67, 48)), tmp_path)
    assert "Unary" not in backend.ops, backend.ops


def test_matmul(tmp_path):
    """Batched, a transposed operand read through strides, a matrix broadcast
    over the batch, a short mm (the row kernel)."""
    torch.manual_seed(2)

    def fn(a1, b1, a2, b2, a3, b3, a4, b4):
        return (torch.bmm(a1, b1), torch.relu(a2 @ b2.transpose(-1, -2)), torch.matmul(a3, b3),
                torch.mm(a4, b4))

    inputs = (torch.randn(3, 70, 20), torch.randn(3, 20, 66), torch.randn(2, 4, 9, 16),
              torch.randn(2, 4, 11, 16), torch.randn(2, 3, 5, 8), torch.randn(8, 7),
              torch.randn(3, 40), torch.randn(40, 9))
    backend, _ = against_portable(Fn(fn), inputs, tmp_path)
    assert "MatMul" in backend.ops, backend.ops


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


def test_conv2d(tmp_path):
    """Every convolution shape the GPU runs differently, each with a fused
    relu6, on an image of odd sizes."""
    torch.manual_seed(3)
    convs = nn.ModuleList(nn.Sequential(make(), nn.ReLU6()) for make in CONVS.values())
    model = Fn(lambda *xs: tuple(conv(x) for conv, x in zip(convs, xs)))
    model.convs = convs
    inputs = tuple(torch.randn(2, c[0].in_channels, 11, 9) for c in convs)
    backend, _ = against_portable(model, inputs, tmp_path)
    assert backend.ops.count("Conv2d") == len(CONVS) and "Unary" not in backend.ops, backend.ops


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


def test_norms_softmax_and_reductions(tmp_path):
    """Rows of 1, 7 and 300 elements (longer than a workgroup)."""
    torch.manual_seed(6)
    norms = nn.ModuleList(Norms(n) for n in (1, 7, 300))
    model = Fn(lambda *xs: tuple(t for norm, x in zip(norms, xs) for t in norm(x)))
    model.norms = norms
    inputs = tuple(torch.randn(2, 3, n) * 3.0 for n in (1, 7, 300))
    backend, _ = against_portable(model, inputs, tmp_path)
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


def test_embedding(tmp_path):
    """int64 and int32 indices, the first and last rows."""
    torch.manual_seed(8)
    table = nn.Embedding(50, 12)
    model = Fn(lambda wide, narrow: (table(wide) * 1.5, table(narrow) - 1.0))
    model.table = table
    idx = torch.tensor([[0, 49, 7], [3, 3, 12]])
    backend, _ = against_portable(model, (idx, idx.to(torch.int32)), tmp_path)
    assert backend.ops.count("Embedding") == 2, backend.ops


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

def test_attention(tmp_path):
    """Plain, causal, an additive mask, and 70 keys (two blocks of 64)."""
    torch.manual_seed(9)
    sdpa = F.scaled_dot_product_attention

    def fn(q, k, v, mask, ql, kl, vl):
        return (sdpa(q, k, v), sdpa(q, k, v, is_causal=True), sdpa(q, k, v, attn_mask=mask),
                sdpa(ql, kl, vl, is_causal=True))

    short = tuple(torch.randn(2, 3, 9, 16) for _ in range(3))
    long = tuple(torch.randn(1, 2, 70, 16) for _ in range(3))
    backend, _ = against_portable(Fn(fn), (*short, torch.randn(2, 1, 9, 9), *long), tmp_path)
    assert backend.ops.count("Attention") == 4, backend.ops


def test_attention_with_a_bool_mask_given_at_run_time(tmp_path):
    """SDPA's bool mask (a query seeing no key gets 0) and HF's
    masked_fill(~keep, finfo.min) (a query seeing no key averages every value),
    the bool mask read by the shader; against eager."""
    torch.manual_seed(12)
    sdpa = F.scaled_dot_product_attention

    def fn(q, k, v, keep):
        scores = (q @ k.transpose(-1, -2) / 4).masked_fill(~keep, torch.finfo(torch.float32).min)
        return sdpa(q, k, v, attn_mask=keep), scores.softmax(-1) @ v

    q, k, v = torch.randn(2, 3, 9, 16), torch.randn(2, 3, 70, 16), torch.randn(2, 3, 70, 8)
    keep = torch.rand(2, 1, 9, 70) < 0.5
    keep[1, :, 4] = False
    program = against_eager(Fn(fn), (q, k, v, keep), tmp_path)
    assert program.delegated_fraction() == 1.0, program.report()


# --- 4-bit and 8-bit weight linears --------------------------------------------

def test_block_quantized_linear(tmp_path):
    """4-bit (Q4_1) and 8-bit (Q8_0) blocks, 70 output rows (a partial panel
    of the CPU format), on one row and on six."""
    from ember.llm import llama, quant

    torch.manual_seed(10)
    layers = nn.ModuleList(
        llama.QuantLinear(quant.quantize(torch.randn(70, 96) * 0.2, fmt), bits)
        for bits, fmt in ((4, quant.Q4_1), (8, quant.Q8_0)))
    model = Fn(lambda one, six: tuple(torch.relu(layer(x)) for layer in layers for x in (one, six)))
    model.layers = layers
    backend, _ = against_portable(model, (torch.randn(1, 96), torch.randn(6, 96)), tmp_path)
    assert backend.ops.count("QLinear") == 4, backend.ops


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
