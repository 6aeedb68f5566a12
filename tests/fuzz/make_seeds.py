"""Writes the fuzzing seed programs under tests/fuzz/seeds/: small programs
that between them use every instruction kind (kernel call, delegate call to
the CPU and the test backend, move, jump, free), every value kind (ints,
doubles, bools, int/double/bool lists, tensor and optional tensor lists) and
dynamic shapes, so the fuzzer starts from every path the loader has. The
golden files (tests/compat) and the malformed corpus (tests/malformed) seed
it too (make fuzz). The seeds are committed; rerun this only to add one.

    .venv/bin/python tests/fuzz/make_seeds.py
"""

from __future__ import annotations

import os
import sys

import torch
from torch._higher_order_ops.while_loop import while_loop

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools"), os.path.join(ROOT, "tests", "python")]

import ember
from ember.fb.FreeCall import FreeCallT
from ember.fb.Instruction import InstructionT
from ember.fb.InstructionArguments import InstructionArguments
from ember_test_backend import TestBackend
from pte_edit import PteFile

OUT = os.path.join(ROOT, "tests", "fuzz", "seeds")


class Arith(torch.nn.Module):
    """Scalars of every kind: alpha (int), a float scalar, clamp bounds, a cast."""

    def forward(self, x):
        y = torch.clamp(x * 0.5 + 1, min=-2.0, max=2.0)
        return (y.to(torch.int32) + 1).to(torch.float32) - x


class Lists(torch.nn.Module):
    """Tensor lists in (cat, stack), a Tensor[] out (split) and an optional
    tensor list (indexing by a tensor)."""

    def forward(self, x, index):
        a, b = torch.split(x, 2, dim=0)
        y = torch.cat([a, b, a], dim=0)
        return torch.stack([y, y]).sum(0)[index]


class IntsAndBools(torch.nn.Module):
    def forward(self, x, y):
        mask = x > y
        return torch.where(mask, x, y).argmax(dim=1), mask.any(dim=0)


class Reshape(torch.nn.Module):
    """A reshape of a dynamic batch: sym_size and scalar arithmetic."""

    def forward(self, x):
        return torch.softmax(x.view(x.shape[0] * 2, -1), dim=-1)


class Cond(torch.nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda v: v + 1.0, lambda v: v * 2.0, (x,))


class Loop(torch.nn.Module):
    def forward(self, x):
        def cond(i, v):
            return i < 3

        def body(i, v):
            return i + 1, v * 2.0

        _, out = while_loop(cond, body, (torch.zeros((), dtype=torch.int64), x))
        return out


class Conv(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        y = torch.nn.functional.max_pool2d(torch.relu(self.conv(x)), 2)
        return self.fc(y.mean(dim=(2, 3)))


class Mixed(torch.nn.Module):
    """Add and relu (the test backend's) around a layer norm (portable)."""

    def forward(self, x, y):
        h = torch.relu(x + y)
        return torch.nn.functional.layer_norm(h, (8,)) * x


def _seeded(model: torch.nn.Module) -> torch.nn.Module:
    torch.manual_seed(0)
    for p in model.parameters():
        p.data = torch.randn_like(p) * 0.1
    return model.eval()


def _with_free_call(buffer: bytes) -> bytes:
    """The program with a FreeCall of its first value appended, the one
    instruction kind Ember's exporter never writes (ExecuTorch's does)."""
    pte = PteFile.parse(buffer)
    free = FreeCallT()
    free.valueIndex = 0
    instruction = InstructionT()
    instruction.instrArgsType = InstructionArguments.FreeCall
    instruction.instrArgs = free
    chain = pte.plan().chains[0]
    chain.instructions.append(instruction)
    if chain.stacktrace:
        chain.stacktrace.append(chain.stacktrace[-1])
    return pte.write()


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    batch = torch.export.Dim("batch", min=2, max=8)
    x4 = torch.randn(4, 8)
    seeds = {
        "arith_portable": (Arith(), (x4,), None, ()),
        "lists_portable": (Lists(), (x4, torch.tensor([0, 3, 1])), None, ()),
        "ints_bools_portable": (IntsAndBools(), (x4, torch.randn(4, 8)), None, ()),
        "reshape_dynamic_portable": (Reshape(), (x4,), ({0: batch},), ()),
        "cond_portable": (Cond(), (x4,), None, ()),
        "while_loop_portable": (Loop(), (x4,), None, ()),
        "conv_cpu_backend": (_seeded(Conv()), (torch.randn(1, 3, 8, 8),), None, None),
        "conv_portable": (_seeded(Conv()), (torch.randn(1, 3, 8, 8),), None, ()),
        "mixed_test_backend": (Mixed(), (x4, torch.randn(4, 8)), None, (TestBackend(),)),
    }
    for name, (model, inputs, dynamic, backends) in seeds.items():
        program = ember.export(model, inputs, dynamic, backends=backends)
        buffer = program.buffer
        if name == "arith_portable":
            _write("free_call_portable", _with_free_call(buffer))
        _write(name, buffer)


def _write(name: str, buffer: bytes) -> None:
    path = os.path.join(OUT, f"{name}.pte")
    with open(path, "wb") as f:
        f.write(buffer)
    print(f"wrote {os.path.relpath(path, ROOT)} ({len(buffer)} bytes)")


if __name__ == "__main__":
    main()
