"""From a torch.export program to the core ATen graph that Ember emits.

`torch.export` captures the model; PyTorch's own core-ATen decompositions
lower it. Everything Ember does after that works on this graph.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import torch


class ExportError(ValueError):
    """The model cannot be exported to a .pte; the message says why."""


def capture(
    model: torch.nn.Module,
    example_inputs: Sequence[Any],
    dynamic_shapes: Mapping[str, Any] | Sequence[Any] | None = None,
) -> torch.export.ExportedProgram:
    """Captures `model` with torch.export and decomposes it to core ATen."""
    if not isinstance(model, torch.nn.Module):
        raise ExportError(f"expected a torch.nn.Module, got {type(model).__name__}")
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    model = model.eval()
    try:
        with torch.no_grad():
            program = torch.export.export(model, tuple(example_inputs), dynamic_shapes=dynamic_shapes)
    except Exception as error:  # torch raises many types; all mean "cannot capture"
        raise ExportError(f"torch.export could not capture the model: {_first_line(error)}") from error
    try:
        with warnings.catch_warnings():  # torch 2.13 warns about its own pytree specs here
            warnings.simplefilter("ignore", FutureWarning)
            return program.run_decompositions(_decompositions())
    except Exception as error:  # a failure inside PyTorch's own decompositions
        raise ExportError(
            f"PyTorch could not decompose the model to core ATen: {_first_line(error)}"
        ) from error


def _decompositions() -> Any:
    table = torch.export.default_decompositions()
    table[torch.ops.aten.scaled_dot_product_attention.default] = _attention
    return table


def _attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
               enable_gqa=False):
    """scaled_dot_product_attention in its math form. PyTorch's own decomposition goes
    through the CPU flash-attention op, whose decomposition views tensors that a
    head split left non-contiguous (GPT-2 fails there); this one reshapes nothing."""
    if dropout_p != 0.0:
        raise ValueError("scaled_dot_product_attention with dropout_p > 0 is random; "
                         "export the model in eval mode with dropout 0")
    if enable_gqa:
        groups = query.size(-3) // key.size(-3)
        key = key.repeat_interleave(groups, -3)
        value = value.repeat_interleave(groups, -3)
    factor = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale
    scores = torch.matmul(query, key.transpose(-2, -1)) * factor
    if is_causal:
        keep = torch.ones(query.size(-2), key.size(-2), dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(keep.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    return torch.matmul(scores.softmax(-1), value)


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
