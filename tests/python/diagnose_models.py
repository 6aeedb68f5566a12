"""Models that torch.export or Ember cannot take, one per failure kind that
ember.diagnose knows (test_diagnose.py). A comment `# diagnose: KIND` marks
the line the diagnosis must point at; FACTORIES gives each model, its example
inputs and dynamic shapes. Line numbers matter: keep each marker on the line
that makes the failing value."""

import dataclasses
import math

import numpy as np
import torch
from torch.export import Dim


class Branch(torch.nn.Module):
    def forward(self, x):
        y = x * 2
        if y.sum() > 0:  # diagnose: data-dependent-branch
            return y + 1
        return y - 1


class BranchAssigns(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        h = self.linear(x)
        scale = x.mean()
        if scale > 0:  # diagnose: data-dependent-branch
            h = h * scale
            out = torch.relu(h)
        else:
            out = torch.tanh(h)
        return out + h


class Loop(torch.nn.Module):
    def forward(self, x):
        for _ in range(int(x.sum())):  # diagnose: data-dependent-loop
            x = x * 0.5
        return x


class Slice(torch.nn.Module):
    def forward(self, x):
        return x[:int(x.argmax())]  # diagnose: data-dependent-size


class PythonNumber(torch.nn.Module):
    def forward(self, x):
        return x / math.sqrt(float(x.abs().max()))  # diagnose: tensor-to-python-number


class Item(torch.nn.Module):
    def forward(self, x):
        peak = x.max().item()  # diagnose: tensor-to-python-number
        return x * peak


class Numpy(torch.nn.Module):
    def forward(self, x):
        return torch.from_numpy(np.tanh(x.numpy()))  # diagnose: unsupported-python-construct


class DataPointer(torch.nn.Module):
    def forward(self, x):
        if x.data_ptr() % 2:  # diagnose: opaque-kernel
            return x
        return x + 1


class Thing:
    def __init__(self, t):
        self.t = t


class ObjectOut(torch.nn.Module):
    def forward(self, x):
        return x + 1, Thing(x)  # diagnose: unregistered-output-type


@dataclasses.dataclass
class Pair:
    first: torch.Tensor
    second: torch.Tensor


class DataclassOut(torch.nn.Module):
    def forward(self, x):
        return Pair(x + 1, x * 2)  # diagnose: unregistered-output-type (fixed by Ember)


class Reshape(torch.nn.Module):
    def forward(self, x):
        return x.view(4, -1)  # diagnose: dynamic-dim-constraint


class FixedBatch(torch.nn.Module):
    def forward(self, x):
        return x + torch.ones(8, 3)  # diagnose: specialized-dynamic-dim


class Doubler(torch.nn.Module):
    def forward(self, x):
        return x * 2


class InputMutation(torch.nn.Module):
    def forward(self, x):
        x.add_(1)  # diagnose: input-mutation
        return x * 2


class NonTensorInput(torch.nn.Module):
    def forward(self, x, scale):  # diagnose: non-tensor-input
        return x * scale


class TrainingDropout(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.dropout(x, 0.5, training=True)  # diagnose: training-mode-op


class TwoInputs(torch.nn.Module):  # forward's line is the diagnosis's
    def forward(self, x, y):  # diagnose: wrong-number-of-inputs
        return x + y


class Mismatch(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 4)

    def forward(self, x):
        return self.linear(x)  # diagnose: inputs-do-not-fit


class Bincount(torch.nn.Module):
    def forward(self, x):
        counts = torch.bincount(x)  # diagnose: unbounded-data-dependent-size
        return counts * 2


class Counter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = torch.zeros(1)

    def forward(self, x):
        self.calls = self.calls + 1  # diagnose: tensor-attribute-assigned
        return x + self.calls


class CondPassThrough(torch.nn.Module):
    def forward(self, x):
        def double(x):
            return x * 2

        def same(x):
            return x

        return torch.cond(x.sum() > 0, double, same, (x,))  # diagnose: cond-branch-returns-input


@torch.library.custom_op("ember_diagnose_test::scale", mutates_args=())
def _scale(x: torch.Tensor) -> torch.Tensor:
    return x * 2


@_scale.register_fake
def _(x):
    return torch.empty_like(x)


class CustomOp(torch.nn.Module):
    def forward(self, x):
        return _scale(x) + 1  # diagnose: unsupported-operator


class VarArgs(torch.nn.Module):
    def forward(self, *tensors):
        return tensors[0] + tensors[1]


def _dim(name, **bounds):
    return Dim(name, **bounds)


# name -> (model factory, example inputs, dynamic shapes)
FACTORIES = {
    "branch": (Branch, lambda: (torch.randn(8),), None),
    "branch_assigns": (BranchAssigns, lambda: (torch.randn(2, 4),), None),
    "loop": (Loop, lambda: (torch.rand(4),), None),
    "slice": (Slice, lambda: (torch.randn(8),), None),
    "python_number": (PythonNumber, lambda: (torch.randn(6),), None),
    "item": (Item, lambda: (torch.randn(6),), None),
    "numpy": (Numpy, lambda: (torch.randn(4),), None),
    "data_pointer": (DataPointer, lambda: (torch.randn(4),), None),
    "object_out": (ObjectOut, lambda: (torch.randn(4),), None),
    "dataclass_out": (DataclassOut, lambda: (torch.randn(4),), None),
    "reshape": (Reshape, lambda: (torch.randn(8, 3),), lambda: ({0: _dim("batch", max=64)},)),
    "fixed_batch": (FixedBatch, lambda: (torch.randn(8, 3),),
                    lambda: ({0: _dim("batch", max=64)},)),
    "size_one": (Doubler, lambda: (torch.randn(1, 4),), lambda: ({0: _dim("batch", max=64)},)),
    "no_max": (Doubler, lambda: (torch.randn(3, 4),), lambda: ({0: _dim("batch")},)),
    "input_mutation": (InputMutation, lambda: (torch.randn(4),), None),
    "non_tensor_input": (NonTensorInput, lambda: (torch.randn(4), 3), None),
    "training_dropout": (TrainingDropout, lambda: (torch.randn(4),), None),
    "two_inputs": (TwoInputs, lambda: (torch.randn(4),), None),
    "mismatch": (Mismatch, lambda: (torch.randn(2, 7),), None),
    "bincount": (Bincount, lambda: (torch.randint(0, 5, (16,)),), None),
    "counter": (Counter, lambda: (torch.randn(4),), None),
    "cond_pass_through": (CondPassThrough, lambda: (torch.randn(4),), None),
    "custom_op": (CustomOp, lambda: (torch.randn(4),), None),
    "varargs": (VarArgs, lambda: (torch.randn(3, 4), torch.randn(3, 4)),
                lambda: ({0: _dim("batch", max=8)}, {0: _dim("batch", max=8)})),
}


def case(name):
    factory, inputs, shapes = FACTORIES[name]
    return factory(), inputs(), shapes() if shapes else None
