"""Whisper (speech to text) as two methods sharing their caches.

- `encoder(input_features [1, mel bins, frames]) -> encoder states`: runs
  transformers' encoder and writes every decoder layer's cross-attention keys
  and values into the cross caches (mutable buffers), once per utterance.
- `decoder(tokens [1, S], input_pos [S]) -> logits [1, S, vocab]`: the
  decoder with a static self-attention KV cache written in place at
  `input_pos` (ember::sdpa_cached reads it up to the last position), and
  cross-attention over the caches the encoder left.

Both methods hold the same `Caches` module, so the buffers have one fully
qualified name and the program keeps one copy that both read and write
(ember.export_methods shares buffers by name). The decoder reuses the
model's own layers (projections, norms, MLP); only its attention is written
here, around the caches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from torch import nn

from ember.llm import ops


class Caches(nn.Module):
    """Self-attention and cross-attention keys and values of every decoder layer."""

    def __init__(self, layers: int, heads: int, head_dim: int, context: int, frames: int):
        super().__init__()
        for i in range(layers):
            self.register_buffer(f"self_k_{i}", torch.zeros(1, heads, context, head_dim))
            self.register_buffer(f"self_v_{i}", torch.zeros(1, heads, context, head_dim))
            self.register_buffer(f"cross_k_{i}", torch.zeros(1, heads, frames, head_dim))
            self.register_buffer(f"cross_v_{i}", torch.zeros(1, heads, frames, head_dim))

    def get(self, kind: str, i: int) -> torch.Tensor:
        return getattr(self, f"{kind}_{i}")


def _heads(x: torch.Tensor, heads: int) -> torch.Tensor:
    batch, length, dim = x.shape
    return x.view(batch, length, heads, dim // heads).transpose(1, 2)


class Encoder(nn.Module):
    def __init__(self, model: nn.Module, caches: Caches):
        super().__init__()
        self.encoder = model.get_encoder()
        self.layers = model.get_decoder().layers
        self.caches = caches

    def forward(self, input_features: torch.Tensor) -> torch.Tensor:
        states = self.encoder(input_features, return_dict=True).last_hidden_state
        for i, layer in enumerate(self.layers):
            attention = layer.encoder_attn
            self.caches.get("cross_k", i).copy_(_heads(attention.k_proj(states),
                                                       attention.num_heads))
            self.caches.get("cross_v", i).copy_(_heads(attention.v_proj(states),
                                                       attention.num_heads))
        return states


class Decoder(nn.Module):
    def __init__(self, model: nn.Module, caches: Caches):
        super().__init__()
        decoder = model.get_decoder()
        self.embed_tokens = decoder.embed_tokens
        self.embed_positions = decoder.embed_positions
        self.embed_scale = getattr(decoder, "embed_scale", 1.0)
        self.layers = decoder.layers
        self.layer_norm = decoder.layer_norm
        self.proj_out = model.proj_out
        self.caches = caches

    def _self_attention(self, layer: nn.Module, x: torch.Tensor, input_pos: torch.Tensor,
                        i: int) -> torch.Tensor:
        attention = layer.self_attn
        heads = attention.num_heads
        q = _heads(attention.q_proj(x), heads)
        k_cache, v_cache = self.caches.get("self_k", i), self.caches.get("self_v", i)
        torch.ops.aten.index_put_(k_cache, [None, None, input_pos], _heads(attention.k_proj(x), heads))
        torch.ops.aten.index_put_(v_cache, [None, None, input_pos], _heads(attention.v_proj(x), heads))
        out = ops.sdpa_cached(q, k_cache, v_cache, input_pos, attention.scaling)
        return attention.out_proj(out.transpose(1, 2).reshape(x.shape))

    def _cross_attention(self, layer: nn.Module, x: torch.Tensor, i: int) -> torch.Tensor:
        attention = layer.encoder_attn
        q = _heads(attention.q_proj(x), attention.num_heads)
        out = nn.functional.scaled_dot_product_attention(
            q, self.caches.get("cross_k", i), self.caches.get("cross_v", i),
            scale=attention.scaling)
        return attention.out_proj(out.transpose(1, 2).reshape(x.shape))

    def forward(self, tokens: torch.Tensor, input_pos: torch.Tensor) -> torch.Tensor:
        # A buffer this method only reads would be lifted as a constant (its
        # zeros at export); writing its first row back to itself makes each
        # cross cache state of this method too, the one the encoder fills.
        first = torch.zeros(1, dtype=torch.long)
        for i in range(len(self.layers)):
            for kind in ("cross_k", "cross_v"):
                cache = self.caches.get(kind, i)
                torch.ops.aten.index_put_(cache, [None, None, first], cache[:, :, :1])
        x = self.embed_tokens(tokens) * self.embed_scale + self.embed_positions.weight[input_pos]
        for i, layer in enumerate(self.layers):
            x = x + self._self_attention(layer, layer.self_attn_layer_norm(x), input_pos, i)
            x = x + self._cross_attention(layer, layer.encoder_attn_layer_norm(x), i)
            h = layer.final_layer_norm(x)
            x = x + layer.fc2(layer.activation_fn(layer.fc1(h)))
        return self.proj_out(self.layer_norm(x))


def whisper_methods(model: nn.Module, max_context: int | None) -> tuple[Encoder, Decoder, int]:
    """The encoder and decoder methods of a WhisperForConditionalGeneration."""
    config = model.config
    context = min(max_context or config.max_target_positions, config.max_target_positions)
    heads = config.decoder_attention_heads
    caches = Caches(config.decoder_layers, heads, config.d_model // heads, context,
                    config.max_source_positions)
    return Encoder(model, caches).eval(), Decoder(model, caches).eval(), context


def export_whisper(model: nn.Module, max_context: int | None,
                   backends: Sequence[Any] | None) -> tuple[Any, dict[str, Any], list[str]]:
    """The program (methods encoder and decoder, constant methods for the
    runner) and the model card's description of its methods."""
    from ember.exporter import Method, export_methods

    config = model.config
    encoder, decoder, context = whisper_methods(model, max_context)
    frames = 2 * config.max_source_positions  # the convolutions halve the frames
    features = torch.randn(1, config.num_mel_bins, frames)
    seq = torch.export.Dim("seq", min=1, max=context)
    tokens = (torch.zeros(1, 2, dtype=torch.long), torch.arange(2))
    constants = {"get_max_context_len": context, "get_vocab_size": config.vocab_size,
                 "get_decoder_start_token_id": int(config.decoder_start_token_id),
                 "get_eos_id": int(config.eos_token_id if config.eos_token_id is not None
                                   else -1)}
    program = export_methods(
        {"encoder": Method(encoder, (features,)),
         "decoder": Method(decoder, tokens, ({1: seq}, {0: seq}))},
        backends=backends, constant_methods=constants)
    methods = {
        "encoder": {"inputs": [{"name": "input_features",
                                "shape": [1, config.num_mel_bins, frames], "dtype": "float32"}],
                    "outputs": ["encoder_states"]},
        "decoder": {"inputs": [{"name": "tokens", "shape": [1, "S"], "dtype": "int64"},
                               {"name": "input_pos", "shape": ["S"], "dtype": "int64"}],
                    "outputs": ["logits"]},
    }
    notes = [(f"encoder once per {frames} frames, then decoder token by token (context "
              f"{context}); the encoder fills the cross-attention caches the decoder reads")]
    return program, methods, notes
