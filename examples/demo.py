"""The Ember demo: a real image classifier naming what is in real photographs,
in float and in int8, on the C++ runtime.

Run with `make demo`. Steps:
 1. EfficientNet-Lite0 with its trained ImageNet weights
    (examples/efficientnet_lite.py) is exported in float;
 2. ember.quantize makes a static int8 version (PT2E, calibrated on other
    sample images than the ones shown) and it is exported too; the
    quantized .pte is cached under build/demo, keyed by the code that makes it;
 3. the native runner `ember_run` classifies scikit-image's sample photographs
    with both, and measures each one's latency.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

import ember
import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from examples import efficientnet_lite  # noqa: E402


def find_ember_run() -> str:
    candidate = os.path.join(os.path.dirname(sys.executable), "ember_run")
    return candidate if os.path.exists(candidate) else shutil.which("ember_run") or "ember_run"


def ember_run(pte: str, image: torch.Tensor, runs: int = 0) -> tuple[np.ndarray, str]:
    """Logits of `image` from ember_run, and its timing line when `runs` > 0."""
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, "input.npy"), image.numpy())
        run = subprocess.run(
            [find_ember_run(), pte, "--input", os.path.join(tmp, "input.npy"), "--output-dir",
             tmp, "--runs", str(max(runs, 1)), "--warmup", "2" if runs else "0", "--print", "0"],
            capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise RuntimeError(f"ember_run failed on {pte}:\n{run.stdout}{run.stderr}")
        timing = next((line for line in run.stdout.splitlines() if line.startswith("run:")), "")
        return np.load(os.path.join(tmp, "output_0.npy")), timing


def _code_digest() -> str:
    # The exporter and the backend's lowering shape the program as much as
    # the quantizer does.
    files = sorted(glob.glob(os.path.join(ROOT, "python", "ember", "**", "*.py"), recursive=True))
    files.append(os.path.join(ROOT, "examples", "efficientnet_lite.py"))
    digest = hashlib.sha1()
    for path in files:
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:12]


def quantized_program(model: torch.nn.Module, example: torch.Tensor, out_dir: str) -> str:
    pte = os.path.join(out_dir, f"efficientnet_lite0_int8_{_code_digest()}.pte")
    if os.path.exists(pte):
        print(f"  {pte} (cached)")
        return pte
    for stale in glob.glob(os.path.join(out_dir, "efficientnet_lite0_int8_*.pte*")):
        os.remove(stale)  # the program and its .debug
    print("  calibrating on", ", ".join(efficientnet_lite.CALIBRATION_PHOTOS),
          "(a few minutes on 2 cores) ...", flush=True)
    calibration = [x for _, x in efficientnet_lite.photo_batch(efficientnet_lite.CALIBRATION_PHOTOS)]
    qmodel = ember.quantize(model, (example,), scheme="int8", calibration=calibration)
    program = ember.export(qmodel, (example,))
    program.save(pte)
    print(f"  {pte}: {program.report(nodes=False)}")
    return pte


def main() -> int:
    out_dir = os.path.join("build", "demo")
    os.makedirs(out_dir, exist_ok=True)
    names = efficientnet_lite.imagenet_classes()
    model = efficientnet_lite.efficientnet_lite0()
    photos = efficientnet_lite.photo_batch()
    example = photos[0][1]

    print("exporting EfficientNet-Lite0 (trained ImageNet weights) in float ...", flush=True)
    float_program = ember.export(model, (example,))
    float_pte = os.path.join(out_dir, "efficientnet_lite0.pte")
    float_program.save(float_pte)
    print(f"  {float_pte}: {float_program.report(nodes=False)}")
    print("quantizing it to int8 with ember.quantize ...", flush=True)
    int8_pte = quantized_program(model, example, out_dir)

    print("\nclassifying scikit-image's photographs with ember_run:")
    print(f"  {'photo':<16} {'float':<34} {'int8':<34}")
    agree = True
    max_diff = 0.0
    for name, image in photos:
        cells = []
        for pte in (float_pte, int8_pte):
            logits, _ = ember_run(pte, image)
            probs = torch.from_numpy(logits).softmax(-1)[0]
            top = int(probs.argmax())
            cells.append((top, f"{names[top]} ({float(probs[top]):.0%})"))
        with torch.no_grad():
            eager = model(image).numpy()
        max_diff = max(max_diff, float(np.abs(ember_run(float_pte, image)[0] - eager).max()))
        agree = agree and cells[0][0] == cells[1][0] == int(eager.argmax())
        print(f"  {name:<16} {cells[0][1]:<34} {cells[1][1]:<34}")

    print("\nlatency (ember_run, 10 runs after 2 warm-ups, one image):")
    for label, pte in (("float", float_pte), ("int8", int8_pte)):
        _, timing = ember_run(pte, example, runs=10)
        size = os.path.getsize(pte) / 2**20
        print(f"  {label:<6} {size:6.1f} MiB  {timing}")
    print(f"\nfloat vs PyTorch eager: max abs logit difference {max_diff:.2e}")
    print("int8 names every photograph as float does" if agree
          else "int8 and float DISAGREE on some photograph")
    return 0 if agree and max_diff < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
