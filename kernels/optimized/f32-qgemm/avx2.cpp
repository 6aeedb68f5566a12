// AVX2 + FMA (+ F16C for the block scales) microkernels of the quantized
// GEMM. A Q4_1 block's 16 code bytes give its 32 weights as 4 x 8 floats
// (low nibbles of bytes 0-7 and 8-15: weights 0-15; high nibbles: 16-31);
// the GEMV multiplies each into x for four output rows at once, so one load
// of x serves four weight rows and four independent FMA chains hide latency.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "kernels/optimized/simd/avx2_math.h"

namespace ember::kernels::optimized {
namespace {

using avx2::hsum;

// The 32 codes of a Q4_1 block as 4 x 8 floats (weights 0-7, 8-15, 16-23, 24-31).
struct Codes {
  __m256 q0, q1, q2, q3;
};

Codes q4_codes(const uint8_t* qs) {
  // Bytes 0-7 and 8-15 widened to 32-bit lanes straight from memory: the low
  // nibble is an AND away, the high one a shift (no byte shuffles, which
  // would compete for the one shuffle port with the widening).
  const __m256i a = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(qs)));
  const __m256i c =
      _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(qs + 8)));
  const __m256i mask = _mm256_set1_epi32(0x0F);
  return {_mm256_cvtepi32_ps(_mm256_and_si256(a, mask)),
          _mm256_cvtepi32_ps(_mm256_and_si256(c, mask)),
          _mm256_cvtepi32_ps(_mm256_srli_epi32(a, 4)),
          _mm256_cvtepi32_ps(_mm256_srli_epi32(c, 4))};
}

// The block's fp16 scale (lane 0) and, for Q4_1, minimum (lane 1) as floats.
__m128 scales(const uint8_t* block) {
  int32_t bits;
  __builtin_memcpy(&bits, block, 4);
  return _mm_cvtph_ps(_mm_cvtsi32_si128(bits));
}

Codes q8_codes(const uint8_t* qs) {
  auto load8 = [](const uint8_t* p) {
    return _mm256_cvtepi32_ps(
        _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
  };
  return {load8(qs), load8(qs + 8), load8(qs + 16), load8(qs + 24)};
}

__m256 dot(const Codes& c, __m256 x0, __m256 x1, __m256 x2, __m256 x3) {
  __m256 t = _mm256_mul_ps(c.q0, x0);
  t = _mm256_fmadd_ps(c.q1, x1, t);
  t = _mm256_fmadd_ps(c.q2, x2, t);
  return _mm256_fmadd_ps(c.q3, x3, t);
}

template <bool kQ4>
void gemv(size_t nb, const float* x, const float* xsum, const uint8_t* w, size_t w_row_bytes,
          size_t rows, float* y) {
  constexpr size_t kBlock = kQ4 ? 20 : 34;
  constexpr size_t kCodes = kQ4 ? 4 : 2;
  const uint8_t* row[4];
  for (size_t r = 0; r < 4; ++r) row[r] = w + (r < rows ? r : 0) * w_row_bytes;
  __m256 acc[4], mins[4];
  for (size_t r = 0; r < 4; ++r) acc[r] = mins[r] = _mm256_setzero_ps();
  for (size_t b = 0; b < nb; ++b) {
    const float* xb = x + b * 32;
    const __m256 x0 = _mm256_loadu_ps(xb), x1 = _mm256_loadu_ps(xb + 8);
    const __m256 x2 = _mm256_loadu_ps(xb + 16), x3 = _mm256_loadu_ps(xb + 24);
    const __m256 sum = kQ4 ? _mm256_set1_ps(xsum[b]) : _mm256_setzero_ps();
    for (size_t r = 0; r < 4; ++r) {
      const uint8_t* block = row[r] + b * kBlock;
      const Codes c = kQ4 ? q4_codes(block + kCodes) : q8_codes(block + kCodes);
      const __m128 dm = scales(block);
      acc[r] = _mm256_fmadd_ps(dot(c, x0, x1, x2, x3), _mm256_broadcastss_ps(dm), acc[r]);
      // Q4_1's m * sum(x), in every lane (lane 0 is read).
      if (kQ4) mins[r] = _mm256_fmadd_ps(_mm256_broadcastss_ps(_mm_movehdup_ps(dm)), sum, mins[r]);
    }
  }
  for (size_t r = 0; r < rows; ++r) y[r] = hsum(acc[r]) + _mm256_cvtss_f32(mins[r]);
}

template <bool kQ4>
void unpack(size_t nb, const uint8_t* w, size_t w_row_bytes, size_t rows, size_t nr,
            float* panel) {
  constexpr size_t kBlock = kQ4 ? 20 : 34;
  alignas(32) float values[32];
  for (size_t r = 0; r < nr; ++r) {
    const uint8_t* row = w + r * w_row_bytes;
    for (size_t b = 0; b < nb; ++b) {
      float* out = panel + b * 32 * nr + r;
      if (r >= rows) {
        for (size_t j = 0; j < 32; ++j) out[j * nr] = 0.0f;
        continue;
      }
      const uint8_t* block = row + b * kBlock;
      const Codes c = kQ4 ? q4_codes(block + 4) : q8_codes(block + 2);
      const __m128 dm = scales(block);
      const __m256 d = _mm256_broadcastss_ps(dm);
      const __m256 m = kQ4 ? _mm256_broadcastss_ps(_mm_movehdup_ps(dm)) : _mm256_setzero_ps();
      _mm256_store_ps(values, _mm256_fmadd_ps(c.q0, d, m));
      _mm256_store_ps(values + 8, _mm256_fmadd_ps(c.q1, d, m));
      _mm256_store_ps(values + 16, _mm256_fmadd_ps(c.q2, d, m));
      _mm256_store_ps(values + 24, _mm256_fmadd_ps(c.q3, d, m));
      for (size_t j = 0; j < 32; ++j) out[j * nr] = values[j];
    }
  }
}

}  // namespace

extern const F32QGemmConfig kF32QGemmAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm,
    gemv<true>, gemv<false>, unpack<true>, unpack<false>,
};

}  // namespace ember::kernels::optimized
