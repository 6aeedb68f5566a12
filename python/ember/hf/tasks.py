"""The Hugging Face task heads `ember export --hf` knows, and which one a
directory holds (from config.json's `architectures`; no transformers import)."""

from __future__ import annotations

import json
import os
from typing import Any

# task -> (transformers Auto class, what it exports)
TASKS: dict[str, tuple[str, str]] = {
    "image-classification": ("AutoModelForImageClassification",
                             "pixel_values [1, C, H, W] -> logits [1, labels]"),
    "sequence-classification": ("AutoModelForSequenceClassification",
                                "input_ids, attention_mask [1, S] -> logits [1, labels]"),
    "feature-extraction": ("AutoModel",
                           "input_ids, attention_mask [1, S] (or pixel_values) -> hidden states"),
    "causal-lm": ("AutoModelForCausalLM",
                  "forward(tokens [1, S], input_pos [S]) -> logits, with a static KV cache"),
    "speech-seq2seq": ("AutoModelForSpeechSeq2Seq",
                       "encoder(input_features) and decoder(tokens, input_pos) sharing caches"),
}

_SUFFIXES = [
    ("ForCausalLM", "causal-lm"), ("LMHeadModel", "causal-lm"),
    ("ForSequenceClassification", "sequence-classification"),
    ("ForImageClassification", "image-classification"),
    ("ForImageClassificationWithTeacher", "image-classification"),
    ("ForConditionalGeneration", "speech-seq2seq"),
    ("Model", "feature-extraction"),
]


def read_config(directory: str) -> dict[str, Any]:
    path = os.path.join(directory, "config.json")
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"no such directory: {directory}")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{directory} has no config.json: give the directory that "
                                "save_pretrained wrote (config.json and the weights)")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def task_of(config: dict[str, Any]) -> str:
    """The task of the first architecture config.json names."""
    architectures = config.get("architectures") or []
    for architecture in architectures:
        for suffix, task in _SUFFIXES:
            if architecture.endswith(suffix):
                if task == "speech-seq2seq" and config.get("model_type") != "whisper":
                    continue
                return task
    known = ", ".join(TASKS)
    raise ValueError(f"config.json names architectures {architectures or 'none'}; Ember exports "
                     f"{known}: pick one with --task")
