"""The CPU backend folds a zero pad into the depthwise convolution right after
it (cpu_backend.cpp, fold_pad_into_next): TF-style "same" padding of a
stride-2 layer pads one more row and column after than before, which ATen's
symmetric convolution padding cannot say, so the export keeps the Pad and
the backend's depthwise taps read the padding's zeros instead. The folded
run must match eager, show no Pad in the profile, and equal the run with the
pad copied (EMBER_CPU_CONV_CHAINS=0 turns the fold off with the chains) bit
for bit; a debugging run still reports the Pad's value. In an int8 program
the Pad fills with a code, folded when it is the convolution's input zero
point."""

import ember
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from cpu_backend_util import profile_rows, run, run_unfused
from ember.devtools.validator import reference_values


class PadThenDepthwise(torch.nn.Module):
    """[1x1 expansion, relu6 ->] F.pad(pads, value) -> k x k depthwise at
    `stride` (its own symmetric `padding`) -> relu6 -> 1x1 projection."""

    def __init__(self, cin, mid, k, stride, pads, value=0.0, padding=0, expand=True):
        super().__init__()
        self.expand = torch.nn.Conv2d(cin, mid, 1) if expand else None
        self.depthwise = torch.nn.Conv2d(mid, mid, k, stride, padding, groups=mid)
        self.project = torch.nn.Conv2d(mid, cin, 1)
        self.pads, self.value = pads, value

    def forward(self, x):
        if self.expand is not None:
            x = F.relu6(self.expand(x))
        y = F.relu6(self.depthwise(F.pad(x, self.pads, value=self.value)))
        return self.project(y)


# name: (module arguments, input shape, folded)
CASES = {
    # EfficientNet-Lite's stride-2 3x3: (0, 1) on W and H.
    "same_3x3_stride2": (dict(cin=16, mid=96, k=3, stride=2, pads=(0, 1, 0, 1)),
                         (1, 16, 112, 112), True),
    # Its 5x5 stride 2: (1, 2) on both.
    "same_5x5_stride2": (dict(cin=24, mid=144, k=5, stride=2, pads=(1, 2, 1, 2)),
                         (1, 24, 57, 55), True),
    # Small (no chain), odd channels and sizes, pads differing per side and
    # on top of the convolution's own padding.
    "small_uneven": (dict(cin=5, mid=37, k=3, stride=2, pads=(2, 0, 1, 3), padding=1),
                     (2, 5, 13, 10), True),
    # What must not fold: the delegate's input padded before its conversion
    # to channels-last (a ToLayout between the Pad and the convolution), a
    # non-zero fill, a crop.
    "pad_before_layout": (dict(cin=24, mid=24, k=3, stride=1, pads=(1, 1, 0, 2), expand=False),
                          (1, 24, 20, 21), False),
    "nonzero_value": (dict(cin=8, mid=32, k=3, stride=2, pads=(0, 1, 0, 1), value=0.5),
                      (1, 8, 30, 30), False),
    "crop": (dict(cin=8, mid=32, k=3, stride=1, pads=(1, -1, 0, 1)), (1, 8, 30, 30), False),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_pad_fold_matches_eager_and_the_copied_pad(case, tmp_pte, monkeypatch):
    kwargs, shape, folded = CASES[case]
    torch.manual_seed(0)
    model = PadThenDepthwise(**kwargs).eval()
    x = torch.randn(*shape)
    backend, _ = run(model, (x,), tmp_pte)
    assert "Pad" in backend.ops  # exported as a Pad: the fold is the runtime's
    for threads in (1, 2):
        assert profile_rows(tmp_pte, x, threads, "Pad") == (0 if folded else 1)
        got = ember.runtime.load(tmp_pte, threads=threads).forward(x)
        unfused = run_unfused(tmp_pte, x, threads, monkeypatch, rows={"Pad": 1})
        np.testing.assert_array_equal(np.asarray(got), np.asarray(unfused))


class TwoReaders(PadThenDepthwise):
    """The padded value also feeds a mean: the Pad must stay."""

    def forward(self, x):
        p = F.pad(F.relu6(self.expand(x)), self.pads)
        return self.project(self.depthwise(p)) + p.mean()


# name: (model, input shape, op kind, its rows in the profile)
IN_CONTEXT = {
    # Expansion, pad, depthwise, projection at 112x112x96: one chain.
    "joins_a_chain": (lambda: PadThenDepthwise(16, 96, 3, 2, (0, 1, 0, 1)), (1, 16, 112, 112),
                      "ConvChain", 1),
    "read_twice_not_folded": (lambda: TwoReaders(8, 32, 3, 2, (0, 1, 0, 1)), (1, 8, 30, 30),
                              "Pad", 1),
}


@pytest.mark.parametrize("case", IN_CONTEXT, ids=list(IN_CONTEXT))
def test_pad_fold_in_context(case, tmp_pte):
    make, shape, kind, rows = IN_CONTEXT[case]
    torch.manual_seed(1)
    x = torch.randn(*shape)
    run(make().eval(), (x,), tmp_pte)
    assert profile_rows(tmp_pte, x, 1, kind) == rows


def test_debugging_run_captures_the_folded_pad(tmp_pte):
    torch.manual_seed(3)
    model = PadThenDepthwise(16, 64, 3, 2, (0, 1, 0, 1)).eval()
    x = torch.randn(1, 16, 40, 40)
    ember.export(model, (x,)).save(tmp_pte)
    captured = ember.runtime.load(tmp_pte).intermediates(x)
    _, expected = reference_values(model, (x,))
    assert captured.dropped == 0
    in_delegate = {captured.values[h].node.node: h for h, v in captured.values.items()
                   if v.in_delegate}
    assert "constant_pad_nd" in in_delegate
    for handle in in_delegate.values():
        torch.testing.assert_close(torch.from_numpy(captured.values[handle].value),
                                   expected[handle], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("value, folded", [(0.0, True), (0.75, False)], ids=["zero", "nonzero"])
def test_int8_pad_fold_matches_the_copied_pad(value, folded, tmp_pte, monkeypatch):
    # Quantized, the Pad copies int8 codes and fills with its value's code:
    # the int8 depthwise convolution takes it when that is its input's zero
    # point (a pad of 0.0), not otherwise.
    torch.manual_seed(4)
    model = PadThenDepthwise(16, 64, 3, 2, (0, 1, 0, 1), value=value).eval()
    x = torch.randn(1, 16, 40, 40)
    calibration = [(torch.randn_like(x),) for _ in range(3)]
    qmodel = ember.quantize(model, (x,), scheme="int8", calibration=calibration)
    ember.export(qmodel, (x,)).save(tmp_pte)
    expected = model(x)
    for threads in (1, 2):
        # The expansion and the depthwise convolution; the projection,
        # whose output the program returns in float, is not an int8 op.
        assert profile_rows(tmp_pte, x, threads, "Qs8Conv2d") == 2
        assert profile_rows(tmp_pte, x, threads, "Pad") == (0 if folded else 1)
        got = np.asarray(ember.runtime.load(tmp_pte, threads=threads).forward(x))
        unfused = run_unfused(tmp_pte, x, threads, monkeypatch, rows={"Pad": 1})
        np.testing.assert_array_equal(got, np.asarray(unfused))
        # int8 against float eager: within a few quantization steps.
        assert float(np.abs(got - expected.detach().numpy()).max()) < 0.1 * float(
            expected.abs().max())
