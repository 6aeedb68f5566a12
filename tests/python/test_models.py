"""The first models, exported by Ember and run by its C++ runtime, against eager."""

import ember
import pytest
import torch
from conftest import assert_matches_eager

from examples import models

CASES = {
    "mlp": (models.MLP, lambda: (torch.randn(4, 64),)),
    "mobilenet_v2": (models.MobileNetV2, lambda: (torch.randn(1, 3, 96, 96),)),
    "resnet18": (models.ResNet18, lambda: (torch.randn(1, 3, 64, 64),)),
    "transformer_block": (models.TransformerBlock, lambda: (torch.randint(0, 1000, (2, 16)),)),
}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", list(CASES))
def test_model_matches_eager(name, seed, tmp_pte):
    factory, make_inputs = CASES[name]
    model = models.seeded(factory, seed)
    torch.manual_seed(100 + seed)
    inputs = make_inputs()
    program = ember.export(model, inputs)
    program.save(tmp_pte)
    with torch.no_grad():
        expected = model(*inputs)
    actual = ember.runtime.load(tmp_pte).forward(*inputs)
    assert_matches_eager(actual, expected)


def test_dynamic_batch_runs_at_several_sizes(tmp_pte):
    model = models.seeded(models.MLP)
    batch = torch.export.Dim("batch", min=1, max=16)
    program = ember.export(model, (torch.randn(4, 64),), dynamic_shapes=({0: batch},))
    program.save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    for size in (1, 3, 16, 5):
        x = torch.randn(size, 64)
        with torch.no_grad():
            expected = model(x)
        assert_matches_eager(module.forward(x), expected)
    with pytest.raises(ValueError, match="upper bound"):
        module.forward(torch.randn(17, 64))


def test_dynamic_batch_convnet(tmp_pte):
    model = models.seeded(models.ResNet18)
    batch = torch.export.Dim("batch", min=1, max=4)
    program = ember.export(model, (torch.randn(2, 3, 32, 32),), dynamic_shapes=({0: batch},))
    program.save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    for size in (1, 4):
        x = torch.randn(size, 3, 32, 32)
        with torch.no_grad():
            expected = model(x)
        assert_matches_eager(module.forward(x), expected)


def test_numpy_in_numpy_out(tmp_pte):
    model = models.seeded(models.MLP)
    x = torch.randn(4, 64)
    ember.export(model, (x,)).save(tmp_pte)
    out = ember.runtime.load(tmp_pte).forward(x.numpy())
    assert type(out).__name__ == "ndarray"
    with torch.no_grad():
        assert_matches_eager(torch.from_numpy(out), model(x))
