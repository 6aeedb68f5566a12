"""The Ember demo: export MobileNetV2, run it in the C++ runtime, compare with eager.

Run with `make demo`. Steps:
 1. build a MobileNetV2 with seeded weights (examples/models.py) and export it;
 2. run the .pte with the native runner `ember_run` on a fixed input;
 3. print the top-5 classes, the max abs difference from PyTorch eager, and
    the latency ember_run measured.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import tempfile

import ember
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from examples.models import mobilenet_v2


def find_ember_run() -> str:
    candidate = os.path.join(os.path.dirname(sys.executable), "ember_run")
    return candidate if os.path.exists(candidate) else shutil.which("ember_run") or "ember_run"


def main() -> int:
    out_dir = os.path.join("build", "demo")
    os.makedirs(out_dir, exist_ok=True)
    model = mobilenet_v2()
    torch.manual_seed(1)
    image = torch.randn(1, 3, 224, 224)

    print("exporting MobileNetV2 (each export pass and its time):")
    logging.basicConfig(format="  %(message)s")
    logging.getLogger("ember.export").setLevel(logging.INFO)
    program = ember.export(model, (image,))
    pte = os.path.join(out_dir, "mobilenet_v2.pte")
    program.save(pte)
    print(f"  {pte}: {program.report(nodes=False)}")

    print("running it with the C++ runner ember_run (10 timed runs) ...")
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, "input.npy"), image.numpy())
        run = subprocess.run(
            [find_ember_run(), pte, "--input", os.path.join(tmp, "input.npy"),
             "--output-dir", tmp, "--runs", "10", "--warmup", "2", "--print", "0"],
            capture_output=True, text=True, check=False)
        if run.returncode != 0:
            print(run.stdout + run.stderr, file=sys.stderr)
            return 1
        logits = np.load(os.path.join(tmp, "output_0.npy"))

    with torch.no_grad():
        expected = model(image).numpy()
    top5 = np.argsort(-logits[0])[:5]
    print("top-5 classes (ember_run):")
    for rank, cls in enumerate(top5, 1):
        print(f"  {rank}. class {cls:4d}  logit {logits[0, cls]: .5f}  (eager {expected[0, cls]: .5f})")
    max_diff = float(np.max(np.abs(logits - expected)))
    print(f"max abs difference from eager: {max_diff:.3e}")
    for line in run.stdout.splitlines():
        if line.startswith(("load", "run:")):
            print(f"ember_run {line}")
    same_top5 = list(top5) == list(np.argsort(-expected[0])[:5])
    print("top-5 matches eager" if same_top5 else "top-5 DIFFERS from eager")
    return 0 if max_diff < 1e-4 and same_top5 else 1


if __name__ == "__main__":
    sys.exit(main())
