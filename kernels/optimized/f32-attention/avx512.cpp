// f32 attention row operations and K^T pack for AVX-512, compiled with
// ${EMBER_AVX512_FLAGS} for this file only: avx2.cpp's row operations 16
// lanes wide with masked tails, and K^T packed through 16 x 16 transposes in
// registers (any panel width that is a multiple of 16: the AVX-512 GEMM's
// 32, the AVX2 one's 16; others by plain loops).
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/simd/avx512_math.h"

namespace ember::kernels::optimized {
namespace {

using avx512::Acc4;
using avx512::accumulate4;
using avx512::hmax;
using avx512::hsum;
using avx512::tail_mask;

float row_max(const float* x, size_t n) {
  // Started at x[0] (not -inf, as softmax's rmax is), each step max(v, acc):
  // vmaxps returns its second operand when either is NaN, so a NaN past x[0]
  // is passed over as the scalar variant's `x > m ? x : m` passes it over.
  // The tail's masked-off lanes load as x[0].
  const __m512 first = _mm512_set1_ps(x[0]);
  size_t i;
  Acc4 a = accumulate4(n, x, first, &i, [](__m512 v, __m512 acc) { return _mm512_max_ps(v, acc); });
  if (i < n) a.a1 = _mm512_max_ps(_mm512_mask_loadu_ps(first, tail_mask(n - i), x + i), a.a1);
  return hmax(_mm512_max_ps(_mm512_max_ps(a.a0, a.a1), _mm512_max_ps(a.a2, a.a3)));
}

// exp(x) for x <= 0, avx2.cpp's and scalar.cpp's algorithm operation for
// operation (XNNPACK's rr2_p5: Cody-Waite reduction with two constants,
// degree-5 polynomial, 2^n built in the exponent bits); 0 below -87.34,
// where exp is a denormal or 0.
__m512 exp_nonpositive(__m512 x) {
  const __m512 magic = _mm512_set1_ps(0x1.8000FEp23f);
  __m512 n = _mm512_fmadd_ps(x, _mm512_set1_ps(0x1.715476p+0f), magic);
  const __m512 scale = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_castps_si512(n), 23));
  n = _mm512_sub_ps(n, magic);
  __m512 t = _mm512_fmadd_ps(n, _mm512_set1_ps(-0x1.62E43p-1f), x);
  t = _mm512_fmadd_ps(n, _mm512_set1_ps(0x1.05C61p-29f), t);
  __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(0x1.0F9F9Cp-7f), t, _mm512_set1_ps(0x1.573A1Ap-5f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0x1.555A80p-3f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0x1.FFFDC6p-2f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0x1.FFFFF6p-1f));
  t = _mm512_mul_ps(t, scale);
  const __m512 f = _mm512_fmadd_ps(t, p, scale);
  // Kept where x >= -87.34 or x is NaN.
  return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, _mm512_set1_ps(-0x1.5D589Ep6f), _CMP_NLT_UQ), f);
}

float exp_row(float* x, size_t n, float max) {
  const __m512 vmax = _mm512_set1_ps(max);
  __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
  size_t i = 0;
  // Two vectors per step: each exp is a chain of ~10 dependent operations.
  for (; i + 32 <= n; i += 32) {
    const __m512 e0 = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i), vmax));
    const __m512 e1 = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i + 16), vmax));
    _mm512_storeu_ps(x + i, e0);
    _mm512_storeu_ps(x + i + 16, e1);
    s0 = _mm512_add_ps(s0, e0);
    s1 = _mm512_add_ps(s1, e1);
  }
  if (i + 16 <= n) {
    const __m512 e = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i), vmax));
    _mm512_storeu_ps(x + i, e);
    s0 = _mm512_add_ps(s0, e);
    i += 16;
  }
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    // Zeroed past the tail, where exp(0 - max) would add to the sum.
    const __m512 e = _mm512_maskz_mov_ps(
        mask, exp_nonpositive(_mm512_sub_ps(_mm512_maskz_loadu_ps(mask, x + i), vmax)));
    _mm512_mask_storeu_ps(x + i, mask, e);
    s1 = _mm512_add_ps(s1, e);
  }
  return hsum(_mm512_add_ps(s0, s1));
}

void scale_row(float* x, size_t n, float s) {
  const __m512 vs = _mm512_set1_ps(s);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(x + i, _mm512_mul_ps(_mm512_loadu_ps(x + i), vs));
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    _mm512_mask_storeu_ps(x + i, mask, _mm512_mul_ps(_mm512_maskz_loadu_ps(mask, x + i), vs));
  }
}

