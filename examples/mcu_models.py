"""Models that belong on a microcontroller (docs/embedded.md), with seeded
weights and calibration data, and their export for the Cortex-M targets:

- kws: a DS-CNN keyword spotter on 49x10 MFCC features (MLPerf Tiny's shape);
- vww: MobileNetV2 with width 0.35 at 96x96 (visual wake words, 2 classes);
- resnet8: ResNet-8 on 32x32 images (MLPerf Tiny image classification);
- autoencoder: a fully connected autoencoder on 640 features (MLPerf
  Tiny's anomaly detection shape).

    python examples/mcu_models.py --target cortex-m55 --out-dir build/cortex-m-models/cortex-m55

quantizes each (static int8, ember.quantize), exports it for the target and
writes <name>.pte, <name>.inputs.bin (one input, raw) and <name>.expected.npz
(the host runtime's output for that input, the quantized model's in eager
PyTorch, and the float model's).
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Callable

import numpy as np
import torch
from torch import nn

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from examples.models import BasicBlock, MobileNetV2, seeded


class DSCNN(nn.Module):
    """DS-CNN (Zhang et al. 2017, MLPerf Tiny's KWS model): a 10x4 stride-2
    convolution, four depthwise-separable blocks, average pool, classifier."""

    def __init__(self, classes: int = 12, channels: int = 64, blocks: int = 4):
        super().__init__()
        layers: list[nn.Module] = [nn.Conv2d(1, channels, (10, 4), 2, (4, 1), bias=False),
                                   nn.BatchNorm2d(channels), nn.ReLU()]
        for _ in range(blocks):
            layers += [nn.Conv2d(channels, channels, 3, 1, 1, groups=channels, bias=False),
                       nn.BatchNorm2d(channels), nn.ReLU(),
                       nn.Conv2d(channels, channels, 1, bias=False), nn.BatchNorm2d(channels),
                       nn.ReLU()]
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(channels, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        return self.classifier(nn.functional.adaptive_avg_pool2d(x, 1).flatten(1))


class ResNet8(nn.Module):
    """ResNet-8 (MLPerf Tiny's image classifier): a 3x3 stem and three basic
    blocks of 16, 32 and 64 channels."""

    def __init__(self, classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16),
                                  nn.ReLU())
        self.blocks = nn.Sequential(BasicBlock(16, 16), BasicBlock(16, 32, 2),
                                    BasicBlock(32, 64, 2))
        self.fc = nn.Linear(64, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(self.stem(x))
        return self.fc(nn.functional.adaptive_avg_pool2d(x, 1).flatten(1))


class Autoencoder(nn.Module):
    """A fully connected autoencoder (MLPerf Tiny's anomaly detection shape:
    640 -> 128 x 4 -> 8 -> 128 x 4 -> 640)."""

    def __init__(self, features: int = 640, hidden: int = 128, bottleneck: int = 8):
        super().__init__()
        sizes = [features, hidden, hidden, hidden, hidden, bottleneck, hidden, hidden, hidden,
                 hidden]
        layers: list[nn.Module] = []
        for a, b in itertools.pairwise(sizes):
            layers += [nn.Linear(a, b), nn.ReLU()]
        layers.append(nn.Linear(hidden, features))
        self.layers = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)


# name -> (factory, input shape)
MODELS: dict[str, tuple[Callable[[], nn.Module], tuple[int, ...]]] = {
    "kws": (lambda: seeded(DSCNN), (1, 1, 49, 10)),
    "vww": (lambda: seeded(lambda: MobileNetV2(num_classes=2, width_mult=0.35)), (1, 3, 96, 96)),
    "resnet8": (lambda: seeded(ResNet8), (1, 3, 32, 32)),
    "autoencoder": (lambda: seeded(Autoencoder), (1, 640)),
}
CALIBRATION_SAMPLES = 8


def samples(name: str, count: int, seed: int) -> list[torch.Tensor]:
    """Seeded inputs shaped as the model's (standard normal: stand-ins for
    MFCCs, images and spectra, which the seeded weights have not seen either)."""
    generator = torch.Generator().manual_seed(seed)
    shape = MODELS[name][1]
    return [torch.randn(shape, generator=generator) for _ in range(count)]


def export(name: str, target: str, out_dir: str) -> str:
    """Quantizes model `name`, exports it for `target` into out_dir; returns the .pte's path."""
    import ember
    from ember.targets import cortex_m

    factory, _ = MODELS[name]
    model = factory()
    calibration = [(x,) for x in samples(name, CALIBRATION_SAMPLES, seed=1)]
    (x,) = samples(name, 1, seed=2)
    qmodel = ember.quantize(model, (x,), scheme="int8", calibration=calibration)
    program = cortex_m.export(qmodel, (x,), target=target)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{name}.pte")
    program.save(path, debug_info=False)
    with open(os.path.join(out_dir, f"{name}.inputs.bin"), "wb") as f:
        f.write(x.numpy().astype(np.float32).tobytes())
    host = ember.runtime.load(path).forward(x)
    with torch.no_grad():
        eager = qmodel(x)
        reference = model(x)
    np.savez(os.path.join(out_dir, f"{name}.expected.npz"), host=host.numpy(),
             eager=eager.numpy(), float=reference.numpy(), input=x.numpy())
    print(f"{name} for {target}: {os.path.getsize(path) / 1024:.1f} KiB; {program.lowering}")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", default=list(MODELS))
    parser.add_argument("--target", default="cortex-m55")
    parser.add_argument("--out-dir", required=True)
    args = parser.parse_args(argv)
    for name in args.models:
        if name not in MODELS:
            parser.error(f"unknown model {name!r}; models: {', '.join(MODELS)}")
        export(name, args.target, args.out_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
