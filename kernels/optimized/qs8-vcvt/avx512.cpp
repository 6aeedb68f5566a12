// int8 conversions for AVX-512 (Skylake-server level): 16 floats or bytes per
// vector, 8 doubles for the per-token quantization; partial vectors loaded
// and stored under a mask. Compiled with the AVX-512 flags for this file
// only.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"

namespace ember::kernels::optimized {
namespace {

inline __mmask16 lanes(size_t n) {
  return n >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << n) - 1u);
}

void quantize(size_t n, const float* x, int8_t* y, const Qs8QuantizeParams* p) {
  const __m512 inv = _mm512_set1_ps(p->inv_scale);
  const __m512 lo = _mm512_set1_ps(static_cast<float>(p->min - p->zero));
  const __m512 hi = _mm512_set1_ps(static_cast<float>(p->max - p->zero));
  const __m512i zero = _mm512_set1_epi32(p->zero);
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    // max(v, lo) returns lo, its second operand, when v is NaN.
    __m512 f = _mm512_max_ps(_mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + i), inv), lo);
    f = _mm512_min_ps(f, hi);
    const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(f), zero);  // round half to even
    _mm_mask_storeu_epi8(y + i, m, _mm512_cvtepi32_epi8(q));
  }
}

void quantize_double(size_t n, const float* x, int8_t* y, double inv_scale, int32_t zero,
                     int32_t min, int32_t max) {
  const __m512d inv = _mm512_set1_pd(inv_scale);
  const __m512d z = _mm512_set1_pd(zero);
  const __m512d lo = _mm512_set1_pd(min);
  const __m512d hi = _mm512_set1_pd(max);
  for (size_t i = 0; i < n; i += 8) {
    const __mmask8 m = static_cast<__mmask8>(lanes(n - i < 8 ? n - i : 8));
    __m512d d = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, x + i));
    // Multiply, then add: two roundings, as torch's mul and add.
    d = _mm512_add_pd(_mm512_mul_pd(d, inv), z);
    d = _mm512_min_pd(_mm512_max_pd(d, lo), hi);
    const __m256i q = _mm512_cvtpd_epi32(d);  // round half to even
    _mm_mask_storeu_epi8(y + i, m, _mm256_cvtepi32_epi8(q));
  }
}

void dequantize(size_t n, const int8_t* x, float* y, int32_t zero, float scale) {
  const __m512i z = _mm512_set1_epi32(zero);
  const __m512 s = _mm512_set1_ps(scale);
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    const __m512i v = _mm512_sub_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, x + i)), z);
    _mm512_mask_storeu_ps(y + i, m, _mm512_mul_ps(_mm512_cvtepi32_ps(v), s));
  }
}

void minmax(size_t n, const float* x, float* min, float* max) {
  const __m512 first = _mm512_set1_ps(x[0]);
  __m512 lo0 = first, lo1 = first, hi0 = first, hi1 = first;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512 a = _mm512_loadu_ps(x + i);
    const __m512 b = _mm512_loadu_ps(x + i + 16);
    lo0 = _mm512_min_ps(lo0, a);
    hi0 = _mm512_max_ps(hi0, a);
    lo1 = _mm512_min_ps(lo1, b);
    hi1 = _mm512_max_ps(hi1, b);
  }
  for (; i < n; i += 16) {
    // Lanes past n repeat x[0], which changes neither.
    const __m512 a = _mm512_mask_loadu_ps(first, lanes(n - i), x + i);
    lo0 = _mm512_min_ps(lo0, a);
    hi0 = _mm512_max_ps(hi0, a);
  }
  *min = _mm512_reduce_min_ps(_mm512_min_ps(lo0, lo1));
  *max = _mm512_reduce_max_ps(_mm512_max_ps(hi0, hi1));
}

}  // namespace

extern const Qs8VcvtConfig kQs8VcvtAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, quantize, quantize_double,
    dequantize, minmax,
};

}  // namespace ember::kernels::optimized
