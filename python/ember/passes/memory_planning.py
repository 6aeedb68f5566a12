"""Ahead-of-time activation memory planning, the pass after emission.

Every non-constant tensor gets a byte offset in one arena, chosen from its
lifetime (the instructions between its definition and its last use) so that
tensors alive at the same time never overlap. Greedy by size: the largest
tensors are placed first, each at the lowest offset that is free for its
whole lifetime (the "greedy by size" heuristic of TFLite's arena planner).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ember.fb.AllocationDetails import AllocationDetailsT

ALIGNMENT = 16  # bytes; matches ExecuTorch's MemoryPlanningPass default


@dataclass
class Lifetime:
    """A tensor to plan: alive from instruction `start` to `end` inclusive."""

    key: int
    nbytes: int
    start: int
    end: int
    offset: int = field(default=-1)

    def overlaps_in_time(self, other: Lifetime) -> bool:
        return self.start <= other.end and other.start <= self.end


@dataclass
class MemoryPlan:
    arena_size: int
    offsets: dict[int, int]
    total_tensor_bytes: int
    buffer_bytes: int = 0  # mutable buffers, in the arena methods share

    @property
    def savings(self) -> float:
        """Fraction of memory saved against giving every tensor its own bytes."""
        if self.total_tensor_bytes == 0:
            return 0.0
        return 1.0 - self.arena_size / self.total_tensor_bytes


def _align(n: int) -> int:
    return (n + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


def plan(tensors: list[Lifetime]) -> MemoryPlan:
    placed: list[Lifetime] = []
    arena = 0
    for t in sorted(tensors, key=lambda t: (-t.nbytes, t.start, t.key)):
        size = _align(max(t.nbytes, 1))
        # Gaps between the placed tensors that are alive at the same time.
        busy = sorted((p.offset, p.offset + _align(max(p.nbytes, 1)))
                      for p in placed if p.overlaps_in_time(t))
        offset = 0
        for begin, end in busy:
            if offset + size <= begin:
                break
            offset = max(offset, end)
        t.offset = offset
        placed.append(t)
        arena = max(arena, offset + size)
    return MemoryPlan(
        arena_size=arena,
        offsets={t.key: t.offset for t in placed},
        total_tensor_bytes=sum(_align(max(t.nbytes, 1)) for t in tensors),
    )


@dataclass
class BufferLayout:
    """Where each mutable buffer lives in the arena that all methods of a
    program share (memory id 2), and the index of its initial data in the
    program's mutable data segment."""

    offsets: dict[str, int]  # fully qualified name -> byte offset
    data_index: dict[str, int]  # fully qualified name -> mutable data index (>= 1)
    initial_data: list[bytes]  # index 0 is reserved and empty
    size: int

    @staticmethod
    def of(methods: list[Any]) -> BufferLayout:
        """One layout for the buffers of every method: a buffer that two
        methods name (by its fully qualified name) is the same memory in both."""
        found: dict[str, bytes] = {}
        for emitted in methods:
            for fqn, data in emitted.buffers.values():
                if fqn in found and len(found[fqn]) != len(data):
                    raise ValueError(f"buffer {fqn} has different sizes in two methods")
                found.setdefault(fqn, data)
        offsets, data_index, initial, cursor = {}, {}, [b""], 0
        for fqn in sorted(found):
            offsets[fqn] = cursor
            cursor += _align(max(len(found[fqn]), 1))
            data_index[fqn] = len(initial)
            initial.append(found[fqn])
        return BufferLayout(offsets, data_index, initial, cursor)


# The memory id of the arena that mutable buffers share across methods
# (ExecuTorch's share_mutable_buffers uses 2 as well; activations are in 1).
SHARED_BUFFER_MEMORY_ID = 2


def plan_memory(emitted: Any, buffers: BufferLayout | None = None) -> Any:
    """The planning pass: gives every planned tensor of an EmittedProgram its
    offset in arena 1 and records the arena's size in the execution plan.
    Mutable buffers go to arena 2 at the offsets of `buffers` (by default a
    layout of this method's own buffers); they live as long as the program.

    Lifetimes come from the emitter, in instruction indices; two facts of
    control flow stretch them first:
    - a loop reads again, on every iteration, what was alive when it began,
      so such values live to the loop's last instruction;
    - a moved-into value aliases its source's memory, so the source must stay
      alive as long as the value it was moved into is used.
    """
    lifetimes = emitted.lifetimes
    for head, last in emitted.loops:  # inner loops first, as the emitter closed them
        for lifetime in lifetimes.values():
            if lifetime.start < head <= lifetime.end:
                lifetime.end = max(lifetime.end, last)
    for source, target in reversed(emitted.moves):  # outer conds first
        if source in lifetimes and target in lifetimes:
            lifetimes[source].end = max(lifetimes[source].end, lifetimes[target].end)
    memory = plan(list(lifetimes.values()))
    for value_id, offset in memory.offsets.items():
        details = AllocationDetailsT()
        details.memoryId = 1
        details.memoryOffsetLow = offset & 0xFFFFFFFF
        details.memoryOffsetHigh = offset >> 32
        emitted.tensors[value_id].allocationInfo = details
    emitted.plan.nonConstBufferSizes = [0, memory.arena_size]
    emitted.memory_plan = memory
    return place_buffers(emitted, buffers if buffers is not None else BufferLayout.of([emitted]))


def place_buffers(emitted: Any, layout: BufferLayout) -> Any:
    """Puts the mutable buffers of a planned method at their place in
    `layout` (the layout every method of the program shares)."""
    for value_id, (fqn, _) in emitted.buffers.items():
        details = AllocationDetailsT()
        details.memoryId = SHARED_BUFFER_MEMORY_ID
        details.memoryOffsetLow = layout.offsets[fqn] & 0xFFFFFFFF
        details.memoryOffsetHigh = layout.offsets[fqn] >> 32
        tensor = emitted.tensors[value_id]
        tensor.allocationInfo = details
        tensor.dataBufferIdx = layout.data_index[fqn]
    sizes = emitted.plan.nonConstBufferSizes[:2]
    emitted.plan.nonConstBufferSizes = sizes + ([layout.size] if layout.size > 0 else [])
    emitted.memory_plan.buffer_bytes = layout.size
    return emitted
