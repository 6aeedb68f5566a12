"""Each export pass on its own: its output graph still runs in eager PyTorch
and gives the model's results, and it did its one job."""


import ember
import pytest
import torch
from ember.passes import capture as capture_passes
from ember.passes.constant_folding import fold_constants
from ember.passes.delegation import LoweredDelegate, delegate, is_delegate_call
from ember.passes.dim_order import to_dim_order_ops
from ember.passes.emit import emit
from ember.passes.fold_conv_padding import fold_conv_padding
from ember.passes.fuse_batch_norm import fuse_batch_norm
from ember.passes.graph import ProgramGraph
from ember.passes.memory_planning import plan_memory
from ember.passes.out_variants import is_alloc, is_kernel_call, to_out_variants
from ember.passes.pipeline import default_passes
from ember.passes.strip_asserts import ASSERTIONS, strip_asserts
from ember_test_backend import TestBackend

from examples import models

aten = torch.ops.aten


def lifted(model, *inputs, dynamic_shapes=None) -> ProgramGraph:
    exported = capture_passes.capture(model, inputs, dynamic_shapes)
    return capture_passes.lift(capture_passes.decompose(exported))


def assert_runs_like(program, model, *inputs):
    expected = model(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    actual = program.run(*inputs)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        torch.testing.assert_close(a, e, rtol=1e-5, atol=1e-5)


def targets(program):
    return [n.target for n in program.graph.nodes if n.op == "call_function"]


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return self.fc(y.mean((2, 3))), y.flatten(1).softmax(-1)


def block():
    return models.seeded(Block).eval()


def test_lift_marks_parameters_as_constants_and_runs_like_eager():
    model, x = block(), torch.randn(2, 3, 8, 8)
    program = lifted(model, x)
    assert [n.name for n in program.user_inputs()] == ["x"]
    assert len(program.constants) >= 6  # conv, bn and fc weights and buffers
    assert_runs_like(program, model, x)


def test_lift_keeps_a_mutated_buffer_as_state_written_back_by_copy():
    class Counter(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("n", torch.zeros(1))

        def forward(self, x):
            self.n.add_(1)
            return x + self.n

    program = lifted(Counter(), torch.randn(2))
    assert list(program.buffer_names.values()) == ["n"]
    assert torch.ops.aten.copy_.default in targets(program)
    x = torch.randn(2)
    # The graph runs eagerly with the buffer's state carried between runs.
    assert torch.equal(program.run(x)[0], x + 1)
    assert torch.equal(program.run(x)[0], x + 2)
    program.reset_state()
    assert torch.equal(program.run(x)[0], x + 1)


def test_reinplace_buffer_updates_turns_an_indexed_write_back_into_index_put_():
    from ember.passes.mutable_buffers import reinplace_buffer_updates

    class Cache(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("cache", torch.zeros(6, 3))

        def forward(self, x, pos):
            torch.ops.aten.index_put_(self.cache, [pos], x)
            return self.cache.sum(0)

    x, pos = torch.randn(2, 3), torch.tensor([1, 4])
    program = lifted(Cache(), x, pos)
    expected = program.copy().run(x, pos)
    program = reinplace_buffer_updates(program)
    assert torch.ops.aten.index_put_.default in targets(program)
    assert torch.ops.aten.copy_.default not in targets(program)
    assert torch.equal(program.run(x, pos)[0], expected[0])


def test_strip_asserts_removes_only_assertions():
    class Dynamic(torch.nn.Module):
        def forward(self, x):
            return x.reshape(-1, 2) * 2

    batch = torch.export.Dim("batch", min=2, max=16)
    x = torch.randn(4, 6)
    program = lifted(Dynamic(), x, dynamic_shapes=({0: batch},))
    before = [t for t in targets(program) if t not in ASSERTIONS]
    program = strip_asserts(program)
    assert not ASSERTIONS & set(targets(program))
    assert targets(program) == before
    assert_runs_like(program, Dynamic(), torch.randn(6, 6))


def test_fold_constants_computes_weight_transposes_once():
    model, x = torch.nn.Linear(5, 3), torch.randn(2, 5)
    program = lifted(model, x)
    assert aten.permute.default in targets(program)  # the weight's transpose
    program = fold_constants(program)
    assert aten.permute.default not in targets(program)
    assert "weight" not in " ".join(program.constants)  # the transposed copy replaced it
    assert_runs_like(program, model, x)


def test_fold_constants_keeps_dequantize_of_quantized_weights():
    import torch.ao.quantization.fx._decomposed

    class QuantizedLinear(torch.nn.Module):
        def __init__(self):
            super().__init__()
            w = torch.randn(3, 5)
            self.scale = float(w.abs().max() / 127)
            self.register_buffer("w_int8", torch.round(w / self.scale).to(torch.int8))

        def forward(self, x):
            w = torch.ops.quantized_decomposed.dequantize_per_tensor(
                self.w_int8, self.scale, 0, -127, 127, torch.int8)
            return x @ w.t()

    model, x = QuantizedLinear(), torch.randn(2, 5)
    program = fold_constants(lifted(model, x))
    dequantize = torch.ops.quantized_decomposed.dequantize_per_tensor.default
    assert dequantize in targets(program)
    assert all(c.dtype != torch.float32 or c.numel() != 15 for c in program.constants.values()), \
        "the weight was stored in float"
    assert_runs_like(program, model, x)


@pytest.mark.parametrize("conv", [
    lambda: torch.nn.Conv2d(3, 8, 3, padding=1),
    lambda: torch.nn.Conv2d(4, 8, 3, groups=2, bias=False),
    lambda: torch.nn.Conv1d(3, 6, 5, stride=2),
    lambda: torch.nn.ConvTranspose2d(4, 6, 3, stride=2, groups=2),
])
def test_fuse_batch_norm_folds_it_into_the_conv(conv):
    torch.manual_seed(0)
    layer = conv()
    norm = (torch.nn.BatchNorm1d if isinstance(layer, torch.nn.Conv1d) else torch.nn.BatchNorm2d)(
        layer.out_channels)
    with torch.no_grad():  # statistics far from the defaults, so a wrong fold shows
        norm.running_mean.uniform_(-1, 1)
        norm.running_var.uniform_(0.5, 2)
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-1, 1)
    model = torch.nn.Sequential(layer, norm, torch.nn.ReLU()).eval()
    x = torch.randn(2, layer.in_channels, *([9] if isinstance(layer, torch.nn.Conv1d) else [9, 9]))
    program = fuse_batch_norm(lifted(model, x))
    assert aten._native_batch_norm_legit_no_training.default not in targets(program)
    assert targets(program).count(aten.convolution.default) == 1
    assert_runs_like(program, model, x)


def test_fuse_batch_norm_leaves_a_shared_conv_alone():
    class Shared(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv, self.bn = torch.nn.Conv2d(3, 4, 1), torch.nn.BatchNorm2d(4)

        def forward(self, x):
            y = self.conv(x)
            return self.bn(y) + y

    model, x = models.seeded(Shared).eval(), torch.randn(1, 3, 5, 5)
    program = fuse_batch_norm(lifted(model, x))
    assert aten._native_batch_norm_legit_no_training.default in targets(program)
    assert_runs_like(program, model, x)


class PaddedConv(torch.nn.Module):
    """TF-style "same" convolutions: F.pad, then a convolution without padding."""

    def __init__(self, widths, conv, value=0.0, also_return_pad=False):
        super().__init__()
        self.widths, self.conv, self.value = widths, conv, value
        self.also_return_pad = also_return_pad

    def forward(self, x):
        p = torch.nn.functional.pad(x, self.widths, value=self.value)
        y = self.conv(p)
        return (y, p) if self.also_return_pad else y


# (pad widths, conv, value, returns the pad too, constant_pad_nd left after the pass)
PAD_CASES = {
    "symmetric_3x3": ([1, 1, 1, 1], lambda: torch.nn.Conv2d(4, 6, 3), 0.0, False, 0),
    "symmetric_depthwise_5x5_stride2": (
        [2, 2, 2, 2], lambda: torch.nn.Conv2d(8, 8, 5, stride=2, groups=8), 0.0, False, 0),
    "added_to_own_padding": ([1, 1, 2, 2], lambda: torch.nn.Conv2d(4, 6, 3, padding=1), 0.0,
                             False, 0),
    "zero_widths_before_1x1": ([0, 0, 0, 0], lambda: torch.nn.Conv2d(4, 6, 1), 0.0, False, 0),
    "asymmetric_stays": ([0, 1, 0, 1], lambda: torch.nn.Conv2d(4, 6, 3, stride=2), 0.0, False, 1),
    "nonzero_value_stays": ([1, 1, 1, 1], lambda: torch.nn.Conv2d(4, 6, 3), 0.5, False, 1),
    "pad_also_an_output_stays": ([1, 1, 1, 1], lambda: torch.nn.Conv2d(4, 6, 3), 0.0, True, 1),
    "channels_padded_stays": ([1, 1, 1, 1, 1, 1], lambda: torch.nn.Conv2d(6, 6, 3), 0.0, False, 1),
}


@pytest.mark.parametrize("case", PAD_CASES, ids=list(PAD_CASES))
def test_fold_conv_padding(case):
    widths, conv, value, also_return_pad, pads_left = PAD_CASES[case]
    torch.manual_seed(0)
    model = PaddedConv(widths, conv(), value, also_return_pad).eval()
    x = torch.randn(1, 4 if len(widths) == 6 else model.conv.in_channels, 11, 10)
    program = fold_conv_padding(lifted(model, x))
    assert targets(program).count(aten.constant_pad_nd.default) == pads_left
    assert_runs_like(program, model, x)


def test_to_dim_order_ops_rewrites_channels_last_copies():
    class ChannelsLast(torch.nn.Module):
        def forward(self, x):
            y = x.contiguous(memory_format=torch.channels_last)
            return y.to(torch.float64, memory_format=torch.channels_last) * 2

    model, x = ChannelsLast(), torch.randn(1, 3, 4, 5)
    program = to_dim_order_ops(lifted(model, x))
    assert torch.ops.ember._clone_dim_order.default in targets(program)
    assert torch.ops.ember._to_dim_order_copy.default in targets(program)
    assert aten.clone.default not in targets(program)
    assert_runs_like(program, model, x)


def test_delegate_claims_supported_ops_and_explains_the_rest():
    class Mixed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bias = torch.nn.Parameter(torch.randn(4, 6))

        def forward(self, x):
            h = torch.relu(x * 3.0 + self.bias)  # delegated
            s = h.sum(1, keepdim=True)  # not: sum is not supported
            return torch.relu(h * h) + s, x.to(torch.int32) + 1  # broadcasting add, int add

    model, x = Mixed(), torch.randn(4, 6)
    program = delegate([TestBackend()])(fold_constants(lifted(model, x)))
    calls = [n for n in program.graph.nodes if is_delegate_call(n)]
    assert len(calls) == 1  # h and relu(h * h) connect through h; sum only reads h
    first = getattr(program.module, calls[0].target)
    assert isinstance(first, LoweredDelegate) and first.processed.startswith(b"ETB1")
    assert first.num_inputs == 1 and not program.constants, "the bias moved into the delegate"
    assert_runs_like(program, model, x)
    where = {p.node: p for p in program.placements}
    assert where["relu"].where == "EmberTestBackend"
    assert where["sum_1"].where == "portable"
    assert "not supported" in where["sum_1"].why_not_delegated["EmberTestBackend"]
    assert where["add_1"].why_not_delegated["EmberTestBackend"] == "broadcasts"
    assert "dtype int32" in where["add_2"].why_not_delegated["EmberTestBackend"]
    assert all(p.source.startswith("test_passes.py:") for p in program.placements)


def test_delegate_never_creates_a_cycle():
    class Diamond(torch.nn.Module):
        def forward(self, x):
            a = torch.relu(x)  # supported
            b = a.sum(0, keepdim=True).expand(4, 4).contiguous()  # unsupported, reads a
            return torch.relu(a + b)  # supported, reads a and b

    model, x = Diamond(), torch.randn(4, 4)
    program = delegate([TestBackend()])(lifted(model, x))
    # One delegate over {relu, add, relu_1} would both feed and read the
    # unsupported sum: the partitioner must split it.
    assert len([n for n in program.graph.nodes if is_delegate_call(n)]) == 2
    program.graph.lint()
    assert_runs_like(program, model, x)


def test_to_out_variants_writes_every_result_into_an_alloc():
    model, x = block(), torch.randn(2, 3, 8, 8)
    program = to_out_variants(fold_constants(strip_asserts(lifted(model, x))))
    kernels = [n for n in program.graph.nodes if is_kernel_call(n)]
    assert kernels
    for node in kernels:
        outs = [a for a in node.target._schema.arguments if a.is_out]
        assert outs, node
        assert all(is_alloc(node.kwargs[a.name]) for a in outs)
        assert not node.args  # bound by name
    assert_runs_like(program, model, x)


def test_to_out_variants_handles_tensor_list_outs():
    class Split(torch.nn.Module):
        def forward(self, x):
            a, b, c = x.split(2)
            return c - a * b

    model, x = Split(), torch.randn(6, 3)
    program = to_out_variants(lifted(model, x))
    assert any(is_alloc(n) and isinstance(n.meta["val"], list) for n in program.graph.nodes)
    assert_runs_like(program, model, x)


def test_emit_and_plan_memory_give_every_planned_tensor_room():
    model, x = block(), torch.randn(2, 3, 8, 8)
    program = lifted(model, x)
    for graph_pass in default_passes([TestBackend()]):
        program = graph_pass(program)
    emitted = plan_memory(emit(program))
    assert emitted.plan.delegates and emitted.delegate_blobs
    lifetimes = list(emitted.lifetimes.values())
    assert all(t.offset >= 0 for t in lifetimes)
    for i, a in enumerate(lifetimes):
        for b in lifetimes[i + 1:]:
            if a.overlaps_in_time(b) and a.nbytes and b.nbytes:
                assert a.offset + a.nbytes <= b.offset or b.offset + b.nbytes <= a.offset
    assert emitted.plan.nonConstBufferSizes == [0, emitted.memory_plan.arena_size]


def test_a_pass_can_be_dropped_or_added_without_touching_the_others(tmp_path):
    model, x = torch.nn.Sequential(torch.nn.Linear(6, 4), torch.nn.ReLU()), torch.randn(3, 6)
    default = ember.export(model, (x,), backends=())
    renamed = []

    def count_nodes(program):
        renamed.append(len(program.graph.nodes))
        return program

    no_folding = [p for p in default_passes() if p is not fold_constants] + [count_nodes]
    unfolded = ember.export(model, (x,), passes=no_folding)
    assert renamed, "the added pass ran"
    assert len(unfolded.instructions) == len(default.instructions) + 1  # the transpose, at run time
    path = tmp_path / "unfolded.pte"
    unfolded.save(path)
    torch.testing.assert_close(ember.runtime.load(path).forward(x), model(x))
