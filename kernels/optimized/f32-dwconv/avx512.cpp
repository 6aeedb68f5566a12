// f32 depthwise convolution for AVX-512: 32-channel tiles, the last partial
// tile as a 16-channel half and one masked vector. 3x3 and 5x5 hold a tile's
// weights in registers over a block of pixels (weight-stationary, which
// AVX2's 16 registers cannot); other windows go pixel by pixel, every tile
// of a pixel with the weights loaded: dwconv_body.h at 16 lanes. Compiled
// with ${EMBER_AVX512_FLAGS} for this file only.
#include <immintrin.h>

#include <type_traits>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "kernels/optimized/simd/avx512_math.h"
#include "kernels/optimized/f32-dwconv/dwconv_body.h"

namespace ember::kernels::optimized {
namespace {

using avx512::tail_mask;
using W = avx512::Vec;

constexpr size_t kTile = 2 * W::kLanes;

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
      _mm512_mask_storeu_ps(output + c + 16 * v, mask, clamp<W>(sum, low, high));
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
    dwconv_stationary<9, 2, 1>, dwconv_stationary<25, 1, 3>, dwconv<W, 0>,
};

}  // namespace ember::kernels::optimized
