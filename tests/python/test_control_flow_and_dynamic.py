"""torch.cond, torch while_loop and dynamic shapes with upper bounds, run on the C++ runtime."""

import ember
import pytest
import torch
from conftest import assert_matches_eager
from torch._higher_order_ops.while_loop import while_loop

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


class RecurrentRefine(torch.nn.Module):
    """A data-dependent number of steps of h = tanh(h W + x), the loop count
    carried as a tensor, with a parameter and an input read by every iteration."""

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(6, 6) * 0.3)

    def forward(self, steps, x):
        def cond_fn(i, h):
            return i < steps

        def body_fn(i, h):
            return i + 1, torch.tanh(h @ self.weight + x)

        i, h = while_loop(cond_fn, body_fn, (torch.zeros_like(steps), x * 0.5))
        return i, h * 2


class SwapLoop(torch.nn.Module):
    """Carried values that the body returns swapped (torch.export wants a copy,
    not the carried tensor itself, hence the clone)."""

    def forward(self, n, a, b):
        def cond_fn(n, a, b):
            return n > 0

        def body_fn(n, a, b):
            return n - 1, b.clone(), a + b

        return while_loop(cond_fn, body_fn, (n, a, b))


def assert_all_match(actual, expected):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert_matches_eager(a, e)


def test_while_loop_runs_a_data_dependent_number_of_steps(tmp_pte):
    model = RecurrentRefine().eval()
    x = torch.randn(3, 6)
    ember.export(model, (torch.tensor(4), x)).save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    for steps in (0, 1, 4, 9):
        for x in (torch.randn(3, 6), torch.randn(3, 6)):
            with torch.no_grad():
                assert_all_match(module.forward(torch.tensor(steps), x),
                                 model(torch.tensor(steps), x))


def test_while_loop_with_swapped_carries(tmp_pte):
    """Fibonacci by swapping: wrong if a copy reads a carried tensor already overwritten
    or the body writes a tensor it is still reading."""
    model = SwapLoop()
    args = (torch.tensor(5), torch.zeros(2), torch.ones(2))
    ember.export(model, args).save(tmp_pte)
    module = ember.runtime.load(tmp_pte)
    for n in (0, 1, 2, 7):
        args = (torch.tensor(n), torch.tensor([0.0, 2.0]), torch.tensor([1.0, 3.0]))
        assert_all_match(module.forward(*args), model(*args))


def test_while_loop_carrying_a_python_int_is_refused():
    class IntCarry(torch.nn.Module):
        def forward(self, x):
            return while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2), (0, x))[1]

    try:
        torch.export.export(IntCarry(), (torch.ones(2),))
    except Exception:
        pytest.skip("torch.export cannot capture an int-carrying while_loop in this version")
    with pytest.raises(ember.ExportError, match="only tensors may be loop-carried"):
        ember.export(IntCarry(), (torch.ones(2),))


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
