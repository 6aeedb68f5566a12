"""Models built on ops outside core ATen (examples/signal_models.py), exported
and run on the C++ runtime, against eager: an stft audio front-end, a
bilinear head, a median filter and a searchsorted bucketizer."""

from __future__ import annotations

import ember
import ember.runtime
import pytest
import torch

from examples import signal_models

CASES = {
    "audio_front_end": (signal_models.audio_front_end, lambda: (torch.randn(2, 4000),)),
    "bilinear_head": (signal_models.bilinear_head, lambda: (torch.randn(3, 12), torch.randn(3, 8))),
    "median_filter": (signal_models.median_filter,
                      lambda: (torch.randn(2, 3, 50) + 4 * (torch.rand(2, 3, 50) > 0.9),)),
    "bucketizer": (signal_models.bucketizer, lambda: (torch.randn(4, 6) * 1.5,)),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("backends", ["portable", "default"])
def test_model_matches_eager(name, backends, tmp_pte):
    factory, make_inputs = CASES[name]
    model = factory()
    torch.manual_seed(7)
    inputs = make_inputs()
    program = ember.export(model, inputs, backends=() if backends == "portable" else None)
    program.save(tmp_pte)
    with torch.no_grad():
        expected = model(*inputs)
    actual = ember.runtime.load(tmp_pte).forward(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    actual = actual if isinstance(actual, tuple) else (actual,)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        torch.testing.assert_close(torch.as_tensor(a), e, rtol=1e-4, atol=1e-4)


def test_audio_front_end_calls_the_fft_kernels(tmp_pte):
    program = ember.export(signal_models.audio_front_end(), (torch.randn(1, 2000),), backends=())
    assert {"aten::_fft_r2c.out", "aten::_fft_c2r.out"} <= set(program.operators)
