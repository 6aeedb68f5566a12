"""Architectures that neither the zoo nor the benchmark names, written the way
a new user would write them (squeeze-excite with SiLU and hardswish, a dilated
temporal conv net, nn.MultiheadAttention, nn.TransformerEncoder): used by
tests/python/test_cpu_backend_unseen_architectures.py (they export wholly onto
the CPU backend and match eager) and bench/unseen_architectures.py (their speed
against the portable kernels and ONNX Runtime)."""

from __future__ import annotations

import torch
from torch import nn


class SqueezeExcite(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.dw = nn.Conv2d(c, c, 3, padding=1, groups=c)
        self.bn = nn.BatchNorm2d(c)
        self.pw = nn.Conv2d(c, 2 * c, 1)
        self.fc1 = nn.Linear(2 * c, c // 2)
        self.fc2 = nn.Linear(c // 2, 2 * c)

    def forward(self, x):
        y = self.pw(nn.functional.silu(self.bn(self.dw(x))))
        s = torch.sigmoid(self.fc2(nn.functional.silu(self.fc1(y.mean((2, 3))))))
        return y * s[:, :, None, None]


class SENet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.blocks = nn.Sequential(SqueezeExcite(16), SqueezeExcite(32))
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        return self.head(self.blocks(nn.functional.hardswish(self.stem(x))).mean((2, 3)))


class TemporalConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        layers = []
        for i, dilation in enumerate([1, 2, 4]):
            layers += [nn.Conv1d(8 if i == 0 else 32, 32, 3, dilation=dilation, padding=dilation),
                       nn.GELU()]
        self.body = nn.Sequential(*layers)
        self.out = nn.Conv1d(32, 4, 1)

    def forward(self, x):
        return self.out(self.body(x))


class AttentionBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)
        self.norm = nn.LayerNorm(64)

    def forward(self, x):
        y, _ = self.attn(x, x, x, need_weights=False)
        return self.norm(x + y)


def _encoder():
    layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, batch_first=True)
    return nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


# name: (factory, input shape for tests, input shape for the speed check).
CASES = {
    "squeeze_excite_net": (SENet, (1, 3, 32, 32), (1, 3, 224, 224)),
    "temporal_conv_net": (TemporalConvNet, (2, 8, 50), (4, 8, 2048)),
    "multihead_attention": (AttentionBlock, (2, 13, 64), (4, 128, 64)),
    "torch_transformer_encoder": (_encoder, (1, 17, 64), (4, 128, 64)),
}
