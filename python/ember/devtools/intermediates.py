"""Intermediate outputs: one run of a program with the runtime's tracer in
debug mode, which copies every instruction's output tensors into capture
memory; mapped here, through the exporter's debug info, to the exported
graph's nodes (by debug handle) and source lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ember.devtools.debug_info import DebugInfo, DebugNode, load_debug_info


@dataclass
class Intermediate:
    debug_handle: int
    instruction: int  # the instruction that wrote it (a delegate call, for its ops' values)
    node: DebugNode | None
    value: np.ndarray  # logical (PyTorch) dim order
    in_delegate: bool = False  # written by an op inside a delegate


@dataclass
class Intermediates:
    values: dict[int, Intermediate]  # by debug handle
    dropped: int  # tensors that did not fit the capture memory

    def __getitem__(self, handle: int) -> Intermediate:
        return self.values[handle]

    def by_node(self) -> dict[str, np.ndarray]:
        """Node name -> its value."""
        return {v.node.node: v.value for v in self.values.values() if v.node is not None}


# How many values of ops inside delegates one capture may keep.
DELEGATE_OP_RECORDS = 1 << 14


def output_masks(info: DebugInfo) -> list[int]:
    """Per instruction, the bits of the arguments it writes that stand for nodes."""
    masks = []
    for instruction in info.instructions:
        mask = 0
        for arg, _ in instruction.outputs:
            if arg < 64:
                mask |= 1 << arg
        masks.append(mask)
    return masks


def capture(module: Any, inputs: list[tuple[np.ndarray, int]], debug_info_path: str,
            max_bytes: int) -> Intermediates:
    """Runs `module` (an ember._C.Module) once on converted inputs, capturing."""
    info = load_debug_info(debug_info_path)
    masks = output_masks(info)
    # Instruction outputs, and room for the values of the delegates' ops.
    records = sum(m.bit_count() for m in masks) + DELEGATE_OP_RECORDS
    captured, dropped = module.capture(module.default_method, inputs, masks, max_bytes, records)
    handles = {(i, arg): handle for i, ins in enumerate(info.instructions)
               for arg, handle in ins.outputs}
    values: dict[int, Intermediate] = {}
    for instruction, arg, array, order, code, op_handle in captured:
        handle = op_handle or handles.get((instruction, arg))
        if handle is None:
            continue
        from ember.runtime import _from_array

        value = _from_array(array, code, as_torch=False)
        if order and list(order) != sorted(order):
            value = np.transpose(value, np.argsort(order))
        # A value written twice (a loop body) keeps its last value.
        values[handle] = Intermediate(handle, instruction, info.node(handle),
                                      np.ascontiguousarray(value), bool(op_handle))
    return Intermediates(values, dropped)
