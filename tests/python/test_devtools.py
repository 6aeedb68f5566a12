"""Devtools: the profiler (events, Chrome trace, table, ember_run --profile),
intermediate outputs, the numerical validator and its HTML report."""

import json
import math
import os
import shutil
import subprocess

import ember
import numpy as np
import pytest
import torch
from ember import _C
from ember.devtools.validator import reference_values

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
THIS_FILE = os.path.basename(__file__)


class Chain(torch.nn.Module):
    """Linear -> relu -> (sigmoid, mul) -> linear -> add: the mul in the
    middle is where a test plants a wrong kernel."""

    def __init__(self):
        super().__init__()
        self.first = torch.nn.Linear(16, 32)
        self.second = torch.nn.Linear(32, 8)

    def forward(self, x):
        h = torch.relu(self.first(x))
        g = torch.sigmoid(h)
        h = h * g  # the planted kernel's line
        h = self.second(h)
        return h + 1.0


with open(__file__) as _source:
    PLANTED_LINE = next(i for i, line in enumerate(_source, start=1)
                        if "the planted kernel's line" in line and "next(" not in line)


def chain_factory():
    torch.manual_seed(0)
    return Chain().eval()


@pytest.fixture
def chain_pte(tmp_pte):
    model = chain_factory()
    x = torch.randn(4, 16)
    ember.export(model, (x,)).save(tmp_pte)
    return model, x, tmp_pte


# --- profiling ---

def check_chrome_trace(trace):
    """The Trace Event Format's JSON object form, as chrome://tracing and
    Perfetto load it: complete events ("ph": "X") with microsecond ts/dur."""
    assert isinstance(trace, dict) and isinstance(trace["traceEvents"], list)
    assert trace.get("displayTimeUnit", "ms") in ("ms", "ns")
    required = {"name": str, "cat": str, "ph": str, "ts": (int, float), "dur": (int, float),
                "pid": int, "tid": int, "args": dict}
    for event in trace["traceEvents"]:
        for key, kind in required.items():
            assert isinstance(event.get(key), kind), (key, event)
        assert event["ph"] == "X" and event["ts"] >= 0 and event["dur"] >= 0, event


def test_profile_events_trace_and_table(chain_pte, tmp_path):
    _, x, path = chain_pte
    module = ember.runtime.load(path, threads=1)
    trace_path = tmp_path / "trace.json"
    profile = module.profile(x, runs=4, trace=trace_path)
    with open(trace_path) as f:
        trace = json.load(f)
    check_chrome_trace(trace)
    assert len(trace["traceEvents"]) == len(profile.events) and profile.dropped_events == 0
    # The CPU backend reports each op with its node's debug handle; the
    # events name the nodes and the lines of this file.
    ops = [e for e in trace["traceEvents"] if e["cat"] == "delegate_op"]
    assert ops and len(ops) % 4 == 0
    assert all(e["args"]["source"].startswith(THIS_FILE + ":") for e in ops), ops
    assert {"Linear", "Binary"} <= {e["name"] for e in ops}
    assert any(e["args"]["source"] == f"{THIS_FILE}:{PLANTED_LINE}" for e in ops)
    # Delegate ops lie inside their delegate call's instruction.
    calls = [e for e in trace["traceEvents"] if e["cat"] == "instruction"]
    for op in ops:
        call = next(c for c in calls if c["args"]["instruction"] == op["args"]["instruction"]
                    and c["ts"] <= op["ts"] + 1e-3 and op["ts"] <= c["ts"] + c["dur"])
        assert op["ts"] + op["dur"] <= call["ts"] + call["dur"] + 1e-3
    # The table: shares add up, every row ran once per run.
    assert abs(sum(r.share for r in profile.rows) - 1.0) < 1e-6
    assert all(r.calls == 4 for r in profile.rows), profile.table
    assert f"{THIS_FILE}:{PLANTED_LINE}" in profile.table
    assert profile.total_ms <= profile.wall_ms * 1.5 + 0.05


def test_profile_portable_program_times_each_instruction(tmp_pte):
    model, x = chain_factory(), torch.randn(4, 16)
    program = ember.export(model, (x,), backends=())
    program.save(tmp_pte)
    profile = ember.runtime.load(tmp_pte).profile(x, runs=2)
    instructions = [e for e in profile.events if not e.in_delegate]
    assert len(instructions) == 2 * len(program.instructions)
    assert [e.name for e in instructions[:len(program.instructions)]] == \
        [i.operator for i in program.instructions]
    assert any(r.op == "aten::mul.out" and r.source == f"{THIS_FILE}:{PLANTED_LINE}"
               for r in profile.rows), profile.table


