// The int8 depthwise convolution of the 256-bit x86 variants (avx2.cpp:
// vpmaddwd and an add; avxvnni.cpp: vpdpwssd, one instruction), 16-channel
// tiles: two taps' inputs interleaved byte by byte and sign-extended make
// int16 pairs, which one multiply-add per 8 channels sums against the packed
// weight pairs (Qs8DwconvLayout::S16Pairs) into int32 lanes, exactly.
//
// Functions in a header, as qs8-gemm/avx2_tiles.h has them: the #error keeps
// files without AVX2 out, and the unnamed namespace gives each variant file
// its own copy.
#pragma once

#if !defined(__AVX2__) || !defined(__FMA__)
#error "qs8-dwconv/avx2_tiles.h is for files compiled with -mavx2 -mfma only"
#endif

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qs8-dwconv/pixels_body.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"

namespace ember::kernels::optimized::qs8_dwconv_avx2 {
namespace {

constexpr size_t kTile = 16;

// One tile of 16 channels of one pixel, tap t's inputs at in(t).
// Dot::add(acc, x, w) adds the int16 pair products of x and w.
template <typename Dot, size_t T, typename In>
__attribute__((always_inline)) inline void tile(size_t nt, In in, const uint8_t* w, int8_t* out,
                                                const Qs8RequantParams* params) {
  const int32_t* head = reinterpret_cast<const int32_t*>(w);
  const uint8_t* pairs = w + kTile * sizeof(int32_t);
  __m256i acc0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(head));
  __m256i acc1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(head + 8));
  size_t t = 0;
#pragma GCC unroll 13
  for (; t < nt; t += 2, pairs += 4 * kTile) {
    const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in(t)));
    // An odd count's last pair: the padding tap's weight is zero, any input
    // will do, and this one is in bounds.
    const __m128i x1 =
        t + 1 < nt ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(in(t + 1))) : x0;
    const __m256i lo = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(x0, x1));
    const __m256i hi = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(x0, x1));
    acc0 = Dot::add(acc0, lo, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pairs)));
    acc1 = Dot::add(acc1, hi, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pairs + 32)));
  }
  const float* scale = reinterpret_cast<const float*>(pairs);
  const __m256 low = _mm256_set1_ps(static_cast<float>(params->min - params->zero));
  const __m256 high = _mm256_set1_ps(static_cast<float>(params->max - params->zero));
  const __m256i zero = _mm256_set1_epi32(params->zero);
  // Scale, clamp (integer bounds less the zero point), round half to even,
  // add the zero point, narrow (in range already; the permute undoes packs'
  // per-half order).
  __m256 f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc0), _mm256_loadu_ps(scale));
  __m256 f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc1), _mm256_loadu_ps(scale + 8));
  f0 = _mm256_min_ps(_mm256_max_ps(f0, low), high);
  f1 = _mm256_min_ps(_mm256_max_ps(f1, low), high);
  const __m256i q0 = _mm256_add_epi32(_mm256_cvtps_epi32(f0), zero);
  const __m256i q1 = _mm256_add_epi32(_mm256_cvtps_epi32(f1), zero);
  const __m256i w16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(q0, q1), 0xD8);
  const __m128i bytes =
      _mm_packs_epi16(_mm256_castsi256_si128(w16), _mm256_extracti128_si256(w16, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), bytes);
}

// One pixel's channels, tap t's input pixel at in(t).
template <typename Dot, size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const uint8_t* w, int8_t* out,
                                                 const Qs8RequantParams* params) {
  const size_t tile_bytes = 2 * kTile * sizeof(int32_t) + (nt + 1) / 2 * 4 * kTile;
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += tile_bytes) {
    tile<Dot, T>(nt, [&](size_t t) { return in(t) + c; }, w, out + c, params);
  }
  // The last, partial tile (channel counts not a multiple of 16 are rare),
  // in plain C++: no vector load may read past the input's channels.
  const int32_t* head = reinterpret_cast<const int32_t*>(w);
  const uint8_t* pairs = w + kTile * sizeof(int32_t);
  const float* scale = reinterpret_cast<const float*>(pairs + (nt + 1) / 2 * 4 * kTile);
  for (size_t j = 0; c + j < channels; ++j) {
    uint32_t acc = static_cast<uint32_t>(head[j]);
    for (size_t t = 0; t < nt; ++t) {
      int16_t wt;
      std::memcpy(&wt, pairs + ((t / 2) * kTile + j) * 4 + (t % 2) * 2, sizeof(wt));
      acc += static_cast<uint32_t>(in(t)[c + j] * wt);
    }
    out[c + j] = qs8_requantize(static_cast<int32_t>(acc), scale[j], *params);
  }
}

// T: the tap count, or 0 when it is known at run time only.
template <typename Dot, size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const int8_t* const* input,
            size_t input_stride, size_t input_offset, const int8_t* zero, const void* weights,
            int8_t* output, size_t output_stride, const Qs8RequantParams* params) {
  const uint8_t* w = static_cast<const uint8_t*>(weights);
  walk_pixels<T>(taps, pixels, input, input_stride, input_offset, zero, output, output_stride,
                 [&](size_t nt, auto in, int8_t* out) {
                   pixel<Dot, T>(nt, channels, in, w, out, params);
                 });
}

}  // namespace
}  // namespace ember::kernels::optimized::qs8_dwconv_avx2
