"""Ember on Cortex-M, from the host side (docs/embedded.md):

- the Cortex-M int8 kernels' scalar variants, in the host runtime, give
  what their integer reference (ember.targets.cortex_m.ops, in PyTorch)
  gives, bit for bit, on every op the export produces, and stay within a
  couple of quantization steps of the quantized model in eager PyTorch;
- the export sizes scratch per target and refuses nothing it should take;
- bad kernel parameters give an error, not a crash.

test_boards.py runs the images under QEMU; the boards' own kernel tester
(every DSP and Helium variant against the scalar one) and runtime tests
run under ctest (targets/cortex-m).
"""

from __future__ import annotations

import ember
import numpy as np
import pytest
import torch
from ember.passes.out_variants import to_out_variants
from ember.passes.pipeline import default_passes, lower
from ember.targets import cortex_m
from ember.targets.cortex_m import quant
from ember.targets.cortex_m.lower import lower_to_cortex_m
from torch import nn

qd = torch.ops.quantized_decomposed


def _passes(target: str, before=()):
    passes = default_passes(())
    lowering = lower_to_cortex_m(cortex_m.TARGETS[target])
    passes.insert(passes.index(to_out_variants), lowering)
    for extra in before:
        passes.insert(passes.index(lowering), extra)
    return passes, lowering


def _quantized(model: nn.Module, shape: tuple[int, ...], seed: int = 0):
    torch.manual_seed(seed)
    model = model.eval()
    x = torch.randn(shape)
    calibration = [(torch.randn(shape),) for _ in range(4)]
    return ember.quantize(model, (x,), scheme="int8", calibration=calibration), x


def _host_against_reference(model, x, tmp_path, target="cortex-m55", before=()):
    """Exports `model` for `target`; returns (host runtime outputs, the
    lowered graph's outputs in PyTorch, the export's lowering report)."""
    passes, lowering = _passes(target, before)
    graph, _ = lower(model, (x,), None, passes)
    reference = graph.run(x)[0]
    program = ember.export(model, (x,), backends=(), passes=_passes(target, before)[0])
    path = tmp_path / "m.pte"
    program.save(path, debug_info=False)
    host = ember.runtime.load(str(path)).forward(x)
    return host, reference, lowering.report


