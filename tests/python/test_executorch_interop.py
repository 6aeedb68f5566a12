"""Ember and ExecuTorch read each other's .pte files (both directions).

ExecuTorch is a test peer only: Ember's own code never imports it.
"""

import ember
import executorch.exir as executorch_exir
import pytest
import torch
from conftest import assert_matches_eager
from executorch.runtime import Runtime

from examples import models

CASES = {
    "mlp": (models.MLP, lambda: (torch.randn(4, 64),)),
    "mobilenet_v2": (models.MobileNetV2, lambda: (torch.randn(1, 3, 64, 64),)),
    "resnet18": (models.ResNet18, lambda: (torch.randn(1, 3, 64, 64),)),
    "transformer_block": (models.TransformerBlock, lambda: (torch.randint(0, 1000, (2, 16)),)),
}


def _executorch_program(model, inputs) -> bytes:
    """The portable flow of ExecuTorch: to_edge then to_executorch, no delegates."""
    exported = torch.export.export(model, inputs)
    return executorch_exir.to_edge(exported).to_executorch().buffer


@pytest.mark.parametrize("name", list(CASES))
def test_executorch_file_runs_on_ember(name, tmp_pte):
    factory, make_inputs = CASES[name]
    model = models.seeded(factory)
    torch.manual_seed(7)
    inputs = make_inputs()
    with open(tmp_pte, "wb") as f:
        f.write(_executorch_program(model, inputs))
    with torch.no_grad():
        expected = model(*inputs)
    assert_matches_eager(ember.runtime.load(tmp_pte).forward(*inputs), expected)


@pytest.mark.parametrize("name", list(CASES))
def test_ember_file_runs_on_executorch(name):
    factory, make_inputs = CASES[name]
    model = models.seeded(factory)
    torch.manual_seed(7)
    inputs = make_inputs()
    program = ember.export(model, inputs, backends=())
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    with torch.no_grad():
        expected = model(*inputs)
    assert_matches_eager(method.execute(list(inputs))[0], expected)


@pytest.mark.parametrize(
    "module, inputs",
    [
        (torch.nn.BatchNorm2d(3), (torch.randn(1, 3, 8, 8),)),
        (torch.nn.MaxPool2d(3, 2, 1), (torch.randn(1, 3, 8, 8),)),
        (torch.nn.LayerNorm(8), (torch.randn(2, 8),)),
    ],
    ids=["batch_norm", "max_pool", "layer_norm"],
)
def test_multi_output_ops_return_a_tensor_list(module, inputs):
    """Regression: ExecuTorch's kernels write a multi-output op's results into
    one trailing TensorList value; Ember once repeated each out tensor, which
    ExecuTorch rejected with InvalidProgram."""
    module = module.eval()
    program = ember.export(module, inputs, backends=())
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    with torch.no_grad():
        assert_matches_eager(method.execute(list(inputs))[0], module(*inputs))


def test_dynamic_batch_file_runs_on_executorch():
    model = models.seeded(models.MLP)
    batch = torch.export.Dim("batch", min=1, max=8)
    program = ember.export(model, (torch.randn(4, 64),), dynamic_shapes=({0: batch},), backends=())
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    for size in (1, 8):
        x = torch.randn(size, 64)
        with torch.no_grad():
            assert_matches_eager(method.execute([x])[0], model(x))


def _channels_last_resnet():
    return models.seeded(models.ResNet18).to(memory_format=torch.channels_last)


def test_channels_last_executorch_file_runs_on_ember(tmp_pte):
    """ExecuTorch keeps a channels-last model's dim orders in the program: inputs, weights and
    activations. Ember copies a row-major input into that layout, gives kernels that index
    memory row-major (conv, pooling, ...) row-major twins of such tensors, and returns
    outputs row-major."""
    model = _channels_last_resnet()
    x = torch.randn(2, 3, 32, 32).contiguous(memory_format=torch.channels_last)
    with open(tmp_pte, "wb") as f:
        f.write(_executorch_program(model, (x,)))
    module = ember.runtime.load(tmp_pte)
    with torch.no_grad():
        expected = model(x)
    assert_matches_eager(module.forward(x), expected)
    assert_matches_eager(module.forward(x.contiguous()), expected)


def test_channels_last_model_exported_by_ember(tmp_pte):
    model = _channels_last_resnet()
    x = torch.randn(2, 3, 32, 32).contiguous(memory_format=torch.channels_last)
    ember.export(model, (x,), backends=()).save(tmp_pte)
    with torch.no_grad():
        assert_matches_eager(ember.runtime.load(tmp_pte).forward(x), model(x))


# ExecuTorch's quantized kernels register the quantized_decomposed
# out-variants that ember.quantize declares too, so they load in a process
# that has not imported Ember: the program and its inputs travel as files.
_RUN_ON_EXECUTORCH_QUANTIZED = """
import sys, torch
import executorch.kernels.quantized  # noqa: F401  (registers the quantized kernels)
from executorch.runtime import Runtime
program, inputs, output = sys.argv[1:4]
with open(program, "rb") as f:
    loaded = Runtime.get().load_program(f.read())  # the method needs it alive
torch.save(loaded.load_method("forward").execute(list(torch.load(inputs)))[0], output)
"""


@pytest.mark.parametrize("scheme", ["int8", "int8-dynamic", "int8-weight"])
def test_ember_int8_program_with_quantized_tables_runs_on_executorch(scheme, tmp_path):
    """Quantized embedding tables are ExecuTorch's embedding_byte, so an int8
    program (portable) runs on ExecuTorch's quantized kernels as on Ember's."""
    import subprocess
    import sys

    from test_quantize import EmbeddingBag, _seeded

    model = _seeded(EmbeddingBag)
    ids = torch.randint(0, 2000, (2, 16), generator=torch.Generator().manual_seed(5))
    qmodel = ember.quantize(model, (ids,), scheme=scheme)
    program = ember.export(qmodel, (ids,), backends=())
    assert "quantized_decomposed::embedding_byte.out" in program.operators
    program.save(tmp_path / "q.pte")
    torch.save((ids,), tmp_path / "inputs.pt")
    run = subprocess.run([sys.executable, "-c", _RUN_ON_EXECUTORCH_QUANTIZED,
                          str(tmp_path / "q.pte"), str(tmp_path / "inputs.pt"),
                          str(tmp_path / "out.pt")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    with torch.no_grad():
        expected = qmodel(ids)
    assert_matches_eager(torch.load(tmp_path / "out.pt"), expected)
