"""Models on the Vulkan backend against eager PyTorch: the zoo's MobileNetV2,
ResNet-18, ViT, BERT and a small Llama, wholly on the GPU; a mixed program
(GPU, CPU backend, portable kernels) and its report; SmolLM2-135M in 4-bit
with its KV cache (slow tier). Skipped where no Vulkan device is reachable."""

import ember
import pytest
import torch
from ember.backends.cpu import CpuBackend
from ember.backends.vulkan import VulkanBackend
from torch import nn
from vulkan_util import against_eager, requires_vulkan

from examples import models, zoo

pytestmark = requires_vulkan

GPU = "EmberVulkanBackend"


@pytest.mark.parametrize("name", ["mobilenet_v2", "resnet18"])
def test_vision_models_run_wholly_on_the_gpu(name, tmp_path):
    model = models.seeded(getattr(models, {"mobilenet_v2": "MobileNetV2",
                                          "resnet18": "ResNet18"}[name]))
    torch.manual_seed(3)
    program = against_eager(model, (torch.randn(1, 3, 64, 64),), tmp_path, atol=2e-4)
    assert program.delegated_fraction() == 1.0, program.report()


@pytest.mark.parametrize("name", ["vit", "bert", "llama"])
def test_transformers_from_the_zoo(name, tmp_path):
    model, inputs = zoo.get(name).build()
    program = against_eager(model, inputs, tmp_path, atol=2e-4,
                            backends=[VulkanBackend(), CpuBackend()])
    on_gpu = sum(p.where == GPU for p in program.placements)
    assert on_gpu / len(program.placements) > 0.8, program.report()
    assert program.delegated_flops_fraction() > 0.95, program.report()


class Mixed(nn.Module):
    """Float ops around an int8-quantized convolution: the GPU takes the
    float ops, the CPU backend the int8 unit, and the report says why."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.q = nn.Conv2d(8, 8, 3, padding=1)
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.q(torch.relu(self.stem(x))))
        return self.head(y.mean((2, 3)))


def test_mixed_program_splits_gpu_cpu_and_reports_why(tmp_path):
    torch.manual_seed(0)
    model = Mixed().eval()
    x = torch.randn(1, 3, 12, 12)
    qmodel = ember.quantize(model, (x,), scheme="int8",
                            calibration=[(torch.randn_like(x),) for _ in range(3)])
    program = ember.export(qmodel, (x,), backends=(VulkanBackend(), CpuBackend()))
    where = {p.where for p in program.placements}
    assert {GPU, "EmberCpuBackend"} <= where, program.report()
    report = program.report()
    assert "int8 quantized ops run on the CPU backend" in report, report
    path = str(tmp_path / "mixed.pte")
    program.save(path)
    reference = str(tmp_path / "portable.pte")
    ember.export(qmodel, (x,), backends=()).save(reference)
    got = torch.as_tensor(ember.runtime.load(path).forward(x))
    expected = torch.as_tensor(ember.runtime.load(reference).forward(x))
    # The int8 paths round alike; the float ones differ by float rounding.
    assert float((got - expected).abs().max()) < 0.05 * float(expected.abs().max()) + 1e-4


@pytest.mark.slow
def test_mobilenet_v2_at_224(tmp_path):
    model = models.seeded(models.MobileNetV2)
    torch.manual_seed(3)
    against_eager(model, (torch.randn(1, 3, 224, 224),), tmp_path, atol=3e-4)


@pytest.mark.slow
def test_smollm2_4bit_decode_with_kv_cache_matches_eager(tmp_path):
    """SmolLM2-135M (its Q4_1 GGUF) exported for one token per call: the
    linears (4-bit and 8-bit blocks), norms, RoPE and MLPs on the GPU, the
    KV cache writes and the attention over it on the CPU; ten decode steps
    against eager PyTorch on the same weights."""
    from ember.llm import gguf_import, llama

    try:
        path = gguf_import.smollm2_path()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    gguf = gguf_import.read_gguf(path, max_context=64)
    weights = gguf_import.convert_weights(gguf.weights, "4bit")
    model = llama.Llama(gguf.config, weights, last_logits_only=True).eval()
    eager = llama.Llama(gguf.config, weights, last_logits_only=True).eval()
    example = (torch.zeros(1, 1, dtype=torch.long), torch.arange(1))
    program = ember.export_methods({"forward": ember.Method(model, example, None)},
                                   backends=(VulkanBackend(), CpuBackend()))
    assert any(p.where == GPU and "qlinear" in p.op for p in program.placements), program.report()
    pte = str(tmp_path / "smollm2_decode.pte")
    program.save(pte)
    module = ember.runtime.load(pte)
    tokens = [1, 504, 3458, 282, 4649, 314, 253, 1345, 28, 3485]
    for position, token in enumerate(tokens):
        inputs = (torch.tensor([[token]]), torch.tensor([position]))
        with torch.no_grad():
            expected = eager(*inputs)
        got = torch.as_tensor(module.forward(*inputs))
        error = float((got - expected).abs().max())
        assert error < 2e-3 * float(expected.abs().max()), (position, error)
