"""What a diagnosis says: the kind of failure, the user's line, the rewrite."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ember.diagnose.location import Location
from ember.passes.graph import ExportError

DOCS = "docs/export.md"


@dataclass(frozen=True)
class Kind:
    """One kind of export failure: its name in the docs and what it means."""

    id: str  # the anchor in docs/export.md, e.g. "data-dependent-branch"
    title: str  # one line, e.g. "a Python branch on a tensor's value"
    why: str  # why torch.export or Ember cannot take it, in general


@dataclass
class SafeFix:
    """A change Ember makes by itself: the model computes the same numbers
    after it, only in a form torch.export and the runtime take."""

    description: str
    # (model, example_inputs, dynamic_shapes) -> the same, fixed.
    apply: Callable[[Any, tuple[Any, ...], Any], tuple[Any, tuple[Any, ...], Any]]


@dataclass
class Diagnosis:
    kind: Kind
    location: Location | None
    detail: str  # this failure in particular: which value, which dim
    fix: str  # the rewrite: code, or what to change
    alternative: str = ""  # a second rewrite, where one applies
    original: str = ""  # PyTorch's (or Ember's) whole message
    safe_fix: SafeFix | None = None
    # The rewrite as lines of the user's file (ember.diagnose.rewrites.Rewrite),
    # where it was written from the user's code.
    rewrite: Any = None
    # Further places with the same problem (ember doctor lists them all).
    more: list[Diagnosis] = field(default_factory=list)
    # Which step failed, as Ember's own message begins ("torch.export could
    # not capture the model", which callers test for), or "cannot export".
    stage: str = "cannot export"

    def headline(self) -> str:
        return f"{self.kind.title} [{self.kind.id}]"

    def render(self, verbose: bool = False) -> str:
        lines = [f"{self.stage}: {self.headline()}"]
        if self.location is not None:
            lines.append(f"  at {self.location.describe()}")
        lines += _wrapped(self.detail or self.kind.why, "  ")
        if self.fix:
            lines.append("  fix:" if "\n" in self.fix else f"  fix: {self.fix}")
            if "\n" in self.fix:
                lines.append(textwrap.indent(self.fix, "      "))
        if self.alternative:
            lines.append("  or:" if "\n" in self.alternative else f"  or:  {self.alternative}")
            if "\n" in self.alternative:
                lines.append(textwrap.indent(self.alternative, "      "))
        for other in self.more:
            where = other.location.describe() if other.location else "(no source line)"
            lines.append(f"  also [{other.kind.id}] at {where}")
        first = self.original.strip().splitlines()[0] if self.original.strip() else ""
        if verbose and self.original.strip():
            lines.append("  the original message:")
            lines.append(textwrap.indent(self.original.strip(), "    | "))
        elif first:
            lines.append(f"  original message: {first}  (--verbose shows it all)")
        lines.append(f"  see {DOCS}#{self.kind.id}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


def _wrapped(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, width=96, initial_indent=indent, subsequent_indent=indent) \
        if text else []


class DiagnosedExportError(ExportError):
    """An export failure with its diagnosis: `str()` is the diagnosis,
    `.original` PyTorch's or Ember's own message, `.__cause__` the exception."""

    def __init__(self, diagnosis: Diagnosis):
        super().__init__(diagnosis.render())
        self.diagnosis = diagnosis
        self.original = diagnosis.original
