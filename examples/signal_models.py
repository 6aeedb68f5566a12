"""Small models built on ops outside core ATen (issue 10): an audio front-end
with stft, a bilinear classifier head, a median filter and a searchsorted
bucketizer. Each is exportable (`ember export examples/signal_models.py:
audio_front_end --input-shape 1x4000`) and tested against eager in
tests/python/test_signal_models.py.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from examples.models import seeded


def _mel_filterbank(n_freqs: int, n_mels: int, sample_rate: int) -> torch.Tensor:
    """Triangular mel filters [n_freqs, n_mels] (the HTK mel scale)."""
    def to_mel(f: float) -> float:
        return 2595.0 * math.log10(1.0 + f / 700.0)

    def to_hz(m: torch.Tensor) -> torch.Tensor:
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)

    freqs = torch.linspace(0, sample_rate / 2, n_freqs)
    mels = torch.linspace(to_mel(0.0), to_mel(sample_rate / 2), n_mels + 2)
    edges = to_hz(mels)
    lower, centre, upper = edges[:-2], edges[1:-1], edges[2:]
    rising = (freqs[:, None] - lower) / (centre - lower)
    falling = (upper - freqs[:, None]) / (upper - centre)
    return torch.clamp(torch.minimum(rising, falling), min=0.0)


class AudioFrontEnd(nn.Module):
    """Waveform [batch, samples] -> log-mel spectrogram [batch, n_mels, frames],
    and the waveform resynthesized from the spectrum by istft (a check that
    the inverse path exports too)."""

    def __init__(self, n_fft: int = 256, hop: int = 64, n_mels: int = 40,
                 sample_rate: int = 16000):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("mel", _mel_filterbank(n_fft // 2 + 1, n_mels, sample_rate))

    def forward(self, waveform: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        spectrum = torch.stft(waveform, self.n_fft, hop_length=self.hop, window=self.window,
                              return_complex=True)
        power = spectrum.abs() ** 2
        log_mel = torch.log(torch.matmul(power.transpose(1, 2), self.mel) + 1e-6).transpose(1, 2)
        resynthesized = torch.istft(spectrum, self.n_fft, hop_length=self.hop,
                                    window=self.window, length=waveform.shape[-1])
        return log_mel, resynthesized


class BilinearHead(nn.Module):
    """Two feature vectors fused by nn.Bilinear (which exports as _trilinear)."""

    def __init__(self, left: int = 12, right: int = 8, classes: int = 5):
        super().__init__()
        self.fuse = nn.Bilinear(left, right, 16)
        self.out = nn.Linear(16, classes)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.fuse(a, b)))


class MedianFilter(nn.Module):
    """A sliding median over the last dim (window `k`, edges reflected): removes
    impulse noise from a signal."""

    def __init__(self, k: int = 5):
        super().__init__()
        self.k = k

    def forward(self, signal: torch.Tensor) -> torch.Tensor:
        padded = nn.functional.pad(signal, (self.k // 2, self.k // 2), mode="reflect")
        return padded.unfold(-1, self.k, 1).median(dim=-1).values


class Bucketizer(nn.Module):
    """Continuous features -> bucket ids (searchsorted in learned boundaries)
    -> an embedding per bucket, summed over the features."""

    def __init__(self, features: int = 6, buckets: int = 10, dim: int = 8):
        super().__init__()
        self.register_buffer("boundaries", torch.linspace(-2.0, 2.0, buckets - 1))
        self.embed = nn.Embedding(buckets * features, dim)
        self.register_buffer("offsets", torch.arange(features) * buckets)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        ids = torch.searchsorted(self.boundaries, x.contiguous())
        return self.embed(ids + self.offsets).sum(dim=-2)


def audio_front_end() -> nn.Module:
    return seeded(AudioFrontEnd)


def bilinear_head() -> nn.Module:
    return seeded(BilinearHead)


def median_filter() -> nn.Module:
    return seeded(MedianFilter)


def bucketizer() -> nn.Module:
    return seeded(Bucketizer)
