// f32 attention row operations for AVX2 + FMA, compiled with -mavx2 -mfma for
// this file only. Shared helpers come from simd/avx2_math.h, which only
// files compiled with these flags may include.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/simd/avx2_math.h"

namespace ember::kernels::optimized {
namespace {

using avx2::Acc4;
using avx2::accumulate4;
using avx2::hmax;
using avx2::hsum;
using avx2::tail_mask;

float row_max(const float* x, size_t n) {
  // Started at x[0] (not -inf, as softmax's rmax is) and finished by a
  // scalar tail, as the scalar attention variant does, so that the variants
  // treat NaNs alike.
  size_t i;
  const Acc4 a = accumulate4(n, x, _mm256_set1_ps(x[0]), &i,
                             [](__m256 v, __m256 acc) { return _mm256_max_ps(acc, v); });
  float m = hmax(_mm256_max_ps(_mm256_max_ps(a.a0, a.a1), _mm256_max_ps(a.a2, a.a3)));
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

// exp(x) for x <= 0, as the scalar variant computes it (XNNPACK's rr2_p5:
// Cody-Waite reduction with two constants, degree-5 polynomial, 2^n built in
// the exponent bits); 0 below -87.34, where exp is a denormal or 0.
// Kept here rather than avx2::exp_nonpositive (simd/avx2_math.h), which is
// f32-vunary's degree-6 exp with other constants and another flush threshold:
// the attention variants agree with each other on this one.
__m256 exp_nonpositive(__m256 x) {
  const __m256 magic = _mm256_set1_ps(0x1.8000FEp23f);
  __m256 n = _mm256_fmadd_ps(x, _mm256_set1_ps(0x1.715476p+0f), magic);
  const __m256 scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(n), 23));
  n = _mm256_sub_ps(n, magic);
  __m256 t = _mm256_fmadd_ps(n, _mm256_set1_ps(-0x1.62E43p-1f), x);
  t = _mm256_fmadd_ps(n, _mm256_set1_ps(0x1.05C61p-29f), t);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(0x1.0F9F9Cp-7f), t, _mm256_set1_ps(0x1.573A1Ap-5f));
  p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0x1.555A80p-3f));
  p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0x1.FFFDC6p-2f));
  p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0x1.FFFFF6p-1f));
  t = _mm256_mul_ps(t, scale);
  const __m256 f = _mm256_fmadd_ps(t, p, scale);
  const __m256 underflow = _mm256_cmp_ps(x, _mm256_set1_ps(-0x1.5D589Ep6f), _CMP_LT_OQ);
  return _mm256_andnot_ps(underflow, f);
}

float exp_row(float* x, size_t n, float max) {
  const __m256 vmax = _mm256_set1_ps(max);
  __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
  size_t i = 0;
  // Two vectors per step: each exp is a chain of ~10 dependent operations.
  for (; i + 16 <= n; i += 16) {
    const __m256 e0 = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmax));
    const __m256 e1 = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i + 8), vmax));
    _mm256_storeu_ps(x + i, e0);
    _mm256_storeu_ps(x + i + 8, e1);
    s0 = _mm256_add_ps(s0, e0);
    s1 = _mm256_add_ps(s1, e1);
  }
  for (; i + 8 <= n; i += 8) {
    const __m256 e = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmax));
    _mm256_storeu_ps(x + i, e);
    s0 = _mm256_add_ps(s0, e);
  }
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    const __m256 e = exp_nonpositive(_mm256_sub_ps(_mm256_maskload_ps(x + i, mask), vmax));
    _mm256_maskstore_ps(x + i, mask, e);
    s1 = _mm256_add_ps(s1, _mm256_and_ps(e, _mm256_castsi256_ps(mask)));
  }
  return hsum(_mm256_add_ps(s0, s1));
}

