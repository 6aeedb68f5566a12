"""Delegation end to end with the test backend (tests/backend): partition,
preprocess, a .pte with the blob in an aligned segment, init with contexts,
execute on the thread pool (ember_run_test_backend), results equal to eager."""

import os
import struct
import subprocess
import sys

import ember
import numpy as np
import pytest
import torch
from conftest import ROOT, assert_matches_eager
from ember.fb.DataLocation import DataLocation
from ember.fb.Program import Program
from ember_test_backend import TestBackend

RUNNER = os.path.join(ROOT, "build", "py", "tests", "cpp", "ember_run_test_backend")


class Residual(torch.nn.Module):
    """Two delegable runs of add/mul/relu around a linear the backend declines."""

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.randn(64, 128))
        self.linear = torch.nn.Linear(128, 128)

    def forward(self, x, y):
        h = torch.relu(x * self.scale + y) * 0.5
        z = self.linear(h)
        return torch.relu(z + h + 1.0), z.mean()


@pytest.fixture(scope="module")
def exported():
    torch.manual_seed(0)
    model = Residual().eval()
    inputs = (torch.randn(64, 128), torch.randn(64, 128))
    return model, inputs, ember.export(model, inputs, backends=[TestBackend()])


def run_with_test_backend(tmp_path, pte, inputs, threads):
    if not os.path.exists(RUNNER):
        pytest.fail(f"{RUNNER} is missing: build the C++ tests (make build)")
    args = [RUNNER, str(pte), "--threads", str(threads), "--output-dir", str(tmp_path), "--runs", "3"]
    for i, x in enumerate(inputs):
        np.save(tmp_path / f"in{i}.npy", x.numpy())
        args += ["--input", str(tmp_path / f"in{i}.npy")]
    result = subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_report_shows_where_each_op_runs_and_why(exported):
    _, _, program = exported
    report = program.report()
    assert "EmberTestBackend" in report and "of FLOPs delegated" in report
    rows = {p.node: p for p in program.placements}
    assert rows["addmm"].where == "portable"
    assert "not supported" in rows["addmm"].why_not_delegated["EmberTestBackend"]
    assert rows["relu"].where == "EmberTestBackend"
    assert rows["relu"].source.startswith("test_delegation.py:")
    assert "addmm" in report and "test_delegation.py:" in report
    assert 0.5 < program.delegated_fraction() < 1.0


def test_blob_is_an_aligned_segment_referenced_by_the_delegate(exported):
    _, _, program = exported
    buffer = program.buffer
    assert buffer[8:12] == b"eh00"
    segment_base = struct.unpack_from("<Q", buffer, 24)[0]
    parsed = Program.GetRootAs(buffer, 0)
    plan = parsed.ExecutionPlan(0)
    assert plan.DelegatesLength() == 2
    for d in range(plan.DelegatesLength()):
        delegate = plan.Delegates(d)
        assert delegate.Id() == b"EmberTestBackend"
        assert delegate.Processed().Location() == DataLocation.SEGMENT
        segment = parsed.Segments(delegate.Processed().Index())
        start = segment_base + segment.Offset()
        assert start % 128 == 0
        assert buffer[start:start + 4] == b"ETB1"


@pytest.mark.parametrize("threads", [1, 2])
def test_delegated_program_matches_eager_on_the_runtime(exported, tmp_path, threads):
    model, inputs, program = exported
    pte = tmp_path / "delegated.pte"
    program.save(pte)
    stdout = run_with_test_backend(tmp_path, pte, inputs, threads)
    assert f"{threads} thread(s)" in stdout
    assert "delegates 32.0 KiB" in stdout  # the scale parameter, owned by the backend
    expected = model(*inputs)
    for i, e in enumerate(expected):
        assert_matches_eager(torch.from_numpy(np.load(tmp_path / f"output_{i}.npy")), e.detach())


def test_a_runtime_without_the_backend_refuses_the_program_by_name(exported, tmp_path):
    _, _, program = exported
    pte = tmp_path / "delegated.pte"
    program.save(pte)
    with pytest.raises(ValueError, match="EmberTestBackend"):
        ember.runtime.load(pte)
    runner = os.path.join(os.path.dirname(sys.executable), "ember_run")
    result = subprocess.run([runner, str(pte)], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode != 0
    assert "EmberTestBackend" in result.stderr


def test_with_no_backends_the_program_is_portable_only(exported, tmp_path):
    model, inputs, _ = exported
    program = ember.export(model, inputs, backends=())
    assert not program.backends and all(p.where == "portable" for p in program.placements)
    assert Program.GetRootAs(program.buffer, 0).ExecutionPlan(0).DelegatesLength() == 0
    pte = tmp_path / "portable.pte"
    program.save(pte)
    outputs = ember.runtime.load(pte, threads=2).forward(*inputs)
    for actual, expected in zip(outputs, model(*inputs)):
        assert_matches_eager(actual, expected.detach())


def test_backends_must_be_backend_instances():
    with pytest.raises(ember.ExportError, match="Backend instances"):
        ember.export(torch.nn.ReLU(), (torch.randn(2),), backends=["EmberTestBackend"])


GOLDEN = os.path.join(ROOT, "tests", "compat", "delegated", "et12_v0_ember_test_backend")


def test_delegated_golden_keeps_loading(tmp_path):
    """The first delegated file Ember wrote (tools/make_golden.py) still runs."""
    data = np.load(GOLDEN + ".npz")
    inputs = [torch.from_numpy(data[f"input_{i}"]) for i in range(2)]
    run_with_test_backend(tmp_path, GOLDEN + ".pte", inputs, threads=2)
    assert_matches_eager(torch.from_numpy(np.load(tmp_path / "output_0.npy")),
                         torch.from_numpy(data["expected_0"]), atol=1e-5)


class _GroupingBackend(TestBackend):
    """Lowers the first mul and the add after the linear only together: a
    subgraph holding both would need the linear, which it declines, inside."""

    def fused_groups(self, program):
        muls = [n for n in program.graph.nodes if n.target is torch.ops.aten.mul.Tensor]
        adds = [n for n in program.graph.nodes if n.target is torch.ops.aten.add.Tensor]
        return [{muls[0], adds[-2]}]


def test_a_fused_group_that_cannot_be_whole_stays_portable():
    torch.manual_seed(0)
    model = Residual().eval()
    inputs = (torch.randn(64, 128), torch.randn(64, 128))
    program = ember.export(model, inputs, backends=[_GroupingBackend()])
    rows = {p.node: p for p in program.placements}
    grouped = [rows[name] for name in ("mul", "add_1")]
    assert [p.where for p in grouped] == ["portable", "portable"], program.report()
    assert all("fused pattern" in p.why_not_delegated["EmberTestBackend"] for p in grouped)
    # The rest is delegated as without the group.
    assert rows["relu"].where == "EmberTestBackend" and rows["add_2"].where == "EmberTestBackend"
