"""Hugging Face causal LMs as the program `ember llm export` makes from GGUF.

A Llama-architecture model (Llama, SmolLM, Mistral within its sliding window,
Qwen2 with its q/k/v biases) becomes Ember's Llama (ember.llm.llama) with
its weights: the same `forward(tokens [1, S], input_pos [S])` with a static
KV cache in mutable buffers, prefill in chunks of up to max_prefill tokens
and decode through the same method, the constant methods ember_llm reads,
and optionally weights in Q8_0 / Q4_1 blocks. transformers' own cache
classes do not survive PyTorch's decomposition to core ATen (torch 2.13),
and Ember's Llama runs on its fused kernels, so the weights move instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from ember.backends.backend import Backend
from ember.exporter import ExportedProgram
from ember.llm.export import export_llama
from ember.llm.gguf_import import convert_weights
from ember.llm.llama import LlamaConfig, Weight

SUPPORTED = ("llama", "mistral", "qwen2")
# `ember export --quantize` scheme -> the LLM's block format (weight-only, groups of 32).
QUANT = {None: "float", "int8-weight": "8bit", "int4-weight": "4bit"}

_LAYER_NAMES = {"attention_norm": "input_layernorm", "ffn_norm": "post_attention_layernorm",
                "wq": "self_attn.q_proj", "wk": "self_attn.k_proj", "wv": "self_attn.v_proj",
                "wo": "self_attn.o_proj", "gate": "mlp.gate_proj", "up": "mlp.up_proj",
                "down": "mlp.down_proj"}
_BIAS_NAMES = {"bq": "self_attn.q_proj", "bk": "self_attn.k_proj", "bv": "self_attn.v_proj"}


def _rope_theta(config: Any) -> float:
    parameters = getattr(config, "rope_parameters", None) or {}
    if isinstance(parameters, dict) and parameters.get("rope_type", "default") != "default":
        raise ValueError(f"RoPE scaling {parameters.get('rope_type')!r} is not supported "
                         "(only the default RoPE)")
    theta = parameters.get("rope_theta") if isinstance(parameters, dict) else None
    return float(theta or getattr(config, "rope_theta", 10000.0))


def llama_config(config: Any, max_context: int | None) -> tuple[LlamaConfig, list[str]]:
    """Ember's LlamaConfig for a transformers config; raises ValueError with
    the first thing Ember's Llama does not do."""
    notes: list[str] = []
    kind = getattr(config, "model_type", "")
    if kind not in SUPPORTED:
        raise ValueError(f"causal LMs of type {kind!r} are not supported yet (Ember exports "
                         f"{', '.join(SUPPORTED)}); --task feature-extraction exports the model "
                         "without generation")
    if getattr(config, "hidden_act", "silu") != "silu":
        raise ValueError(f"the MLP activation {config.hidden_act!r} (Ember's Llama: SwiGLU)")
    if getattr(config, "mlp_bias", False):
        raise ValueError("biases in the MLP")
    if getattr(config, "attention_bias", False) and kind != "qwen2":
        raise ValueError("biases in the attention projections")
    heads = config.num_attention_heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // heads
    if head_dim * heads != config.hidden_size:
        raise ValueError(f"head_dim {head_dim} x {heads} heads != hidden size {config.hidden_size}")
    limit = int(getattr(config, "max_position_embeddings", 2048) or 2048)
    context = min(max_context or 1024, limit)
    window = getattr(config, "sliding_window", None)
    if window and (kind == "mistral" or getattr(config, "use_sliding_window", False)) and \
            window < context:
        notes.append(f"context limited to the sliding window, {window} tokens")
        context = window
    ember_config = LlamaConfig(
        vocab_size=config.vocab_size, dim=config.hidden_size, n_layers=config.num_hidden_layers,
        n_heads=heads, n_kv_heads=getattr(config, "num_key_value_heads", None) or heads,
        hidden_dim=config.intermediate_size, norm_eps=float(config.rms_norm_eps),
        rope_theta=_rope_theta(config), max_context=context,
        tie_embeddings=bool(getattr(config, "tie_word_embeddings", False)),
        qkv_bias=kind == "qwen2")
    return ember_config, notes


def llama_weights(model: torch.nn.Module, config: LlamaConfig) -> dict[str, Weight]:
    """The transformers model's weights by Ember's names (float32)."""
    state = {k: v.detach().float() for k, v in model.state_dict().items()}
    weights: dict[str, Weight] = {"embedding": state["model.embed_tokens.weight"],
                                  "norm": state["model.norm.weight"]}
    if not config.tie_embeddings:
        weights["output"] = state["lm_head.weight"]
    for i in range(config.n_layers):
        for ours, theirs in _LAYER_NAMES.items():
            weights[f"layers.{i}.{ours}"] = state[f"model.layers.{i}.{theirs}.weight"]
        if config.qkv_bias:
            for ours, theirs in _BIAS_NAMES.items():
                weights[f"layers.{i}.{ours}"] = state[f"model.layers.{i}.{theirs}.bias"]
    return weights


def _token_id(value: Any, fallback: int) -> int:
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    return int(value) if isinstance(value, int) else fallback


def export_causal_lm(model: torch.nn.Module, max_context: int | None, max_prefill: int,
                     quantize: str | None, backends: Sequence[Backend] | None
                     ) -> tuple[ExportedProgram, LlamaConfig, list[str]]:
    if quantize not in QUANT:
        raise ValueError(f"--quantize {quantize} does not apply to a causal LM: its weights "
                         "take int8-weight (Q8_0 blocks) or int4-weight (Q4_1 blocks)")
    config, notes = llama_config(model.config, max_context)
    weights = convert_weights(llama_weights(model, config), QUANT[quantize])
    generation = getattr(model, "generation_config", None)
    bos = _token_id(getattr(model.config, "bos_token_id", None),
                    _token_id(getattr(generation, "bos_token_id", None), -1))
    eos = _token_id(getattr(model.config, "eos_token_id", None),
                    _token_id(getattr(generation, "eos_token_id", None), -1))
    program = export_llama(config, weights, bos, eos, max_prefill,
                           () if backends is None else backends)
    notes.append(f"Llama-architecture program: KV cache {config.max_context} tokens "
                 f"({config.kv_cache_bytes() / 2**20:.1f} MiB), prefill chunks up to "
                 f"{max(2, min(max_prefill, config.max_context))} tokens, weights "
                 f"{QUANT[quantize]}")
    return program, config, notes
