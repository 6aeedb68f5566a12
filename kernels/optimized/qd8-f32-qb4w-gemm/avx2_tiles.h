// The 4-bit grouped-weight GEMM tiles of the 256-bit x86 variants (avx2.cpp:
// vpmaddwd on int16 k-pairs; avxvnni.cpp: vpdpbusd on u8 x s8 k-quads), 3
// rows x 16 columns: per group an int32 dot product per row and vector
// (the variant's inner loop), then converted and accumulated in float times
// the group's scale; the zero point, row scale and bias at the end.
//
// Functions in a header, as qs8-gemm/avx2_tiles.h has them: the #error keeps
// files without AVX2 out, and the unnamed namespace gives each variant file
// its own copy.
#pragma once

#if !defined(__AVX2__) || !defined(__FMA__)
#error "qd8-f32-qb4w-gemm/avx2_tiles.h is for files compiled with -mavx2 -mfma only"
#endif

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qd8-f32-qb4w-gemm/qd8_f32_qb4w_gemm.h"

namespace ember::kernels::optimized::qb4w_avx2 {
namespace {

constexpr size_t kMr = 3;
constexpr size_t kNr = 16;

inline uint32_t load_u32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// 16 * w of the low and of the high nibbles of v's bytes, as int8 lanes: the
// low nibble moved to the high half (the 16-bit shift carries the byte's
// high nibble into its neighbour's low half, which the and clears).
inline __m128i low_nibbles(__m128i v) {
  return _mm_and_si128(_mm_slli_epi16(v, 4), _mm_set1_epi8(static_cast<char>(0xF0)));
}
inline __m128i high_nibbles(__m128i v) {
  return _mm_and_si128(v, _mm_set1_epi8(static_cast<char>(0xF0)));
}
inline __m256i low_nibbles(__m256i v) {
  return _mm256_and_si256(_mm256_slli_epi16(v, 4), _mm256_set1_epi8(static_cast<char>(0xF0)));
}
inline __m256i high_nibbles(__m256i v) {
  return _mm256_and_si256(v, _mm256_set1_epi8(static_cast<char>(0xF0)));
}

// Inner supplies AValue, kShift, kKr and dot<MR>(group, rows, bytes, acc),
// which adds each row's group of products into acc[i][0..2).
template <typename Inner, size_t MR>
void tile(size_t nr, size_t k, size_t group, const typename Inner::AValue* a,
          const uint8_t* panel, float* c, size_t c_stride, const int32_t* row_zero,
          const float* row_scale, const Qd8F32Params* params) {
  const float* corr = reinterpret_cast<const float*>(panel);
  const float* bias = corr + kNr;
  const uint8_t* g = panel + 2 * kNr * sizeof(float);
  const size_t group_bytes = kNr * sizeof(float) + group * kNr / 2;
  __m256 acc[MR][2];
  for (size_t i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = _mm256_setzero_ps();
  for (size_t k0 = 0; k0 < k; k0 += group, g += group_bytes) {
    const float* scale = reinterpret_cast<const float*>(g);
    const typename Inner::AValue* rows[MR];
    for (size_t i = 0; i < MR; ++i) rows[i] = a + i * k + k0;
    __m256i dot[MR][2];
    for (size_t i = 0; i < MR; ++i) dot[i][0] = dot[i][1] = _mm256_setzero_si256();
    Inner::template dot<MR>(group, rows, g + kNr * sizeof(float), dot);
    const __m256 s0 = _mm256_loadu_ps(scale);
    const __m256 s1 = _mm256_loadu_ps(scale + 8);
    for (size_t i = 0; i < MR; ++i) {
      acc[i][0] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot[i][0]), s0, acc[i][0]);
      acc[i][1] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot[i][1]), s1, acc[i][1]);
    }
  }
  const __m256 low = _mm256_set1_ps(params->min);
  const __m256 high = _mm256_set1_ps(params->max);
  for (size_t i = 0; i < MR; ++i) {
    const __m256 zero = _mm256_set1_ps(static_cast<float>(row_zero[i] + Inner::kShift));
    const __m256 rs = _mm256_set1_ps(row_scale[i]);
    float out[kNr];
    for (size_t v = 0; v < 2; ++v) {
      const __m256 t = _mm256_fnmadd_ps(zero, _mm256_loadu_ps(corr + 8 * v), acc[i][v]);
      const __m256 y = _mm256_fmadd_ps(t, rs, _mm256_loadu_ps(bias + 8 * v));
      _mm256_storeu_ps(out + 8 * v, _mm256_min_ps(_mm256_max_ps(y, low), high));
    }
    std::memcpy(c + i * c_stride, out, nr * sizeof(float));
  }
}

template <typename Inner>
void ukernel(size_t mr, size_t nr, size_t k, size_t group, const void* a, const void* panel,
             float* c, size_t c_stride, const int32_t* row_zero, const float* row_scale,
             const Qd8F32Params* params) {
  const auto* as = static_cast<const typename Inner::AValue*>(a);
  const uint8_t* pw = static_cast<const uint8_t*>(panel);
  switch (mr) {
    case 3: return tile<Inner, 3>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
    case 2: return tile<Inner, 2>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
    default:
      return tile<Inner, 1>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
  }
}

}  // namespace
}  // namespace ember::kernels::optimized::qb4w_avx2
