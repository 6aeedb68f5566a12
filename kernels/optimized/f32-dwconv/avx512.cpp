// f32 depthwise convolution for AVX-512: 32-channel tiles, the last partial
// tile as a 16-channel half and one masked vector. 3x3 and 5x5 hold a tile's
// weights in registers over a block of pixels (weight-stationary, which
// AVX2's 16 registers cannot); other windows go pixel by pixel, every tile
// of a pixel with the weights loaded, as avx2.cpp does. Compiled with
// ${EMBER_AVX512_FLAGS} for this file only.
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "kernels/optimized/simd/avx512_math.h"

namespace ember::kernels::optimized {
namespace {

using avx512::tail_mask;

constexpr size_t kTile = 32;

inline const float* translate(const float* p, size_t offset, const float* zero) {
  return p != zero ? reinterpret_cast<const float*>(reinterpret_cast<uintptr_t>(p) + offset)
                   : zero;
}

// max(low, v) then min(high, v): each returns v, the second operand, when v
// is NaN, which passes through as torch.clamp lets it.
inline __m512 clamp(__m512 v, __m512 low, __m512 high) {
  return _mm512_min_ps(high, _mm512_max_ps(low, v));
}

// One pixel's channels. `in(t)` gives tap t's input pointer (translated).
template <size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const float* w, float* out, __m512 low,
                                                 __m512 high) {
  const size_t stride = (nt + 1) * kTile;  // floats per packed channel tile
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += stride) {
    __m512 acc0 = _mm512_loadu_ps(w);
    __m512 acc1 = _mm512_loadu_ps(w + 16);
    // Two chains per vector (even and odd taps) halve the dependent FMA
    // latency a pixel waits on when there are few channel tiles.
    __m512 acc2 = _mm512_setzero_ps();
    __m512 acc3 = _mm512_setzero_ps();
    size_t t = 0;
#pragma GCC unroll 25
    for (; t + 2 <= nt; t += 2) {
      const float* i0 = in(t) + c;
      const float* i1 = in(t + 1) + c;
      const float* w0 = w + kTile + t * kTile;
      acc0 = _mm512_fmadd_ps(_mm512_loadu_ps(i0), _mm512_loadu_ps(w0), acc0);
      acc1 = _mm512_fmadd_ps(_mm512_loadu_ps(i0 + 16), _mm512_loadu_ps(w0 + 16), acc1);
      acc2 = _mm512_fmadd_ps(_mm512_loadu_ps(i1), _mm512_loadu_ps(w0 + kTile), acc2);
      acc3 = _mm512_fmadd_ps(_mm512_loadu_ps(i1 + 16), _mm512_loadu_ps(w0 + kTile + 16), acc3);
    }
    if (t < nt) {
      const float* i0 = in(t) + c;
      const float* w0 = w + kTile + t * kTile;
      acc0 = _mm512_fmadd_ps(_mm512_loadu_ps(i0), _mm512_loadu_ps(w0), acc0);
      acc1 = _mm512_fmadd_ps(_mm512_loadu_ps(i0 + 16), _mm512_loadu_ps(w0 + 16), acc1);
    }
    _mm512_storeu_ps(out + c, clamp(_mm512_add_ps(acc0, acc2), low, high));
    _mm512_storeu_ps(out + c + 16, clamp(_mm512_add_ps(acc1, acc3), low, high));
  }
  if (c == channels) return;
  // The last, partial tile: a 16-channel half with lanes [0, 16) of the
  // packed tile, then up to 15 channels masked (the input is not read past
  // `channels`; the packed weights are padded).
  size_t lane = 0;
  if (channels - c >= 16) {
    __m512 acc = _mm512_loadu_ps(w);
#pragma GCC unroll 25
    for (size_t t = 0; t < nt; ++t) {
      acc = _mm512_fmadd_ps(_mm512_loadu_ps(in(t) + c), _mm512_loadu_ps(w + kTile + t * kTile),
                            acc);
    }
    _mm512_storeu_ps(out + c, clamp(acc, low, high));
    c += 16;
    lane = 16;
  }
  const size_t rem = channels - c;
  if (rem == 0) return;
  const __mmask16 mask = tail_mask(rem);
  __m512 acc = _mm512_loadu_ps(w + lane);
#pragma GCC unroll 25
  for (size_t t = 0; t < nt; ++t) {
    acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, in(t) + c),
                          _mm512_loadu_ps(w + kTile + t * kTile + lane), acc);
  }
  _mm512_mask_storeu_ps(out + c, mask, clamp(acc, low, high));
}