class Convs(nn.Module):
    """Every convolution the kernels have: padded, strided, dilated, 1x1,
    depthwise (with a depth multiplier too), relu and relu6, a residual add,
    max and average pooling, a global mean and a classifier."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 12, 3, 2, 1)
        self.dilated = nn.Conv2d(12, 12, 3, 1, 2, dilation=2)
        self.depthwise = nn.Conv2d(12, 12, 3, 1, 1, groups=12)
        self.multiplier = nn.Conv2d(12, 24, 5, 1, 2, groups=12)
        self.pointwise = nn.Conv2d(24, 12, 1)
        self.tall = nn.Conv2d(12, 7, (4, 2), (2, 1), (1, 0))
        self.head = nn.Linear(7, 5)

    def forward(self, x):
        y = torch.relu(self.stem(x))
        y = nn.functional.relu6(self.dilated(y))
        y = torch.relu(y + torch.relu(self.depthwise(y)))
        y = self.pointwise(torch.relu(self.multiplier(y)))
        y = nn.functional.max_pool2d(y, 2)
        y = nn.functional.avg_pool2d(y, 3, 1, 1)
        y = self.tall(y)
        return self.head(nn.functional.adaptive_avg_pool2d(y, 1).flatten(1))


class Dense(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a, self.b, self.c = nn.Linear(37, 19), nn.Linear(19, 19), nn.Linear(19, 3)

    def forward(self, x):
        y = torch.relu(self.a(x))
        return self.c(y + torch.relu(self.b(y)))


@pytest.mark.parametrize("target", ["cortex-m55", "cortex-m4"])
def test_convolutions_run_bit_exact_on_the_host(tmp_path, target):
    qmodel, x = _quantized(Convs(), (2, 3, 13, 11))
    host, reference, report = _host_against_reference(qmodel, x, tmp_path, target)
    assert report.ops.get("conv2d_s8") == 4 and report.ops.get("depthwise_conv2d_s8") == 2
    assert {"add_s8", "max_pool2d_s8", "avg_pool2d_s8", "fully_connected_s8_f32"} <= set(report.ops)
    assert not report.left_float, report
    assert torch.equal(host.view(torch.int32), reference.view(torch.int32))
    # Against PyTorch's own quantized arithmetic (float, rounded at each
    # quantize): the same up to a step or two of each quantized layer.
    eager = qmodel(x)
    assert (host - eager).abs().max() <= 0.05 * eager.abs().max()


def test_fully_connected_layers_run_bit_exact_on_the_host(tmp_path):
    qmodel, x = _quantized(Dense(), (4, 37))
    host, reference, report = _host_against_reference(qmodel, x, tmp_path)
    assert report.ops == {"fully_connected_s8": 2, "fully_connected_s8_f32": 1, "add_s8": 1,
                          "quantize_s8": 1}
    assert torch.equal(host.view(torch.int32), reference.view(torch.int32))
    assert (host - qmodel(x)).abs().max() <= 0.05 * qmodel(x).abs().max()


def _quantize_softmax(program):
    """Wraps each softmax's output in a quantize/dequantize of 1/256 steps, as
    a quantizer annotating softmax would (ember.quantize leaves it float)."""
    for node in list(program.graph.nodes):
        if node.op == "call_function" and node.target is torch.ops.aten._softmax.default:
            args = (1 / 256, -128, -128, 127, torch.int8)
            with program.graph.inserting_after(node):
                q = program.graph.call_function(qd.quantize_per_tensor.default, (node, *args))
            with program.graph.inserting_after(q):
                dq = program.graph.call_function(qd.dequantize_per_tensor.default, (q, *args))
            for user in list(node.users):
                if user is not q:
                    user.replace_input_with(node, dq)
            q.meta["val"] = node.meta["val"].to(torch.int8)
            dq.meta["val"] = node.meta["val"]
    program.recompile()
    return program


class Attention(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.scores = nn.Linear(16, 23)
        self.out = nn.Linear(23, 4)

    def forward(self, x):
        return self.out(torch.softmax(self.scores(x), dim=-1))


def test_softmax_runs_bit_exact_on_the_host(tmp_path):
    qmodel, x = _quantized(Attention(), (3, 16))
    host, reference, report = _host_against_reference(qmodel, x, tmp_path,
                                                      before=[_quantize_softmax])
    assert report.ops.get("softmax_s8") == 1
    assert torch.equal(host.view(torch.int32), reference.view(torch.int32))
    assert (host - qmodel(x)).abs().max() <= 0.05 * qmodel(x).abs().max()


def test_requantize_is_the_documented_arithmetic():
    # quant_math.h: x = acc << max(s, 0); y = (x * m + 2^30) >> 31; then a
    # right shift by -s rounding half up; checked against exact fractions.
    from fractions import Fraction

    rng = np.random.default_rng(0)
    accs = [0, 1, -1, 2**30, -(2**30), 2**31 - 1, -(2**31)] + list(rng.integers(-2**24, 2**24, 40))
    for shift in (-31, -20, -7, -1, 0, 1, 3):
        for m in (0, 2**30, 2**31 - 1, 1518500250):
            got = quant.requantize(torch.tensor(accs, dtype=torch.int64), m, shift).tolist()
            for acc, value in zip(accs, got):
                x = int(np.int32(np.uint32((acc << max(shift, 0)) & 0xFFFFFFFF)))
                y = (x * m + 2**30) >> 31
                r = max(-shift, 0)
                expected = int((Fraction(y) / 2**r + Fraction(1, 2)).__floor__()) if r else y
                assert value == expected, (acc, m, shift)


def test_quantize_multiplier_round_trips():
    for real in (1e-9, 0.0001, 0.3, 0.5, 0.999999, 1.0, 7.5, 1000.0):
        m, s = quant.quantize_multiplier(real)
        assert 2**30 <= m < 2**31
        assert abs(m * 2.0 ** (s - 31) - real) <= real * 2**-30
    assert quant.quantize_multiplier(0.0) == (0, 0)
    assert quant.quantize_multiplier(2**-40) == (0, 0)


@pytest.mark.parametrize("target, expected", [("cortex-m55", 27), ("cortex-m4", 54),
                                              ("cortex-m4-scalar", 27)])
def test_scratch_is_sized_for_the_target(target, expected):
    # A 3x3 convolution over 3 channels gathers 27 bytes per im2col row;
    # the DSP kernels take two rows at a time. A 1x1 one reads in place.
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 4, 1), nn.ReLU(),
                          nn.Flatten(), nn.Linear(144, 2))
    qmodel, x = _quantized(model, (1, 3, 6, 6))
    passes, _ = _passes(target)
    graph, _ = lower(qmodel, (x,), None, passes)
    scratch = [n.meta["val"][1].numel() for n in graph.graph.nodes
               if n.op == "call_function" and "conv2d_s8" in str(n.target)
               and "depthwise" not in str(n.target)]
    assert scratch == [expected, 0]


def test_bad_kernel_parameters_are_refused(tmp_path):
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(36, 2))
    qmodel, x = _quantized(model, (1, 3, 5, 5))

    def corrupt(program):
        for name, data in program.constants.items():
            if name.endswith("_params"):
                data[-1] = 40  # a shift no requantization has
        return program

    passes = default_passes(())
    passes.insert(passes.index(to_out_variants), lower_to_cortex_m(cortex_m.TARGETS["cortex-m55"]))
    passes.insert(passes.index(to_out_variants), corrupt)
    program = ember.export(qmodel, (x,), backends=(), passes=passes)
    program.save(tmp_path / "bad.pte", debug_info=False)
    module = ember.runtime.load(str(tmp_path / "bad.pte"))
    with pytest.raises(Exception, match="shift is 40"):
        module.forward(x)


def test_float_models_still_export_for_a_target(tmp_path):
    # Nothing quantized: the program is the portable one.
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU()).eval()
    program = cortex_m.export(model, (torch.randn(2, 4),))
    assert not program.lowering.ops
    assert all(not op.startswith("ember_cortex_m") for op in program.operators)
