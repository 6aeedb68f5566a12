"""Helpers of the Vulkan backend's tests (tests/python/test_vulkan*.py): the
skip when no Vulkan device is reachable, a backend that records the op kinds
it lowers, and the comparison of a GPU program with the portable kernels'."""

import os
import subprocess

import ember
import pytest
import torch
from conftest import ROOT, assert_matches_eager
from cpu_backend_util import Recording
from ember.backends.vulkan import VulkanBackend, device

DEVICE = device()
if os.environ.get("EMBER_REQUIRE_VULKAN") and not DEVICE["available"]:
    # make test-vulkan: a missing device is a failure there, not a skip.
    raise RuntimeError(f"EMBER_REQUIRE_VULKAN is set but there is no Vulkan device: "
                       f"{DEVICE['reason']}")
requires_vulkan = pytest.mark.skipif(
    not DEVICE["available"],
    reason=f"no Vulkan device ({DEVICE.get('reason', '')}); make test-vulkan installs lavapipe")

EMBER_RUN = os.path.join(ROOT, ".venv", "bin", "ember_run")


class RecordingVulkanBackend(Recording, VulkanBackend):
    """The Vulkan backend, keeping the op kinds of every blob it lowers."""


def as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def close(actual, expected, atol=1e-4, rtol=None):
    """Each output within atol (scaled as assert_matches_eager scales it), or
    |a - e| <= atol + rtol |e| element by element; NaN where expected."""
    actual, expected = as_tuple(actual), as_tuple(expected)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        a = torch.as_tensor(a)
        if rtol is not None or torch.isnan(e).any():
            torch.testing.assert_close(a, e, rtol=rtol or 0.0, atol=atol, equal_nan=True)
        else:
            assert_matches_eager(a, e, atol=atol)


def against_portable(model, inputs, tmp_path, *, atol=1e-4, rtol=None, whole=True, name="m"):
    """Exports `model` for the GPU (all of it, with `whole`) and for the
    portable kernels alone, runs both and compares; returns the backend (its
    op kinds) and the GPU program."""
    model = model.eval()
    backend = RecordingVulkanBackend()
    program = ember.export(model, inputs, backends=[backend])
    if whole:
        assert program.delegated_fraction() == 1.0, program.report()
    gpu_path, ref_path = str(tmp_path / f"{name}_vk.pte"), str(tmp_path / f"{name}_ref.pte")
    program.save(gpu_path)
    ember.export(model, inputs, backends=()).save(ref_path)
    got = ember.runtime.load(gpu_path).forward(*inputs)
    expected = ember.runtime.load(ref_path).forward(*inputs)
    close(got, tuple(torch.as_tensor(e) for e in as_tuple(expected)), atol, rtol)
    return backend, program


def against_eager(model, inputs, tmp_path, *, atol=1e-4, backends=None, name="m"):
    """Exports with `backends` (the GPU alone by default), runs, compares with
    eager PyTorch; returns the program."""
    model = model.eval()
    program = ember.export(model, inputs, backends=backends or [VulkanBackend()])
    path = str(tmp_path / f"{name}.pte")
    program.save(path)
    with torch.no_grad():
        expected = model(*inputs)
    close(ember.runtime.load(path).forward(*inputs), as_tuple(expected), atol)
    return program


def ember_run(pte, *args, env=None):
    """ember_run on `pte` in a fresh process (a fresh Vulkan device, its
    environment `env` added): (return code, stdout + stderr)."""
    full_env = dict(os.environ, **(env or {}))
    done = subprocess.run([EMBER_RUN, pte, "--runs", "1", *args], check=False, capture_output=True,
                          text=True, env=full_env, timeout=300)
    return done.returncode, done.stdout + done.stderr
