// int8 conversions for AVX2: 32 floats (quantize), 16 (per-token quantize, in
// double), 16 bytes (dequantize) or 32 floats (min/max) per step; a partial
// step goes through a zero-padded stack buffer, so nothing is read or
// written past the arrays. Compiled with -mavx2 -mfma for this file only.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"
#include "kernels/optimized/qs8-vcvt/blocks_body.h"

namespace ember::kernels::optimized {
namespace {

// 32 int32 (four vectors, in order) narrowed to 32 bytes. packs works per
// 128-bit half; the permute puts the four-byte groups back in order.
inline __m256i narrow(__m256i v0, __m256i v1, __m256i v2, __m256i v3) {
  const __m256i b = _mm256_packs_epi16(_mm256_packs_epi32(v0, v1), _mm256_packs_epi32(v2, v3));
  return _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

void quantize_block(const float* x, int8_t* y, __m256 inv, __m256 lo, __m256 hi, __m256i zero) {
  __m256i q[4];
  for (int v = 0; v < 4; ++v) {
    // max(v, lo) returns lo, its second operand, when v is NaN.
    __m256 f = _mm256_max_ps(_mm256_mul_ps(_mm256_loadu_ps(x + 8 * v), inv), lo);
    f = _mm256_min_ps(f, hi);
    q[v] = _mm256_add_epi32(_mm256_cvtps_epi32(f), zero);  // round half to even
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(y), narrow(q[0], q[1], q[2], q[3]));
}

void quantize(size_t n, const float* x, int8_t* y, const Qs8QuantizeParams* p) {
  const __m256 inv = _mm256_set1_ps(p->inv_scale);
  const __m256 lo = _mm256_set1_ps(static_cast<float>(p->min - p->zero));
  const __m256 hi = _mm256_set1_ps(static_cast<float>(p->max - p->zero));
  const __m256i zero = _mm256_set1_epi32(p->zero);
  in_blocks<32>(n, x, y, [&](const float* xb, int8_t* yb) {
    quantize_block(xb, yb, inv, lo, hi, zero);
  });
}

void quantize_double_block(const float* x, int8_t* y, __m256d inv, __m256d zero, __m256d lo,
                           __m256d hi) {
  __m128i q[4];
  for (int v = 0; v < 4; ++v) {
    __m256d d = _mm256_cvtps_pd(_mm_loadu_ps(x + 4 * v));
    // Multiply, then add: two roundings, as torch's mul and add.
    d = _mm256_add_pd(_mm256_mul_pd(d, inv), zero);
    d = _mm256_min_pd(_mm256_max_pd(d, lo), hi);
    q[v] = _mm256_cvtpd_epi32(d);  // round half to even
  }
  const __m128i b = _mm_packs_epi16(_mm_packs_epi32(q[0], q[1]), _mm_packs_epi32(q[2], q[3]));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(y), b);
}

void quantize_double(size_t n, const float* x, int8_t* y, double inv_scale, int32_t zero,
                     int32_t min, int32_t max) {
  const __m256d inv = _mm256_set1_pd(inv_scale);
  const __m256d z = _mm256_set1_pd(zero);
  const __m256d lo = _mm256_set1_pd(min);
  const __m256d hi = _mm256_set1_pd(max);
  in_blocks<16>(n, x, y, [&](const float* xb, int8_t* yb) {
    quantize_double_block(xb, yb, inv, z, lo, hi);
  });
}

void dequantize_block(const int8_t* x, float* y, __m256i zero, __m256 scale) {
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x));
  const __m256i v0 = _mm256_sub_epi32(_mm256_cvtepi8_epi32(b), zero);
  const __m256i v1 = _mm256_sub_epi32(_mm256_cvtepi8_epi32(_mm_srli_si128(b, 8)), zero);
  _mm256_storeu_ps(y, _mm256_mul_ps(_mm256_cvtepi32_ps(v0), scale));
  _mm256_storeu_ps(y + 8, _mm256_mul_ps(_mm256_cvtepi32_ps(v1), scale));
}

void dequantize(size_t n, const int8_t* x, float* y, int32_t zero, float scale) {
  const __m256i z = _mm256_set1_epi32(zero);
  const __m256 s = _mm256_set1_ps(scale);
  in_blocks<16>(n, x, y, [&](const int8_t* xb, float* yb) { dequantize_block(xb, yb, z, s); });
}

void minmax(size_t n, const float* x, float* min, float* max) {
  // Four chains each: min and max have a latency of 4 and two ports.
  __m256 lo[4], hi[4];
  for (int v = 0; v < 4; ++v) lo[v] = hi[v] = _mm256_set1_ps(x[0]);
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    for (int v = 0; v < 4; ++v) {
      const __m256 xv = _mm256_loadu_ps(x + i + 8 * v);
      lo[v] = _mm256_min_ps(lo[v], xv);
      hi[v] = _mm256_max_ps(hi[v], xv);
    }
  }
  __m256 l = _mm256_min_ps(_mm256_min_ps(lo[0], lo[1]), _mm256_min_ps(lo[2], lo[3]));
  __m256 h = _mm256_max_ps(_mm256_max_ps(hi[0], hi[1]), _mm256_max_ps(hi[2], hi[3]));
  alignas(32) float ls[8], hs[8];
  _mm256_store_ps(ls, l);
  _mm256_store_ps(hs, h);
  float a = ls[0], b = hs[0];
  for (int j = 1; j < 8; ++j) {
    a = ls[j] < a ? ls[j] : a;
    b = hs[j] > b ? hs[j] : b;
  }
  for (; i < n; ++i) {
    a = x[i] < a ? x[i] : a;
    b = x[i] > b ? x[i] : b;
  }
  *min = a;
  *max = b;
}

}  // namespace

extern const Qs8VcvtConfig kQs8VcvtAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, quantize, quantize_double, dequantize, minmax,
};

}  // namespace ember::kernels::optimized
