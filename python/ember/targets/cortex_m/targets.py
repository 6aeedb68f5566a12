"""The Cortex-M targets a program is exported for: which kernel variant the
image runs, which sizes the scratch of its convolutions (one .pte per
target), and the QEMU board it runs on."""

from __future__ import annotations

from dataclasses import dataclass

from ember.passes.graph import ExportError


@dataclass(frozen=True)
class Target:
    name: str
    cpu: str
    variant: str  # the Cortex-M kernels' variant: scalar, dsp or helium
    board: str

    @property
    def gemm_rows(self) -> int:
        """Rows per GEMM block (kernels/cortex_m/variants.h), which sets the
        im2col scratch a convolution needs."""
        return {"scalar": 1, "dsp": 2, "helium": 1}[self.variant]


TARGETS = {
    "cortex-m4": Target("cortex-m4", "cortex-m4", "dsp", "mps2-an386"),
    "cortex-m55": Target("cortex-m55", "cortex-m55", "helium", "mps3-an547"),
    # The same boards with the scalar kernels (the reference, and any core).
    "cortex-m4-scalar": Target("cortex-m4-scalar", "cortex-m4", "scalar", "mps2-an386"),
    "cortex-m55-scalar": Target("cortex-m55-scalar", "cortex-m55", "scalar", "mps3-an547"),
    "cortex-m55-dsp": Target("cortex-m55-dsp", "cortex-m55", "dsp", "mps3-an547"),
}


def target(name: str | Target) -> Target:
    if isinstance(name, Target):
        return name
    if name not in TARGETS:
        raise ExportError(f"unknown Cortex-M target {name!r}; targets: {', '.join(TARGETS)}")
    return TARGETS[name]


def conv2d_scratch_bytes(target: Target, kernel: tuple[int, int], stride: tuple[int, int],
                         padding: tuple[int, int], in_channels: int) -> int:
    """kernels/cortex_m/s8-conv/conv.cpp's conv2d_scratch_bytes: the im2col
    rows of one GEMM block; none for a 1x1 convolution with stride 1 and no
    padding, which reads its input rows in place."""
    if tuple(kernel) == (1, 1) and tuple(stride) == (1, 1) and tuple(padding) == (0, 0):
        return 0
    return kernel[0] * kernel[1] * in_channels * target.gemm_rows
