"""What an application sees when the GPU cannot run a program: no Vulkan
loader, no device, a device missing what the program needs, device memory
exhausted. Each gives a clear error at load naming what is missing, and with
the fallback the application chose (EMBER_VULKAN_FALLBACK=cpu, or
set_fallback_to_cpu) the program loads on the CPU backend and answers the
same. Each case runs ember_run in a fresh process (the Vulkan device is
opened once per process); the inputs and outputs pass through .npy files."""

import os

import ember
import numpy as np
import pytest
import torch
from ember.backends.vulkan import VulkanBackend, set_fallback_to_cpu
from torch import nn
from vulkan_util import EMBER_RUN, ember_run, requires_vulkan

pytestmark = requires_vulkan


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).mean((2, 3)))


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    """A small model exported for the GPU, an input, and eager's answer."""
    torch.manual_seed(0)
    model = Small().eval()
    x = torch.randn(1, 3, 10, 10)
    directory = tmp_path_factory.mktemp("vulkan_errors")
    pte, x_npy = str(directory / "small.pte"), str(directory / "x.npy")
    ember.export(model, (x,), backends=[VulkanBackend()]).save(pte)
    np.save(x_npy, x.numpy())
    with torch.no_grad():
        expected = model(x).numpy()
    return pte, x_npy, expected, directory


def _run(program, env, name, *args):
    pte, x_npy, expected, directory = program
    out = directory / name
    out.mkdir(exist_ok=True)
    code, text = ember_run(pte, "--input", x_npy, "--output-dir", str(out), *args, env=env)
    result = np.load(out / "output_0.npy") if code == 0 else None
    return code, text, result, expected


CASES = {
    # Names a loader that is not there: as a machine without Vulkan.
    "no_loader": ({"EMBER_VULKAN_LOADER": "/nonexistent/libvulkan.so.1"}, "no Vulkan loader"),
    # A loader with no driver to offer a device.
    "no_device": ({"VK_ICD_FILENAMES": "/nonexistent/icd.json",
                   "VK_DRIVER_FILES": "/nonexistent/icd.json"}, "no Vulkan"),
    # A device whose storage buffers are smaller than the model's tensors.
    "missing_feature": ({"EMBER_VULKAN_MAX_BUFFER_RANGE": "256"}, "maxStorageBufferRange"),
    # Less device memory than the program needs.
    "out_of_memory": ({"EMBER_VULKAN_MAX_MEMORY": "4096"}, "out of device memory"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_load_fails_with_the_reason(case, program):
    env, reason = CASES[case]
    code, text, _, _ = _run(program, env, case)
    assert code != 0, text
    assert reason in text, text
    assert "EmberVulkanBackend" in text, text


@pytest.mark.parametrize("case", list(CASES))
def test_fallback_to_the_cpu_backend_answers_the_same(case, program):
    env, reason = CASES[case]
    # --verbose: the runtime's log, where the fallback is announced.
    code, text, result, expected = _run(program, {**env, "EMBER_VULKAN_FALLBACK": "cpu"},
                                        f"{case}_fallback", "--verbose")
    assert code == 0, text
    assert reason in text and "running it on the CPU backend" in text, text
    np.testing.assert_allclose(result, expected, atol=1e-4)


def test_staging_copies_answer_as_mapped_memory_does(program):
    """Discrete GPUs copy inputs and outputs through a staging buffer (the
    arena is not host-visible); EMBER_VULKAN_STAGING=1 takes that path on
    any device."""
    code, text, result, expected = _run(program, {"EMBER_VULKAN_STAGING": "1"}, "staging")
    assert code == 0, text
    np.testing.assert_allclose(result, expected, atol=1e-4)


def test_fallback_chosen_from_python(program, tmp_path):
    """set_fallback_to_cpu applies to programs loaded afterwards; here the
    memory limit (read at each load) leaves the GPU too little."""
    pte, x_npy, expected, _ = program
    os.environ["EMBER_VULKAN_MAX_MEMORY"] = "4096"
    try:
        with pytest.raises(ValueError, match="EmberVulkanBackend"):
            ember.runtime.load(pte)
        set_fallback_to_cpu(True)
        try:
            got = ember.runtime.load(pte).forward(torch.from_numpy(np.load(x_npy)))
        finally:
            set_fallback_to_cpu(False)
    finally:
        del os.environ["EMBER_VULKAN_MAX_MEMORY"]
    np.testing.assert_allclose(np.asarray(got), expected, atol=1e-4)


def test_ember_run_has_the_backend():
    assert os.path.exists(EMBER_RUN)
