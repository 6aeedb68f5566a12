"""Memory planning: tensors alive at the same time never share bytes."""

import random

import ember
import torch
from ember.passes import memory_planning
from ember.passes.memory_planning import Lifetime

from examples import models


def _assert_no_live_overlap(tensors):
    for i, a in enumerate(tensors):
        for b in tensors[i + 1:]:
            if a.overlaps_in_time(b):
                a_end = a.offset + max(a.nbytes, 1)
                b_end = b.offset + max(b.nbytes, 1)
                assert a_end <= b.offset or b_end <= a.offset, (a, b)


def test_random_lifetimes_never_overlap():
    rng = random.Random(0)
    for _ in range(50):
        tensors = []
        for key in range(40):
            start = rng.randrange(0, 50)
            tensors.append(Lifetime(key, rng.randrange(0, 5000), start, start + rng.randrange(0, 10)))
        plan = memory_planning.plan(tensors)
        _assert_no_live_overlap(tensors)
        assert all(t.offset % memory_planning.ALIGNMENT == 0 for t in tensors)
        assert plan.arena_size <= plan.total_tensor_bytes
        assert all(t.offset + t.nbytes <= plan.arena_size for t in tensors)


def test_disjoint_lifetimes_share_memory():
    tensors = [Lifetime(0, 1024, 0, 1), Lifetime(1, 1024, 2, 3), Lifetime(2, 1024, 4, 5)]
    plan = memory_planning.plan(tensors)
    assert plan.arena_size == 1024


def test_chain_of_ops_reuses_memory():
    program = ember.export(models.seeded(models.ResNet18), (torch.randn(1, 3, 64, 64),),
                            backends=())
    plan = program.memory_plan
    # 2 MiB of activations (batch norms folded into the convs) in a 512 KiB
    # arena: two 256 KiB tensors of the first stage alive at once.
    assert plan.arena_size < plan.total_tensor_bytes / 3.5
    assert plan.arena_size <= 2 * 64 * 32 * 32 * 4
    assert "saved by planning" in program.report()
