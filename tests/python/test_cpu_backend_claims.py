"""What the CPU backend claims at export, its runtime init accepts, and runs
as eager does: a seeded property test over the patterns it claims.

For each pattern the backend lowers (linear and convolution epilogues:
bias, activation, residual; 1-D convolutions in a transposed sequence
layout; matmul on strided operands; attention; norms, softmax, reductions;
pools; elementwise chains with broadcasting; layout ops; quantized units),
the generator draws shapes and parameters from a seeded RNG and feeds the
pattern operands made transposed, permuted, broadcast, strided (sliced),
with size-1 dims, or empty. Each case checks that

  - the model exports with the default backends;
  - no claim was refused by the backend's init at export (the exporter
    checks every blob with the runtime's own init and hands what init
    refuses to the portable kernels; a refusal here is a claim the backend
    should not make, or an op init should accept: either way a bug);
  - the program loads, and its output equals eager within tolerance.

Default tier: CASES cases per pattern (about a minute). `-m slow` runs
SLOW_CASES per pattern. A failure names its pattern and case number; the
case is reproducible from them alone (`_case(pattern, index)`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import ember
import ember.runtime
import pytest
import torch
import torch.nn.functional as F
from ember.backends.cpu import CpuBackend
from ember.exporter import refused_claims
from torch import nn

CASES = 8
SLOW_CASES = 60
SEED = 36

# How a pattern's operand of logical shape `shape` reaches it from a model
# input: as is, or through a view (transpose, permute, slice, expand) that
# the backend must read in place or copy; or with size-1 or empty dims.
VARIANTS = ("plain", "transposed", "permuted", "strided", "broadcast", "size1", "empty")


@dataclass
class Operand:
    """A model input and the view that turns it into the operand."""

    tensor: torch.Tensor
    view: Callable[[torch.Tensor], torch.Tensor]


def operand(rng: random.Random, shape: list[int], variant: str,
            scale: float = 1.0) -> Operand:
    shape = list(shape)
    rank = len(shape)
    gen = torch.Generator().manual_seed(rng.randrange(1 << 30))

    def randn(sizes: list[int]) -> torch.Tensor:
        return torch.randn(sizes, generator=gen) * scale

    if variant == "transposed" and rank >= 2:
        stored = shape[:-2] + [shape[-1], shape[-2]]
        return Operand(randn(stored), lambda t: t.transpose(-1, -2))
    if variant == "permuted" and rank >= 2:
        perm = list(range(rank))
        while perm == list(range(rank)):
            rng.shuffle(perm)
        stored = [0] * rank
        for i, p in enumerate(perm):
            stored[p] = shape[i]
        return Operand(randn(stored), lambda t, perm=perm: t.permute(perm))
    if variant == "strided" and rank >= 1:
        dim = rng.randrange(rank)
        step = rng.choice((1, 2))
        start = rng.randrange(2)
        stored = list(shape)
        stored[dim] = start + step * shape[dim] + rng.randrange(2)

        def sliced(t: torch.Tensor, dim=dim, start=start, step=step, n=shape[dim]) -> torch.Tensor:
            return t.narrow(dim, start, step * n)[(slice(None),) * dim + (slice(None, None, step),)]
        return Operand(randn(stored), sliced)
    if variant == "broadcast" and rank >= 1:
        stored = [1 if rng.random() < 0.5 else s for s in shape]
        if stored == shape:
            stored[rng.randrange(rank)] = 1
        return Operand(randn(stored), lambda t, shape=tuple(shape): t.expand(shape))
    return Operand(randn(shape), lambda t: t)


def dims_for(rng: random.Random, variant: str, sizes: list[int],
             batch_dims: tuple[int, ...] = (0,)) -> list[int]:
    """`sizes` with the variant's edge applied: some dims 1 (size1) or a batch
    dim 0 (empty)."""
    sizes = list(sizes)
    if variant == "size1":
        for d in range(len(sizes)):
            if rng.random() < 0.5:
                sizes[d] = 1
    if variant == "empty":
        sizes[rng.choice(batch_dims)] = 0
    return sizes


class Model(nn.Module):
    """forward(*inputs): each input through its operand view, then `body`."""

    def __init__(self, body: Callable[..., torch.Tensor], views: list[Callable],
                 modules: dict[str, nn.Module] | None = None):
        super().__init__()
        self.body = body
        self.views = views
        self.parts = nn.ModuleDict(modules or {})

    def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
        return self.body(self.parts, *[view(x) for view, x in zip(self.views, inputs)])


@dataclass
class Case:
    model: nn.Module
    inputs: tuple[torch.Tensor, ...]
    atol: float = 1e-4  # relative to the output's scale where it exceeds 1
    what: str = ""
    # Quantized: compared with the same program on the portable kernels,
    # within one step of the output's quantization, rather than with eager.
    against_portable: bool = False


def _model(body, operands: list[Operand], modules=None, atol=1e-4, what="") -> Case:
    return Case(Model(body, [o.view for o in operands], modules).eval(),
                tuple(o.tensor for o in operands), atol, what)


def _seeded_module(rng: random.Random, module: nn.Module) -> nn.Module:
    gen = torch.Generator().manual_seed(rng.randrange(1 << 30))
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * (1.0 / math.sqrt(max(1, p[0].numel()))))
    return module


ACTIVATIONS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "none": lambda t: t,
    "relu": F.relu,
    "relu6": F.relu6,
    "clamp": lambda t: t.clamp(-0.5, 0.7),
    "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "silu": F.silu,
    "hardswish": F.hardswish,
    "hardsigmoid": F.hardsigmoid,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
}


def _activation(rng: random.Random) -> str:
    return rng.choice(list(ACTIVATIONS))


# --- the patterns ---------------------------------------------------------------


def linear(rng: random.Random, variant: str) -> Case:
    """Linear with bias, a fused activation and a residual add, in any order
    the backend fuses (residual then activation, or activation then add)."""
    lead = dims_for(rng, variant, [rng.randint(1, 3), rng.randint(1, 5)], (0, 1))
    k, n = rng.randint(1, 33), rng.randint(1, 33)
    if variant == "empty" and rng.random() < 0.3:
        lead, k = [max(1, d) for d in lead], 0  # no inputs: the bias alone
    act = _activation(rng)
    residual = rng.random() < 0.6
    act_first = rng.random() < 0.5
    x = operand(rng, [*lead, k], variant)
    ops = [x]
    if residual:
        ops.append(operand(rng, [*lead, n], rng.choice(VARIANTS[:5])))
    layer = _seeded_module(rng, nn.Linear(k, n, bias=rng.random() < 0.7))

    def body(parts, x, r=None):
        y = parts["fc"](x)
        if r is None:
            return ACTIVATIONS[act](y)
        return ACTIVATIONS[act](y) + r if act_first else ACTIVATIONS[act](y + r)
    return _model(body, ops, {"fc": layer}, what=f"linear {k}->{n} {act} residual={residual}")


def conv2d(rng: random.Random, variant: str) -> Case:
    """Conv2d (pointwise, depthwise, grouped, strided, dilated, padded) with
    bias, activation or clamp, and a residual of the output's shape."""
    kind = rng.choice(("pointwise", "3x3", "depthwise", "grouped", "stem", "strided"))
    cin = {"stem": 3, "depthwise": rng.randint(2, 12)}.get(kind, rng.randint(1, 12))
    groups = {"depthwise": cin}.get(kind, 1)
    if kind == "grouped":
        groups = rng.choice((2, 3))
        cin = groups * rng.randint(1, 4)
    cout = cin if kind == "depthwise" else groups * rng.randint(1, 6)
    k = 1 if kind == "pointwise" else rng.choice((1, 3, 5))
    stride = 2 if kind == "strided" else rng.choice((1, 1, 2))
    dilation = rng.choice((1, 1, 2))
    padding = rng.randint(0, (k - 1) * dilation // 2 + 1)
    n, h, w = dims_for(rng, variant, [rng.randint(1, 2), rng.randint(4, 14), rng.randint(4, 14)])
    h, w = max(h, dilation * (k - 1) + 1), max(w, dilation * (k - 1) + 1)
    conv = _seeded_module(rng, nn.Conv2d(cin, cout, k, stride, padding, dilation, groups,
                                         bias=rng.random() < 0.7))
    with torch.no_grad():
        out_shape = list(conv(torch.zeros(max(n, 1), cin, h, w)).shape)
    out_shape[0] = n
    act = _activation(rng)
    # A channels-last input arrives permuted: [N, H, W, C] -> [N, C, H, W].
    x = (operand(rng, [n, cin, h, w], variant) if variant != "permuted" else
         Operand(torch.randn(n, h, w, cin, generator=torch.Generator().manual_seed(
             rng.randrange(1 << 30))), lambda t: t.permute(0, 3, 1, 2)))
    ops = [x]
    if rng.random() < 0.6:
        ops.append(operand(rng, out_shape, rng.choice(VARIANTS[:5])))

    def body(parts, x, r=None):
        y = parts["conv"](x)
        return ACTIVATIONS[act](y if r is None else y + r)
    return _model(body, ops, {"conv": conv},
                  what=f"conv2d {kind} {cin}->{cout} k{k} s{stride} p{padding} d{dilation} {act}")


def conv1d(rng: random.Random, variant: str) -> Case:
    """1-D convolutions as sequence models write them: on a [N, L, C] sequence
    transposed to [N, C, L] and back, plus the input (conformer, TCN,
    FastSpeech), or on [N, C, L] with a residual."""
    c = rng.randint(1, 24)
    k = rng.choice((1, 1, 3, 5))
    n, length = dims_for(rng, variant, [rng.randint(1, 3), rng.randint(k, 20)])
    length = max(length, k)
    sequence = rng.random() < 0.6
    cout = c if sequence or rng.random() < 0.5 else rng.randint(1, 24)
    conv = _seeded_module(rng, nn.Conv1d(c, cout, k, padding=k // 2, bias=rng.random() < 0.7))
    act = _activation(rng)
    if sequence:
        x = operand(rng, [n, length, c], variant)

        def body(parts, x):
            return ACTIVATIONS[act](parts["conv"](x.transpose(1, 2)).transpose(1, 2) + x)
        return _model(body, [x], {"conv": conv}, what=f"conv1d sequence c{c} k{k} {act}")
    x = operand(rng, [n, c, length], variant)
    ops = [x]
    residual = cout == c and rng.random() < 0.7
    if residual:
        ops.append(operand(rng, [n, cout, length], rng.choice(VARIANTS[:5])))

    def body(parts, x, r=None):
        y = parts["conv"](x)
        return ACTIVATIONS[act](y if r is None else y + r)
    return _model(body, ops, {"conv": conv}, what=f"conv1d c{c}->{cout} k{k} {act} res={residual}")


def conv_transpose(rng: random.Random, variant: str) -> Case:
    cin, cout = rng.randint(1, 8), rng.randint(1, 8)
    k = rng.choice((2, 3, 4))
    stride = rng.choice((1, 2))
    padding = rng.randint(0, (k - 1) // 2)
    n, h, w = dims_for(rng, variant, [rng.randint(1, 2), rng.randint(2, 8), rng.randint(2, 8)])
    conv = _seeded_module(rng, nn.ConvTranspose2d(cin, cout, k, stride, padding))
    act = _activation(rng)
    x = operand(rng, [n, cin, h, w], variant)
    return _model(lambda parts, x: ACTIVATIONS[act](parts["conv"](x)), [x], {"conv": conv},
                  what=f"conv_transpose {cin}->{cout} k{k} s{stride} p{padding} {act}")


def matmul(rng: random.Random, variant: str) -> Case:
    """Products of two runtime operands (matmul, bmm, F.linear's x @ y^T, a
    Gram matrix a @ a^T, a vector on either side), each possibly a view, with
    broadcast batch dims; or of a runtime operand and a constant (W or W^T)."""
    batch = dims_for(rng, variant, [rng.randint(1, 3), rng.randint(1, 3)], (0, 1))
    m, k, n = rng.randint(1, 17), rng.randint(1, 17), rng.randint(1, 17)
    if variant == "empty" and rng.random() < 0.3:
        batch, k = [max(1, d) for d in batch], 0  # a sum of nothing: zeros
    kind = rng.choice(("matmul", "matmul", "const", "const_t", "bmm", "linear", "gram",
                       "vector_right", "vector_left"))
    gen = torch.Generator().manual_seed(rng.randrange(1 << 30))
    if kind in ("bmm", "linear"):
        batch = batch[:1] if kind == "bmm" else batch
    a = operand(rng, [*batch, m, k], variant)
    if kind == "const":
        weight = torch.randn(k, n, generator=gen)
        return _model(lambda parts, a: a @ weight, [a], what=f"matmul const {m}x{k}x{n}")
    if kind == "const_t":
        weight = torch.randn(n, k, generator=gen)
        return _model(lambda parts, a: a @ weight.t(), [a], what=f"matmul const^T {m}x{k}x{n}")
    if kind == "gram":
        return _model(lambda parts, a: a @ a.transpose(-1, -2), [a], what=f"gram {m}x{k}")
    if kind == "vector_right":
        v = operand(rng, [k], rng.choice(("plain", "strided", "broadcast")))
        return _model(lambda parts, a, v: torch.matmul(a, v), [a, v], what=f"matmul vec {m}x{k}")
    if kind == "vector_left":
        v = operand(rng, [m], rng.choice(("plain", "strided", "broadcast")))
        return _model(lambda parts, a, v: torch.matmul(v, a), [a, v], what=f"vec matmul {m}x{k}")
    if kind == "linear":
        # F.linear with a runtime weight [n, k]: the product with its transpose.
        w = operand(rng, [n, k], rng.choice(VARIANTS[:5]))
        return _model(lambda parts, a, w: F.linear(a, w), [a, w], what=f"F.linear {m}x{k}x{n}")
    if kind == "bmm":
        b = operand(rng, [*batch, k, n], rng.choice(VARIANTS[:5]))
        return _model(lambda parts, a, b: torch.bmm(a, b), [a, b], what=f"bmm {m}x{k}x{n}")
    b_batch = [1 if rng.random() < 0.3 else s for s in batch] if variant != "empty" else batch
    b = operand(rng, [*b_batch, k, n], rng.choice(VARIANTS[:5]))
    return _model(lambda parts, a, b: torch.matmul(a, b), [a, b], what=f"matmul {m}x{k}x{n}")


# How the attention pattern gets its mask: none, causal, additive (an input,
# or a constant with -inf or finfo.min entries), boolean (an input, or a
# constant padding mask), or the explicit softmax(q k^T * scale + mask) v
# form (scale multiplied or divided, the mask added or masked_fill'ed).
MASKS = ("none", "causal", "input", "constant", "bool_input", "bool_constant", "explicit",
         "explicit_div", "explicit_fill")


def _attention_mask(rng: random.Random, kind: str, shape: list[int]) -> torch.Tensor:
    """A mask of `shape` ([..., lq, lk]) for `kind` that leaves every query
    at least one key (key 0), so that the explicit forms' softmax stays
    finite; a query with none is test_sdpa_fully_masked_row's case."""
    gen = torch.Generator().manual_seed(rng.randrange(1 << 30))
    keep = torch.rand(shape, generator=gen) < 0.7
    keep[..., 0] = True
    if kind in ("bool_input", "bool_constant", "explicit_fill"):
        return keep
    if kind == "constant":
        masked = rng.choice((float("-inf"), torch.finfo(torch.float32).min))
        return torch.zeros(shape).masked_fill(~keep, masked)
    return torch.randn(shape, generator=gen)  # additive, any values


def attention(rng: random.Random, variant: str) -> Case:
    """scaled_dot_product_attention on heads split from [B, L, H * D] (q, k
    and v transposed views; k and v with fewer heads, grouped-query), or on
    [B, L, D] with no heads; with each kind of mask (MASKS), of rank 2 or 4,
    and a given scale; and the explicit softmax(q k^T * scale + mask) v form."""
    b, lq = dims_for(rng, variant, [rng.randint(1, 2), rng.randint(1, 12)])
    lk = lq if rng.random() < 0.6 else rng.randint(1, 12)
    h, d = rng.randint(1, 4), rng.choice((1, 4, 8, 16))
    mask_kind = rng.choice(MASKS)
    if mask_kind == "causal":
        lk = lq
    headless = mask_kind in ("none", "causal", "input") and rng.random() < 0.2
    # Grouped-query: k and v carry hk heads, each shared by h // hk of q's.
    hk = rng.choice([g for g in range(1, h + 1) if h % g == 0]) if rng.random() < 0.3 else h
    gqa = hk != h and rng.choice(("enable_gqa", "repeat_interleave"))
    scale = rng.choice((None, None, 0.3))
    explicit = mask_kind.startswith("explicit")
    if headless:
        h = hk = 1
    q = operand(rng, [b, lq, h * d], variant)
    kv = operand(rng, [b, lk, 2 * hk * d], rng.choice(VARIANTS[:5]))
    ops = [q, kv]
    mask_shape = [lq, lk] if rng.random() < 0.3 else [b, 1, lq, lk]
    if headless:
        mask_shape = [lq, lk]
    mask = None
    if mask_kind not in ("none", "causal"):
        mask = _attention_mask(rng, mask_kind, mask_shape)
        if mask_kind in ("input", "bool_input", "explicit", "explicit_div", "explicit_fill"):
            ops.append(Operand(mask, lambda t: t))
            mask = None  # read from the input
    constant_mask = mask

    def heads(t: torch.Tensor, length: int, count: int) -> torch.Tensor:
        if headless:
            return t
        return t.reshape(t.shape[0], length, count, d).transpose(1, 2)

    def body(parts, q, kv, mask=None):
        mask = constant_mask if mask is None else mask
        k, v = kv.split(hk * d, dim=-1)
        qh, kh, vh = heads(q, lq, h), heads(k, lk, hk), heads(v, lk, hk)
        if gqa == "repeat_interleave" or (explicit and hk != h):
            kh, vh = kh.repeat_interleave(h // hk, 1), vh.repeat_interleave(h // hk, 1)
        factor = 1.0 / math.sqrt(d) if scale is None else scale
        if mask_kind == "explicit":
            out = torch.softmax(qh @ kh.transpose(-1, -2) * factor + mask, dim=-1) @ vh
        elif mask_kind == "explicit_div":
            out = torch.softmax(qh @ kh.transpose(-1, -2) / (1.0 / factor) + mask, dim=-1) @ vh
        elif mask_kind == "explicit_fill":
            scores = (qh @ kh.transpose(-1, -2) * factor).masked_fill(
                ~mask, torch.finfo(torch.float32).min)
            out = torch.softmax(scores, dim=-1) @ vh
        else:
            out = F.scaled_dot_product_attention(qh, kh, vh, attn_mask=mask,
                                                 is_causal=mask_kind == "causal", scale=scale,
                                                 enable_gqa=gqa == "enable_gqa")
        if headless:
            return out
        return out.transpose(1, 2).reshape(out.shape[0], lq, h * d)
    return _model(body, ops, what=f"attention h{h}/{hk} d{d} lq{lq} lk{lk} {mask_kind} "
                  f"mask{mask_shape if mask_kind not in ('none', 'causal') else ''} "
                  f"scale={scale} gqa={gqa} headless={headless}")


def norm(rng: random.Random, variant: str) -> Case:
    """layer norm and RMS norm over the trailing 1 or 2 dims (with or without
    weights, any eps, negative ones too), softmax and log-softmax over any
    dim."""
    shape = dims_for(rng, variant, [rng.randint(1, 3), rng.randint(1, 6), rng.randint(1, 20)],
                     (0, 1))
    kind = rng.choice(("layer_norm", "rms_norm", "rms_manual", "softmax", "log_softmax"))
    x = operand(rng, shape, variant, scale=2.0)
    dims = rng.choice((1, 2))
    normalized = shape[-dims:]
    eps = rng.choice((1e-5, 1e-6, 0.0, -1e-3, 0.5))
    gen = torch.Generator().manual_seed(rng.randrange(1 << 30))
    weight = torch.randn(normalized, generator=gen) if rng.random() < 0.6 else None
    bias = torch.randn(normalized, generator=gen) if rng.random() < 0.5 else None
    dim = rng.randrange(-len(shape), len(shape))
    if kind == "layer_norm":
        body = lambda parts, x: F.layer_norm(x, normalized, weight, bias, eps=abs(eps))
    elif kind == "rms_norm":
        body = lambda parts, x: F.rms_norm(x, normalized, weight, eps=eps)
    elif kind == "rms_manual":
        def body(parts, x):
            reduce = list(range(-dims, 0))
            y = x * torch.rsqrt(x.pow(2).mean(reduce, keepdim=True) + eps)
            return y * weight if weight is not None else y
    elif kind == "softmax":
        body = lambda parts, x: torch.softmax(x, dim=dim)
    else:
        body = lambda parts, x: torch.log_softmax(x, dim=dim)
    return _model(body, [x], what=f"{kind} dims={dims} eps={eps} dim={dim}")


def reduction(rng: random.Random, variant: str) -> Case:
    """sum / mean / amax over some dims, kept or not; the spatial mean of an
    image after a convolution (global average pooling, read channels-last)."""
    shape = dims_for(rng, variant, [rng.randint(1, 3), rng.randint(1, 5), rng.randint(1, 6),
                                    rng.randint(1, 6)], (0, 1))
    kind = rng.choice(("sum", "mean", "amax", "gap"))
    rank = len(shape)
    dims = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    keep = rng.random() < 0.5
    if kind == "amax" and any(shape[d] == 0 for d in dims):
        kind = "sum"  # amax over an empty dim is an error in eager too
    x = operand(rng, shape, variant)
    if kind == "gap" and shape[1] == 0:
        kind = "mean"  # a convolution of no channels gives eager's odd empty shape
    if kind == "gap":
        conv = _seeded_module(rng, nn.Conv2d(shape[1], 4, 1))
        return _model(lambda parts, x: parts["conv"](x).mean((2, 3), keepdim=keep), [x],
                      {"conv": conv}, what=f"global average pool keep={keep}")
    fn = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax}[kind]
    return _model(lambda parts, x: fn(x, dims, keepdim=keep), [x],
                  what=f"{kind} dims={dims} keep={keep}")


def pool(rng: random.Random, variant: str) -> Case:
    """Max, average and adaptive average pooling, 2-D and 1-D (as 2-D over
    [N, C, 1, L]), with padding, ceil mode, strides; empty batches too."""
    kind = rng.choice(("max2d", "avg2d", "adaptive2d", "adaptive1d", "max1d", "avg1d"))
    one_d = kind.endswith("1d")
    sizes = [rng.randint(1, 2), rng.randint(1, 6), rng.randint(2, 12)]
    if not one_d:
        sizes.append(rng.randint(2, 12))
    shape = dims_for(rng, variant, sizes)
    spatial = [max(s, 2) for s in shape[2:]]
    shape = shape[:2] + spatial
    k = rng.randint(1, min(3, *spatial))
    stride = rng.randint(1, k)
    padding = rng.randint(0, k // 2)
    ceil = rng.random() < 0.3
    out = [rng.randint(1, s) for s in spatial]
    x = operand(rng, shape, variant)
    if kind == "max2d":
        body = lambda parts, x: F.max_pool2d(x, k, stride, padding, ceil_mode=ceil)
    elif kind == "avg2d":
        include = rng.random() < 0.5
        body = lambda parts, x: F.avg_pool2d(x, k, stride, padding, ceil, include)
    elif kind == "adaptive2d":
        body = lambda parts, x: F.adaptive_avg_pool2d(x, out)
    elif kind == "adaptive1d":
        body = lambda parts, x: F.adaptive_avg_pool1d(x, out[0])
    elif kind == "max1d":
        body = lambda parts, x: F.max_pool1d(x, k, stride, padding, ceil_mode=ceil)
    else:
        body = lambda parts, x: F.avg_pool1d(x, k, stride, padding, ceil)
    return _model(body, [x], what=f"{kind} k{k} s{stride} p{padding} ceil={ceil} out={out}")


# One step of an elementwise chain: (value so far, the other operand) -> value.
STEPS: dict[str, Callable[[torch.Tensor, torch.Tensor], torch.Tensor]] = {
    "add": lambda y, b: y + b, "sub": lambda y, b: y - b, "mul": lambda y, b: y * b,
    "div": lambda y, b: y / (b.abs() + 0.5), "max": torch.maximum, "min": torch.minimum,
    "add_scalar": lambda y, b: y + 0.25, "rsub": lambda y, b: 1.0 - y,
    "mul_scalar": lambda y, b: y * 1.5, "pow2": lambda y, b: y.pow(2),
    "square": lambda y, b: y * y, "neg": lambda y, b: -y, "abs": lambda y, b: y.abs(),
    "exp": lambda y, b: torch.exp(y.clamp(max=5.0)), "sigmoid": lambda y, b: torch.sigmoid(y),
    "tanh": lambda y, b: torch.tanh(y), "silu": lambda y, b: F.silu(y),
    "hardswish": lambda y, b: F.hardswish(y), "silu_manual": lambda y, b: y * torch.sigmoid(y),
    "hardswish_manual": lambda y, b: y * F.relu6(y + 3) / 6,
    "sqrt_abs": lambda y, b: torch.sqrt(y.abs()), "relu": lambda y, b: F.relu(y),
    "gelu": lambda y, b: F.gelu(y),
}


def elementwise(rng: random.Random, variant: str) -> Case:
    """A chain of binary ops (broadcasting operands, numbers on either side)
    and unary ops, ending in a clamp: the ops whose layouts follow their
    inputs."""
    shape = dims_for(rng, variant, [rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 9)],
                     (0, 1))
    a = operand(rng, shape, variant)
    b_shape = [1 if rng.random() < 0.4 else s for s in shape][rng.randint(0, 2):]
    b = operand(rng, b_shape or [1], rng.choice(VARIANTS[:5]))
    steps = [rng.choice(list(STEPS)) for _ in range(rng.randint(1, 4))]
    last = rng.choice(("none", "relu", "clamp", "hardtanh"))

    def body(parts, a, b):
        y = a
        for step in steps:
            y = STEPS[step](y, b)
        return {"none": y, "relu": F.relu(y), "clamp": y.clamp(-1.0, 2.0),
                "hardtanh": F.hardtanh(y)}[last]
    return _model(body, [a, b], atol=2e-4, what=f"elementwise {steps} {last}")


def layout(rng: random.Random, variant: str) -> Case:
    """cat, constant pad, split, reshape, permute, select, embedding: the ops
    that move data, on views of any kind."""
    shape = dims_for(rng, variant, [rng.randint(1, 3), rng.randint(1, 5), rng.randint(1, 7)],
                     (0, 1))
    kind = rng.choice(("cat", "pad", "split", "reshape_permute", "select", "embedding",
                       "cat_after_conv"))
    x = operand(rng, shape, variant)
    if kind == "cat":
        dim = rng.randrange(-3, 3)
        other = list(shape)
        other[dim] = rng.randint(0, 4)
        y = operand(rng, other, rng.choice(VARIANTS[:5]))
        return _model(lambda parts, x, y: torch.cat([x, y, x], dim) * 2, [x, y],
                      what=f"cat dim={dim}")
    if kind == "pad":
        pads = [rng.randint(0, 2) for _ in range(2 * rng.randint(1, 3))]
        value = rng.choice((0.0, -1.5))
        return _model(lambda parts, x: F.pad(x, pads, value=value) + 1, [x], what=f"pad {pads}")
    if kind == "split":
        dim = rng.randrange(3)
        pieces = max(1, shape[dim] // 2)
        return _model(lambda parts, x: sum(t.sum(dim) for t in x.split(pieces, dim)), [x],
                      what=f"split {pieces} dim={dim}")
    if kind == "reshape_permute":
        return _model(lambda parts, x: (x.reshape(shape[0], shape[1] * shape[2]) * 2).reshape(shape)
                      .permute(2, 0, 1).contiguous() + 1, [x], what="reshape permute")
    if kind == "select":
        index = rng.randrange(max(1, shape[1])) if shape[1] else 0
        if shape[1] == 0:
            return _model(lambda parts, x: x.transpose(0, 1) + 1, [x], what="transpose")
        return _model(lambda parts, x: x.select(1, index) * 3, [x], what=f"select {index}")
    if kind == "cat_after_conv":
        conv = _seeded_module(rng, nn.Conv1d(shape[1], 3, 1))
        return _model(lambda parts, x: torch.cat([parts["conv"](x), x], 1).relu(), [x],
                      {"conv": conv}, what="cat after conv")
    table = _seeded_module(rng, nn.Embedding(rng.randint(2, 20), rng.randint(1, 8)))
    ids = torch.randint(0, table.num_embeddings, shape[:2],
                        generator=torch.Generator().manual_seed(rng.randrange(1 << 30)))
    return Case(Model(lambda parts, i: parts["table"](i) * 2, [lambda t: t],
                      {"table": table}).eval(), (ids,), what="embedding")


def block(rng: random.Random, variant: str) -> Case:
    """Layouts crossing op families as architectures chain them: ConvNeXt's
    depthwise conv -> permute to [N, H, W, C] -> layer norm -> MLP -> permute
    back + residual; ViT's patch embedding (strided conv -> flatten ->
    transpose) + position -> layer norm; a conv feeding a linear head through
    a flatten."""
    kind = rng.choice(("convnext", "patches", "head"))
    n = dims_for(rng, variant, [rng.randint(1, 2)])[0]
    c = rng.randint(1, 8)
    h, w = rng.randint(2, 9), rng.randint(2, 9)
    x = operand(rng, [n, c, h, w], variant if variant != "empty" else "plain")
    if variant == "empty":
        x = operand(rng, [0, c, h, w], "plain")
    if kind == "convnext":
        k = rng.choice((3, 7))
        parts = {"dw": nn.Conv2d(c, c, k, padding=k // 2, groups=c), "norm": nn.LayerNorm(c),
                 "up": nn.Linear(c, 4 * c), "down": nn.Linear(4 * c, c)}

        def body(p, x):
            y = p["dw"](x).permute(0, 2, 3, 1)
            y = p["down"](F.gelu(p["up"](p["norm"](y))))
            return x + y.permute(0, 3, 1, 2)
    elif kind == "patches":
        patch = rng.choice((1, 2))
        dim = rng.randint(1, 12)
        tokens = (h // patch) * (w // patch)
        parts = {"embed": nn.Conv2d(c, dim, patch, patch), "norm": nn.LayerNorm(dim)}
        position = torch.randn(1, tokens, dim)

        def body(p, x):
            return p["norm"](p["embed"](x).flatten(2).transpose(1, 2) + position)
    else:
        parts = {"conv": nn.Conv2d(c, 3, 3, padding=1), "fc": nn.Linear(3 * h * w, 5)}

        def body(p, x):
            return p["fc"](torch.relu(p["conv"](x)).flatten(1))
    parts = {name: _seeded_module(rng, m) for name, m in parts.items()}
    return _model(body, [x], parts, what=f"block {kind} c{c} {h}x{w}")


def quantized(rng: random.Random, variant: str) -> Case:
    """Static int8 units (a convolution or linear between quantize and
    dequantize, with a residual add or an activation) and dynamic int8
    linears, made by ember.quantize; compared with the same program on the
    portable kernels (run_case), within a quantization step."""
    kind = rng.choice(("conv", "linear", "dynamic"))
    if kind == "conv":
        c = rng.randint(1, 8)
        n, h, w = dims_for(rng, "size1" if variant == "size1" else "plain",
                           [1, rng.randint(3, 9), rng.randint(3, 9)])
        act = rng.choice((nn.ReLU(), nn.ReLU6(), nn.Identity()))
        residual = rng.random() < 0.5
        model = _QuantConv(c, rng.choice((1, 3)), act, residual)
        x = torch.randn(n, c, h, w, generator=torch.Generator().manual_seed(rng.randrange(1 << 30)))
    else:
        k, m = rng.randint(2, 24), rng.randint(2, 24)
        rows = dims_for(rng, "size1" if variant == "size1" else "plain", [rng.randint(1, 4)])
        model = _QuantLinear(k, m, rng.random() < 0.5)
        x = torch.randn(*rows, 3, k, generator=torch.Generator().manual_seed(rng.randrange(1 << 30)))
    _seeded_module(rng, model).eval()
    scheme = "int8-dynamic" if kind == "dynamic" else "int8"
    calibration = [(torch.randn_like(x),) for _ in range(2)]
    qmodel = ember.quantize(model, (x,), scheme=scheme, calibration=calibration)
    return Case(qmodel, (x,), what=f"quantized {kind} {scheme}", against_portable=True)


class _QuantConv(nn.Module):
    def __init__(self, c, k, act, residual):
        super().__init__()
        self.conv = nn.Conv2d(c, c, k, padding=k // 2)
        self.act = act
        self.residual = residual

    def forward(self, x):
        y = self.act(self.conv(x))
        return (y + x if self.residual else y).flatten(1)


class _QuantLinear(nn.Module):
    def __init__(self, k, m, residual):
        super().__init__()
        self.fc = nn.Linear(k, m)
        self.fc2 = nn.Linear(m, k)
        self.residual = residual

    def forward(self, x):
        y = self.fc2(torch.relu(self.fc(x)))
        return y + x if self.residual else y


PATTERNS: dict[str, Callable[[random.Random, str], Case]] = {
    "linear": linear, "conv2d": conv2d, "conv1d": conv1d, "conv_transpose": conv_transpose,
    "matmul": matmul, "attention": attention, "norm": norm, "reduction": reduction,
    "pool": pool, "elementwise": elementwise, "layout": layout, "block": block,
    "quantized": quantized,
}


def _case(pattern: str, index: int) -> Case:
    """Case `index` of `pattern`: its variant cycles, the rest is drawn from
    a generator seeded by (SEED, pattern, index)."""
    rng = random.Random(f"{SEED}/{pattern}/{index}")
    variant = VARIANTS[index % len(VARIANTS)]
    case = PATTERNS[pattern](rng, variant)
    case.what = f"{variant}: {case.what}"
    return case


def _compare(actual: torch.Tensor, expected: torch.Tensor, atol: float, what: str,
             relative: bool = True) -> None:
    """Equal NaNs; elsewhere a max abs error within atol (times the output's
    scale where it exceeds 1, when `relative`)."""
    actual = torch.as_tensor(actual)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    nan = torch.isnan(expected)
    assert torch.equal(nan, torch.isnan(actual)), f"{what}: NaNs differ"
    finite = ~nan
    if not finite.any():
        return
    scale = max(1.0, float(expected[finite].abs().max())) if relative else 1.0
    error = float((actual[finite].double() - expected[finite].double()).abs().max())
    assert error <= atol * scale, f"{what}: max error {error:.3e} > {atol * scale:.3e}"


def run_case(case: Case, path: str, threads: int) -> ember.exporter.ExportedProgram:
    with torch.no_grad():
        expected = case.model(*case.inputs)
    program = ember.export(case.model, case.inputs)
    refused = refused_claims(program.placements)
    assert not refused, (f"{case.what}: the CPU backend claimed what its init refuses: "
                         + "; ".join(f"{node}: {reason}" for _, node, reason in refused))
    program.save(path)
    actual = ember.runtime.load(path, threads=threads).forward(*case.inputs)
    if case.against_portable:
        ember.export(case.model, case.inputs, backends=()).save(path + ".portable")
        reference = torch.as_tensor(ember.runtime.load(path + ".portable").forward(*case.inputs))
        levels = torch.unique(reference.flatten())
        step = float((levels[1:] - levels[:-1]).min()) if levels.numel() > 1 else 0.0
        # A dequantized output moves by steps; a float one (dynamic) by rounding.
        _compare(actual, reference, 1.01 * max(step, 1e-4), case.what, relative=False)
        return program
    _compare(actual, expected, case.atol, case.what)
    return program


def _params(cases: int, slow: bool) -> list:
    marks = [pytest.mark.slow] if slow else []
    start = CASES if slow else 0
    return [pytest.param(p, i, marks=marks, id=f"{p}-{i}")
            for p in PATTERNS for i in range(start, start + cases)]


@pytest.mark.parametrize("pattern,index", _params(CASES, slow=False))
def test_claims_run(pattern: str, index: int, tmp_path) -> None:
    run_case(_case(pattern, index), str(tmp_path / "m.pte"), threads=1 + index % 2)


@pytest.mark.parametrize("pattern,index", _params(SLOW_CASES, slow=True))
def test_claims_run_sweep(pattern: str, index: int, tmp_path) -> None:
    run_case(_case(pattern, index), str(tmp_path / "m.pte"), threads=1 + index % 2)


# --- the claims found refused, and the safety net -------------------------------


def _delegated_all(program) -> None:
    portable = [(p.node, p.why_not_delegated) for p in program.placements if p.where == "portable"]
    assert not portable, f"left on the portable kernels: {portable}"


class _Conformer(nn.Module):
    """The position-wise convolution of conformer / TCN / FastSpeech blocks."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 16, 1)

    def forward(self, x):
        return self.conv(x.transpose(1, 2)).transpose(1, 2) + x


KNOWN = {
    # init refused "a residual differs from the output it is added to": the
    # add read [N, L, C] where the 1x1 convolution writes [N, C, 1, L] NHWC.
    "conv1d_transposed_residual": (_Conformer(), (torch.randn(2, 10, 16),)),
    # ToLayout refused an empty value.
    "adaptive_avg_pool1d_empty_batch": (
        Model(lambda parts, x: F.adaptive_avg_pool1d(x, 4), [lambda t: t]), (torch.randn(0, 8, 8),)),
    # LayerNorm(rms) refused eps < 0 (eager gives NaN where mean(x^2) + eps < 0).
    "rms_norm_negative_eps": (
        Model(lambda parts, x: F.rms_norm(x, (4, 5), eps=-0.5), [lambda t: t]),
        (torch.randn(3, 4, 5),)),
}


@pytest.mark.parametrize("name", list(KNOWN))
def test_known_claims_run_delegated(name: str, tmp_path) -> None:
    model, inputs = KNOWN[name]
    program = run_case(Case(model.eval(), inputs, what=name), str(tmp_path / "m.pte"), threads=2)
    _delegated_all(program)


def _corrupt_layer_norms(blob: bytes) -> bytes:
    """The blob with each LayerNorm op asking for more dims than its value
    has: a claim its init refuses, naming that op."""
    import flatbuffers
    from ember.cpu_fb import Graph, OpParams

    graph = Graph.GraphT.InitFromObj(Graph.Graph.GetRootAs(blob, 0))
    for op in graph.ops:
        if op.paramsType == OpParams.OpParams.LayerNorm:
            op.params.normalizedDims = 9
    builder = flatbuffers.Builder(1024)
    builder.Finish(graph.Pack(builder), file_identifier=b"ECP1")
    return bytes(builder.Output())


class _RefusingBackend(CpuBackend):
    """The CPU backend with its layer norms lowered wrong."""

    def preprocess(self, subgraph, compile_specs):
        return _corrupt_layer_norms(super().preprocess(subgraph, compile_specs))


class _Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.norm = nn.LayerNorm(8)
        self.out = nn.Linear(8, 4)

    def forward(self, x):
        return self.out(torch.relu(self.norm(self.fc(x))))


def test_refused_claim_runs_on_portable_with_the_reason(tmp_path) -> None:
    model, x = _Block().eval(), torch.randn(3, 8)
    program = ember.export(model, (x,), backends=[_RefusingBackend()])
    where = {p.op: p.where for p in program.placements}
    # Only the refused node went back; the rest is still delegated, in two parts.
    assert where["aten::native_layer_norm.default"] == "portable"
    assert where["aten::addmm.default"] == where["aten::relu.default"] == "EmberCpuBackend"
    refused = refused_claims(program.placements)
    assert [(backend, node) for backend, node, _ in refused] == [
        ("EmberCpuBackend", "native_layer_norm")]
    assert "(LayerNorm, node" in refused[0][2] and "layer norm over 9 dims" in refused[0][2]
    report = program.report()
    assert "refused by the backend's init" in report and "layer norm over 9 dims" in report
    path = str(tmp_path / "m.pte")
    program.save(path)
    _compare(ember.runtime.load(path).forward(x), model(x).detach(), 1e-4, "refused block")


class _UncheckedRefusingBackend(_RefusingBackend):
    def validate(self, processed, compile_specs):
        return None  # as a backend without a runtime to ask


def test_load_error_names_the_refused_op(tmp_path) -> None:
    """Without the export-time check, loading fails; the error says which
    op, which node and why (the backend's reason, kept by the executor)."""
    path = str(tmp_path / "m.pte")
    ember.export(_Block().eval(), (torch.randn(3, 8),), backends=[_UncheckedRefusingBackend()]
                 ).save(path)
    with pytest.raises(ValueError, match=r"failed to init delegate 0: EmberCpuBackend: op \d+ "
                       r"\(LayerNorm, node \d+\) refused: layer norm over 9 dims"):
        ember.runtime.load(path)


def test_validate_delegate_blob() -> None:
    from ember import _C

    program_blob = _block_blob()
    assert _C.validate_delegate_blob("EmberCpuBackend", program_blob) is None
    error, why = _C.validate_delegate_blob("EmberCpuBackend", b"not a graph" * 4)
    assert error == "DelegateInvalidCompatibility" and "not a valid ECP1 graph" in why
    error, why = _C.validate_delegate_blob("EmberCpuBackend", _corrupt_layer_norms(program_blob))
    assert error == "InvalidProgram" and "refused: layer norm over 9 dims" in why
    assert _C.validate_delegate_blob("NoSuchBackend", b"")[0] == "NotFound"


def _block_blob() -> bytes:
    blobs = []

    class Keep(CpuBackend):
        def preprocess(self, subgraph, compile_specs):
            blobs.append(super().preprocess(subgraph, compile_specs))
            return blobs[-1]
    ember.export(_Block().eval(), (torch.randn(3, 8),), backends=[Keep()])
    return blobs[0]


class _MaskedSdpa(nn.Module):
    def forward(self, q, k, v, keep):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)


@pytest.mark.parametrize("mask_kind", ["bool", "float"])
@pytest.mark.parametrize("backends", ["default", "portable"])
def test_sdpa_fully_masked_row(backends: str, mask_kind: str, tmp_path) -> None:
    """torch gives 0 for a query whose keys are all masked (bool or -inf additive
    mask), where a plain softmax gives NaN."""
    q, k, v = torch.randn(1, 2, 3, 4), torch.randn(1, 2, 5, 4), torch.randn(1, 2, 5, 4)
    keep = torch.ones(3, 5, dtype=torch.bool)
    keep[1] = False  # query 1 sees no key
    keep[2, 3] = False
    if mask_kind == "float":
        keep = torch.zeros(3, 5).masked_fill(keep.logical_not(), float("-inf"))
    model = _MaskedSdpa().eval()
    kwargs = {} if backends == "default" else {"backends": ()}
    path = str(tmp_path / "m.pte")
    ember.export(model, (q, k, v, keep), **kwargs).save(path)
    actual = ember.runtime.load(path).forward(q, k, v, keep)
    _compare(actual, model(q, k, v, keep), 1e-5, "fully masked query")
