"""The operators an LLM program uses beyond core ATen, in Ember's `ember`
namespace, each with an eager implementation (the reference the tests and
the exporter's eager runs use) and an out-variant the runtime has kernels for:

- `qlinear(x, blocks, bits)`: x @ W^T with W in 4-bit (Q4_1) or 8-bit (Q8_0)
  blocks (ember.llm.quant); the weights are never stored in float.
- `qembedding(blocks, indices, bits)`: rows of a quantized table.
- `sdpa_cached(q, k_cache, v_cache, pos, scale)`: attention of queries at
  positions `pos` over a KV cache [B, kv_heads, capacity, head_dim], each
  query seeing the keys at positions <= its own (causal), heads grouped over
  the KV heads (GQA) without copying them. The kernel reads only the cache
  rows up to the largest position, so a step costs what the sequence so far
  costs, not the cache's capacity.
- `rms_norm(x, weight, eps)`, `rope(x, cos, sin)` (rotate_half convention)
  and `swiglu(gate, up)` (silu(gate) * up): one kernel each where core ATen
  takes five to seven small ops, which at one token per call cost more in
  dispatch than in arithmetic.
"""

from __future__ import annotations

import torch

from ember.llm import quant

_lib = torch.library.Library("ember", "FRAGMENT")
_lib.define("qlinear(Tensor x, Tensor blocks, int bits) -> Tensor")
_lib.define("qlinear.out(Tensor x, Tensor blocks, int bits, *, Tensor(a!) out) -> Tensor(a!)")
_lib.define("qembedding(Tensor blocks, Tensor indices, int bits) -> Tensor")
_lib.define("qembedding.out(Tensor blocks, Tensor indices, int bits, *, Tensor(a!) out) "
            "-> Tensor(a!)")
_lib.define("sdpa_cached(Tensor q, Tensor k_cache, Tensor v_cache, Tensor pos, float scale) "
            "-> Tensor")
_lib.define("sdpa_cached.out(Tensor q, Tensor k_cache, Tensor v_cache, Tensor pos, float scale, "
            "*, Tensor(a!) out) -> Tensor(a!)")

_lib.define("rms_norm(Tensor x, Tensor weight, float eps) -> Tensor")
_lib.define("rms_norm.out(Tensor x, Tensor weight, float eps, *, Tensor(a!) out) -> Tensor(a!)")
_lib.define("rope(Tensor x, Tensor cos, Tensor sin) -> Tensor")
_lib.define("rope.out(Tensor x, Tensor cos, Tensor sin, *, Tensor(a!) out) -> Tensor(a!)")
_lib.define("swiglu(Tensor gate, Tensor up) -> Tensor")
_lib.define("swiglu.out(Tensor gate, Tensor up, *, Tensor(a!) out) -> Tensor(a!)")

_FORMAT = {4: quant.Q4_1, 8: quant.Q8_0}


def block_format(bits: int) -> quant.BlockFormat:
    if bits not in _FORMAT:
        raise ValueError(f"quantized weights have 4 or 8 bits, not {bits}")
    return _FORMAT[bits]


def _qlinear(x: torch.Tensor, blocks: torch.Tensor, bits: int) -> torch.Tensor:
    return torch.nn.functional.linear(x, quant.dequantize(blocks, block_format(bits)))


def _qembedding(blocks: torch.Tensor, indices: torch.Tensor, bits: int) -> torch.Tensor:
    rows = quant.dequantize_rows(blocks, block_format(bits), indices)
    return rows.reshape(*indices.shape, -1)


def _sdpa_cached(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                 pos: torch.Tensor, scale: float) -> torch.Tensor:
    groups = q.shape[1] // k_cache.shape[1]
    k = k_cache.repeat_interleave(groups, dim=1)
    v = v_cache.repeat_interleave(groups, dim=1)
    scores = torch.matmul(q, k.transpose(-1, -2)) * scale
    visible = torch.arange(k_cache.shape[2])[None, :] <= pos.reshape(-1, 1)  # [S, capacity]
    scores = scores.masked_fill(~visible, float("-inf"))
    return torch.matmul(torch.softmax(scores, dim=-1), v)


def _rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def _rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return x * cos + torch.cat((-x[..., half:], x[..., :half]), dim=-1) * sin


def _swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.silu(gate) * up


def _out(fn):
    def out_variant(*args, out):
        result = fn(*args)
        out.resize_(result.shape).copy_(result)
        return out
    return out_variant


for _name, _fn in (("qlinear", _qlinear), ("qembedding", _qembedding),
                   ("sdpa_cached", _sdpa_cached), ("rms_norm", _rms_norm), ("rope", _rope),
                   ("swiglu", _swiglu)):
    _lib.impl(_name, _fn, "CompositeExplicitAutograd")
    _lib.impl(f"{_name}.out", _out(_fn), "CompositeExplicitAutograd")


@torch.library.register_fake("ember::qlinear")
def _qlinear_fake(x, blocks, bits):
    return x.new_empty(*x.shape[:-1], blocks.shape[0])


@torch.library.register_fake("ember::qembedding")
def _qembedding_fake(blocks, indices, bits):
    return torch.empty(*indices.shape, blocks.shape[1] * quant.GROUP, dtype=torch.float32,
                       device=indices.device)


@torch.library.register_fake("ember::sdpa_cached")
def _sdpa_cached_fake(q, k_cache, v_cache, pos, scale):
    return q.new_empty(*q.shape[:-1], v_cache.shape[-1])


@torch.library.register_fake("ember::rms_norm")
def _rms_norm_fake(x, weight, eps):
    return torch.empty_like(x)


@torch.library.register_fake("ember::rope")
def _rope_fake(x, cos, sin):
    return torch.empty_like(x)


@torch.library.register_fake("ember::swiglu")
def _swiglu_fake(gate, up):
    return torch.empty_like(gate)


qlinear = torch.ops.ember.qlinear.default
qembedding = torch.ops.ember.qembedding.default
sdpa_cached = torch.ops.ember.sdpa_cached.default
rms_norm = torch.ops.ember.rms_norm.default
rope = torch.ops.ember.rope.default
swiglu = torch.ops.ember.swiglu.default