// dst[c * ld + r] = src[r * lds + c] for r < rows, c < cols (both <= 16),
// with dst's columns r in [rows, 16) written as 0 (the panel's padding) and
// its rows c >= cols not written: a 16 x 16 transpose in registers, rows
// loaded through the column mask.
void transpose16x16(const float* src, size_t lds, size_t rows, size_t cols, float* dst,
                    size_t ld) {
  const __mmask16 col_mask = tail_mask(cols);
  __m512 r[16];
#pragma GCC unroll 16
  for (size_t i = 0; i < 16; ++i) {
    r[i] = i < rows ? _mm512_maskz_loadu_ps(col_mask, src + i * lds) : _mm512_setzero_ps();
  }
  // u[4g + j], in 128-bit lane l: column 4l + j of rows 4g .. 4g + 3.
  __m512 u[16];
#pragma GCC unroll 4
  for (size_t g = 0; g < 4; ++g) {
    const __m512 t0 = _mm512_unpacklo_ps(r[4 * g], r[4 * g + 1]);
    const __m512 t1 = _mm512_unpackhi_ps(r[4 * g], r[4 * g + 1]);
    const __m512 t2 = _mm512_unpacklo_ps(r[4 * g + 2], r[4 * g + 3]);
    const __m512 t3 = _mm512_unpackhi_ps(r[4 * g + 2], r[4 * g + 3]);
    u[4 * g] = _mm512_shuffle_ps(t0, t2, 0x44);
    u[4 * g + 1] = _mm512_shuffle_ps(t0, t2, 0xEE);
    u[4 * g + 2] = _mm512_shuffle_ps(t1, t3, 0x44);
    u[4 * g + 3] = _mm512_shuffle_ps(t1, t3, 0xEE);
  }
  // Output row 4l + j gathers lane l of u[4g + j] over g: lanes (0, 2) and
  // (1, 3) of row groups (0, 1) and (2, 3) first, then across those.
#pragma GCC unroll 4
  for (size_t j = 0; j < 4; ++j) {
    const __m512 v01e = _mm512_shuffle_f32x4(u[j], u[4 + j], 0x88);
    const __m512 v01o = _mm512_shuffle_f32x4(u[j], u[4 + j], 0xDD);
    const __m512 v23e = _mm512_shuffle_f32x4(u[8 + j], u[12 + j], 0x88);
    const __m512 v23o = _mm512_shuffle_f32x4(u[8 + j], u[12 + j], 0xDD);
    const __m512 out[4] = {
        _mm512_shuffle_f32x4(v01e, v23e, 0x88),  // row j
        _mm512_shuffle_f32x4(v01o, v23o, 0x88),  // row 4 + j
        _mm512_shuffle_f32x4(v01e, v23e, 0xDD),  // row 8 + j
        _mm512_shuffle_f32x4(v01o, v23o, 0xDD),  // row 12 + j
    };
#pragma GCC unroll 4
    for (size_t l = 0; l < 4; ++l) {
      const size_t c = 4 * l + j;
      if (c < cols) _mm512_storeu_ps(dst + c * ld, out[l]);
    }
  }
}

void pack_kt(size_t n, size_t d, const float* k, size_t ldk, size_t nr, float* packed) {
  for (size_t j0 = 0; j0 < n; j0 += nr) {
    const size_t cols = n - j0 < nr ? n - j0 : nr;
    float* panel = packed + j0 * d;
    if (nr % 16 == 0) {
      // Sixteen keys at a time (zero past the last key), sixteen dims at a
      // time, the last of each masked.
      for (size_t c = 0; c < nr; c += 16) {
        const size_t keys = cols > c ? (cols - c < 16 ? cols - c : 16) : 0;
        const float* src = keys > 0 ? k + (j0 + c) * ldk : k;  // unread without keys
        for (size_t p = 0; p < d; p += 16) {
          transpose16x16(src + p, ldk, keys, d - p < 16 ? d - p : 16, panel + p * nr + c, nr);
        }
      }
      continue;
    }
    size_t c = 0;
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
  __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    s0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), s0);
    s1 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i + 16), _mm512_loadu_ps(b + i + 16), s1);
  }
  if (i + 16 <= n) {
    s0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), s0);
    i += 16;
  }
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    s1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, a + i), _mm512_maskz_loadu_ps(mask, b + i), s1);
  }
  return hsum(_mm512_add_ps(s0, s1));
}

void add_scaled(float* y, const float* x, float a, size_t n) {
  const __m512 va = _mm512_set1_ps(a);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    _mm512_storeu_ps(y + i, _mm512_fmadd_ps(_mm512_loadu_ps(x + i), va, _mm512_loadu_ps(y + i)));
  }
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    _mm512_mask_storeu_ps(
        y + i, mask,
        _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, x + i), va, _mm512_maskz_loadu_ps(mask, y + i)));
  }
}

}  // namespace

extern const F32AttentionConfig kF32AttentionAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, row_max, exp_row, scale_row,
    pack_kt, dot, add_scaled,
};

}  // namespace ember::kernels::optimized
