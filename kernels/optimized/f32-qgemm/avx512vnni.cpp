// AVX512-VNNI: the AVX-512 microkernels, with the GEMVs (LLM decode) on
// integer dot products. The float GEMV spends a mask, a conversion and an FMA
// on 16 weights and runs at ~20 GB/s of weights on a Zen 4 core, under the
// ~25 GB/s that core reads from memory; here one vpdpbusd multiplies 64 codes
// by x's digits (F32QDigits), so a chunk of 128 weights costs 6 of them, a
// shift and two masks, and the loop waits on memory instead.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "kernels/optimized/f32-qgemm/avx512_codes.h"

namespace ember::kernels::optimized {
namespace {

// sum q x / scale of a block from its per-digit sums, 65536 s2 + 256 s1 + s0:
// the two lower digits combine exactly in int32, the top one in float.
__m512 digits_dot(__m512i s0, __m512i s1, __m512i s2) {
  return _mm512_fmadd_ps(_mm512_cvtepi32_ps(s2), _mm512_set1_ps(65536.0f),
                         _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_slli_epi32(s1, 8), s0)));
}

// The layout is qgemm_body.h's: per block, 16 fp16 scales, 16 fp16
// minimums, then 4 chunks of 16 rows x 4 bytes, byte i of a row holding
// inputs 8c + i (low nibble) and 8c + 4 + i (high nibble).
void gemv_q4_1_digits(size_t nb, const F32QDigits* x, const float* xsum, const uint8_t* panel,
                      float* y) {
  const __m512i low_nibbles = _mm512_set1_epi8(0x0F);
  __m512 acc = _mm512_setzero_ps();
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kQ4Block;
    prefetch_l2_ahead(at, kQ4Block);
    const F32QDigits& xb = x[b];
    // Per digit, low- and high-nibble sums apart: six dependency chains of
    // four, where one chain a digit would wait on vpdpbusd's latency.
    __m512i low[3], high[3];
    for (int j = 0; j < 3; ++j) low[j] = high[j] = _mm512_setzero_si512();
    for (size_t c = 0; c < 4; ++c) {
      const __m512i v = Q::codes(at + 4 * kRows + c * 4 * kRows);
      const __m512i lo = _mm512_and_si512(v, low_nibbles);
      const __m512i hi = _mm512_and_si512(_mm512_srli_epi32(v, 4), low_nibbles);
      for (int j = 0; j < 3; ++j) {
        low[j] = _mm512_dpbusd_epi32(low[j], lo, Q::splat4(xb.digit[j] + 8 * c));
        high[j] = _mm512_dpbusd_epi32(high[j], hi, Q::splat4(xb.digit[j] + 8 * c + 4));
      }
    }
    // |s_j| <= 32 * 15 * 128.
    const __m512 dot = digits_dot(_mm512_add_epi32(low[0], high[0]),
                                  _mm512_add_epi32(low[1], high[1]),
                                  _mm512_add_epi32(low[2], high[2]));
    const __m512 d = Q::halfs(at);
    const __m512 m = Q::halfs(at + 2 * kRows);
    acc = _mm512_fmadd_ps(_mm512_mul_ps(d, _mm512_set1_ps(xb.scale)), dot, acc);
    acc = _mm512_fmadd_ps(m, _mm512_set1_ps(xsum[b]), acc);
  }
  _mm512_storeu_ps(y, acc);
}

// Q8_0: per block, 16 fp16 scales, then 8 chunks of 16 rows x 4 signed
// codes (inputs 4c .. 4c + 3). vpdpbusd takes unsigned bytes, so the codes
// go in as q + 128 and 128 times the digits' sum comes off.
void gemv_q8_0_digits(size_t nb, const F32QDigits* x, const float*, const uint8_t* panel,
                      float* y) {
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  __m512 acc = _mm512_setzero_ps();
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kQ8Block;
    prefetch_l2_ahead(at, kQ8Block);
    const F32QDigits& xb = x[b];
    // Even and odd chunks apart: six dependency chains of four.
    __m512i even[3], odd[3];
    for (int j = 0; j < 3; ++j) even[j] = odd[j] = _mm512_setzero_si512();
    for (size_t c = 0; c < 8; c += 2) {
      const __m512i u0 = _mm512_xor_si512(Q::codes(at + 2 * kRows + c * 4 * kRows), flip);
      const __m512i u1 = _mm512_xor_si512(Q::codes(at + 2 * kRows + (c + 1) * 4 * kRows), flip);
      for (int j = 0; j < 3; ++j) {
        even[j] = _mm512_dpbusd_epi32(even[j], u0, Q::splat4(xb.digit[j] + 4 * c));
        odd[j] = _mm512_dpbusd_epi32(odd[j], u1, Q::splat4(xb.digit[j] + 4 * c + 4));
      }
    }
    // s_j = sum (q + 128) digit_j - 128 sum digit_j, |s_j| <= 32 * 128 * 128.
    __m512i s[3];
    for (int j = 0; j < 3; ++j) {
      s[j] = _mm512_sub_epi32(_mm512_add_epi32(even[j], odd[j]),
                              _mm512_set1_epi32(128 * xb.digit_sum[j]));
    }
    acc = _mm512_fmadd_ps(_mm512_mul_ps(Q::halfs(at), _mm512_set1_ps(xb.scale)),
                          digits_dot(s[0], s[1], s[2]), acc);
  }
  _mm512_storeu_ps(y, acc);
}

constexpr F32QGemmConfig vnni_config() {
  F32QGemmConfig config = qgemm_config<Q>(
      "avx512vnni",
      kCpuAvx512Vnni | kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm);
  config.gemv_q4_1_digits = gemv_q4_1_digits;
  config.gemv_q8_0_digits = gemv_q8_0_digits;
  return config;
}

}  // namespace

extern const F32QGemmConfig kF32QGemmAvx512VnniConfig = vnni_config();

}  // namespace ember::kernels::optimized