void scale_row(float* x, size_t n, float s) {
  const __m256 vs = _mm256_set1_ps(s);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(x + i, _mm256_mul_ps(_mm256_loadu_ps(x + i), vs));
  for (; i < n; ++i) x[i] *= s;
}

// dst[c * ld + r] = src[r * lds + c] for an 8 x 8 block.
void transpose8x8(const float* src, size_t lds, float* dst, size_t ld) {
  __m256 r0 = _mm256_loadu_ps(src + 0 * lds), r1 = _mm256_loadu_ps(src + 1 * lds);
  __m256 r2 = _mm256_loadu_ps(src + 2 * lds), r3 = _mm256_loadu_ps(src + 3 * lds);
  __m256 r4 = _mm256_loadu_ps(src + 4 * lds), r5 = _mm256_loadu_ps(src + 5 * lds);
  __m256 r6 = _mm256_loadu_ps(src + 6 * lds), r7 = _mm256_loadu_ps(src + 7 * lds);
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
  const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  const __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
  const __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  _mm256_storeu_ps(dst + 0 * ld, _mm256_permute2f128_ps(u0, u4, 0x20));
  _mm256_storeu_ps(dst + 1 * ld, _mm256_permute2f128_ps(u1, u5, 0x20));
  _mm256_storeu_ps(dst + 2 * ld, _mm256_permute2f128_ps(u2, u6, 0x20));
  _mm256_storeu_ps(dst + 3 * ld, _mm256_permute2f128_ps(u3, u7, 0x20));
  _mm256_storeu_ps(dst + 4 * ld, _mm256_permute2f128_ps(u0, u4, 0x31));
  _mm256_storeu_ps(dst + 5 * ld, _mm256_permute2f128_ps(u1, u5, 0x31));
  _mm256_storeu_ps(dst + 6 * ld, _mm256_permute2f128_ps(u2, u6, 0x31));
  _mm256_storeu_ps(dst + 7 * ld, _mm256_permute2f128_ps(u3, u7, 0x31));
}

void pack_kt(size_t n, size_t d, const float* k, size_t ldk, size_t nr, float* packed) {
  for (size_t j0 = 0; j0 < n; j0 += nr) {
    const size_t cols = n - j0 < nr ? n - j0 : nr;
    float* panel = packed + j0 * d;
    size_t c = 0;
    // Eight keys at a time, eight dims at a time, through registers.
    if (nr % 8 == 0) {
      for (; c + 8 <= cols; c += 8) {
        const float* src = k + (j0 + c) * ldk;
        size_t p = 0;
        for (; p + 8 <= d; p += 8) transpose8x8(src + p, ldk, panel + p * nr + c, nr);
        for (; p < d; ++p) {
          for (size_t cc = 0; cc < 8; ++cc) panel[p * nr + c + cc] = src[cc * ldk + p];
        }
      }
    }
    for (; c < cols; ++c) {
      const float* src = k + (j0 + c) * ldk;
      for (size_t p = 0; p < d; ++p) panel[p * nr + c] = src[p];
    }
    for (; c < nr; ++c) {
      for (size_t p = 0; p < d; ++p) panel[p * nr + c] = 0.0f;
    }
  }
}

float dot(const float* a, const float* b, size_t n) {
  __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
    s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
  }
  if (i + 8 <= n) {
    s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
    i += 8;
  }
  float tail = 0.0f;
  for (; i < n; ++i) tail += a[i] * b[i];
  return hsum(_mm256_add_ps(s0, s1)) + tail;
}

void add_scaled(float* y, const float* x, float a, size_t n) {
  const __m256 va = _mm256_set1_ps(a);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(y + i, _mm256_fmadd_ps(_mm256_loadu_ps(x + i), va, _mm256_loadu_ps(y + i)));
  }
  for (; i < n; ++i) y[i] += a * x[i];
}

}  // namespace

extern const F32AttentionConfig kF32AttentionAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, row_max, exp_row, scale_row, pack_kt, dot, add_scaled,
};

}  // namespace ember::kernels::optimized