def test_full_event_buffer_drops_and_counts(chain_pte):
    _, x, path = chain_pte
    module = ember.runtime.load(path)
    profile = module.profile(x, runs=2, max_events=2)
    assert len(profile.events) == 4  # two per run kept
    assert profile.dropped_events > 0
    assert "dropped" in profile.table
    # The outputs are still right: tracing never changes what runs.
    torch.testing.assert_close(module.forward(x), chain_factory()(x), rtol=1e-4, atol=1e-5)


def test_no_debug_info_still_profiles(chain_pte):
    _, x, path = chain_pte
    os.remove(path + ".debug")
    profile = ember.runtime.load(path).profile(x)
    assert profile.rows and all(r.source == "" for r in profile.rows)
    with pytest.raises(FileNotFoundError, match="debug info"):
        ember.runtime.load(path).intermediates(x)


def test_malformed_debug_info_is_an_error(chain_pte):
    _, x, path = chain_pte
    with open(path + ".debug", "w") as f:
        f.write("ember-debug-info 1\ni\tzero\n")
    with pytest.raises(ValueError, match="malformed"):
        ember.runtime.load(path).profile(x)


def test_ember_run_profile_writes_trace_and_table(chain_pte, tmp_path):
    _, _, path = chain_pte
    binary = shutil.which("ember_run") or os.path.join(ROOT, "build", "py", "ember_run")
    out = str(tmp_path / "prof")
    done = subprocess.run([binary, path, "--runs", "3", "--warmup", "1", "--profile", out],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    with open(out + ".trace.json") as f:
        check_chrome_trace(json.load(f))
    with open(out + ".profile.txt") as f:
        table = f.read()
    assert table.startswith("profile: 3 run(s)") and f"{THIS_FILE}:{PLANTED_LINE}" in table
    assert "ms/run" in done.stdout
    bad = subprocess.run([binary, path, "--profile", out, "--debug-info", str(tmp_path / "none")],
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 1 and "cannot open" in bad.stderr


# --- intermediate outputs ---

@pytest.mark.parametrize("backends", [(), None], ids=["portable", "cpu"])
def test_intermediates_match_eager_nodes(backends, tmp_pte):
    model, x = chain_factory(), torch.randn(4, 16)
    ember.export(model, (x,), backends=backends).save(tmp_pte)
    captured = ember.runtime.load(tmp_pte).intermediates(x)
    _, expected = reference_values(model, (x,))
    assert captured.dropped == 0 and captured.values
    for handle, value in captured.values.items():
        assert value.node is not None and value.node.location.startswith(THIS_FILE)
        torch.testing.assert_close(torch.from_numpy(value.value), expected[handle],
                                   rtol=1e-4, atol=1e-5)
    names = set(captured.by_node())
    # Every op is an instruction, or the delegate reports its ops' values:
    # the relu fused into the first Linear is that op's output.
    assert {"relu", "mul", "add"} <= names, names
    if backends is None:
        assert all(captured.values[h].in_delegate == (captured.values[h].node.node != "add")
                   for h in captured.values), captured.values


@pytest.mark.parametrize("backends", [(), None], ids=["portable", "cpu"])
def test_intermediates_in_channels_last_come_back_in_logical_order(backends, tmp_pte):
    torch.manual_seed(0)
    conv = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(),
                               torch.nn.Conv2d(4, 4, 3, groups=2)).eval()
    x = torch.randn(1, 3, 8, 8).to(memory_format=torch.channels_last)
    model = _ChannelsLast(conv)
    ember.export(model, (x,), backends=backends).save(tmp_pte)
    captured = ember.runtime.load(tmp_pte).intermediates(x)
    _, expected = reference_values(model, (x,))
    # The CPU backend keeps the convs' values NHWC: reported as such, transposed back.
    assert len(captured.values) >= 3, captured.values
    for handle, value in captured.values.items():
        torch.testing.assert_close(torch.from_numpy(value.value), expected[handle],
                                   rtol=1e-4, atol=1e-5)


class _ChannelsLast(torch.nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        return self.inner(x.contiguous(memory_format=torch.channels_last)) * 2.0


# --- the validator ---

@pytest.mark.parametrize("backends", [(), None], ids=["portable", "cpu"])
def test_validator_passes_a_correct_program(backends):
    report = ember.validate(chain_factory(), (torch.randn(4, 16),), backends=backends)
    assert report.ok and report.first_divergence is None, str(report)
    assert report.nodes and all(n.comparison.within_tolerance for n in report.nodes)


def test_validator_names_the_planted_wrong_kernel():
    x = torch.randn(4, 16)
    _C.perturb_kernel("aten::mul.out", 1e-2)  # off by a little, in the middle of the model
    try:
        report = ember.validate(chain_factory(), (x,), backends=())
    finally:
        _C.restore_perturbed_kernel()
    first = report.first_divergence
    assert first is not None, str(report)
    assert first.op == "aten::mul.Tensor" and first.node == "mul", str(report)
    assert first.source == f"{THIS_FILE}:{PLANTED_LINE}", str(report)
    assert "the planted kernel's line" in first.source_text
    assert math.isclose(first.comparison.max_abs_error, 1e-2, rel_tol=1e-3)
    # No earlier node diverges; the error reaches the output.
    earlier = report.nodes[:report.nodes.index(first)]
    assert earlier and all(n.comparison.within_tolerance for n in earlier)
    assert not report.ok
    assert "first divergence: mul (aten::mul.Tensor)" in str(report)
    # Restored: the program is right again.
    assert ember.validate(chain_factory(), (x,), backends=()).ok


def test_cli_validate_exit_status(tmp_path, capsys):
    from ember.cli import main

    spec = f"{os.path.abspath(__file__)}:chain_factory"
    html = tmp_path / "report.html"
    assert main(["validate", spec, "--input-shape", "4x16", "--html", str(html),
                 "--profile", "2"]) == 0
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "Profile" in page
    assert "http" not in page.replace("http-equiv", "")  # self-contained
    _C.perturb_kernel("aten::sigmoid.out", 0.05)
    try:
        assert main(["validate", spec, "--input-shape", "4x16", "--portable"]) == 1
    finally:
        _C.restore_perturbed_kernel()
    out = capsys.readouterr().out
    assert "first divergence: sigmoid" in out and f"{THIS_FILE}:" in out


def test_perturbing_one_kernel_after_another_keeps_both():
    # A restore puts the library's own entry back: perturbing a second kernel
    # must not change what the first one's name finds.
    for name in ("aten::mul.out", "aten::sigmoid.out"):
        _C.perturb_kernel(name, 1.0)
        _C.restore_perturbed_kernel()
    kernels = _C.registered_kernels()
    assert "aten::mul.out" in kernels and "aten::sigmoid.out" in kernels


def test_perturb_unknown_kernel_is_an_error():
    with pytest.raises(ValueError, match="aten::no_such_op.out"):
        _C.perturb_kernel("aten::no_such_op.out", 1.0)


class ThreeLayers(torch.nn.Module):
    """Three linears; the middle one's input has one channel a thousand times
    the others, so per-tensor int8 activations crush the rest: that layer
    loses most precision."""

    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(32, 32)
        self.b = torch.nn.Linear(32, 32)
        self.c = torch.nn.Linear(32, 16)
        scale = torch.ones(32)
        scale[0] = 1000.0
        self.register_buffer("scale", scale)

    def forward(self, x):
        h = torch.relu(self.a(x))
        h = self.b(h * self.scale)
        return self.c(torch.relu(h))


def test_quantized_report_flags_the_layers_with_the_largest_error():
    torch.manual_seed(0)
    model = ThreeLayers().eval()
    with torch.no_grad():
        model.b.weight[:, 0] = 1e-4  # the huge channel does not swamp b's output
    calibration = [(torch.randn(8, 32),) for _ in range(4)]
    report = ember.validate(model, calibration[0], quantize="int8", calibration=calibration)
    assert len(report.layers) >= 3, str(report)
    worst = min(report.layers, key=lambda layer: layer.sqnr_db)
    flagged = report.flagged_layers
    assert flagged and worst in flagged, str(report)
    # Flagged are exactly the layers below the threshold, all worse than the rest.
    assert all(layer.sqnr_db < 20.0 for layer in flagged)
    rest = [layer for layer in report.layers if not layer.flagged]
    assert rest and max(f.sqnr_db for f in flagged) < min(r.sqnr_db for r in rest), str(report)
    assert "<- flagged" in str(report) and "SQNR" in report.to_html()
    assert report.outputs_vs_float


# --- MobileNetV2: the profile accounts for the latency ---

def test_mobilenet_v2_profile_sums_to_the_latency(tmp_pte):
    from examples import models

    model = models.mobilenet_v2().eval()
    x = torch.randn(1, 3, 96, 96)
    ember.export(model, (x,)).save(tmp_pte)
    module = ember.runtime.load(tmp_pte, threads=2)
    module.profile(x, runs=2)  # warm up
    profile = module.profile(x, runs=10)
    assert profile.dropped_events == 0
    # Per run: the instructions' events against the wall clock of the run.
    per_run_events = np.array([0.0] * 10)
    starts = [e for e in profile.events if not e.in_delegate and e.instruction == 0]
    assert len(starts) == 10
    run = -1
    for e in profile.events:
        if not e.in_delegate and e.instruction == 0:
            run += 1
        if not e.in_delegate:
            per_run_events[run] += (e.end_ns - e.start_ns) / 1e6
    wall = np.array(profile.wall_ns) / 1e6
    ratio = float(np.median(per_run_events / wall))
    assert 0.95 <= ratio <= 1.0 + 1e-6, (ratio, profile.table)
    assert any(r.op.startswith("Conv2d") for r in profile.rows[:5]), profile.table
