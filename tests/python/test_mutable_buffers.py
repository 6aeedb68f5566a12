"""Mutable buffers (KV caches): state that persists across calls of a method
and across the methods of one program, updated in place.

Each case runs the same sequence of calls on the model in eager PyTorch (its
buffers mutate there too) and on Ember's runtime, and compares every result.
"""

import copy

import ember
import pytest
import torch
from conftest import assert_matches_eager
from executorch.runtime import Runtime


class Counter(torch.nn.Module):
    """Adds the number of calls so far: a buffer updated by a functional op,
    so the update stays a write-back copy (`aten::copy_`)."""

    def __init__(self, start=2.0):
        super().__init__()
        self.register_buffer("count", torch.full((4,), start))

    def forward(self, x):
        self.count.add_(1.0)
        return x * self.count


class Cache(torch.nn.Module):
    """A KV-cache-shaped buffer: rows at `pos` are overwritten, then the whole
    cache is read (as attention reads it)."""

    def __init__(self, length=16, width=8):
        super().__init__()
        self.register_buffer("cache", torch.randn(1, length, width))
        self.proj = torch.nn.Linear(width, width)

    def forward(self, x, pos):
        torch.ops.aten.index_put_(self.cache, [None, pos], self.proj(x))
        return self.cache.sum(dim=1) + x.mean(dim=1)


def _run_both(model, calls, program, method="forward"):
    """Runs `calls` (input tuples) on eager and on Ember; compares each result."""
    eager = copy.deepcopy(model)
    with open_module(program) as module:
        for inputs in calls:
            with torch.no_grad():
                expected = eager(*inputs)
            assert_matches_eager(module.run(method, *inputs), expected)


class open_module:
    def __init__(self, program, threads=1):
        self.program = program
        self.threads = threads

    def __enter__(self):
        import tempfile

        self.dir = tempfile.TemporaryDirectory()
        path = f"{self.dir.name}/model.pte"
        self.program.save(path)
        return ember.runtime.load(path, threads=self.threads)

    def __exit__(self, *exc):
        self.dir.cleanup()


def _cache_inputs(positions, width=8):
    torch.manual_seed(len(positions))
    return [(torch.randn(1, len(p), width), torch.tensor(p)) for p in positions]


def test_write_back_buffer_persists_and_starts_from_its_initial_value():
    model = Counter()
    program = ember.export(copy.deepcopy(model), (torch.randn(4),), backends=())
    assert "aten::copy_" in program.operators
    _run_both(model, [(torch.randn(4),) for _ in range(4)], program)


def test_cache_update_is_in_place_and_persists_across_calls():
    torch.manual_seed(0)
    model = Cache()
    program = ember.export(copy.deepcopy(model), _cache_inputs([[0]])[0], backends=())
    # The update writes the cache itself: no write-back copy of the whole cache.
    assert "aten::index_put_" in program.operators
    assert "aten::copy_" not in program.operators
    assert program.memory_plan.buffer_bytes >= 16 * 8 * 4
    _run_both(model, _cache_inputs([[0], [1], [2], [5], [1]]), program)


def test_cache_on_the_cpu_backend_keeps_its_state():
    torch.manual_seed(1)
    model = Cache()
    program = ember.export(copy.deepcopy(model), _cache_inputs([[0]])[0])
    _run_both(model, _cache_inputs([[3], [4], [3]]), program)


def test_methods_share_buffers_prefill_then_decode():
    torch.manual_seed(2)
    model = Cache()
    seq = torch.export.Dim("seq", min=1, max=8)
    methods = {
        "prefill": ember.Method(copy.deepcopy(model), _cache_inputs([[0, 1, 2]])[0],
                                ({1: seq}, {0: seq})),
        "decode": ember.Method(copy.deepcopy(model), _cache_inputs([[3]])[0]),
    }
    program = ember.export_methods(methods, backends=())
    assert program.methods == ["decode", "prefill"]
    eager = copy.deepcopy(model)
    with open_module(program) as module:
        assert module.methods == ["decode", "prefill"]
        steps = [("prefill", [0, 1, 2, 3]), ("decode", [4]), ("decode", [5]), ("prefill", [6, 7])]
        for method, positions in steps:
            (inputs,) = _cache_inputs([positions])
            with torch.no_grad():
                expected = eager(*inputs)
            assert_matches_eager(module.run(method, *inputs), expected)


def test_state_survives_a_failed_call_and_resets():
    torch.manual_seed(3)
    model = Cache()
    program = ember.export(copy.deepcopy(model), _cache_inputs([[0]])[0], backends=())
    eager = copy.deepcopy(model)
    first, second = _cache_inputs([[0], [1]])
    with open_module(program) as module:
        with torch.no_grad():
            assert_matches_eager(module.run("forward", *first), eager(*first))
        bad = (torch.randn(1, 1, 8), torch.tensor([99]))  # past the cache's 16 rows
        with pytest.raises(ValueError, match="index"):
            module.run("forward", *bad)
        # The failed call wrote nothing; the state goes on from the first call.
        with torch.no_grad():
            assert_matches_eager(module.run("forward", *second), eager(*second))
        module.reset_state()
        fresh = copy.deepcopy(model)
        with torch.no_grad():
            assert_matches_eager(module.run("forward", *second), fresh(*second))


def test_ember_program_with_a_buffer_runs_on_executorch():
    torch.manual_seed(4)
    model = Cache()
    program = ember.export(copy.deepcopy(model), _cache_inputs([[0]])[0], backends=())
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    eager = copy.deepcopy(model)
    for inputs in _cache_inputs([[0], [2], [1]]):
        with torch.no_grad():
            expected = eager(*inputs)
        assert_matches_eager(method.execute(list(inputs))[0], expected)


def test_executorch_program_with_a_buffer_runs_on_ember(tmp_pte):
    import executorch.exir as executorch_exir

    torch.manual_seed(5)
    model = Counter(start=0.0)  # ExecuTorch leaves a buffer's initial contents to the arena
    exported = torch.export.export(copy.deepcopy(model), (torch.randn(4),))
    buffer = executorch_exir.to_edge(exported).to_executorch().buffer
    with open(tmp_pte, "wb") as f:
        f.write(buffer)
    module = ember.runtime.load(tmp_pte, threads=1)
    eager = copy.deepcopy(model)
    for _ in range(3):
        x = torch.randn(4)
        with torch.no_grad():
            expected = eager(x)
        assert_matches_eager(module.forward(x), expected)


def test_mutating_an_input_is_refused():
    class MutatesInput(torch.nn.Module):
        def forward(self, x):
            x.add_(1)
            return x * 2

    with pytest.raises(ember.ExportError, match="mutates its input"):
        ember.export(MutatesInput(), (torch.randn(3),), backends=())
