// f32 reduction microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for
// this file only. Row reductions keep four vector accumulators (add and max
// have 3-cycle latencies on Zen 3 and two ports each).
#include <immintrin.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"
#include "kernels/optimized/simd/avx2_math.h"

namespace ember::kernels::optimized {
namespace {

using avx2::Acc4;
using avx2::accumulate4;
using avx2::hmax;
using avx2::hsum;
using avx2::tail_mask;

inline __m256 is_nan(__m256 v) { return _mm256_cmp_ps(v, v, _CMP_UNORD_Q); }

float rsum(size_t n, const float* x) {
  size_t i;
  Acc4 a = accumulate4(n, x, _mm256_setzero_ps(), &i,
                       [](__m256 v, __m256 acc) { return _mm256_add_ps(acc, v); });
  if (i < n) a.a1 = _mm256_add_ps(a.a1, _mm256_maskload_ps(x + i, tail_mask(n - i)));
  return hsum(_mm256_add_ps(_mm256_add_ps(a.a0, a.a1), _mm256_add_ps(a.a2, a.a3)));
}

float rmax(size_t n, const float* x) {
  // vmaxps drops a NaN in its first operand, so NaNs are tracked apart and
  // win at the end: the NaN check in the main loop is why this loop is not
  // accumulate4 (softmax's rmax, which does not track NaNs, is).
  __m256 m0 = _mm256_set1_ps(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
  __m256 nan = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256 v0 = _mm256_loadu_ps(x + i), v1 = _mm256_loadu_ps(x + i + 8);
    const __m256 v2 = _mm256_loadu_ps(x + i + 16), v3 = _mm256_loadu_ps(x + i + 24);
    m0 = _mm256_max_ps(m0, v0);
    m1 = _mm256_max_ps(m1, v1);
    m2 = _mm256_max_ps(m2, v2);
    m3 = _mm256_max_ps(m3, v3);
    nan = _mm256_or_ps(nan, _mm256_or_ps(_mm256_cmp_ps(v0, v1, _CMP_UNORD_Q),
                                         _mm256_cmp_ps(v2, v3, _CMP_UNORD_Q)));
  }
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    m0 = _mm256_max_ps(m0, v);
    nan = _mm256_or_ps(nan, is_nan(v));
  }
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    const __m256 v = _mm256_blendv_ps(_mm256_set1_ps(-INFINITY), _mm256_maskload_ps(x + i, mask),
                                      _mm256_castsi256_ps(mask));
    m1 = _mm256_max_ps(m1, v);
    nan = _mm256_or_ps(nan, is_nan(v));
  }
  if (_mm256_movemask_ps(nan) != 0) return NAN;
  return hmax(_mm256_max_ps(_mm256_max_ps(m0, m1), _mm256_max_ps(m2, m3)));
}

// acc = f(x, acc) over n, 16 floats per iteration, the tail masked.
template <typename F>
inline void accumulate(size_t n, const float* x, float* acc, F f) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256 r0 = f(_mm256_loadu_ps(x + i), _mm256_loadu_ps(acc + i));
    const __m256 r1 = f(_mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(acc + i + 8));
    _mm256_storeu_ps(acc + i, r0);
    _mm256_storeu_ps(acc + i + 8, r1);
  }
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(acc + i, f(_mm256_loadu_ps(x + i), _mm256_loadu_ps(acc + i)));
  }
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    _mm256_maskstore_ps(acc + i, mask,
                        f(_mm256_maskload_ps(x + i, mask), _mm256_maskload_ps(acc + i, mask)));
  }
}

void vadd_acc(size_t n, const float* x, float* acc) {
  accumulate(n, x, acc, [](__m256 v, __m256 a) { return _mm256_add_ps(a, v); });
}

void vmax_acc(size_t n, const float* x, float* acc) {
  // max(v, a) keeps a NaN accumulator (its second operand); a NaN v is
  // blended in.
  accumulate(n, x, acc, [](__m256 v, __m256 a) {
    return _mm256_blendv_ps(_mm256_max_ps(v, a), v, is_nan(v));
  });
}

// Columns in chunks of 32 (4 ymm registers, two sets for alternate rows so
// that two adds are in flight per register, the second starting from f's
// identity), the last chunk masked.
template <typename F>
inline void column_accumulate(size_t rows, size_t n, const float* x, size_t stride, float* acc,
                              float identity, F f) {
  for (size_t j = 0; j < n; j += 32) {
    const size_t w = n - j < 32 ? n - j : 32;
    const size_t vecs = (w + 7) / 8;
    const __m256i last = tail_mask(w - (vecs - 1) * 8);
    __m256 a[4], b[4];
    for (size_t v = 0; v < vecs; ++v) {
      a[v] = v + 1 < vecs ? _mm256_loadu_ps(acc + j + 8 * v)
                          : _mm256_maskload_ps(acc + j + 8 * v, last);
      b[v] = _mm256_set1_ps(identity);
    }
    const float* xr = x + j;
    size_t r = 0;
    if (vecs == 4 && w == 32) {
      for (; r + 2 <= rows; r += 2, xr += 2 * stride) {
        for (size_t v = 0; v < 4; ++v) {
          a[v] = f(_mm256_loadu_ps(xr + 8 * v), a[v]);
          b[v] = f(_mm256_loadu_ps(xr + stride + 8 * v), b[v]);
        }
      }
    }
    for (; r < rows; ++r, xr += stride) {
      for (size_t v = 0; v < vecs; ++v) {
        const __m256 xv = v + 1 < vecs ? _mm256_loadu_ps(xr + 8 * v)
                                       : _mm256_maskload_ps(xr + 8 * v, last);
        a[v] = f(xv, a[v]);
      }
    }
    for (size_t v = 0; v < vecs; ++v) {
      const __m256 sum = f(b[v], a[v]);
      if (v + 1 < vecs) {
        _mm256_storeu_ps(acc + j + 8 * v, sum);
      } else {
        _mm256_maskstore_ps(acc + j + 8 * v, last, sum);
      }
    }
  }
}

void cadd_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate(rows, n, x, stride, acc, 0.0f,
                    [](__m256 v, __m256 a) { return _mm256_add_ps(a, v); });
}

void cmax_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate(rows, n, x, stride, acc, -INFINITY, [](__m256 v, __m256 a) {
    return _mm256_blendv_ps(_mm256_max_ps(v, a), v, is_nan(v));
  });
}

}  // namespace

extern const F32ReduceConfig kF32ReduceAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, rsum, rmax, vadd_acc, vmax_acc, cadd_acc, cmax_acc,
};

}  // namespace ember::kernels::optimized
