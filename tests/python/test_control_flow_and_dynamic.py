"""torch.cond and dynamic shapes with upper bounds, run on the C++ runtime."""

import ember
import torch
from conftest import assert_matches_eager

from examples import models


class Branchy(torch.nn.Module):
    """A cond whose branches differ in ops, nested inside arithmetic."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        def positive(x):
            return self.linear(x).relu()

        def negative(x):
            return (x * 2 - 1).sigmoid()

        return torch.cond(x.sum() > 0, positive, negative, (x,)) + 1


class NestedCond(torch.nn.Module):
    def forward(self, x, y):
        def outer_true(x, y):
            return torch.cond(y.mean() > 0, lambda a: a * 3, lambda a: a - 3, (x,))

        def outer_false(x, y):
            return x.abs() + y

        return torch.cond(x.max() > 0.5, outer_true, outer_false, (x, y))


def test_cond_takes_each_branch(tmp_pte):
    model = Branchy().eval()
    ember.export(model, (torch.randn(2, 4),)).save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    for x in (torch.ones(2, 4), -torch.ones(2, 4), torch.randn(2, 4), torch.randn(2, 4)):
        with torch.no_grad():
            assert_matches_eager(module.forward(x), model(x))


def test_nested_cond(tmp_pte):
    model = NestedCond().eval()
    ember.export(model, (torch.randn(3), torch.randn(3))).save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    cases = [(torch.tensor([1.0, 0, 0]), torch.ones(3)), (torch.tensor([1.0, 0, 0]), -torch.ones(3)),
             (torch.zeros(3), torch.randn(3))]
    for x, y in cases:
        assert_matches_eager(module.forward(x, y), model(x, y))


def test_dynamic_batch_and_sequence_transformer(tmp_pte):
    model = models.seeded(models.TransformerBlock)
    batch = torch.export.Dim("batch", min=1, max=4)
    seq = torch.export.Dim("seq", min=2, max=32)
    program = ember.export(model, (torch.randint(0, 1000, (2, 16)),),
                           dynamic_shapes=({0: batch, 1: seq},))
    program.save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    planned = module.planned_bytes
    for b, s in ((1, 2), (4, 32), (3, 7), (2, 16)):
        tokens = torch.randint(0, 1000, (b, s))
        with torch.no_grad():
            assert_matches_eager(module.forward(tokens), model(tokens))
    assert module.planned_bytes == planned  # one plan, sized at the bounds, reused
