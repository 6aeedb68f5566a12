// f32 attention row operations and K^T pack for AVX-512, compiled with
// ${EMBER_AVX512_FLAGS} for this file only: rows_body.h's row operations at
// 16 lanes, and K^T packed through 16 x 16 transposes in
// registers (any panel width that is a multiple of 16: the AVX-512 GEMM's
// 32, the AVX2 one's 16; others by plain loops).
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/simd/avx512_math.h"
#include "kernels/optimized/f32-attention/rows_body.h"

namespace ember::kernels::optimized {
namespace {

using W = avx512::Vec;

using avx512::tail_mask;

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

}  // namespace

extern const F32AttentionConfig kF32AttentionAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    row_max<W>, exp_row<W>, scale_row<W>, pack_kt, scores<W>, accumulate<W>,
};

}  // namespace ember::kernels::optimized
