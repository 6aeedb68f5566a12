"""The export pipeline: which passes run, in which order, and the log of how
long each took. `default_passes` is the list `ember.export` runs between
capture and emission; a caller may pass its own list instead (to add, drop or
swap a pass) without touching the others."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import torch

from ember.backends.backend import Backend
from ember.passes import capture as capture_passes
from ember.passes.constant_folding import fold_constants
from ember.passes.data_dependent import bound_data_dependent_sizes
from ember.passes.debug_handles import assign_debug_handles
from ember.passes.delegation import delegate
from ember.passes.dim_order import to_dim_order_ops
from ember.passes.emit import EmittedProgram, emit
from ember.passes.fold_conv_padding import fold_conv_padding
from ember.passes.fuse_batch_norm import fuse_batch_norm
from ember.passes.graph import GraphPass, ProgramGraph
from ember.passes.memory_planning import plan_memory
from ember.passes.mutable_buffers import reinplace_buffer_updates
from ember.passes.out_variants import to_out_variants
from ember.passes.strip_asserts import strip_asserts

log = logging.getLogger("ember.export")

T = TypeVar("T")


def default_passes(backends: Sequence[Backend] = ()) -> list[GraphPass]:
    return [strip_asserts, bound_data_dependent_sizes, to_dim_order_ops, fuse_batch_norm,
            fold_conv_padding, fold_constants, reinplace_buffer_updates, delegate(backends),
            to_out_variants]


def run_pass(name: str, fn: Callable[..., T], *args: Any) -> T:
    """Runs one pass, logging its name and how long it took."""
    start = time.perf_counter()
    result = fn(*args)
    log.info("%-16s %6.2f s", name, time.perf_counter() - start)
    return result


def lower(
    model: torch.nn.Module,
    example_inputs: Sequence[Any] | torch.Tensor,
    dynamic_shapes: Mapping[str, Any] | Sequence[Any] | None,
    passes: Sequence[GraphPass],
) -> tuple[ProgramGraph, EmittedProgram]:
    """Model in, planned program out: every pass up to serialization."""
    exported = run_pass("capture", capture_passes.capture, model, example_inputs, dynamic_shapes)
    exported = run_pass("decompose", capture_passes.decompose, exported)
    program = run_pass("lift", capture_passes.lift, exported)
    program = assign_debug_handles(program)
    for graph_pass in passes:
        program = run_pass(getattr(graph_pass, "__name__", repr(graph_pass)), graph_pass, program)
    emitted = run_pass("emit", emit, program)
    emitted = run_pass("plan_memory", plan_memory, emitted)
    return program, emitted
