"""Norms and variances of complex tensors: real results (the input's real dtype),
against eager, on the portable kernels."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import ember
import ember.runtime as rt
import numpy as np
import pytest
import torch

CASES: dict[str, Callable[[torch.Tensor], Any]] = {
    "vector_norm_2": lambda t: torch.linalg.vector_norm(t, dim=1),
    "vector_norm_inf": lambda t: torch.linalg.vector_norm(t, ord=float("inf")),
    "vector_norm_3": lambda t: torch.linalg.vector_norm(t, ord=3, dim=0),
    "vector_norm_dtype": lambda t: torch.linalg.vector_norm(t, dim=1, dtype=torch.complex128),
    "var": lambda t: torch.var(t, dim=1),
    "std_no_correction": lambda t: torch.std(t, dim=0, correction=0),
    "var_mean": lambda t: torch.var_mean(t, dim=1),
}


class Apply(torch.nn.Module):
    def __init__(self, fn: Callable[[torch.Tensor], Any]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, t: torch.Tensor) -> Any:
        return self.fn(t)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_complex_reduction_matches_eager(name: str, dtype: torch.dtype, tmp_path: Path) -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 7, dtype=dtype)
    model = Apply(CASES[name])
    path = tmp_path / "m.pte"
    ember.export(model, (x,), backends=()).save(path)
    got = rt.load(path).forward(x.numpy())
    want = model(x)
    wants = want if isinstance(want, tuple) else (want,)
    gots = got if isinstance(got, (list, tuple)) else (got,)
    assert len(gots) == len(wants)
    for g, w in zip(gots, wants):
        g = np.asarray(g)
        assert g.dtype == w.numpy().dtype, name
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-6)
