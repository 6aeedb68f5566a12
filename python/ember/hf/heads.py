"""Hugging Face models as programs with named tensor inputs and outputs:
image classification, sequence classification and feature extraction.

Each head is the transformers model called with its inputs by name and
`return_dict=True`; the program returns the output's tensors in a fixed
order, whose names the model card beside the .pte lists. Text models take
`input_ids` and `attention_mask` [1, S], S dynamic up to the maximum; image
models take `pixel_values` [1, C, H, W] at the size in config.json.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import torch

# Outputs never exported (None unless asked for, or the cache).
_SKIPPED_OUTPUTS = {"hidden_states", "attentions", "past_key_values", "cache",
                    "cross_attentions", "encoder_hidden_states", "encoder_attentions"}


@dataclass
class InputSpec:
    name: str
    shape: list[int | str]  # "S" for the dynamic sequence length
    dtype: str

    def card(self) -> dict[str, Any]:
        return {"name": self.name, "shape": self.shape, "dtype": self.dtype}


@dataclass
class Head:
    """A model ready for ember.export, and what its inputs and outputs are."""

    module: torch.nn.Module
    example_inputs: tuple[torch.Tensor, ...]
    dynamic_shapes: Any
    inputs: list[InputSpec]
    outputs: list[str]
    notes: list[str] = field(default_factory=list)


class NamedOutputs(torch.nn.Module):
    """Calls a transformers model with (one or two) inputs by name; returns
    the named outputs. Positional parameters, not *args: torch.export takes
    dynamic shapes per parameter."""

    def __init__(self, model: torch.nn.Module, input_names: list[str], output_names: list[str]):
        super().__init__()
        if not 1 <= len(input_names) <= 2:
            raise ValueError(f"one or two inputs, not {input_names}")
        self.model = model
        self.input_names = list(input_names)
        self.output_names = list(output_names)

    def forward(self, first: torch.Tensor, second: torch.Tensor | None = None
                ) -> tuple[torch.Tensor, ...]:
        tensors = (first,) if second is None else (first, second)
        output = self.model(**dict(zip(self.input_names, tensors)), return_dict=True)
        return tuple(output[name] for name in self.output_names)


def _accepts(model: torch.nn.Module, name: str) -> bool:
    try:
        return name in inspect.signature(model.forward).parameters
    except (TypeError, ValueError):
        return False


def _text_limit(config: Any) -> int:
    """The longest sequence the position embeddings take."""
    limit = getattr(config, "max_position_embeddings", None) or 512
    # RoBERTa-style positions start after the padding index.
    if getattr(config, "model_type", "") in ("roberta", "xlm-roberta", "camembert", "longformer"):
        limit -= (getattr(config, "pad_token_id", 1) or 1) + 1
    return max(1, int(limit))


def _image_size(config: Any) -> tuple[int, int, int]:
    channels = int(getattr(config, "num_channels", 3) or 3)
    size = getattr(config, "image_size", 224) or 224
    height, width = (size, size) if isinstance(size, int) else (int(size[0]), int(size[-1]))
    return channels, height, width


def is_vision(model: torch.nn.Module) -> bool:
    return _accepts(model, "pixel_values") and not _accepts(model, "input_ids")


def _outputs(model: torch.nn.Module, names: list[str], inputs: tuple[torch.Tensor, ...]) -> list[str]:
    """The tensor outputs an eager call returns, in its order."""
    with torch.no_grad():
        output = model(**dict(zip(names, inputs)), return_dict=True)
    return [k for k, v in output.items()
            if isinstance(v, torch.Tensor) and k not in _SKIPPED_OUTPUTS]


def build_head(model: torch.nn.Module, max_seq_len: int | None = None) -> Head:
    """The head of an image or text model, with example inputs from its config."""
    config = model.config
    if is_vision(model):
        channels, height, width = _image_size(config)
        example = (torch.randn(1, channels, height, width),)
        names = ["pixel_values"]
        outputs = _outputs(model, names, example)
        specs = [InputSpec("pixel_values", [1, channels, height, width], "float32")]
        return Head(NamedOutputs(model, names, outputs), example, None, specs, outputs)
    if not _accepts(model, "input_ids"):
        raise ValueError(f"{type(model).__name__} takes neither input_ids nor pixel_values; "
                         "Ember's --hf export knows text and image models")
    limit = _text_limit(config)
    longest = min(max_seq_len or 128, limit)
    notes = []
    if max_seq_len and max_seq_len > limit:
        notes.append(f"--max-seq-len {max_seq_len} is past the model's {limit} positions; "
                     f"using {limit}")
    length = min(8, longest)
    vocab = int(getattr(config, "vocab_size", 2) or 2)
    names = ["input_ids"] + (["attention_mask"] if _accepts(model, "attention_mask") else [])
    example = (torch.randint(0, vocab, (1, length)), torch.ones(1, length, dtype=torch.long))
    example = example[:len(names)]
    seq = torch.export.Dim("seq", min=1, max=longest) if longest > 1 else None
    shapes = tuple({1: seq} for _ in names) if seq is not None else None
    outputs = _outputs(model, names, example)
    specs = [InputSpec(n, [1, "S"], "int64") for n in names]
    notes.append(f"sequence length S from 1 to {longest}")
    return Head(NamedOutputs(model, names, outputs), example, shapes, specs, outputs, notes)
