"""The CPU backend against eager PyTorch: what it claims runs on its kernels
(packed weights, channels-last convolutions, fused clamps) and still matches."""

import ember
import pytest
import torch
from conftest import assert_matches_eager
from ember.backends.cpu import CpuBackend

from examples import models


class ConvZoo(torch.nn.Module):
    """Every convolution shape the backend runs differently: pointwise, tiled
    (3x3, strided, dilated, grouped) and depthwise, with fused clamps."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.bn = torch.nn.BatchNorm2d(16)
        self.depthwise = torch.nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.pointwise = torch.nn.Conv2d(16, 24, 1)
        self.grouped = torch.nn.Conv2d(24, 24, 3, padding=2, dilation=2, groups=4, bias=False)
        self.head = torch.nn.Linear(24, 10)

    def forward(self, x):
        y = torch.relu(self.bn(self.stem(x)))
        y = torch.nn.functional.relu6(self.depthwise(y))
        y = self.pointwise(y) + 0.5
        y = torch.nn.functional.hardtanh(self.grouped(y) * y, -2.0, 2.0)
        return self.head(y.mean((2, 3)).reshape(y.shape[0], -1)), torch.sigmoid(y)


class Activations(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(32, 64), torch.nn.Linear(64, 32)

    def forward(self, x, bias):
        h = self.fc1(x)
        parts = [torch.nn.functional.gelu(h), torch.nn.functional.gelu(h, approximate="tanh"),
                 torch.nn.functional.silu(h), torch.tanh(h), torch.nn.functional.hardswish(h)]
        y = sum(self.fc2(p) for p in parts)
        return (y - bias) / 3.0, y * bias


CASES = {
    "mlp": (models.MLP, lambda: (torch.randn(4, 64),)),
    "conv_zoo": (ConvZoo, lambda: (torch.randn(2, 3, 17, 19),)),
    "activations": (Activations, lambda: (torch.randn(2, 5, 32), torch.randn(32))),
    "mobilenet_v2": (models.MobileNetV2, lambda: (torch.randn(1, 3, 64, 64),)),
    "resnet18": (models.ResNet18, lambda: (torch.randn(1, 3, 64, 64),)),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("threads", [1, 2])
def test_cpu_backend_matches_eager(name, threads, tmp_pte):
    factory, make_inputs = CASES[name]
    model = models.seeded(factory).eval()
    torch.manual_seed(3)
    inputs = make_inputs()
    program = ember.export(model, inputs, backends=[CpuBackend()])
    assert program.delegated_fraction() > 0.5, program.report()
    program.save(tmp_pte)
    with torch.no_grad():
        expected = model(*inputs)
    actual = ember.runtime.load(tmp_pte, threads=threads).forward(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    actual = actual if isinstance(actual, tuple) else (actual,)
    for a, e in zip(actual, expected):
        assert_matches_eager(a, e, atol=1e-4)


def test_cpu_backend_is_registered_in_the_python_runtime():
    assert "EmberCpuBackend" in ember.runtime._C.registered_backends()
