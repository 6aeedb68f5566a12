"""Every problem at once, from torch.export.draft_export.

torch.export stops at the first failure and, for a dynamic dim that a line
constrains, names no line at all. draft_export traces on with the example's
real values instead and logs each data-dependent guard and each guard on a
dynamic dim with the user's stack; Ember reads that log to locate the guard
and, in `ember doctor`, to list every place that needs a rewrite.
"""

from __future__ import annotations

import contextlib
import io
import logging
import warnings
from typing import Any

import torch

from ember.diagnose.location import Location, from_frames


def _failures(model: Any, example_inputs: tuple[Any, ...], dynamic_shapes: Any) -> tuple[
        list[Any], dict[int, str]]:
    from torch.export import draft_export

    quiet = [logging.getLogger(n) for n in ("torch", "torch.export", "torch._export",
                                             "torch.fx.experimental.symbolic_shapes")]
    levels = [logger.level for logger in quiet]
    try:
        for logger in quiet:
            logger.setLevel(logging.CRITICAL)
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()), torch.no_grad():
            warnings.simplefilter("ignore")
            program = draft_export(model, tuple(example_inputs), dynamic_shapes=dynamic_shapes)
    except Exception:  # noqa: BLE001  draft_export gives up on some models: no extra information then
        return [], {}
    finally:
        for logger, level in zip(quiet, levels):
            logger.setLevel(level)
    report = getattr(program, "_report", None)
    if report is None:
        return [], {}
    # Each file name is logged once per process: earlier traces' names are in
    # torch's intern table only.
    from torch._logging.structured import INTERN_TABLE

    names = {index: name for name, index in INTERN_TABLE.items()}
    names.update(report.str_to_filename)
    return list(report.failures), names


def _location(stack: list[dict[str, Any]], names: dict[int, str]) -> Location | None:
    frames = [(names.get(f.get("filename"), str(f.get("filename"))), int(f.get("line", 0)),
               str(f.get("name", ""))) for f in stack]
    return from_frames(frames)


def guard_locations(model: Any, example_inputs: tuple[Any, ...],
                    dynamic_shapes: Any) -> list[tuple[Location, str]]:
    """(line, guard) for each guard the code put on a dynamic dim."""
    failures, names = _failures(model, example_inputs, dynamic_shapes)
    found = []
    for failure in failures:
        if failure.failure_type.name != "GUARD_ADDED":
            continue
        where = _location(failure.data.get("user_stack", []), names)
        if where is not None:
            found.append((where, str(failure.data.get("expr", ""))))
    return found


def data_dependent_locations(model: Any, example_inputs: tuple[Any, ...],
                             dynamic_shapes: Any) -> list[tuple[Location, str]]:
    """(line, expression) for each distinct data-dependent guard in forward."""
    failures, names = _failures(model, example_inputs, dynamic_shapes)
    found: list[tuple[Location, str]] = []
    seen: set[tuple[str, int]] = set()
    for failure in failures:
        if failure.failure_type.name != "DATA_DEPENDENT_ERROR":
            continue
        where = _location(failure.data.get("user_stack", []), names)
        if where is None or (where.filename, where.lineno) in seen:
            continue
        seen.add((where.filename, where.lineno))
        found.append((where, str(failure.data.get("expr", ""))))
    return found
