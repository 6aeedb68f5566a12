"""fractional_max_pool2d / 3d with given random samples against eager, in
every float dtype, on seeded shapes: the windows come from the samples by
PyTorch's interval formula, computed in the input's dtype (in Half and
BFloat16 every step rounds, which moves windows; 3-D was off by a relative
0.05 to 0.16 before)."""

from __future__ import annotations

import random

import ember
import ember.runtime
import pytest
import torch
import torch.nn.functional as F
from torch import nn

CONFIGS = 8


class Pools(nn.Module):
    """One fractional max pool per (input, samples) pair, each with its own
    kernel and output size."""

    def __init__(self, configs):
        super().__init__()
        self.configs = configs

    def forward(self, *tensors):
        outputs = []
        for (three_d, kernel, size), x, u in zip(self.configs, tensors[0::2], tensors[1::2]):
            pool = F.fractional_max_pool3d if three_d else F.fractional_max_pool2d
            outputs.extend(pool(x, kernel, output_size=size, return_indices=True,
                                _random_samples=u))
        return tuple(outputs)


def _configs(dtype: torch.dtype, seed: int):
    rng = random.Random(seed)
    gen = torch.Generator().manual_seed(seed)
    configs, tensors = [], []
    for i in range(CONFIGS):
        three_d = i % 2 == 0
        dims = 3 if three_d else 2
        kernel = tuple(rng.randint(1, 3) for _ in range(dims))
        size = tuple(rng.randint(1, 6) for _ in range(dims))
        spatial = [size[d] + kernel[d] + rng.randint(0, 9) for d in range(dims)]
        n, c = rng.randint(1, 2), rng.randint(1, 3)
        configs.append((three_d, kernel, size))
        tensors.append(torch.randn(n, c, *spatial, generator=gen).to(dtype))
        tensors.append(torch.rand(n, c, dims, generator=gen).to(dtype))
    return configs, tensors


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16],
                         ids=str)
def test_fractional_max_pool_matches_eager(dtype, tmp_path):
    configs, tensors = _configs(dtype, seed=36)
    model = Pools(configs)
    expected = model(*tensors)
    path = str(tmp_path / "pools.pte")
    ember.export(model, tuple(tensors), backends=()).save(path)
    actual = ember.runtime.load(path).forward(*tensors)
    assert len(actual) == len(expected)
    for i, (a, e) in enumerate(zip(actual, expected)):
        # Values and indices exactly: the same windows pick the same element.
        assert torch.equal(torch.as_tensor(a), e), f"output {i} ({configs[i // 2]}) differs"
