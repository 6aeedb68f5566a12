"""Ember on Cortex-M: programs for the int8 kernels of kernels/cortex_m and
images for bare-metal boards (targets/cortex-m, docs/embedded.md).

    qmodel = ember.quantize(model, (x,), scheme="int8", calibration=samples)
    program = ember.targets.cortex_m.export(qmodel, (x,), target="cortex-m55")
    print(program.report())       # + which ops run on the Cortex-M kernels
    program.save("kws-cortex-m55.pte")

The program runs on Ember's host runtime too (the kernels' scalar variant),
with the same int8 results bit for bit as the board's. One .pte per target:
the scratch of its convolutions is sized for the target's kernel variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from ember.exporter import ExportedProgram
from ember.exporter import export as _export
from ember.passes.out_variants import to_out_variants
from ember.passes.pipeline import default_passes
from ember.targets.cortex_m import ops  # noqa: F401  (defines the ember_cortex_m ops)
from ember.targets.cortex_m.lower import Lowering, lower_to_cortex_m
from ember.targets.cortex_m.targets import TARGETS, Target
from ember.targets.cortex_m.targets import target as _target

__all__ = ["TARGETS", "CortexMProgram", "Lowering", "Target", "export"]


class CortexMProgram(ExportedProgram):
    """An ExportedProgram plus what the Cortex-M lowering did."""

    lowering: Lowering

    def report(self, nodes: bool | None = None) -> str:
        return super().report(nodes) + "\n" + str(self.lowering)


def export(model: torch.nn.Module, example_inputs: Sequence[Any] | torch.Tensor,
           target: str | Target = "cortex-m55") -> CortexMProgram:
    """Exports `model` (an ember.quantize "int8" model, or a float one, which
    then runs on the portable kernels) for a Cortex-M target: its quantized
    units on the Cortex-M int8 kernels, NHWC between them."""
    chosen = _target(target)
    lower = lower_to_cortex_m(chosen)
    passes = default_passes(())
    passes.insert(passes.index(to_out_variants), lower)
    program = _export(model, example_inputs, backends=(), passes=passes)
    program.__class__ = CortexMProgram
    program.lowering = lower.report
    return program
