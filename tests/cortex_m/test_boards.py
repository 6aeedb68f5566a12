"""The Cortex-M model images under QEMU (make test-cortex-m and the quick
tier of make test build them and set EMBER_CORTEX_M_BUILDS): every image
gives the host runtime's output bit for bit, stays within a couple of
quantization steps of the quantized model in eager PyTorch, and uses the
static memory ember.targets.cortex_m.image sized for it."""

from __future__ import annotations

import os

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# "cortex-m4=build/cortex-m4:build/cortex-m-models/cortex-m4 cortex-m55=..."
BUILDS = dict(item.split("=", 1) for item in os.environ.get("EMBER_CORTEX_M_BUILDS", "").split())


def _images():
    found = []
    for cpu, folders in sorted(BUILDS.items()):
        build, models = (os.path.join(ROOT, f) for f in folders.split(":"))
        for file in sorted(os.listdir(models)) if os.path.isdir(models) else []:
            name = file[: -len(".expected.npz")]
            image = os.path.join(build, "targets", "cortex-m", f"ember_cm_model_{name}.elf")
            if file.endswith(".expected.npz") and os.path.exists(image):
                found.append(pytest.param(build, models, name, id=f"{cpu}-{name}"))
    return found or [pytest.param(None, None, None, marks=pytest.mark.skip(
        reason="no Cortex-M images (make test-cortex-m sets EMBER_CORTEX_M_BUILDS)"))]


@pytest.mark.parametrize("build, models, name", _images())
def test_model_images_match_the_host_runtime(build, models, name):
    from ember.targets.cortex_m import image, run

    info = run.BuildInfo.of(build)
    output = run.run(info, info.image(name))
    assert output.status == 0, output.text
    expected = np.load(os.path.join(models, f"{name}.expected.npz"))
    got = output.outputs[0]
    assert got.tobytes() == expected["host"].astype(got.dtype).tobytes(), "not bit-exact"
    eager = expected["eager"].reshape(got.shape)
    assert np.abs(got - eager).max() <= 0.05 * np.abs(eager).max()
    # The static memory the image tool sized is what the runtime asks for.
    with open(os.path.join(models, f"{name}.pte"), "rb") as f:
        memory = image.image_memory(f.read())
    assert output.memory["method_table_bound"] == memory.method_pool_bytes
    assert output.memory["method_pool_used"] <= memory.method_pool_bytes
    assert output.memory["arena"] == max(memory.arena_bytes, 1)
    assert output.instructions["execute"] > 0
