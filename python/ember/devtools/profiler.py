"""Profiling a loaded program: ember.runtime.Module.profile runs it with the
runtime's DevtoolsTracer and returns a Profile: the table of time per
operator (with nodes and source lines from the debug info), the raw events
and the wall-clock time of each run; it can write the Chrome trace."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ProfileRow:
    op: str  # the operator, or a delegate op's kind and output shape
    node: str
    source: str  # "model.py:12", or ""
    ms_per_run: float
    share: float  # of the total instruction time
    calls: int


@dataclass
class TraceEvent:
    name: str
    start_ns: int
    end_ns: int
    instruction: int
    debug_handle: int  # delegate ops; instructions: 0 (their node is by instruction)
    thread: int
    in_delegate: bool


@dataclass
class Profile:
    table: str
    rows: list[ProfileRow]
    events: list[TraceEvent]
    wall_ns: list[int]  # per run, as measured around Module.run
    dropped_events: int

    @property
    def total_ms(self) -> float:
        """The instructions' time per run (what the rows add up to)."""
        return sum(r.ms_per_run for r in self.rows)

    @property
    def wall_ms(self) -> float:
        """The median wall-clock time of a run."""
        ordered = sorted(self.wall_ns)
        return ordered[len(ordered) // 2] / 1e6 if ordered else 0.0

    def __str__(self) -> str:
        return self.table