// T: the tap count, or 0 when it is known at run time only.
template <size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const float* const* input,
            size_t input_stride, size_t input_offset, const float* zero, const float* weights,
            float* output, size_t output_stride, const F32DwconvParams* params) {
  const __m512 low = _mm512_set1_ps(params->min);
  const __m512 high = _mm512_set1_ps(params->max);
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

// Weight-stationary: one channel tile (NV vectors of 16 lanes) over a block
// of pixels, its T taps x NV vectors of weights held in registers (AVX2's 16
// registers cannot hold a tile's), so that a pixel costs its input loads and
// FMAs and no weight loads. The taps go round-robin into C partial sums per
// vector: for 5x5 with one vector, one chain of 25 dependent FMAs would make
// each pixel wait 100 cycles, longer than the out-of-order window covers
// (3 chains: 1.4x faster); for 3x3 with two vectors, one chain each measured
// fastest. `mask` covers the masked rest of the last tile (full vectors
// otherwise).
template <size_t T, size_t NV, size_t C>
__attribute__((always_inline)) inline void stationary(size_t pixels, const float* const* input,
                                                      size_t input_stride, size_t input_offset,
                                                      const float* zero, size_t c, const float* w,
                                                      float* output, size_t output_stride,
                                                      __mmask16 mask, __m512 low, __m512 high) {
  __m512 wt[T][NV];
#pragma GCC unroll 25
  for (size_t t = 0; t < T; ++t) {
#pragma GCC unroll 2
    for (size_t v = 0; v < NV; ++v) wt[t][v] = _mm512_loadu_ps(w + kTile * (t + 1) + 16 * v);
  }
  for (size_t x = 0; x < pixels; ++x, input += input_stride, output += output_stride) {
    __m512 acc[C][NV];
#pragma GCC unroll 2
    for (size_t v = 0; v < NV; ++v) {
      acc[0][v] = _mm512_loadu_ps(w + 16 * v);  // the bias
#pragma GCC unroll 3
      for (size_t k = 1; k < C; ++k) acc[k][v] = _mm512_setzero_ps();
    }
#pragma GCC unroll 25
    for (size_t t = 0; t < T; ++t) {
      const float* in = translate(input[t], input_offset, zero) + c;
#pragma GCC unroll 2
      for (size_t v = 0; v < NV; ++v) {
        acc[t % C][v] =
            _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, in + 16 * v), wt[t][v], acc[t % C][v]);
      }
    }
#pragma GCC unroll 2
    for (size_t v = 0; v < NV; ++v) {
      __m512 sum = acc[0][v];
#pragma GCC unroll 3
      for (size_t k = 1; k < C; ++k) sum = _mm512_add_ps(sum, acc[k][v]);
      _mm512_mask_storeu_ps(output + c + 16 * v, mask, clamp(sum, low, high));
    }
  }
}

// Output pixels per block (dwconv_stationary): 8 kept the layers whose
// tensors live in L3 (MobileNetV2's 112x112x96, 56x56x144) at the
// pixel-by-pixel order's speed; 32 was up to 10% faster on L2-resident ones
// and up to 14% slower on those.
constexpr size_t kPixelBlock = 8;

// T taps (9 or 25), the full tiles NV_FULL vectors at a time (2: 18 + 2
// registers for 3x3; 1: two 16-lane passes per tile, 25 + 3 for 5x5), C
// chains per vector.
template <size_t T, size_t NV_FULL, size_t C>
void dwconv_stationary(size_t, size_t channels, size_t pixels, const float* const* input,
                       size_t input_stride, size_t input_offset, const float* zero,
                       const float* weights, float* output, size_t output_stride,
                       const F32DwconvParams* params) {
  const __m512 low = _mm512_set1_ps(params->min);
  const __m512 high = _mm512_set1_ps(params->max);
  constexpr size_t kStride = (T + 1) * kTile;  // floats per packed channel tile
  // Pixels in blocks, every channel tile over a block before the next block:
  // the block's input pixels stay in L1 from one tile to the next, and a
  // tile's weights are loaded once per block.
  for (size_t x0 = 0; x0 < pixels; x0 += kPixelBlock) {
    const size_t np = pixels - x0 < kPixelBlock ? pixels - x0 : kPixelBlock;
    const float* const* in = input + x0 * input_stride;
    float* out = output + x0 * output_stride;
    auto run = [&](auto nv, size_t c, const float* w, __mmask16 mask) {
      stationary<T, decltype(nv)::value, C>(np, in, input_stride, input_offset, zero, c, w, out,
                                         output_stride, mask, low, high);
    };
    using One = std::integral_constant<size_t, 1>;
    size_t c = 0;
    const float* w = weights;
    for (; c + kTile <= channels; c += kTile, w += kStride) {
      if constexpr (NV_FULL == 2) {
        run(std::integral_constant<size_t, 2>{}, c, w, 0xFFFF);
      } else {
        run(One{}, c, w, 0xFFFF);
        run(One{}, c + 16, w + 16, 0xFFFF);  // lanes [16, 32) of the packed tile
      }
    }
    // The last, partial tile: a 16-channel half, then the masked rest (the
    // input is not read past `channels`; the packed weights are padded).
    if (channels - c >= 16) {
      run(One{}, c, w, 0xFFFF);
      c += 16;
      w += 16;
    }
    if (c < channels) run(One{}, c, w, tail_mask(channels - c));
  }
}

}  // namespace

extern const F32DwconvConfig kF32DwconvAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, kTile,
    dwconv_stationary<9, 2, 1>, dwconv_stationary<25, 1, 3>, dwconv<0>,
};

}  // namespace ember::kernels::optimized
