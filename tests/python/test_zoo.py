"""The model zoo (examples/zoo.py), exported by Ember and run by its C++ runtime, against eager.

The default tier runs a fast subset; every zoo model runs under `-m slow`
(`make test-all`). tools/run_zoo.py runs the same check and writes docs/models.md.
"""

import os

import ember
import pytest
import torch

from examples import zoo
from tools.run_zoo import degenerate

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ATOL = 1e-4  # max abs error, relative to max(1, max|expected|)
MIN_COSINE = 0.99999

# Small, quick models covering a text encoder, decoders (GPT-2 with SDPA attention), a vision
# transformer, a CNN and an RNN.
FAST = ["bert", "llama", "gpt2", "vit", "resnet", "gru", "mlp"]

# Models that fail in Ember today, with the reason (see docs/models.md and the repros there).
XFAIL: dict[str, str] = {}


def check_model(name, tmp_pte):
    model, inputs = zoo.get(name).build()
    with torch.no_grad():
        expected = model(*inputs)
    reason = degenerate(expected)
    assert reason is None, f"eager's output tests nothing: {reason}"
    program = ember.export(model, inputs)  # with the default backend, the CPU backend
    program.save(tmp_pte)
    actual = ember.runtime.load(tmp_pte).forward(*inputs)
    assert isinstance(actual, torch.Tensor)
    assert actual.shape == expected.shape, f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype} != {expected.dtype}"
    a, e = actual.double().flatten(), expected.double().flatten()
    scale = max(1.0, float(e.abs().max()))
    error = float((a - e).abs().max())
    assert error <= ATOL * scale, f"max abs error {error:.3e} exceeds {ATOL * scale:.3e}"
    cosine = float(torch.nn.functional.cosine_similarity(a, e, dim=0))
    assert cosine >= MIN_COSINE, f"cosine similarity {cosine:.7f} below {MIN_COSINE}"
    assert program.memory_plan.arena_size > 0


def _param(name, *marks):
    if name in XFAIL:
        marks = (*marks, pytest.mark.xfail(strict=True, reason=XFAIL[name]))
    return pytest.param(name, marks=marks, id=name)


def test_zoo_has_the_architectures():
    assert len(zoo.names()) >= 25
    for name in FAST:
        assert name in zoo.names()


@pytest.mark.parametrize("name", [_param(n) for n in FAST])
def test_fast_zoo_model_matches_eager(name, tmp_pte):
    check_model(name, tmp_pte)


@pytest.mark.slow
@pytest.mark.parametrize("name", [_param(n) for n in zoo.names()])
def test_zoo_model_matches_eager(name, tmp_pte):
    check_model(name, tmp_pte)
