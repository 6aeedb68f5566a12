"""From a torch.export program to the core ATen graph that Ember emits.

`torch.export` captures the model; PyTorch's own core-ATen decompositions
lower it. Everything Ember does after that works on this graph.
"""

from __future__ import annotations

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
            return program.run_decompositions(torch.export.default_decompositions())
    except Exception as error:  # a failure inside PyTorch's own decompositions
        raise ExportError(
            f"PyTorch could not decompose the model to core ATen: {_first_line(error)}"
        ) from error


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
