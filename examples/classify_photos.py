"""Classifies scikit-image's sample photographs with an EfficientNet-Lite0
program on the C++ runner (ember_run): the top class of each photograph,
checked against PyTorch eager, and the latency. `make efficientnet-cpu` and
`make efficientnet-portable` end with it.

    python examples/classify_photos.py out/efficientnet_lite0_cpu.pte
"""

from __future__ import annotations

import os
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from examples import efficientnet_lite
from examples.demo import ember_run, find_ember_run


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    pte = argv[0]
    names = efficientnet_lite.imagenet_classes()
    model = efficientnet_lite.efficientnet_lite0()
    photos = efficientnet_lite.photo_batch()
    print(f"{find_ember_run()} {pte}, on {len(photos)} photographs:")
    agree = 0
    for name, image in photos:
        logits, _ = ember_run(pte, image)
        probs = torch.from_numpy(logits).softmax(-1)[0]
        top = int(probs.argmax())
        with torch.no_grad():
            eager = int(model(image).argmax())
        agree += top == eager
        mark = "" if top == eager else f"   (PyTorch eager: {names[eager]})"
        print(f"  {name:<16} {names[top]} ({float(probs[top]):.0%}){mark}")
    _, timing = ember_run(pte, photos[0][1], runs=10)
    print(f"PyTorch eager names {agree} of {len(photos)} the same; latency: {timing}")
    return 0 if agree == len(photos) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
