"""Ops whose output length depends on the data (nonzero, masked_select,
unique, unique_consecutive, bincount): they export without a user-named
bound when the op itself bounds the length, the plan reserves that bound, the
kernel resizes within it and the caller gets the true size. Training-only ops
are refused at export with a message that says to export in eval mode."""

from __future__ import annotations

import os
import re
import subprocess

import ember
import ember.runtime
import numpy as np
import pytest
import torch
from conftest import ROOT
from ember.passes.graph import ExportError


class Fn(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *inputs):
        return self.fn(*inputs)


def _run(fn, inputs, path):
    program = ember.export(Fn(fn), inputs, backends=())
    program.save(path)
    return program, ember.runtime.load(path)


CASES = {
    "nonzero": (torch.nonzero, lambda: (torch.randint(0, 2, (4, 5)),)),
    "masked_select": (lambda x: torch.masked_select(x, x > 0), lambda: (torch.randn(3, 7),)),
    "unique": (lambda x: torch.unique(x, return_inverse=True, return_counts=True),
               lambda: (torch.randint(0, 6, (20,)),)),
    "unique_dim": (lambda x: torch.unique(x, dim=0, return_counts=True),
                   lambda: (torch.randint(0, 2, (8, 2)),)),
    "unique_consecutive": (lambda x: torch.unique_consecutive(x, return_counts=True),
                           lambda: (torch.randint(0, 3, (16,)),)),
    # A negative dim, whose output shapes torch 2.13's meta function gets
    # wrong (ember.passes.data_dependent puts them right).
    "unique_consecutive_last_dim": (
        lambda x: torch.unique_consecutive(x, dim=-1, return_inverse=True, return_counts=True),
        lambda: (torch.randint(0, 2, (2, 9)),)),
    "bincount_uint8": (torch.bincount, lambda: (torch.randint(0, 9, (30,), dtype=torch.uint8),)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_true_size_comes_back(name, tmp_pte):
    fn, make = CASES[name]
    _, module = _run(fn, make(), tmp_pte)
    for trial in range(3):  # different data, different sizes, one program
        torch.manual_seed(trial)
        inputs = make()
        expected = fn(*inputs)
        expected = expected if isinstance(expected, tuple) else (expected,)
        actual = module.forward(*inputs)
        actual = actual if isinstance(actual, tuple) else (actual,)
        for a, e in zip(actual, expected):
            assert torch.equal(torch.as_tensor(a), e), f"{name}: {a} != {e}"


def test_the_plan_reserves_the_op_bound(tmp_pte):
    x = torch.randint(0, 6, (20,))
    _, module = _run(lambda t: torch.unique(t), (x,), tmp_pte)
    # Planned at the bound (20 values of 8 bytes), whatever this input's count.
    assert module.planned_bytes >= 20 * 8
    all_distinct = torch.arange(20)
    assert torch.equal(torch.as_tensor(module.forward(all_distinct)), all_distinct)


def test_unique_consecutive_last_dim_read_by_another_op_is_refused_clearly():
    with pytest.raises(ExportError, match="dim=0"):
        ember.export(Fn(lambda x: torch.unique_consecutive(x, dim=-1) * 2),
                     (torch.randint(0, 3, (8,)),), backends=())


def test_unbounded_size_says_how_to_bound_it():
    with pytest.raises(ExportError, match=r"bincount.*torch\._check"):
        ember.export(Fn(torch.bincount), (torch.randint(0, 5, (10,)),), backends=())


def test_a_user_bound_sizes_the_plan(tmp_pte):
    def counts(x):
        y = torch.bincount(x)
        torch._check(y.shape[0] <= 16)
        return y

    _, module = _run(counts, (torch.randint(0, 5, (10,)),), tmp_pte)
    x = torch.tensor([0, 3, 3, 15, 1, 1, 0, 2, 9, 9])
    assert torch.equal(torch.as_tensor(module.forward(x)), torch.bincount(x))
    with pytest.raises(ValueError, match="bincount.*bins"):  # past the bound: an error, no write
        module.forward(torch.tensor([0, 16, 1, 1, 1, 1, 1, 1, 1, 1]))


def test_true_size_comes_back_in_cpp(tmp_path):
    """The C++ tool (Module API) prints the output's resized shape."""
    x = torch.tensor([3, 1, 3, 3, 7, 1], dtype=torch.int64)
    path = str(tmp_path / "unique.pte")
    _run(lambda t: torch.unique(t), (x,), path)
    np.save(tmp_path / "x.npy", x.numpy())
    (tmp_path / "out").mkdir()
    tool = os.path.join(ROOT, ".venv", "bin", "ember_run")
    out = subprocess.run([tool, path, "--input", str(tmp_path / "x.npy"),
                          "--output-dir", str(tmp_path / "out")], capture_output=True, text=True,
                         check=True)
    assert re.search(r"\[3\]", out.stdout), out.stdout
    result = np.load(tmp_path / "out" / "output_0.npy")
    assert result.tolist() == [1, 3, 7]


@pytest.mark.parametrize("fn,what", [
    (lambda x: torch.nn.functional.dropout(x, 0.5, training=True), "dropout"),
    (lambda x: torch.nn.functional.rrelu(x, training=True), "rrelu"),
    (lambda x, m, v: torch.nn.functional.batch_norm(x, m, v, training=True), "batch norm"),
])
def test_training_only_ops_refuse_with_eval_hint(fn, what):
    x = torch.randn(2, 3, 4, 4)
    inputs = (x,) if what != "batch norm" else (x, torch.zeros(3), torch.ones(3))
    with pytest.raises(ExportError, match=rf"{what}.*eval mode"):
        ember.export(Fn(fn), inputs, backends=())


def test_batch_statistics_without_running_stats_stay_allowed(tmp_pte):
    x = torch.randn(2, 3, 4, 4)
    fn = torch.nn.functional.instance_norm
    _, module = _run(fn, (x,), tmp_pte)
    torch.testing.assert_close(torch.as_tensor(module.forward(x)), fn(x), rtol=1e-4, atol=1e-4)
