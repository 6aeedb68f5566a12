"""ember.diagnose: when an export fails, say where and how to fix it.

    ember.export(model, (x,))          # raises DiagnosedExportError: kind, line, rewrite
    print(ember.diagnose.doctor(model, (x,)))   # the same without exporting; every place
    ember doctor model.py:factory --input-shape 1x8

A failure in capture or in any later pass is classified (ember.diagnose.kinds:
a data-dependent branch, a data-dependent size, an unregistered output
type, a dynamic dim that specialized, a missing bound, ...), located in the
user's code (traceback, graph metadata, draft_export's guard log) and given
the rewrite that fixes its kind, written from the user's own code where
its shape allows (ember.diagnose.rewrites). Where a fix cannot change the
numbers (ember.diagnose.fixes), the export applies it and says so.
PyTorch's own message stays available: `error.original`, `__cause__`, and
`--verbose` (or EMBER_EXPORT_VERBOSE=1, or `set_verbose(True)`), which also
lets torch log while it traces.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from ember.diagnose.kinds import KINDS, Context, classify, data_dependent_at
from ember.diagnose.report import DiagnosedExportError, Diagnosis, Kind, SafeFix
from ember.passes.graph import ExportError

__all__ = ["KINDS", "DiagnosedExportError", "Diagnosis", "DoctorReport", "ExportWarning", "Kind",
           "SafeFix", "doctor", "explain", "lower_or_explain", "set_verbose", "verbose_while"]

_verbose = os.environ.get("EMBER_EXPORT_VERBOSE", "") not in ("", "0")

# torch's loggers that print the traced graph and fake-tensor tracebacks on a
# failed capture; the diagnosis replaces them unless verbose.
_NOISY_LOGGERS = ("torch.fx.experimental.symbolic_shapes", "torch._subclasses.fake_tensor",
                  "torch.fx.experimental.recording", "torch._export", "torch.export")
# Fixes tried in one export at most; each is tried once.
_MAX_FIXES = 3


class ExportWarning(UserWarning):
    """The export went through, but the program may not do what the model does."""


def set_verbose(verbose: bool) -> None:
    """Whether diagnoses include PyTorch's whole message (and torch logs while tracing)."""
    global _verbose
    _verbose = verbose


def is_verbose() -> bool:
    return _verbose


@contextlib.contextmanager
def verbose_while(verbose: bool) -> Iterator[None]:
    """Verbose (if `verbose`) for the block only."""
    previous = _verbose
    set_verbose(previous or verbose)
    try:
        yield
    finally:
        set_verbose(previous)


@contextlib.contextmanager
def quiet_torch() -> Iterator[None]:
    """Holds back what torch prints while it traces (on a failure, the
    partial graph goes to stderr with `print`); passed on if the block succeeds."""
    if _verbose:
        yield
        return
    loggers = [logging.getLogger(name) for name in _NOISY_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    held = io.StringIO()
    try:
        with contextlib.redirect_stderr(held):
            yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)
    sys.stderr.write(held.getvalue())  # reached only when the block did not raise


