"""`ember export --quantize SCHEME [--calibration DIR_OR_NPY]`: the shell's way
to ember.quantize.

Calibration samples come from NumPy files, each cast to its input's dtype:

- `x.npy`: one array. Shaped like the (only) input: one sample. With one more
  leading dim than the input (N, *input shape): N samples. With the input's
  shape but another size in dim 0 (the batch): one sample per row, each
  keeping a batch of one.
- `x.npz`: one array per input, in the order the model takes them (by name
  when named after forward's parameters, else in file order), each read as
  above; every input must give the same number of samples.
- a directory: every .npy and .npz file in it, in name order.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import torch

from ember.cli import CliError


def _samples_of(array: np.ndarray, example: torch.Tensor, where: str) -> list[torch.Tensor]:
    shape = tuple(example.shape)
    tensor = torch.from_numpy(np.ascontiguousarray(array)).to(example.dtype)
    if tuple(tensor.shape) == shape:
        return [tensor]
    if tensor.dim() == len(shape) + 1 and tuple(tensor.shape[1:]) == shape:
        return list(tensor.unbind(0))
    if shape and tensor.dim() == len(shape) and tuple(tensor.shape[1:]) == shape[1:]:
        return [row.unsqueeze(0) for row in tensor.unbind(0)]
    raise CliError(f"{where}: shape {list(tensor.shape)} does not fit the input's "
                   f"{list(shape)} (one sample of that shape, N of them stacked in a new dim 0, "
                   "or N rows of the batch dim)")


def _file_samples(path: str, inputs: tuple[Any, ...], names: list[str]) -> list[tuple[Any, ...]]:
    try:
        loaded = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot read calibration file {path}: {error}") from None
    if isinstance(loaded, np.ndarray):
        if len(inputs) != 1:
            raise CliError(f"{path}: the model takes {len(inputs)} inputs; give an .npz with "
                           "one array per input")
        return [(s,) for s in _samples_of(loaded, inputs[0], path)]
    keys = list(loaded.files)
    if len(keys) != len(inputs):
        raise CliError(f"{path}: {len(keys)} arrays for {len(inputs)} inputs")
    if names and set(keys) == set(names[:len(keys)]):
        keys = names[:len(keys)]
    per_input = [_samples_of(loaded[k], x, f"{path}[{k}]") for k, x in zip(keys, inputs)]
    counts = {len(s) for s in per_input}
    if len(counts) != 1:
        raise CliError(f"{path}: the inputs give different numbers of samples {sorted(counts)}")
    return list(zip(*per_input))


def forward_names(model: torch.nn.Module) -> list[str]:
    """The names of forward's positional parameters (how .npz arrays may be named)."""
    import inspect

    try:
        parameters = inspect.signature(model.forward).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def calibration_samples(path: str, inputs: tuple[Any, ...],
                        names: list[str] | None = None) -> list[tuple[Any, ...]]:
    """The calibration samples in `path` (a file or a directory of files)."""
    if os.path.isdir(path):
        files = sorted(os.path.join(path, f) for f in os.listdir(path)
                       if f.endswith((".npy", ".npz")))
        if not files:
            raise CliError(f"{path} has no .npy or .npz files")
    elif os.path.isfile(path):
        files = [path]
    else:
        raise CliError(f"no such calibration file or directory: {path}")
    samples: list[tuple[Any, ...]] = []
    for file in files:
        samples += _file_samples(file, inputs, names or [])
    return samples


def quantize_for_export(model: torch.nn.Module, inputs: tuple[Any, ...], scheme: str,
                        samples: list[tuple[Any, ...]] | None, group_size: int,
                        dynamic_shapes: Any = None) -> torch.nn.Module:
    """ember.quantize, with its report printed and a capture failure diagnosed."""
    import ember
    from ember.diagnose import explain

    count = len(samples) if samples else 1
    print(f"quantizing ({scheme}) on {count} calibration sample{'s' if count > 1 else ''}",
          flush=True)
    try:
        quantized = ember.quantize(model, inputs, scheme=scheme, calibration=samples,
                                   group_size=group_size, dynamic_shapes=dynamic_shapes)
    except Exception as error:  # torch.export's failures, diagnosed like an export's
        diagnosed = explain(error, model, inputs, dynamic_shapes)
        if diagnosed is None:
            raise
        raise diagnosed from error
    print(quantized.report(), flush=True)
    return quantized
