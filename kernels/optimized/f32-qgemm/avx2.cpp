// AVX2 + FMA (+ F16C for the block scales) microkernels of the quantized
// GEMM: qgemm_body.h at 8 lanes, a panel of 16 rows as two vectors, and
// Q4_1's GEMV on x's digits.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-qgemm/qgemm_body.h"

namespace ember::kernels::optimized {
namespace {

struct Q : avx2::Vec {
  using Codes = __m256i;
  static constexpr bool kPrefetchAhead = true;
  static Codes codes(const uint8_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static V halfs(const uint8_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  template <int kI>
  static void nibbles(Codes v, V* low, V* high16) {
    const __m256i t = kI == 0 ? v : _mm256_srli_epi32(v, 8 * kI);
    *low = _mm256_cvtepi32_ps(_mm256_and_si256(t, _mm256_set1_epi32(0x0F)));
    *high16 = _mm256_cvtepi32_ps(_mm256_and_si256(t, _mm256_set1_epi32(0xF0)));
  }
  // 4 bytes (4 inputs' digits) in every 32-bit lane.
  static Codes splat4(const int8_t* p) {
    int32_t v;
    __builtin_memcpy(&v, p, 4);
    return _mm256_set1_epi32(v);
  }
  template <int kI>
  static V signed_byte(Codes v) {
    const __m256i t = kI == 3 ? v : _mm256_slli_epi32(v, 24 - 8 * kI);
    return _mm256_cvtepi32_ps(_mm256_srai_epi32(t, 24));
  }
};

// Q4_1's GEMV on x's digits (F32QDigits), as avx512vnni.cpp's without VNNI:
// vpmaddubsw multiplies 32 codes by digits into 16 pair sums of int16, which
// add up in int16 over a block (|sum| <= 8 * 2 * 15 * 128 < 2^15), and one
// vpmaddwd a digit and block widens each row's two halves to int32. Half
// the instructions of the float GEMV a weight. Q8_0's codes, signed, would
// overflow vpmaddubsw's pairs: Q8_0 stays on the float GEMV here.
void gemv_q4_1_digits(size_t nb, const F32QDigits* x, const float* xsum, const uint8_t* panel,
                      float* y) {
  const __m256i low_nibbles = _mm256_set1_epi8(0x0F);
  const __m256i ones = _mm256_set1_epi16(1);
  __m256 acc[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kQ4Block;
    prefetch_l2_ahead(at, kQ4Block);
    const F32QDigits& xb = x[b];
    __m256i pairs[2][3];  // [part][digit]
    for (size_t p = 0; p < 2; ++p) {
      for (int j = 0; j < 3; ++j) pairs[p][j] = _mm256_setzero_si256();
    }
    // Not unrolled: GCC would reassociate the unrolled sums into a tree whose
    // 48 partial products spill to the stack.
#pragma GCC unroll 1
    for (size_t c = 0; c < 4; ++c) {
      __m256i lo[2], hi[2];
      for (size_t p = 0; p < 2; ++p) {
        const __m256i v = Q::codes(at + 4 * kRows + c * 4 * kRows + p * 32);
        lo[p] = _mm256_and_si256(v, low_nibbles);
        hi[p] = _mm256_and_si256(_mm256_srli_epi16(v, 4), low_nibbles);
      }
      for (int j = 0; j < 3; ++j) {
        // Each digit's broadcasts serve both parts of the chunk.
        const __m256i low_x = Q::splat4(xb.digit[j] + 8 * c);
        const __m256i high_x = Q::splat4(xb.digit[j] + 8 * c + 4);
        for (size_t p = 0; p < 2; ++p) {
          pairs[p][j] = _mm256_add_epi16(pairs[p][j], _mm256_maddubs_epi16(lo[p], low_x));
          pairs[p][j] = _mm256_add_epi16(pairs[p][j], _mm256_maddubs_epi16(hi[p], high_x));
        }
      }
    }
    const __m256 xsum_b = _mm256_set1_ps(xsum[b]);
    for (size_t p = 0; p < 2; ++p) {
      const __m256i s0 = _mm256_madd_epi16(pairs[p][0], ones);
      const __m256i s1 = _mm256_madd_epi16(pairs[p][1], ones);
      const __m256i s2 = _mm256_madd_epi16(pairs[p][2], ones);
      const __m256 dot = _mm256_fmadd_ps(
          _mm256_cvtepi32_ps(s2), _mm256_set1_ps(65536.0f),
          _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_slli_epi32(s1, 8), s0)));
      const __m256 d = Q::halfs(at + 2 * p * 8);
      const __m256 m = Q::halfs(at + 2 * kRows + 2 * p * 8);
      acc[p] = _mm256_fmadd_ps(_mm256_mul_ps(d, _mm256_set1_ps(xb.scale)), dot, acc[p]);
      acc[p] = _mm256_fmadd_ps(m, xsum_b, acc[p]);
    }
  }
  _mm256_storeu_ps(y, acc[0]);
  _mm256_storeu_ps(y + 8, acc[1]);
}

constexpr F32QGemmConfig avx2_config() {
  F32QGemmConfig config = qgemm_config<Q>("avx2", kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm);
  config.gemv_q4_1_digits = gemv_q4_1_digits;
  return config;
}

}  // namespace

extern const F32QGemmConfig kF32QGemmAvx2Config = avx2_config();

}  // namespace ember::kernels::optimized
