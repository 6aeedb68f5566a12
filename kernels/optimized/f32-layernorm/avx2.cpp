// f32 layer-norm microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for
// this file only. Sums keep four vector accumulators (32 partial sums), which
// hides the add latency and keeps the rounding error of a 4096-wide row at
// about that of 128 additions.
#include <immintrin.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/simd/avx2_math.h"

namespace ember::kernels::optimized {
namespace {

using avx2::Acc4;
using avx2::accumulate4;
using avx2::hsum;
using avx2::tail_mask;

// sum over i < n of f(x[i]), f(v) given as a vector function; masked-off
// lanes of the tail load as 0 and are masked again after f.
template <typename F>
inline float reduce_sum(size_t n, const float* x, F f) {
  size_t i;
  Acc4 a = accumulate4(n, x, _mm256_setzero_ps(), &i, f);
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    const __m256 zero = _mm256_setzero_ps();
    const __m256 v = f(_mm256_maskload_ps(x + i, mask), zero);
    a.a1 = _mm256_add_ps(a.a1, _mm256_blendv_ps(zero, v, _mm256_castsi256_ps(mask)));
  }
  return hsum(_mm256_add_ps(_mm256_add_ps(a.a0, a.a1), _mm256_add_ps(a.a2, a.a3)));
}

// The sums of d = x - mean and of d^2 over the row, two accumulators each.
inline float reduce_sum2(size_t n, const float* x, __m256 mean, float* d_sum) {
  __m256 s0 = _mm256_setzero_ps(), s1 = s0, q0 = s0, q1 = s0;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256 d0 = _mm256_sub_ps(_mm256_loadu_ps(x + i), mean);
    const __m256 d1 = _mm256_sub_ps(_mm256_loadu_ps(x + i + 8), mean);
    s0 = _mm256_add_ps(s0, d0);
    s1 = _mm256_add_ps(s1, d1);
    q0 = _mm256_fmadd_ps(d0, d0, q0);
    q1 = _mm256_fmadd_ps(d1, d1, q1);
  }
  for (; i + 8 <= n; i += 8) {
    const __m256 d = _mm256_sub_ps(_mm256_loadu_ps(x + i), mean);
    s0 = _mm256_add_ps(s0, d);
    q0 = _mm256_fmadd_ps(d, d, q0);
  }
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    const __m256 d = _mm256_and_ps(_mm256_sub_ps(_mm256_maskload_ps(x + i, mask), mean),
                                   _mm256_castsi256_ps(mask));
    s1 = _mm256_add_ps(s1, d);
    q1 = _mm256_fmadd_ps(d, d, q1);
  }
  *d_sum = hsum(_mm256_add_ps(s0, s1));
  return hsum(_mm256_add_ps(q0, q1));
}

// y = g(x, w, b) over the row, with w and b streamed when present.
template <bool kW, bool kB, typename G>
inline void write_row(size_t n, const float* x, const float* w, const float* b, float* y, G g) {
  const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(y + i, g(_mm256_loadu_ps(x + i), kW ? _mm256_loadu_ps(w + i) : one,
                              kB ? _mm256_loadu_ps(b + i) : zero));
  }
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    const __m256 wv = kW ? _mm256_maskload_ps(w + i, mask) : one;
    const __m256 bv = kB ? _mm256_maskload_ps(b + i, mask) : zero;
    _mm256_maskstore_ps(y + i, mask, g(_mm256_maskload_ps(x + i, mask), wv, bv));
  }
}

template <bool kW, bool kB>
void normalize(size_t n, const float* x, const float* w, const float* b, __m256 mean, __m256 rstd,
               float* y) {
  write_row<kW, kB>(n, x, w, b, y, [&](__m256 v, __m256 wv, __m256 bv) {
    const __m256 d = _mm256_mul_ps(_mm256_sub_ps(v, mean), rstd);
    return kW ? _mm256_fmadd_ps(d, wv, bv) : _mm256_add_ps(d, bv);
  });
}

void layernorm(size_t n, const float* x, const float* w, const float* b, float eps, float* y) {
  const float inv_n = 1.0f / static_cast<float>(n);
  const auto add = [](__m256 v, __m256 acc) { return _mm256_add_ps(acc, v); };
  const float mean0 = reduce_sum(n, x, add) * inv_n;
  // The second pass sums the deviations too: their mean is the rounding
  // error of the first pass's mean, which corrects it and the variance (the
  // corrected two-pass algorithm; Chan, Golub and LeVeque 1983).
  const __m256 vmean0 = _mm256_set1_ps(mean0);
  float d_sum = 0.0f;
  const float d2_sum = reduce_sum2(n, x, vmean0, &d_sum);
  const float mean = mean0 + d_sum * inv_n;
  const float var = (d2_sum - d_sum * d_sum * inv_n) * inv_n;
  const __m256 vmean = _mm256_set1_ps(mean);
  const __m256 rstd = _mm256_set1_ps(1.0f / std::sqrt((var > 0.0f ? var : 0.0f) + eps));
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
  const auto add_square = [](__m256 v, __m256 acc) { return _mm256_fmadd_ps(v, v, acc); };
  const float ms = reduce_sum(n, x, add_square) / static_cast<float>(n);
  const __m256 rstd = _mm256_set1_ps(1.0f / std::sqrt(ms + eps));
  auto g = [&](__m256 v, __m256 wv, __m256) { return _mm256_mul_ps(_mm256_mul_ps(v, rstd), wv); };
  if (w != nullptr) {
    write_row<true, false>(n, x, w, nullptr, y, g);
  } else {
    write_row<false, false>(n, x, w, nullptr, y, g);
  }
}

}  // namespace

extern const F32LayerNormConfig kF32LayerNormAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, layernorm, rmsnorm,
};

}  // namespace ember::kernels::optimized
