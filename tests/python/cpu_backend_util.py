"""Helpers shared by the CPU backend's test files (importable as tests/python
is on sys.path, as op_specs is)."""

import ember
import torch
from conftest import assert_matches_eager
from ember.backends.cpu import CpuBackend
from ember.cpu_fb import Graph, OpParams

OP_NAMES = {v: k for k, v in vars(OpParams.OpParams).items() if not k.startswith("_")}


class Recording:
    """A mixin for a backend writing the CPU backend's blob format (the CPU
    and Vulkan backends): keeps the op kinds of every blob it lowers, in order
    (`ops`: "MatMul", "LayerNorm", ...)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ops: list[str] = []

    def preprocess(self, subgraph, compile_specs):
        blob = super().preprocess(subgraph, compile_specs)
        graph = Graph.Graph.GetRootAs(blob, 0)
        self.ops += [OP_NAMES[graph.Ops(i).ParamsType()] for i in range(graph.OpsLength())]
        return blob


class RecordingCpuBackend(Recording, CpuBackend):
    """The CPU backend, keeping the op kinds of every blob it lowers."""


def run(model, inputs, tmp_pte, threads=(1, 2), atol=1e-4, rtol=None):
    """Exports with the CPU backend, runs at each thread count, compares with
    eager (max abs error under atol relative to the output's scale, or with
    `rtol`, |a - e| <= atol + rtol |e| element by element); returns the backend
    (its op kinds) and the program (its report)."""
    backend = RecordingCpuBackend()
    model = model.eval()
    program = ember.export(model, inputs, backends=[backend])
    program.save(tmp_pte)
    with torch.no_grad():
        expected = model(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    for t in threads:
        actual = ember.runtime.load(tmp_pte, threads=t).forward(*inputs)
        actual = actual if isinstance(actual, tuple) else (actual,)
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            if rtol is None:
                assert_matches_eager(a, e, atol=atol)
            else:
                torch.testing.assert_close(torch.as_tensor(a), e, rtol=rtol, atol=atol,
                                           equal_nan=True)
    return backend, program


def profile_rows(path, x, threads, kind):
    """How many rows of a one-run profile are ops of `kind` ("ConvChain", "Pad")."""
    profile = ember.runtime.load(path, threads=threads).profile(x, runs=1)
    return sum(1 for r in profile.rows if r.op.startswith(kind))


def run_unfused(path, x, threads, monkeypatch, rows=None):
    """The output with the backend's init-time fusions off (EMBER_CPU_CONV_CHAINS=0:
    no convolution chains, no pads folded into convolutions): each op on its own,
    the profile then showing no ConvChain and `rows` ({kind: count}) as given."""
    with monkeypatch.context() as m:
        m.setenv("EMBER_CPU_CONV_CHAINS", "0")
        for kind, count in {"ConvChain": 0, **(rows or {})}.items():
            assert profile_rows(path, x, threads, kind) == count, kind
        return ember.runtime.load(path, threads=threads).forward(x)
