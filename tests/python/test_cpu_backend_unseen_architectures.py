"""Architectures that neither the zoo nor the benchmark names (examples/
unseen_models.py), exported the way a new user would (the default export):
every FLOP on the CPU backend, and the outputs match eager at 1 and 2 threads.
Their speed against ONNX Runtime: bench/unseen_architectures.py."""

import ember
import pytest
import torch
from conftest import assert_matches_eager

from examples.unseen_models import CASES


@pytest.mark.parametrize("name", list(CASES))
def test_unseen_architecture_runs_on_the_backend_and_matches_eager(name, tmp_pte):
    factory, shape, _ = CASES[name]
    torch.manual_seed(0)
    model = factory().eval()
    x = torch.randn(shape)
    program = ember.export(model, (x,))
    assert program.delegated_flops_fraction() == 1.0, program.report()
    program.save(tmp_pte)
    with torch.no_grad():
        expected = model(x)
    for threads in (1, 2):
        assert_matches_eager(ember.runtime.load(tmp_pte, threads=threads).forward(x), expected)
