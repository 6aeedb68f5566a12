"""Ember's weight-only quantized formats, value for value the ones GGUF files
carry, so that importing a llama.cpp model adds no error of its own:

- 4-bit (`Q4_1`): groups of 32 weights along the input dim, each with an
  fp16 scale d, an fp16 minimum m and 32 4-bit codes q (20 bytes);
  weight = d * q + m.
- 8-bit (`Q8_0`): groups of 32 with an fp16 scale d and 32 int8 codes q
  (34 bytes); weight = d * q.

GGUF stores each row's blocks one after another. Ember stores the same bytes
rearranged in panels of 16 rows, so that a SIMD lane can hold one output
row and a GEMV never sums across lanes (kernels/portable/llm_ops.h):

- a weight [out, in] is a uint8 tensor [out, in / 32, block bytes];
- rows go in panels of 16 (the last one holds what is left, h rows); a
  panel's blocks follow each other, block b of its h rows together;
- one panel block: the h scales d (fp16), for Q4_1 the h minimums m, then
  the codes in chunks of 4 bytes per row, row after row: Q4_1 has 4 chunks,
  byte i of chunk c holding weight 8c + i (low nibble) and 8c + 4 + i (high
  nibble); Q8_0 has 8 chunks, byte i of chunk c holding weight 4c + i.

`from_gguf` and `to_gguf` convert between the two orders, exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

GROUP = 32
PANEL_ROWS = 16


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


def _codes(rows: np.ndarray, fmt: BlockFormat) -> np.ndarray:
    """GGUF blocks [..., block bytes] -> their 32 codes [..., 32] in weight
    order (uint8 0..15 for Q4_1, int8 for Q8_0)."""
    if fmt is Q4_1:
        qs = rows[..., 4:20]
        return np.concatenate([qs & 0x0F, qs >> 4], axis=-1)
    return rows[..., 2:34].view(np.int8)


def _panel_blocks(rows: np.ndarray, fmt: BlockFormat) -> np.ndarray:
    """GGUF blocks of panels of h rows [panels, h, groups, block bytes] ->
    the panels' blocks [panels, groups, h * block bytes]."""
    panels, h, groups, _ = rows.shape
    by_block = rows.transpose(0, 2, 1, 3)  # [panels, groups, h, bytes]
    scales = by_block[..., 0:4 if fmt is Q4_1 else 2].reshape(panels, groups, h, -1, 2)
    scales = scales.transpose(0, 1, 3, 2, 4).reshape(panels, groups, -1)  # d[h] (then m[h])
    q = _codes(by_block, fmt).view(np.uint8)
    if fmt is Q4_1:
        q = q.reshape(panels, groups, h, 4, 2, 4)  # chunk c, low/high half, byte i
        q = q[..., 0, :] | (q[..., 1, :] << 4)
    chunks = q.reshape(panels, groups, h, -1, 4).transpose(0, 1, 3, 2, 4)
    return np.concatenate([scales, chunks.reshape(panels, groups, -1)], axis=-1)


def _gguf_blocks(panels: np.ndarray, h: int, fmt: BlockFormat) -> np.ndarray:
    """The inverse of _panel_blocks: [panels, groups, h * block bytes] ->
    [panels, h, groups, block bytes]."""
    count, groups, _ = panels.shape
    n_scales = 2 if fmt is Q4_1 else 1
    scales = panels[..., :2 * h * n_scales].reshape(count, groups, n_scales, h, 2)
    scales = scales.transpose(0, 3, 1, 2, 4).reshape(count, h, groups, -1)
    chunks = panels[..., 2 * h * n_scales:].reshape(count, groups, -1, h, 4)
    chunks = chunks.transpose(0, 3, 1, 2, 4)  # [panels, h, groups, chunk, byte]
    if fmt is Q4_1:
        q = np.stack([chunks & 0x0F, chunks >> 4], axis=4).reshape(count, h, groups, 32)
        codes = q[..., :16] | (q[..., 16:] << 4)
    else:
        codes = chunks.reshape(count, h, groups, 32)
    return np.concatenate([scales, codes], axis=-1)


def _split_panels(n: int) -> list[tuple[int, int, int]]:
    """(first row, panels, rows per panel): the full panels, then the rest."""
    full = n // PANEL_ROWS
    parts = [(0, full, PANEL_ROWS)] if full else []
    if n % PANEL_ROWS:
        parts.append((full * PANEL_ROWS, 1, n % PANEL_ROWS))
    return parts


