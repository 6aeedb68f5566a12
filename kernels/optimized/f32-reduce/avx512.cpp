// f32 reduction microkernels for AVX-512, compiled with ${EMBER_AVX512_FLAGS}
// for this file only: avx2.cpp's loops 16 lanes wide, tails through one
// masked load (and store). Row reductions keep four vector accumulators (add
// and max have 4-cycle latencies and two ports).
#include <immintrin.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"
#include "kernels/optimized/simd/avx512_math.h"

namespace ember::kernels::optimized {
namespace {

using avx512::Acc4;
using avx512::accumulate4;
using avx512::hmax;
using avx512::hsum;
using avx512::splat;
using avx512::tail_mask;

inline __mmask16 is_nan(__m512 v) { return _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q); }

float rsum(size_t n, const float* x) {
  size_t i;
  Acc4 a = accumulate4(n, x, _mm512_setzero_ps(), &i,
                       [](__m512 v, __m512 acc) { return _mm512_add_ps(acc, v); });
  if (i < n) a.a1 = _mm512_add_ps(a.a1, _mm512_maskz_loadu_ps(tail_mask(n - i), x + i));
  return hsum(_mm512_add_ps(_mm512_add_ps(a.a0, a.a1), _mm512_add_ps(a.a2, a.a3)));
}

float rmax(size_t n, const float* x) {
  // vmaxps drops a NaN in its first operand, so NaNs are tracked apart (a
  // mask register) and win at the end.
  __m512 m0 = splat(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
  __mmask16 nan = 0;
  size_t i = avx512::for_each_block64(n, x, [&](__m512 v0, __m512 v1, __m512 v2, __m512 v3) {
    m0 = _mm512_max_ps(m0, v0);
    m1 = _mm512_max_ps(m1, v1);
    m2 = _mm512_max_ps(m2, v2);
    m3 = _mm512_max_ps(m3, v3);
    nan |= _mm512_cmp_ps_mask(v0, v1, _CMP_UNORD_Q) | _mm512_cmp_ps_mask(v2, v3, _CMP_UNORD_Q);
  });
  for (; i + 16 <= n; i += 16) {
    const __m512 v = _mm512_loadu_ps(x + i);
    m0 = _mm512_max_ps(m0, v);
    nan |= is_nan(v);
  }
  if (i < n) {
    // Masked-off lanes load as -inf.
    const __m512 v = _mm512_mask_loadu_ps(splat(-INFINITY), tail_mask(n - i), x + i);
    m1 = _mm512_max_ps(m1, v);
    nan |= is_nan(v);
  }
  if (nan != 0) return NAN;
  return hmax(_mm512_max_ps(_mm512_max_ps(m0, m1), _mm512_max_ps(m2, m3)));
}

// acc = f(x, acc) over n, 32 floats per iteration, the tail masked.
template <typename F>
inline void accumulate(size_t n, const float* x, float* acc, F f) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512 r0 = f(_mm512_loadu_ps(x + i), _mm512_loadu_ps(acc + i));
    const __m512 r1 = f(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(acc + i + 16));
    _mm512_storeu_ps(acc + i, r0);
    _mm512_storeu_ps(acc + i + 16, r1);
  }
  for (; i + 16 <= n; i += 16) {
    _mm512_storeu_ps(acc + i, f(_mm512_loadu_ps(x + i), _mm512_loadu_ps(acc + i)));
  }
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    _mm512_mask_storeu_ps(
        acc + i, mask, f(_mm512_maskz_loadu_ps(mask, x + i), _mm512_maskz_loadu_ps(mask, acc + i)));
  }
}

void vadd_acc(size_t n, const float* x, float* acc) {
  accumulate(n, x, acc, [](__m512 v, __m512 a) { return _mm512_add_ps(a, v); });
}

void vmax_acc(size_t n, const float* x, float* acc) {
  // max(v, a) keeps a NaN accumulator (its second operand); a NaN v is
  // moved in.
  accumulate(n, x, acc, [](__m512 v, __m512 a) {
    return _mm512_mask_mov_ps(_mm512_max_ps(v, a), is_nan(v), v);
  });
}

// Columns in chunks of 64 (4 zmm registers, two sets for alternate rows so
// that two operations are in flight per register, the second set starting
// from f's identity), the chunk's last vector masked: avx2.cpp's
// column_accumulate twice as wide.
template <typename F>
inline void column_accumulate(size_t rows, size_t n, const float* x, size_t stride, float* acc,
                              float identity, F f) {
  for (size_t j = 0; j < n; j += 64) {
    const size_t w = n - j < 64 ? n - j : 64;
    const size_t vecs = (w + 15) / 16;
    const __mmask16 last = tail_mask(w - (vecs - 1) * 16);
    auto mask_of = [&](size_t v) { return v + 1 < vecs ? static_cast<__mmask16>(0xFFFF) : last; };
    __m512 a[4], b[4];
#pragma GCC unroll 4
    for (size_t v = 0; v < 4; ++v) {
      if (v >= vecs) break;
      a[v] = _mm512_maskz_loadu_ps(mask_of(v), acc + j + 16 * v);
      b[v] = splat(identity);
    }
    const float* xr = x + j;
    size_t r = 0;
    if (w == 64) {
      for (; r + 2 <= rows; r += 2, xr += 2 * stride) {
#pragma GCC unroll 4
        for (size_t v = 0; v < 4; ++v) {
          a[v] = f(_mm512_loadu_ps(xr + 16 * v), a[v]);
          b[v] = f(_mm512_loadu_ps(xr + stride + 16 * v), b[v]);
        }
      }
    }
    for (; r < rows; ++r, xr += stride) {
#pragma GCC unroll 4
      for (size_t v = 0; v < 4; ++v) {
        if (v >= vecs) break;
        a[v] = f(_mm512_maskz_loadu_ps(mask_of(v), xr + 16 * v), a[v]);
      }
    }
#pragma GCC unroll 4
    for (size_t v = 0; v < 4; ++v) {
      if (v >= vecs) break;
      _mm512_mask_storeu_ps(acc + j + 16 * v, mask_of(v), f(b[v], a[v]));
    }
  }
}

void cadd_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate(rows, n, x, stride, acc, 0.0f,
                    [](__m512 v, __m512 a) { return _mm512_add_ps(a, v); });
}

void cmax_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate(rows, n, x, stride, acc, -INFINITY, [](__m512 v, __m512 a) {
    return _mm512_mask_mov_ps(_mm512_max_ps(v, a), is_nan(v), v);
  });
}

}  // namespace

extern const F32ReduceConfig kF32ReduceAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, rsum, rmax, vadd_acc,
    vmax_acc, cadd_acc, cmax_acc,
};

}  // namespace ember::kernels::optimized
