"""Exporting a Llama for Ember's runtime in one call (`ember llm export`).

The program has one method, `forward(tokens [1, S], input_pos [S]) ->
logits [1, 1, vocab]`, with S dynamic from 1 to `max_prefill`: the runner
prefills a prompt in chunks of up to max_prefill tokens and decodes one
token per call, all through the same method and the same KV caches (mutable
buffers). Constant methods, as ExecuTorch's Llama export writes them, tell
the runner the model's limits and special tokens without a side file.
The tokenizer travels beside the program (`<name>.tokenizer`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from ember.backends.backend import Backend
from ember.exporter import ExportedProgram, Method, export_methods
from ember.llm.gguf_import import GgufModel, convert_weights, read_gguf
from ember.llm.llama import Llama, LlamaConfig, Weight


@dataclass
class LlmMetadata:
    """What the runner reads from the constant methods."""

    max_context: int
    max_prefill: int
    vocab_size: int
    bos_id: int
    eos_id: int
    n_layers: int

    def constant_methods(self) -> dict[str, int]:
        return {
            "get_max_context_len": self.max_context,
            "get_max_seq_len": self.max_prefill,
            "get_vocab_size": self.vocab_size,
            "get_bos_id": self.bos_id,
            "get_eos_id": self.eos_id,
            "get_n_layers": self.n_layers,
            "use_kv_cache": 1,
        }


def export_llama(config: LlamaConfig, weights: dict[str, Weight], bos_id: int, eos_id: int,
                 max_prefill: int = 128, backends: Sequence[Backend] | None = ()
                 ) -> ExportedProgram:
    """Exports Ember's Llama with these weights (float or quantized blocks)."""
    max_prefill = max(2, min(max_prefill, config.max_context))
    model = Llama(config, weights, last_logits_only=True).eval()
    seq = torch.export.Dim("seq", min=1, max=max_prefill)
    example = (torch.zeros(1, 2, dtype=torch.long), torch.arange(2))
    metadata = LlmMetadata(config.max_context, max_prefill, config.vocab_size, bos_id, eos_id,
                           config.n_layers)
    return export_methods({"forward": Method(model, example, ({1: seq}, {0: seq}))},
                          backends=backends, constant_methods=metadata.constant_methods())


def export_gguf(path: str, quant: str = "4bit", max_context: int = 1024, max_prefill: int = 128,
                backends: Sequence[Backend] | None = ()) -> tuple[ExportedProgram, GgufModel]:
    """Reads a GGUF file and exports it with `quant` weights ("4bit": the
    file's own Q4_1/Q8_0 blocks; "8bit": Q8_0; "float")."""
    model = read_gguf(path, max_context=max_context)
    weights = convert_weights(model.weights, quant)
    program = export_llama(model.config, weights, model.bos_id, model.eos_id, max_prefill,
                           backends)
    return program, model


def tokenizer_path(pte_path: str) -> str:
    """Where the tokenizer of `pte_path` lives: beside it, same stem."""
    return os.path.splitext(pte_path)[0] + ".tokenizer"


def save_with_tokenizer(program: ExportedProgram, gguf_path: str, out: str) -> str | None:
    """Writes the program to `out` and the tokenizer beside it; returns the
    tokenizer's path (None when the GGUF file carries no vocabulary): Ember's
    compact tokenizer file, or where that library is missing a copy of the
    GGUF file (the tokenizer reads both)."""
    program.save(out)
    target = tokenizer_path(out)
    try:
        from ember.llm.tokenizer import Tokenizer  # the tokenizer's own module
    except ImportError:
        shutil.copyfile(gguf_path, target)
        return target
    try:
        data = Tokenizer(gguf_path).serialize()
    except ValueError as error:  # no vocabulary in the file
        print(f"ember llm export: no tokenizer written: {error}")
        return None
    with open(target, "wb") as f:
        f.write(data)
    return target
