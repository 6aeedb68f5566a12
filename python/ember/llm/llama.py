"""Ember's Llama: the decoder of Llama, SmolLM and their kin as a PyTorch
module with a static KV cache, written to export (`ember.llm.export`).

forward(tokens [1, S], input_pos [S]) -> logits: the S tokens at positions
`input_pos` (consecutive, starting where the previous call ended) are run
through the layers; each attention layer writes their keys and values into
its cache in place (`index_put_`, a mutable buffer of the program) and reads
the cache up to the last position (`ember::sdpa_cached`, grouped-query
attention without repeating the KV heads). RoPE in Hugging Face's
convention (rotate_half), RMSNorm, SwiGLU, optionally tied embeddings and
biases on the query, key and value projections (Qwen2). The weights of every
linear layer, and of the embedding, are float or quantized (`ember.llm.quant`:
4-bit Q4_1 or 8-bit Q8_0 blocks); biases stay float.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn

from ember.llm import ops, quant


@dataclass
class LlamaConfig:
    vocab_size: int
    dim: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    hidden_dim: int
    norm_eps: float = 1e-5
    rope_theta: float = 10000.0
    max_context: int = 512  # the KV cache's capacity, in tokens
    tie_embeddings: bool = True
    qkv_bias: bool = False  # Qwen2: the q, k and v projections have biases

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads

    def kv_cache_bytes(self) -> int:
        return 2 * self.n_layers * self.n_kv_heads * self.max_context * self.head_dim * 4


class QuantLinear(nn.Module):
    """y = x @ W^T with W held as quantized blocks (no bias)."""

    def __init__(self, blocks: torch.Tensor, bits: int, bias: torch.Tensor | None = None):
        super().__init__()
        quant._check_blocks(blocks, ops.block_format(bits))
        self.register_buffer("blocks", blocks)
        self.bits = bits
        self.out_features = blocks.shape[0]
        self.in_features = blocks.shape[1] * quant.GROUP
        self.bias = None if bias is None else nn.Parameter(bias.float(), requires_grad=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = ops.qlinear(x, self.blocks, self.bits)
        return y if self.bias is None else y + self.bias


class QuantEmbedding(nn.Module):
    def __init__(self, blocks: torch.Tensor, bits: int):
        super().__init__()
        quant._check_blocks(blocks, ops.block_format(bits))
        self.register_buffer("blocks", blocks)
        self.bits = bits

    def forward(self, indices: torch.Tensor) -> torch.Tensor:
        return ops.qembedding(self.blocks, indices, self.bits)


Weight = torch.Tensor | tuple[torch.Tensor, int]  # float [out, in], or (blocks, bits)


def make_linear(weight: Weight, bias: torch.Tensor | None = None) -> nn.Module:
    if isinstance(weight, tuple):
        return QuantLinear(*weight, bias=bias)
    layer = nn.Linear(weight.shape[1], weight.shape[0], bias=bias is not None)
    layer.weight = nn.Parameter(weight.float().contiguous(), requires_grad=False)
    if bias is not None:
        layer.bias = nn.Parameter(bias.float().contiguous(), requires_grad=False)
    return layer


class Projections(nn.Module):
    """Linear layers that read the same input (q, k and v; gate and up), run
    as one where their weights concatenate: all float, or all quantized in
    one format with whole 16-row panels (the panels then concatenate as they
    are), with every bias or none. One call reads the input once (for the
    quantized GEMV, makes its integer digits once) and streams all the
    weights in one run: a decode step's 5 small linears a layer become 2.
    forward returns each layer's output, as the separate layers would."""

    def __init__(self, weights: Sequence[Weight], biases: Sequence[torch.Tensor | None]):
        super().__init__()
        self.sizes = [w[0].shape[0] if isinstance(w, tuple) else w.shape[0] for w in weights]
        fused = _concatenated(weights, biases)
        self.fused = None if fused is None else make_linear(*fused)
        self.parts = (None if fused is not None else
                      nn.ModuleList(make_linear(w, b) for w, b in zip(weights, biases)))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        if self.fused is None:
            return tuple(part(x) for part in self.parts)
        return tuple(self.fused(x).split(self.sizes, dim=-1))


