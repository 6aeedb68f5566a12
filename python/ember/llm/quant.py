"""Ember's weight-only quantized formats, block for block the ones GGUF files
carry, so that importing a llama.cpp model adds no error of its own:

- 4-bit (`Q4_1`): groups of 32 weights along the input dim, each stored as a
  20-byte block: fp16 scale d, fp16 minimum m, 16 bytes of 4-bit codes q
  (byte j holds weight j in its low nibble and weight j + 16 in its high
  one); weight = d * q + m.
- 8-bit (`Q8_0`): groups of 32 as 34-byte blocks: fp16 scale d, 32 int8
  codes q; weight = d * q.

A weight [out, in] is a uint8 tensor [out, in / 32, block bytes]: each row's
blocks are contiguous, which is how the kernels stream them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

GROUP = 32


@dataclass(frozen=True)
class BlockFormat:
    name: str
    block_bytes: int


Q4_1 = BlockFormat("q4_1", 20)
Q8_0 = BlockFormat("q8_0", 34)
FORMATS = {f.name: f for f in (Q4_1, Q8_0)}


def _check_blocks(blocks: torch.Tensor, fmt: BlockFormat) -> None:
    if blocks.dtype != torch.uint8 or blocks.dim() != 3 or blocks.shape[2] != fmt.block_bytes:
        raise ValueError(f"{fmt.name} weights are uint8 [out, in / 32, {fmt.block_bytes}], got "
                         f"{blocks.dtype} {list(blocks.shape)}")


def dequantize(blocks: torch.Tensor, fmt: BlockFormat) -> torch.Tensor:
    """The float32 weight [out, in] that `blocks` hold (exactly: fp16 scales
    times small integers are exact in float32)."""
    _check_blocks(blocks, fmt)
    rows, groups, _ = blocks.shape
    raw = blocks.contiguous()
    d = raw[..., 0:2].contiguous().view(torch.float16).float()  # [rows, groups, 1]
    if fmt is Q4_1:
        m = raw[..., 2:4].contiguous().view(torch.float16).float()
        qs = raw[..., 4:20].to(torch.int32)
        q = torch.cat([qs & 0x0F, qs >> 4], dim=-1).float()  # weights 0..15, then 16..31
        return (q * d + m).reshape(rows, groups * GROUP)
    q = raw[..., 2:34].contiguous().view(torch.int8).float()
    return (q * d).reshape(rows, groups * GROUP)


def quantize(weight: torch.Tensor, fmt: BlockFormat) -> torch.Tensor:
    """Blocks for a float weight [out, in] (in a multiple of 32), rounded as
    llama.cpp's reference quantizers round."""
    if weight.dim() != 2 or weight.shape[1] % GROUP != 0:
        raise ValueError(f"a weight to quantize must be [out, in] with in a multiple of {GROUP}, "
                         f"got {list(weight.shape)}")
    x = weight.detach().float().cpu().numpy().reshape(weight.shape[0], -1, GROUP)
    rows, groups, _ = x.shape
    out = np.zeros((rows, groups, fmt.block_bytes), dtype=np.uint8)
    if fmt is Q4_1:
        low, high = x.min(axis=-1), x.max(axis=-1)
        d = (high - low) / 15.0
        inv = np.divide(1.0, d, out=np.zeros_like(d), where=d != 0)
        q = np.clip(np.floor((x - low[..., None]) * inv[..., None] + 0.5), 0, 15).astype(np.uint8)
        out[..., 0:2] = _fp16_bytes(d)
        out[..., 2:4] = _fp16_bytes(low)
        out[..., 4:20] = q[..., :16] | (q[..., 16:] << 4)
    else:
        amax = np.abs(x).max(axis=-1)
        d = amax / 127.0
        inv = np.divide(1.0, d, out=np.zeros_like(d), where=d != 0)
        scaled = x * inv[..., None]
        # roundf: halves away from zero (numpy's round goes to even).
        q = np.clip(np.sign(scaled) * np.floor(np.abs(scaled) + 0.5), -127, 127).astype(np.int8)
        out[..., 0:2] = _fp16_bytes(d)
        out[..., 2:34] = q.view(np.uint8)
    return torch.from_numpy(out)


def _fp16_bytes(values: np.ndarray) -> np.ndarray:
    """[...] floats -> [..., 2] bytes of their fp16 values."""
    return np.ascontiguousarray(values.astype(np.float16)).view(np.uint8).reshape(*values.shape, 2)
