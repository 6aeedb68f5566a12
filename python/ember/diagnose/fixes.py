"""Fixes Ember applies by itself, because they cannot change the model's numbers.

- A transformers model returning its KV cache object is called with
  `use_cache=False`: the same logits, no cache object in the outputs.
- A forward returning a dataclass of tensors returns its fields as a tuple
  (field order): the same tensors, in a structure torch.export knows.
- A dynamic dim whose example has size 0 or 1 gets an example of size 2:
  the example's values never change the program, and torch specializes
  sizes 0 and 1.

Each fix is offered by the diagnosis of the failure it cures; the export
applies it, captures again, and the export report says what it did.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import torch

from ember.diagnose.report import SafeFix


class WithoutCache(torch.nn.Module):
    """A transformers model called with use_cache=False (tensors out, same numbers)."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.model(*args, use_cache=False, **kwargs)


def hf_without_cache(model: Any) -> SafeFix | None:
    if not isinstance(model, torch.nn.Module) or isinstance(model, WithoutCache):
        return None
    try:
        parameters = inspect.signature(model.forward).parameters
    except (TypeError, ValueError):
        return None
    if "use_cache" not in parameters and not any(
            p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return None
    return SafeFix(f"called {type(model).__name__} with use_cache=False (it returned its KV "
                   "cache object; the logits are the same)",
                   lambda m, inputs, shapes: (WithoutCache(m), inputs, shapes))


def _flatten(value: Any) -> Any:
    """Dataclasses (and what they hold) as tuples of their fields."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(_flatten(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_flatten(v) for v in value)
    if isinstance(value, dict):
        return {k: _flatten(v) for k, v in value.items()}
    return value


class FlatOutputs(torch.nn.Module):
    """A model whose dataclass outputs become tuples of their fields."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return _flatten(self.model(*args, **kwargs))


def flatten_outputs(model: Any, example_inputs: tuple[Any, ...]) -> SafeFix | None:
    """Offered when the model's eager output holds dataclasses of tensors only."""
    if not isinstance(model, torch.nn.Module) or isinstance(model, FlatOutputs):
        return None
    try:
        with torch.no_grad():
            output = model(*example_inputs)
    except Exception:  # noqa: BLE001  the model does not run eagerly either: no fix of ours helps
        return None
    classes: list[str] = []

    def only_tensors(value: Any) -> bool:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            classes.append(type(value).__name__)
            return all(only_tensors(getattr(value, f.name)) for f in dataclasses.fields(value))
        if isinstance(value, (list, tuple)):
            return all(only_tensors(v) for v in value)
        if isinstance(value, dict):
            return all(only_tensors(v) for v in value.values())
        return value is None or isinstance(value, (torch.Tensor, int, float, bool))

    if not only_tensors(output) or not classes:
        return None
    names = ", ".join(dict.fromkeys(classes))
    return SafeFix(f"returned the fields of {names} (a dataclass) as a tuple, in field order",
                   lambda m, inputs, shapes: (FlatOutputs(m), inputs, shapes))


def _bounds(shapes: Any, index: int, dim: int) -> tuple[int, int]:
    """(min, max) of the Dim at (index, dim) of `shapes`, as far as it says."""
    spec = None
    if isinstance(shapes, (list, tuple)) and index < len(shapes):
        spec = shapes[index]
    elif isinstance(shapes, dict):
        spec = list(shapes.values())[index] if index < len(shapes) else None
    dim_spec = spec.get(dim) if isinstance(spec, dict) else (
        spec[dim] if isinstance(spec, (list, tuple)) and dim < len(spec) else None)
    low = getattr(dim_spec, "min", 2) or 2
    high = getattr(dim_spec, "max", 2**31 - 1) or 2**31 - 1
    return int(low), int(high)


def grow_example_dims(dims: list[tuple[int, int]]) -> SafeFix:
    """Example inputs of size 2 (or the Dim's minimum) at each (input, dim) in `dims`."""

    def apply(model: Any, inputs: tuple[Any, ...], shapes: Any) -> tuple[Any, tuple[Any, ...], Any]:
        grown = list(inputs)
        for index, dim in dims:
            low, high = _bounds(shapes, index, dim)
            size = min(max(2, low), high)
            tensor = grown[index]
            new_shape = list(tensor.shape)
            new_shape[dim] = size
            # Repeat the example's own values: integer ids stay valid ids.
            repeats = [1] * tensor.dim()
            repeats[dim] = size
            source = tensor.narrow(dim, 0, 1) if tensor.shape[dim] else \
                torch.zeros([*new_shape[:dim], 1, *new_shape[dim + 1:]], dtype=tensor.dtype)
            grown[index] = source.repeat(*repeats).contiguous()
        return model, tuple(grown), shapes

    where = ", ".join(f"input {i} dim {d}" for i, d in dims)
    return SafeFix(f"used example inputs of size 2 in {where} (dynamic; the example had size "
                   "0 or 1, which torch specializes)", apply)
