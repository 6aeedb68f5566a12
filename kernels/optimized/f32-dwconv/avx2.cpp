// f32 depthwise convolution for AVX2 + FMA: 16-channel tiles (two ymm
// accumulators per pixel and tile), taps unrolled for 3x3 and 5x5, a masked
// channel tail. Compiled with -mavx2 -mfma for this file only.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kTile = 16;

inline const float* translate(const float* p, size_t offset, const float* zero) {
  return p != zero ? reinterpret_cast<const float*>(reinterpret_cast<uintptr_t>(p) + offset)
                   : zero;
}

// max(low, v) then min(high, v): each returns v, the second operand, when v
// is NaN, which passes through as torch.clamp lets it.
inline __m256 clamp(__m256 v, __m256 low, __m256 high) {
  return _mm256_min_ps(high, _mm256_max_ps(low, v));
}

// One pixel's channels. `in(t)` gives tap t's input pointer (translated).
template <size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const float* w, float* out, __m256 low,
                                                 __m256 high) {
  const size_t stride = (nt + 1) * kTile;  // floats per packed channel tile
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += stride) {
    __m256 acc0 = _mm256_loadu_ps(w);
    __m256 acc1 = _mm256_loadu_ps(w + 8);
    // Two chains per vector (even and odd taps) halve the dependent FMA
    // latency a pixel waits on when there are few channel tiles.
    __m256 acc2 = _mm256_setzero_ps();
    __m256 acc3 = _mm256_setzero_ps();
    size_t t = 0;
#pragma GCC unroll 25
    for (; t + 2 <= nt; t += 2) {
      const float* i0 = in(t) + c;
      const float* i1 = in(t + 1) + c;
      const float* w0 = w + kTile + t * kTile;
      acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(i0), _mm256_loadu_ps(w0), acc0);
      acc1 = _mm256_fmadd_ps(_mm256_loadu_ps(i0 + 8), _mm256_loadu_ps(w0 + 8), acc1);
      acc2 = _mm256_fmadd_ps(_mm256_loadu_ps(i1), _mm256_loadu_ps(w0 + kTile), acc2);
      acc3 = _mm256_fmadd_ps(_mm256_loadu_ps(i1 + 8), _mm256_loadu_ps(w0 + kTile + 8), acc3);
    }
    if (t < nt) {
      const float* i0 = in(t) + c;
      const float* w0 = w + kTile + t * kTile;
      acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(i0), _mm256_loadu_ps(w0), acc0);
      acc1 = _mm256_fmadd_ps(_mm256_loadu_ps(i0 + 8), _mm256_loadu_ps(w0 + 8), acc1);
    }
    _mm256_storeu_ps(out + c, clamp(_mm256_add_ps(acc0, acc2), low, high));
    _mm256_storeu_ps(out + c + 8, clamp(_mm256_add_ps(acc1, acc3), low, high));
  }
  if (c == channels) return;
  // The last, partial tile: an 8-channel half with lanes [0, 8) of the
  // packed tile, then up to 7 channels masked (the input is not read past
  // `channels`; the packed weights are padded).
  size_t lane = 0;
  if (channels - c >= 8) {
    __m256 acc = _mm256_loadu_ps(w);
#pragma GCC unroll 25
    for (size_t t = 0; t < nt; ++t) {
      acc = _mm256_fmadd_ps(_mm256_loadu_ps(in(t) + c), _mm256_loadu_ps(w + kTile + t * kTile),
                            acc);
    }
    _mm256_storeu_ps(out + c, clamp(acc, low, high));
    c += 8;
    lane = 8;
  }
  const size_t rem = channels - c;
  if (rem == 0) return;
  const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(rem)),
                                          _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 acc = _mm256_loadu_ps(w + lane);
#pragma GCC unroll 25
  for (size_t t = 0; t < nt; ++t) {
    acc = _mm256_fmadd_ps(_mm256_maskload_ps(in(t) + c, mask),
                          _mm256_loadu_ps(w + kTile + t * kTile + lane), acc);
  }
  _mm256_maskstore_ps(out + c, mask, clamp(acc, low, high));
}

// T: the tap count, or 0 when it is known at run time only.
template <size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const float* const* input,
            size_t input_stride, size_t input_offset, const float* zero, const float* weights,
            float* output, size_t output_stride, const F32DwconvParams* params) {
  const __m256 low = _mm256_set1_ps(params->min);
  const __m256 high = _mm256_set1_ps(params->max);
  for (size_t x = 0; x < pixels; ++x, input += input_stride, output += output_stride) {
    if constexpr (T != 0) {
      // The pixel's T pointers, translated once for all its channel tiles.
      const float* in[T];
#pragma GCC unroll 25
      for (size_t t = 0; t < T; ++t) in[t] = translate(input[t], input_offset, zero);
      pixel<T>(T, channels, [&](size_t t) { return in[t]; }, weights, output, low, high);
    } else {
      pixel<0>(taps, channels,
               [&](size_t t) { return translate(input[t], input_offset, zero); }, weights,
               output, low, high);
    }
  }
}

}  // namespace

extern const F32DwconvConfig kF32DwconvAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, kTile, dwconv<9>, dwconv<25>, dwconv<0>,
};

}  // namespace ember::kernels::optimized
