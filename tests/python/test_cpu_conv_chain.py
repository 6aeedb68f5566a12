"""The CPU backend's convolution chains (backends/cpu/runtime/ops/conv_chain.h):
[pointwise ->] depthwise -> pointwise run band by band in cache. A chain runs
the same kernels on the same data as its ops, so its output must equal the
op-by-op run's bit for bit (EMBER_CPU_CONV_CHAINS=0) as well as eager's; the
profile must show the chains that ran, and a debugging run must still
capture every op's value."""

import ember
import numpy as np
import pytest
import torch
from cpu_backend_util import profile_rows, run, run_unfused
from ember.devtools.validator import reference_values


class Block(torch.nn.Module):
    """An inverted residual block: 1x1 expansion (or none), k x k depthwise,
    1x1 projection, with the residual when shapes allow; the activations
    after the expansion and the depthwise convolution given."""

    def __init__(self, cin, cout, expand, k, stride, dilation=1, act=torch.nn.ReLU6,
                 residual=True):
        super().__init__()
        mid = cin * expand
        pad = dilation[0] * (k // 2) if isinstance(dilation, tuple) else dilation * (k // 2)
        pad = (pad, k // 2) if isinstance(dilation, tuple) else pad
        layers = []
        if expand != 1:
            layers += [torch.nn.Conv2d(cin, mid, 1), act()]
        layers += [torch.nn.Conv2d(mid, mid, k, stride, pad, dilation=dilation, groups=mid), act(),
                   torch.nn.Conv2d(mid, cout, 1)]
        self.body = torch.nn.Sequential(*layers)
        self.residual = residual and stride == 1 and cin == cout

    def forward(self, x):
        y = self.body(x)
        return x + y if self.residual else y


# name: (block arguments, input shape, chains expected)
CASES = {
    # MobileNetV2's 56x56 block: expansion, 3x3 stride 1, residual.
    "mbv2_stride1_residual": (dict(cin=24, cout=24, expand=6, k=3, stride=1), (1, 24, 56, 56), 1),
    # Stride 2 over odd sizes: the last band's rows and columns are partial.
    "stride2_odd_sizes": (dict(cin=16, cout=24, expand=8, k=3, stride=2), (1, 16, 57, 45), 1),
    # No expansion (MobileNetV2's first block): the depthwise convolution
    # reads the input's rows.
    "no_expansion": (dict(cin=32, cout=32, expand=1, k=3, stride=1), (1, 32, 112, 96), 1),
    # The same without the residual: the planner may give the output the
    # input's memory (dead after the first op), which a chain still reads
    # as it writes: then the ops run one by one.
    "no_expansion_output_over_input": (dict(cin=32, cout=16, expand=1, k=3, stride=1),
                                       (1, 32, 112, 96), None),
    # EfficientNet's 5x5 stride 2 (without squeeze-excitation), relu.
    "k5_stride2_relu": (dict(cin=24, cout=40, expand=6, k=5, stride=2, act=torch.nn.ReLU),
                        (1, 24, 48, 52), 1),
    # Two images, dilation 2 along H: bands cross an image boundary.
    "batch2_dilated_rows": (dict(cin=16, cout=16, expand=6, k=3, stride=1, dilation=(2, 1)),
                            (2, 16, 64, 48), 1),
    # An activation the GEMM applies through its row hook (SiLU): not chained.
    "silu_not_chained": (dict(cin=24, cout=24, expand=6, k=3, stride=1, act=torch.nn.SiLU),
                         (1, 24, 56, 56), 0),
    # Dilation along W: not chained (the row indirection assumes 1).
    "dilated_columns_not_chained": (dict(cin=16, cout=16, expand=6, k=3, stride=1, dilation=2),
                                    (1, 16, 56, 56), 0),
    # Too small to leave the cache: the ops run one by one.
    "small_not_chained": (dict(cin=24, cout=24, expand=6, k=3, stride=1), (1, 24, 14, 14), 0),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_chain_matches_eager_and_the_ops(case, tmp_pte, monkeypatch):
    kwargs, shape, chains = CASES[case]
    torch.manual_seed(0)
    model = Block(**kwargs).eval()
    x = torch.randn(*shape)
    run(model, (x,), tmp_pte)
    for threads in (1, 2):
        if chains is not None:
            assert profile_rows(tmp_pte, x, threads, "ConvChain") == chains
        chained = ember.runtime.load(tmp_pte, threads=threads).forward(x)
        np.testing.assert_array_equal(np.asarray(chained),
                                      np.asarray(run_unfused(tmp_pte, x, threads, monkeypatch)))


def test_two_blocks_in_a_row_each_chain(tmp_pte, monkeypatch):
    # MobileNetV2's 112 -> 56 stage: the second block reads the first's
    # output, the planner reuses memory between them.
    torch.manual_seed(1)
    model = torch.nn.Sequential(Block(16, 24, 6, 3, 2), Block(24, 24, 6, 3, 1),
                                Block(24, 32, 6, 3, 2)).eval()
    x = torch.randn(1, 16, 112, 112)
    run(model, (x,), tmp_pte)
    assert profile_rows(tmp_pte, x, 2, "ConvChain") == 3
    np.testing.assert_array_equal(np.asarray(ember.runtime.load(tmp_pte, threads=2).forward(x)),
                                  np.asarray(run_unfused(tmp_pte, x, 2, monkeypatch)))


def test_debugging_run_captures_the_chained_ops_values(tmp_pte):
    torch.manual_seed(2)
    model = Block(24, 24, 6, 3, 1).eval()
    x = torch.randn(1, 24, 56, 56)
    ember.export(model, (x,)).save(tmp_pte)
    captured = ember.runtime.load(tmp_pte).intermediates(x)
    _, expected = reference_values(model, (x,))
    assert captured.dropped == 0
    # The expansion's and the depthwise convolution's values (after their
    # relu6) are captured, as the op-by-op run reports them.
    in_delegate = [h for h, v in captured.values.items() if v.in_delegate]
    assert {"hardtanh", "hardtanh_1"} <= {captured.values[h].node.node for h in in_delegate}
    for handle in in_delegate:
        torch.testing.assert_close(torch.from_numpy(captured.values[handle].value),
                                   expected[handle], rtol=1e-4, atol=1e-4)