def _concatenated(weights: Sequence[Weight], biases: Sequence[torch.Tensor | None]
                  ) -> tuple[Weight, torch.Tensor | None] | None:
    """The one weight (and bias) of layers that read the same input, or None
    where they do not concatenate."""
    if any(b is None for b in biases) and any(b is not None for b in biases):
        return None
    bias = None if biases[0] is None else torch.cat([b.float() for b in biases])
    if all(isinstance(w, torch.Tensor) for w in weights):
        return torch.cat([w.float() for w in weights]), bias
    if not all(isinstance(w, tuple) for w in weights):
        return None
    bits = {w[1] for w in weights}
    if len(bits) != 1 or any(w[0].shape[0] % quant.PANEL_ROWS for w in weights) or \
            len({w[0].shape[1:] for w in weights}) != 1:
        return None
    return (torch.cat([w[0] for w in weights]), bits.pop()), bias


def make_embedding(weight: Weight) -> nn.Module:
    if isinstance(weight, tuple):
        return QuantEmbedding(*weight)
    layer = nn.Embedding(weight.shape[0], weight.shape[1])
    layer.weight = nn.Parameter(weight.float().contiguous(), requires_grad=False)
    return layer


class RMSNorm(nn.Module):
    def __init__(self, weight: torch.Tensor, eps: float):
        super().__init__()
        self.weight = nn.Parameter(weight.float().contiguous(), requires_grad=False)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ops.rms_norm(x, self.weight, self.eps)


