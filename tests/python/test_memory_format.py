"""Models that ask for channels-last inside their forward export as
ExecuTorch's dim-order copies, with their out tensors planned channels-last,
and match eager on Ember's runtime and on ExecuTorch's."""

import ember
import pytest
import torch
from conftest import assert_matches_eager
from ember.fb.KernelTypes import KernelTypes
from ember.fb.Program import Program
from ember.fb.Tensor import Tensor

from examples import models


class ChannelsLastConvNet(torch.nn.Module):
    """contiguous(), to() and clone() with channels-last, around convs and pools."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 8, 3, stride=2, groups=2)
        self.pool = torch.nn.MaxPool2d(2)

    def forward(self, x):
        x = x.contiguous(memory_format=torch.channels_last)
        y = torch.relu(self.conv1(x)).to(torch.float64, memory_format=torch.channels_last)
        y = self.pool(y.float()).clone(memory_format=torch.channels_last)
        z = self.conv2(y) + 1.0
        return z.contiguous(), z.mean((2, 3))


class ChannelsLast3d(torch.nn.Module):
    def forward(self, x):
        return (x.contiguous(memory_format=torch.channels_last_3d) * 2).sum(1)


def planned_dim_orders(program):
    plan = Program.GetRootAs(program.buffer, 0).ExecutionPlan(0)
    orders = set()
    for i in range(plan.ValuesLength()):
        value = plan.Values(i)
        if value.ValType() == KernelTypes.Tensor:
            tensor = Tensor()
            tensor.Init(value.Val().Bytes, value.Val().Pos)
            orders.add(tuple(tensor.DimOrderAsNumpy().tolist()) if tensor.DimOrderLength() else ())
    return orders


@pytest.mark.parametrize("factory, shape", [(ChannelsLastConvNet, (2, 3, 12, 12)),
                                            (ChannelsLast3d, (1, 2, 3, 4, 5))])
def test_channels_last_inside_forward_matches_eager(factory, shape, tmp_pte):
    model = models.seeded(factory).eval()
    x = torch.randn(*shape)
    program = ember.export(model, (x,), backends=())
    assert any("dim_order_ops::" in op for op in program.operators)
    channels_last = (0, 2, 3, 1) if len(shape) == 4 else (0, 2, 3, 4, 1)
    assert channels_last in planned_dim_orders(program)
    program.save(tmp_pte)
    with torch.no_grad():
        expected = model(x)
    actual = ember.runtime.load(tmp_pte).forward(x)
    for a, e in zip(actual if isinstance(actual, tuple) else (actual,),
                    expected if isinstance(expected, tuple) else (expected,)):
        assert_matches_eager(a, e)


class ToChannelsLast(torch.nn.Module):
    def forward(self, x):
        return (x * 2).contiguous(memory_format=torch.channels_last)


def test_dim_order_ops_are_executorchs():
    """ExecuTorch runs Ember's dim-order copy (same op name, schema and planned
    dim order). Its portable kernels refuse tensors of mixed dim orders, so a
    network that mixes them (like ChannelsLastConvNet) fails on ExecuTorch even
    when ExecuTorch exports it; Ember's runtime runs both."""
    from executorch.runtime import Runtime

    x = torch.randn(2, 3, 4, 5)
    program = ember.export(ToChannelsLast(), (x,), backends=())
    assert "dim_order_ops::_clone_dim_order.out" in program.operators
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    (actual,) = method.execute([x])
    assert actual.stride() == (x * 2).contiguous(memory_format=torch.channels_last).stride()
    assert_matches_eager(actual, x * 2)
