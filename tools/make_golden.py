"""Writes the golden .pte files under tests/compat/ (run only when the format changes).

Each golden is a program plus its inputs and expected outputs (eager PyTorch),
named by the format version and who wrote it. tests/python/test_compat.py
loads every one on every test run, so no change can silently break old files.
Never regenerate an existing golden: add new ones next to it.

    .venv/bin/python tools/make_golden.py [--executorch]
"""

from __future__ import annotations

import argparse
import copy
import os
import sys

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import ember

from examples import models

OUT = os.path.join(ROOT, "tests", "compat")


class TinyConvNet(torch.nn.Module):
    """Conv, batch norm, pooling, a residual add and a linear head: the
    common op families in a file of a few KiB."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.pool = torch.nn.MaxPool2d(2)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x):
        y = self.pool(torch.relu(self.bn(self.conv(x))))
        y = y + y.mean(dim=(2, 3), keepdim=True)
        return torch.softmax(self.fc(y.mean(dim=(2, 3))), dim=-1)


class Delegated(torch.nn.Module):
    """Add, mul and relu (delegated, with a constant the delegate owns) around
    a linear layer that stays on the portable kernels."""

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.randn(4, 8))
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x, y):
        h = torch.relu(x * self.scale + y)
        return torch.relu(self.fc(h) + h * 0.5)


class KvCache(torch.nn.Module):
    """A mutable buffer with initial data (the mutable data segment), updated
    in place (`aten::index_put_`) and read whole: a KV cache's pattern."""

    def __init__(self):
        super().__init__()
        self.register_buffer("cache", torch.randn(1, 6, 4))
        self.proj = torch.nn.Linear(4, 4)

    def forward(self, x, pos):
        torch.ops.aten.index_put_(self.cache, [None, pos], self.proj(x))
        return self.cache.sum(dim=1)


class QuantizedLm(torch.nn.Module):
    """An 8-bit quantized embedding and 4-bit and 8-bit linears (Ember's
    Q4_1 / Q8_0 blocks in panels of 16 rows, with a partial last panel): the
    weight layout of ember::qembedding and ember::qlinear."""

    def __init__(self):
        super().__init__()
        from ember.llm import llama, quant

        g = torch.Generator().manual_seed(7)
        table = torch.randn(37, 64, generator=g) * 0.2
        self.embedding = llama.QuantEmbedding(quant.quantize(table, quant.Q8_0), 8)
        self.up = llama.QuantLinear(quant.quantize(torch.randn(40, 64, generator=g) * 0.2,
                                                   quant.Q4_1), 4)
        self.down = llama.QuantLinear(quant.quantize(torch.randn(24, 64, generator=g) * 0.2,
                                                     quant.Q8_0), 8)

    def forward(self, tokens):
        h = self.embedding(tokens)
        return self.down(torch.nn.functional.pad(torch.relu(self.up(h)), (0, 24)))


def _tiny_mlp():
    return models.seeded(lambda: models.MLP(in_features=8, hidden=16, out_features=4))


def _tiny_transformer():
    return models.seeded(lambda: models.TransformerBlock(vocab=50, d_model=16, heads=2, ff=32,
                                                         max_len=8))


def _save(name: str, buffer: bytes, model: torch.nn.Module, inputs: list[torch.Tensor]) -> None:
    path = os.path.join(OUT, f"{name}.pte")
    if os.path.exists(path):
        print(f"kept {name}.pte (goldens are written once)")
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(buffer)
    with torch.no_grad():
        expected = model(*inputs)
    np.savez(os.path.join(OUT, f"{name}.npz"),
             **{f"input_{i}": x.numpy() for i, x in enumerate(inputs)},
             expected_0=expected.numpy())
    print(f"wrote {name}.pte ({len(buffer)} bytes)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--executorch", action="store_true",
                        help="also write goldens with ExecuTorch's exporter (a test peer)")
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)

    x = torch.randn(3, 8)
    mlp = _tiny_mlp()
    _save("et12_v0_ember_mlp", ember.export(mlp, (x,), backends=()).buffer, mlp, [x])

    batch = torch.export.Dim("batch", min=1, max=8)
    program = ember.export(mlp, (x,), dynamic_shapes=({0: batch},), backends=())
    _save("et12_v0_ember_mlp_dynamic_batch", program.buffer, mlp, [torch.randn(5, 8)])

    conv = models.seeded(TinyConvNet)
    image = torch.randn(1, 3, 8, 8)
    _save("et12_v0_ember_convnet", ember.export(conv, (image,), backends=()).buffer, conv, [image])

    # Input names and which dims are dynamic (ContainerMetadata, Ember's
    # addition): the runtime checks the static channel dim of a dynamic batch.
    # (An example batch of 1 would be specialised by torch.export.)
    program = ember.export(conv, (torch.randn(2, 3, 8, 8),), dynamic_shapes=({0: batch},),
                           backends=())
    _save("et12_v0_ember_convnet_dynamic_batch", program.buffer, conv, [torch.randn(3, 3, 8, 8)])
    # The CPU backend's blob (ECP1), with each op's debug and value handles.
    _save("et12_v0_ember_cpu_backend_convnet", ember.export(conv, (image,)).buffer, conv, [image])

    transformer = _tiny_transformer()
    tokens = torch.randint(0, 50, (2, 6))
    _save("et12_v0_ember_transformer", ember.export(transformer, (tokens,), backends=()).buffer, transformer,
          [tokens])

    cache = models.seeded(KvCache)
    step = [torch.randn(1, 2, 4), torch.tensor([1, 4])]
    program = ember.export(copy.deepcopy(cache), tuple(step), backends=())
    _save("et12_v0_ember_kv_cache", program.buffer, cache, step)

    lm = QuantizedLm().eval()
    ids = torch.tensor([[3, 36, 0, 17, 31]])
    _save("et12_v0_ember_qlinear", ember.export(lm, (ids,), backends=()).buffer, lm, [ids])
    _save("et12_v0_ember_cpu_backend_qlinear", ember.export(lm, (ids,)).buffer, lm, [ids])

    # A delegate segment, for the test backend (tests/backend): loaded by
    # tests/python/test_delegation.py through ember_run_test_backend.
    sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
    from ember_test_backend import TestBackend

    delegated = models.seeded(Delegated)
    pair = [torch.randn(4, 8), torch.randn(4, 8)]
    _save("delegated/et12_v0_ember_test_backend",
          ember.export(delegated, tuple(pair), backends=[TestBackend()]).buffer, delegated, pair)

    if args.executorch:
        from executorch.exir import to_edge

        for name, model, inputs in [("mlp", mlp, [x]), ("convnet", conv, [image])]:
            exported = torch.export.export(model, tuple(inputs))
            buffer = to_edge(exported).to_executorch().buffer
            _save(f"et12_v0_executorch_1_5_1_{name}", buffer, model, inputs)


if __name__ == "__main__":
    main()
