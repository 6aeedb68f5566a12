"""Decompositions Ember adds to PyTorch's core-ATen table for ops outside core
ATen whose meaning is a view or a copy the runtime already has a kernel for.

A planned program has no aliasing, so complex views become copies: x.real
and x.imag read view_as_real(x), and a lazy conjugate (_conj, conj) is
materialized with conj_physical (there is no conjugate bit in a .pte).
"""

from __future__ import annotations

from typing import Any

import torch

aten = torch.ops.aten


def _real(x: torch.Tensor) -> torch.Tensor:
    if not x.is_complex():
        return x
    return aten.select.int(aten.view_as_real.default(x), -1, 0)


def _imag(x: torch.Tensor) -> torch.Tensor:
    return aten.select.int(aten.view_as_real.default(x), -1, 1)


def _conj(x: torch.Tensor) -> torch.Tensor:
    return aten.conj_physical.default(x) if x.is_complex() else x


def _no_op(x: torch.Tensor) -> torch.Tensor:
    return aten.alias.default(x)


# PyTorch decomposes these into code torch.export cannot trace (take's reads
# a data-dependent size); Ember runs them as kernels.
KEPT_WHOLE = (aten.take.default,)


def extra_decompositions() -> dict[Any, Any]:
    return {
        aten.real.default: _real,
        aten.imag.default: _imag,
        aten._conj.default: _conj,
        aten.conj.default: _conj,
        aten.resolve_conj.default: _no_op,
        aten.resolve_neg.default: _no_op,
    }