class Attention(nn.Module):
    def __init__(self, config: LlamaConfig, wq: Weight, wk: Weight, wv: Weight, wo: Weight,
                 biases: tuple[torch.Tensor | None, ...] = (None, None, None)):
        super().__init__()
        self.n_heads, self.n_kv_heads, self.head_dim = (config.n_heads, config.n_kv_heads,
                                                        config.head_dim)
        self.qkv = Projections((wq, wk, wv), biases)
        self.wo = make_linear(wo)
        cache = (1, config.n_kv_heads, config.max_context, config.head_dim)
        self.register_buffer("k_cache", torch.zeros(cache))
        self.register_buffer("v_cache", torch.zeros(cache))
        self.scale = 1.0 / math.sqrt(config.head_dim)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                input_pos: torch.Tensor) -> torch.Tensor:
        batch, seq, _ = x.shape
        q, k, v = self.qkv(x)
        q = q.reshape(batch, seq, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.reshape(batch, seq, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = v.reshape(batch, seq, self.n_kv_heads, self.head_dim).transpose(1, 2)
        q, k = ops.rope(q, cos, sin), ops.rope(k, cos, sin)
        # The new rows go into the caches in place; attention reads them there.
        torch.ops.aten.index_put_(self.k_cache, [None, None, input_pos], k)
        torch.ops.aten.index_put_(self.v_cache, [None, None, input_pos], v)
        out = ops.sdpa_cached(q, self.k_cache, self.v_cache, input_pos, self.scale)
        return self.wo(out.transpose(1, 2).reshape(batch, seq, self.n_heads * self.head_dim))


class FeedForward(nn.Module):
    def __init__(self, gate: Weight, up: Weight, down: Weight):
        super().__init__()
        self.gate_up = Projections((gate, up), (None, None))
        self.down = make_linear(down)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(ops.swiglu(*self.gate_up(x)))


class Block(nn.Module):
    def __init__(self, config: LlamaConfig, weights: dict[str, Weight], prefix: str):
        super().__init__()
        w = {name[len(prefix):]: value for name, value in weights.items() if name.startswith(prefix)}
        self.attention_norm = RMSNorm(w["attention_norm"], config.norm_eps)
        self.attention = Attention(config, w["wq"], w["wk"], w["wv"], w["wo"],
                                   (w.get("bq"), w.get("bk"), w.get("bv")))
        self.ffn_norm = RMSNorm(w["ffn_norm"], config.norm_eps)
        self.feed_forward = FeedForward(w["gate"], w["up"], w["down"])

    def forward(self, x, cos, sin, input_pos):
        h = x + self.attention(self.attention_norm(x), cos, sin, input_pos)
        return h + self.feed_forward(self.ffn_norm(h))


class Llama(nn.Module):
    """`weights` by Ember's names (see `weight_names`); each linear weight and
    the embedding may be a float tensor or (blocks, bits). With
    `last_logits_only` (what generation needs) forward returns the logits of
    the last position only, [1, 1, vocab], which saves the output projection
    of every other prompt token."""

    def __init__(self, config: LlamaConfig, weights: dict[str, Weight],
                 last_logits_only: bool = True):
        super().__init__()
        self.config = config
        self.last_logits_only = last_logits_only
        self.embedding = make_embedding(weights["embedding"])
        self.layers = nn.ModuleList(
            Block(config, weights, f"layers.{i}.") for i in range(config.n_layers))
        self.norm = RMSNorm(weights["norm"], config.norm_eps)
        # Tied: the output projection reads the embedding's own tensor.
        self.output = None if config.tie_embeddings else make_linear(weights["output"])
        inv_freq = 1.0 / config.rope_theta ** (
            torch.arange(0, config.head_dim, 2, dtype=torch.float64) / config.head_dim)
        angles = torch.arange(config.max_context, dtype=torch.float64)[:, None] * inv_freq
        angles = torch.cat((angles, angles), dim=-1)
        self.register_buffer("rope_cos", angles.cos().float(), persistent=False)
        self.register_buffer("rope_sin", angles.sin().float(), persistent=False)

    def forward(self, tokens: torch.Tensor, input_pos: torch.Tensor) -> torch.Tensor:
        x = self.embedding(tokens)
        cos, sin = self.rope_cos[input_pos], self.rope_sin[input_pos]
        for layer in self.layers:
            x = layer(x, cos, sin, input_pos)
        if self.last_logits_only:
            x = x[:, -1:, :]
        x = self.norm(x)
        if self.output is not None:
            return self.output(x)
        if isinstance(self.embedding, QuantEmbedding):
            return ops.qlinear(x, self.embedding.blocks, self.embedding.bits)
        return nn.functional.linear(x, self.embedding.weight)

    def reset_cache(self) -> None:
        for layer in self.layers:
            layer.attention.k_cache.zero_()
            layer.attention.v_cache.zero_()


def weight_names(config: LlamaConfig) -> list[str]:
    names = ["embedding", "norm"] + ([] if config.tie_embeddings else ["output"])
    for i in range(config.n_layers):
        names += [f"layers.{i}.{n}" for n in ("attention_norm", "wq", "wk", "wv", "wo",
                                                "ffn_norm", "gate", "up", "down")]
        if config.qkv_bias:
            names += [f"layers.{i}.{n}" for n in ("bq", "bk", "bv")]
    return names


def random_weights(config: LlamaConfig, seed: int = 0, bits: int | None = None) -> dict[str, Weight]:
    """Weights for a tiny test model: random, scaled as trained models are;
    with `bits`, every linear weight and the embedding quantized."""
    generator = torch.Generator().manual_seed(seed)

    def rand(*shape: int, scale: float) -> torch.Tensor:
        return torch.randn(*shape, generator=generator) * scale

    kv = config.n_kv_heads * config.head_dim
    shapes = {"wq": (config.dim, config.dim), "wk": (kv, config.dim), "wv": (kv, config.dim),
              "wo": (config.dim, config.dim), "gate": (config.hidden_dim, config.dim),
              "up": (config.hidden_dim, config.dim), "down": (config.dim, config.hidden_dim)}
    weights: dict[str, Weight] = {}
    for name in weight_names(config):
        leaf = name.rsplit(".", 1)[-1]
        if leaf in ("norm", "attention_norm", "ffn_norm"):
            weights[name] = 1.0 + rand(config.dim, scale=0.1)
        elif leaf in ("bq", "bk", "bv"):
            weights[name] = rand(config.dim if leaf == "bq" else kv, scale=0.1)
        elif leaf in ("embedding", "output"):
            weights[name] = rand(config.vocab_size, config.dim, scale=0.5)
        else:
            shape = shapes[leaf]
            weights[name] = rand(*shape, scale=1.0 / math.sqrt(shape[1]))
    if bits is not None:
        fmt = ops.block_format(bits)
        weights = {name: (quant.quantize(w, fmt), bits) if w.dim() == 2 else w
                   for name, w in weights.items()}
    return weights