class _Recorder:
    """Wraps graph passes to remember the last graph one was given, so that a
    failure in a later pass can be traced to the user's line."""

    def __init__(self, passes: Sequence[Callable[[Any], Any]]):
        self.program: Any = None
        self.passes = [self._wrap(p) for p in passes]

    def _wrap(self, graph_pass: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def recorded(program: Any) -> Any:
            if self.program is None:
                _refuse_scalar_reads(program)
            self.program = program
            result = graph_pass(program)
            self.program = result
            return result

        recorded.__name__ = getattr(graph_pass, "__name__", repr(graph_pass))
        return recorded


_SCALARS = (torch.SymInt, torch.SymFloat, torch.SymBool, int, float, bool)


def _used(node: torch.fx.Node, seen: dict[torch.fx.Node, bool]) -> bool:
    """Whether anything but assertions (which strip_asserts removes) reads
    `node`: a tensor op does; a scalar op (u0 >= 0) does if something reads it."""
    from ember.passes.strip_asserts import ASSERTIONS

    if node not in seen:
        seen[node] = False  # a cycle cannot make a node used
        seen[node] = any(
            user.target not in ASSERTIONS and
            (not isinstance(user.meta.get("val"), _SCALARS) or _used(user, seen))
            for user in node.users)
    return seen[node]


def _refuse_scalar_reads(program: Any) -> None:
    """A tensor read into a Python number (t.item(), float(t)) that the graph
    still uses: Ember has no kernel for it, and a backend claiming the ops
    around it would meet a symbolic float; refuse it before any pass runs."""
    from ember.passes.graph import all_graphs, user_frame

    seen: dict[torch.fx.Node, bool] = {}
    for module in all_graphs(program):
        for node in module.graph.nodes:
            if node.target is torch.ops.aten._local_scalar_dense.default and _used(node, seen):
                filename, lineno, _, _ = user_frame(node)
                where = f"{filename}:{lineno}" if filename else "unknown location"
                raise ExportError(f"{node.name}: operator {node.target} has no out-variant, so "
                                  f"Ember cannot run it (at {where})")


@dataclass
class Lowered:
    program: Any
    emitted: Any
    fixes: list[str] = field(default_factory=list)  # what Ember changed by itself
    warnings: list[Diagnosis] = field(default_factory=list)


def _inputs(example_inputs: Any) -> tuple[Any, ...]:
    return (example_inputs,) if isinstance(example_inputs, torch.Tensor) else tuple(example_inputs)


def lower_or_explain(lower: Callable[..., tuple[Any, Any]], model: Any, example_inputs: Any,
                     dynamic_shapes: Any, passes: Sequence[Any],
                     apply_fixes: bool = True) -> Lowered:
    """`lower(model, inputs, dynamic_shapes, passes)`, diagnosed: a failure
    becomes a DiagnosedExportError; a failure with a safe fix is fixed and
    lowered again."""
    inputs = _inputs(example_inputs)
    applied: list[SafeFix] = []
    first: Diagnosis | None = None
    while True:
        recorder = _Recorder(passes)
        try:
            with quiet_torch(), warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                program, emitted = lower(model, inputs, dynamic_shapes, recorder.passes)
            return Lowered(program, emitted, [f.description for f in applied],
                           _sort_warnings(caught, model))
        except ExportError as error:
            diagnosis = _diagnose(error, Context(model, inputs, dynamic_shapes, recorder.program))
            if diagnosis is None:
                raise
            if first is not None and diagnosis.kind is first.kind:
                diagnosis = first  # the fix did not help: the first diagnosis stands
            fix = diagnosis.safe_fix
            if not apply_fixes or fix is None or len(applied) >= _MAX_FIXES or \
                    any(f.description == fix.description for f in applied):
                if applied:
                    diagnosis.detail += " (Ember had applied: " + "; ".join(
                        f.description for f in applied) + ")"
                raise DiagnosedExportError(diagnosis) from error
            first = first or diagnosis
            model, inputs, dynamic_shapes = fix.apply(model, inputs, dynamic_shapes)
            applied.append(fix)


def explain(error: BaseException, model: Any, example_inputs: Any = (),
            dynamic_shapes: Any = None) -> DiagnosedExportError | None:
    """`error`, raised by torch.export on `model` outside ember.export (in
    ember.quantize, say), as a diagnosed error; None when the kind is unknown."""
    diagnosis = classify(error, Context(model, _inputs(example_inputs), dynamic_shapes))
    if diagnosis.kind.id == "unknown":
        return None
    return DiagnosedExportError(diagnosis)


# The steps whose failures Ember's messages name first; a diagnosis keeps the
# name, which callers match on (the op tests skip what torch cannot capture).
_STAGES = ("torch.export could not capture the model",
           "PyTorch could not decompose the model to core ATen")


def _diagnose(error: ExportError, context: Context) -> Diagnosis | None:
    """The diagnosis, or None for an Ember error that is not about the model's
    code (a bad argument to export): that one keeps its own message."""
    diagnosis = classify(error, context)
    if diagnosis.kind.id == "unknown" and error.__cause__ is None:
        return None
    diagnosis.stage = next((s for s in _STAGES if str(error).startswith(s)), diagnosis.stage)
    return diagnosis


def _sort_warnings(caught: list[warnings.WarningMessage], model: Any) -> list[Diagnosis]:
    """Diagnoses for the warnings that mean a wrong program; the rest re-raised as they came."""
    found = []
    for w in caught:
        diagnosis = classify(ExportError(str(w.message)), Context(model))
        if diagnosis.kind.id == "tensor-attribute-assigned":
            diagnosis.stage = "exports, but"
            found.append(diagnosis)
            warnings.warn(diagnosis.render(_verbose), ExportWarning, stacklevel=4)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return found


@dataclass
class DoctorReport:
    """What `ember doctor` found: the problem that stops the export (with
    `more` places of its kind), the fixes Ember would apply by itself,
    warnings about a program that exports but may differ from the model,
    and the program's summary when it lowers."""

    problems: list[Diagnosis]
    fixes: list[str]
    summary: str = ""
    warnings: list[Diagnosis] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def render(self, verbose: bool = False) -> str:
        lines = [f"fixed by Ember: {fix}" for fix in self.fixes]
        lines += [d.render(verbose) for d in [*self.problems, *self.warnings]]
        if self.ok:
            lines.append(f"exports: {self.summary}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render(_verbose)


def doctor(model: torch.nn.Module, example_inputs: Any, dynamic_shapes: Any = None,
           backends: Sequence[Any] | None = None) -> DoctorReport:
    """Runs every export step but writing the file, and reports what stops
    it (every data-dependent place at once, from draft_export)."""
    from ember.passes.pipeline import default_passes, lower

    if backends is None:
        from ember.backends.cpu import CpuBackend

        backends = [CpuBackend()]
    try:
        lowered = lower_or_explain(lower, model, example_inputs, dynamic_shapes,
                                   default_passes(list(backends)))
    except DiagnosedExportError as error:
        diagnosis = error.diagnosis
        if diagnosis.kind.id.startswith("data-dependent") or \
                diagnosis.kind.id == "tensor-to-python-number":
            diagnosis.more = _other_data_dependent(model, example_inputs, dynamic_shapes,
                                                   diagnosis)
        return DoctorReport([diagnosis], [])
    _, emitted = lowered.program, lowered.emitted
    plan = emitted.memory_plan
    summary = (f"{len(emitted.instructions)} instructions; activation arena "
               f"{plan.arena_size / 1024:.1f} KiB")
    return DoctorReport([], lowered.fixes, summary, lowered.warnings)


def _other_data_dependent(model: Any, example_inputs: Any, dynamic_shapes: Any,
                          first: Diagnosis) -> list[Diagnosis]:
    from ember.diagnose.draft import data_dependent_locations

    others = []
    for where, expr in data_dependent_locations(model, _inputs(example_inputs), dynamic_shapes):
        if first.location is not None and (where.filename, where.lineno) == \
                (first.location.filename, first.location.lineno):
            continue
        others.append(data_dependent_at(where, expr))
    return others
