// f32 layer-norm microkernels for AVX-512, compiled with ${EMBER_AVX512_FLAGS}
// for this file only: avx2.cpp's passes 16 lanes wide, tails through one
// masked load and store. Sums keep four vector accumulators (64 partial
// sums), which hides the add latency and keeps the rounding error of a
// 4096-wide row at about that of 64 additions.
#include <immintrin.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/simd/avx512_math.h"

namespace ember::kernels::optimized {
namespace {

using avx512::Acc4;
using avx512::accumulate4;
using avx512::hsum;
using avx512::tail_mask;

// sum over i < n of f(x[i]), f(v) given as a vector function; masked-off
// lanes of the tail load as 0 and are zeroed again after f.
template <typename F>
inline float reduce_sum(size_t n, const float* x, F f) {
  size_t i;
  Acc4 a = accumulate4(n, x, _mm512_setzero_ps(), &i, f);
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    const __m512 zero = _mm512_setzero_ps();
    const __m512 v = f(_mm512_maskz_loadu_ps(mask, x + i), zero);
    a.a1 = _mm512_add_ps(a.a1, _mm512_maskz_mov_ps(mask, v));
  }
  return hsum(_mm512_add_ps(_mm512_add_ps(a.a0, a.a1), _mm512_add_ps(a.a2, a.a3)));
}

// The sums of d = x - mean and of d^2 over the row, two accumulators each.
inline float reduce_sum2(size_t n, const float* x, __m512 mean, float* d_sum) {
  __m512 s0 = _mm512_setzero_ps(), s1 = s0, q0 = s0, q1 = s0;
  size_t i = avx512::for_each_block64(n, x, [&](__m512 v0, __m512 v1, __m512 v2, __m512 v3) {
    const __m512 d0 = _mm512_sub_ps(v0, mean), d1 = _mm512_sub_ps(v1, mean);
    const __m512 d2 = _mm512_sub_ps(v2, mean), d3 = _mm512_sub_ps(v3, mean);
    s0 = _mm512_add_ps(s0, _mm512_add_ps(d0, d2));
    s1 = _mm512_add_ps(s1, _mm512_add_ps(d1, d3));
    q0 = _mm512_fmadd_ps(d2, d2, _mm512_fmadd_ps(d0, d0, q0));
    q1 = _mm512_fmadd_ps(d3, d3, _mm512_fmadd_ps(d1, d1, q1));
  });
  for (; i + 16 <= n; i += 16) {
    const __m512 d = _mm512_sub_ps(_mm512_loadu_ps(x + i), mean);
    s0 = _mm512_add_ps(s0, d);
    q0 = _mm512_fmadd_ps(d, d, q0);
  }
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    const __m512 d = _mm512_maskz_sub_ps(mask, _mm512_maskz_loadu_ps(mask, x + i), mean);
    s1 = _mm512_add_ps(s1, d);
    q1 = _mm512_fmadd_ps(d, d, q1);
  }
  *d_sum = hsum(_mm512_add_ps(s0, s1));
  return hsum(_mm512_add_ps(q0, q1));
}

// y = g(x, w, b) over the row, with w and b streamed when present.
template <bool kW, bool kB, typename G>
inline void write_row(size_t n, const float* x, const float* w, const float* b, float* y, G g) {
  const __m512 one = _mm512_set1_ps(1.0f), zero = _mm512_setzero_ps();
  size_t i = 0;
  // A masked head first, so that the stores (and the loads of x, when it
  // shares y's alignment) stay within cache lines: split 64-byte accesses
  // cost this loop up to 15% on rows in L2.
  const size_t head = avx512::to_line(y);
  if (head != 0 && head < n) {
    const __mmask16 mask = tail_mask(head);
    const __m512 wv = kW ? _mm512_maskz_loadu_ps(mask, w) : one;
    const __m512 bv = kB ? _mm512_maskz_loadu_ps(mask, b) : zero;
    _mm512_mask_storeu_ps(y, mask, g(_mm512_maskz_loadu_ps(mask, x), wv, bv));
    i = head;
  }
  for (; i + 16 <= n; i += 16) {
    _mm512_storeu_ps(y + i, g(_mm512_loadu_ps(x + i), kW ? _mm512_loadu_ps(w + i) : one,
                              kB ? _mm512_loadu_ps(b + i) : zero));
  }
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    const __m512 wv = kW ? _mm512_maskz_loadu_ps(mask, w + i) : one;
    const __m512 bv = kB ? _mm512_maskz_loadu_ps(mask, b + i) : zero;
    _mm512_mask_storeu_ps(y + i, mask, g(_mm512_maskz_loadu_ps(mask, x + i), wv, bv));
  }
}

template <bool kW, bool kB>
void normalize(size_t n, const float* x, const float* w, const float* b, __m512 mean, __m512 rstd,
               float* y) {
  write_row<kW, kB>(n, x, w, b, y, [&](__m512 v, __m512 wv, __m512 bv) {
    const __m512 d = _mm512_mul_ps(_mm512_sub_ps(v, mean), rstd);
    return kW ? _mm512_fmadd_ps(d, wv, bv) : _mm512_add_ps(d, bv);
  });
}

void layernorm(size_t n, const float* x, const float* w, const float* b, float eps, float* y) {
  const float inv_n = 1.0f / static_cast<float>(n);
  const auto add = [](__m512 v, __m512 acc) { return _mm512_add_ps(acc, v); };
  const float mean0 = reduce_sum(n, x, add) * inv_n;
  // The second pass sums the deviations too: their mean is the rounding
  // error of the first pass's mean, which corrects it and the variance (the
  // corrected two-pass algorithm; Chan, Golub and LeVeque 1983).
  const __m512 vmean0 = _mm512_set1_ps(mean0);
  float d_sum = 0.0f;
  const float d2_sum = reduce_sum2(n, x, vmean0, &d_sum);
  const float mean = mean0 + d_sum * inv_n;
  const float var = (d2_sum - d_sum * d_sum * inv_n) * inv_n;
  const __m512 vmean = _mm512_set1_ps(mean);
  const __m512 rstd = _mm512_set1_ps(1.0f / std::sqrt((var > 0.0f ? var : 0.0f) + eps));
  if (w != nullptr && b != nullptr) {
    normalize<true, true>(n, x, w, b, vmean, rstd, y);
  } else if (w != nullptr) {
    normalize<true, false>(n, x, w, b, vmean, rstd, y);
  } else if (b != nullptr) {
    normalize<false, true>(n, x, w, b, vmean, rstd, y);
  } else {
    normalize<false, false>(n, x, w, b, vmean, rstd, y);
  }
}

void rmsnorm(size_t n, const float* x, const float* w, float eps, float* y) {
  const auto add_square = [](__m512 v, __m512 acc) { return _mm512_fmadd_ps(v, v, acc); };
  const float ms = reduce_sum(n, x, add_square) / static_cast<float>(n);
  const __m512 rstd = _mm512_set1_ps(1.0f / std::sqrt(ms + eps));
  auto g = [&](__m512 v, __m512 wv, __m512) { return _mm512_mul_ps(_mm512_mul_ps(v, rstd), wv); };
  if (w != nullptr) {
    write_row<true, false>(n, x, w, nullptr, y, g);
  } else {
    write_row<false, false>(n, x, w, nullptr, y, g);
  }
}

}  // namespace

extern const F32LayerNormConfig kF32LayerNormAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, layernorm, rmsnorm,
};

}  // namespace ember::kernels::optimized