def from_gguf(rows: torch.Tensor, fmt: BlockFormat) -> torch.Tensor:
    """GGUF's blocks [out, in / 32, block bytes] (each row's blocks in a run)
    -> Ember's blocks: the same bytes in panel order."""
    _check_blocks(rows, fmt)
    data = rows.contiguous().numpy()
    n, groups, block = data.shape
    out = np.empty(n * groups * block, dtype=np.uint8)
    for first, panels, h in _split_panels(n):
        part = data[first:first + panels * h].reshape(panels, h, groups, block)
        out[first * groups * block:(first + panels * h) * groups * block] = \
            _panel_blocks(part, fmt).reshape(-1)
    return torch.from_numpy(out.reshape(data.shape))


def to_gguf(blocks: torch.Tensor, fmt: BlockFormat) -> torch.Tensor:
    """Ember's blocks -> GGUF's row order (the inverse of from_gguf)."""
    _check_blocks(blocks, fmt)
    data = blocks.contiguous().numpy()
    n, groups, block = data.shape
    flat = data.reshape(-1)
    out = np.empty_like(data)
    for first, panels, h in _split_panels(n):
        part = flat[first * groups * block:(first + panels * h) * groups * block]
        out[first:first + panels * h] = _gguf_blocks(
            part.reshape(panels, groups, -1), h, fmt).reshape(panels * h, groups, block)
    return torch.from_numpy(out)


def dequantize_rows(blocks: torch.Tensor, fmt: BlockFormat,
                    indices: torch.Tensor) -> torch.Tensor:
    """The float32 rows [len(indices), in] of the weight `blocks` hold, read
    in place from the panels (exactly: fp16 scales times small integers are
    exact in float32)."""
    _check_blocks(blocks, fmt)
    n, groups, block = blocks.shape
    flat = blocks.contiguous().view(-1).long()
    r = indices.reshape(-1).long()
    lane = r % PANEL_ROWS
    first = r - lane
    h = torch.clamp(n - first, max=PANEL_ROWS)
    # Byte offset of each requested row's panel block b: [rows, groups].
    start = (first * groups * block)[:, None] + torch.arange(groups)[None, :] * (h * block)[:, None]
    h, lane = h[:, None], lane[:, None]

    def fp16(offset: torch.Tensor) -> torch.Tensor:
        raw = flat[offset] | (flat[offset + 1] << 8)
        return raw.to(torch.int16).view(torch.float16).float() if raw.numel() else raw.float()

    d = fp16(start + 2 * lane)[..., None]
    n_chunks, codes_at = (4, start + 4 * h) if fmt is Q4_1 else (8, start + 2 * h)
    chunk = torch.arange(n_chunks)[None, None, :, None] * (4 * h)[..., None, None]
    byte = codes_at[..., None, None] + chunk + (4 * lane)[..., None, None] + torch.arange(4)
    q = flat[byte]  # [rows, groups, chunk, 4]
    if fmt is Q4_1:
        m = fp16(start + 2 * h + 2 * lane)[..., None]
        codes = torch.stack([q & 0x0F, q >> 4], dim=3).reshape(*q.shape[:2], GROUP)
        values = codes.float() * d + m
    else:
        values = q.to(torch.uint8).view(torch.int8).reshape(*q.shape[:2], GROUP).float() * d
    return values.reshape(len(r), groups * GROUP)


def dequantize(blocks: torch.Tensor, fmt: BlockFormat) -> torch.Tensor:
    """The float32 weight [out, in] that `blocks` hold, exactly."""
    return dequantize_rows(blocks, fmt, torch.arange(blocks.shape[0]))


def quantize(weight: torch.Tensor, fmt: BlockFormat) -> torch.Tensor:
    """Blocks for a float weight [out, in] (in a multiple of 32), rounded as
    llama.cpp's reference quantizers round, in Ember's panel order."""
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
    return from_gguf(torch.from_numpy(out), fmt)


def _fp16_bytes(values: np.ndarray) -> np.ndarray:
    """[...] floats -> [..., 2] bytes of their fp16 values."""
    return np.ascontiguousarray(values.astype(np.float16)).view(np.uint8).reshape(*values.shape, 2)
