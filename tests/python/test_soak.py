"""Soak: many forward calls from Python leave resident memory flat (no leak
in the binding, the conversions or the runtime). The default tier makes
5,000 calls; the slow tier (`make soak`, `make test-all`) 100,000."""

from __future__ import annotations

import gc
import os

import ember
import numpy as np
import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLP = os.path.join(ROOT, "tests", "compat", "et12_v0_ember_mlp.pte")


def _resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _soak(calls: int, slack_bytes: int) -> None:
    golden = np.load(MLP.replace(".pte", ".npz"))
    module = ember.runtime.load(MLP, threads=1)
    as_numpy = golden["input_0"]
    as_torch = torch.from_numpy(as_numpy)
    warmup = calls // 10
    before = 0
    for i in range(calls):
        if i == warmup:
            gc.collect()
            before = _resident_bytes()
        out = module.forward(as_torch if i % 2 else as_numpy)  # both conversions, alternating
    gc.collect()
    grown = _resident_bytes() - before
    np.testing.assert_allclose(np.asarray(out), golden["expected_0"], rtol=1e-5, atol=1e-5)
    assert grown <= slack_bytes, f"{calls} calls: resident memory grew {grown} bytes after warm-up"


def test_forward_calls_keep_memory_flat():
    _soak(5_000, 1 << 20)


@pytest.mark.slow
def test_hundred_thousand_forward_calls_keep_memory_flat():
    _soak(100_000, 2 << 20)
