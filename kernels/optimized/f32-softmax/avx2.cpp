// f32 softmax microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for this
// file only. The exp is f32-vunary's exp for x <= 0 (simd/avx2_math.h).
#include <immintrin.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/simd/avx2_math.h"

namespace ember::kernels::optimized {
namespace {

using avx2::Acc4;
using avx2::accumulate4;
using avx2::exp_nonpositive;
using avx2::hmax;
using avx2::hsum;
using avx2::splat;
using avx2::tail_mask;

float rmax(size_t n, const float* x) {
  size_t i;
  Acc4 m = accumulate4(n, x, splat(-INFINITY), &i,
                       [](__m256 v, __m256 acc) { return _mm256_max_ps(acc, v); });
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    const __m256 v = _mm256_blendv_ps(splat(-INFINITY), _mm256_maskload_ps(x + i, mask),
                                      _mm256_castsi256_ps(mask));
    m.a1 = _mm256_max_ps(m.a1, v);
  }
  return hmax(_mm256_max_ps(_mm256_max_ps(m.a0, m.a1), _mm256_max_ps(m.a2, m.a3)));
}

template <bool kStore>
float addexpminusmax(size_t n, const float* x, float max, float* y) {
  const __m256 vmax = splat(max);
  __m256 acc0 = _mm256_setzero_ps(), acc1 = acc0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256 e0 = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmax));
    const __m256 e1 = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i + 8), vmax));
    const __m256 e2 = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i + 16), vmax));
    const __m256 e3 = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i + 24), vmax));
    if (kStore) {
      _mm256_storeu_ps(y + i, e0);
      _mm256_storeu_ps(y + i + 8, e1);
      _mm256_storeu_ps(y + i + 16, e2);
      _mm256_storeu_ps(y + i + 24, e3);
    }
    acc0 = _mm256_add_ps(acc0, _mm256_add_ps(e0, e2));
    acc1 = _mm256_add_ps(acc1, _mm256_add_ps(e1, e3));
  }
  for (; i + 8 <= n; i += 8) {
    const __m256 e = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmax));
    if (kStore) _mm256_storeu_ps(y + i, e);
    acc0 = _mm256_add_ps(acc0, e);
  }
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    __m256 e = exp_nonpositive(_mm256_sub_ps(_mm256_maskload_ps(x + i, mask), vmax));
    e = _mm256_and_ps(e, _mm256_castsi256_ps(mask));
    if (kStore) _mm256_maskstore_ps(y + i, mask, e);
    acc1 = _mm256_add_ps(acc1, e);
  }
  return hsum(_mm256_add_ps(acc0, acc1));
}

float raddstoreexpminusmax(size_t n, const float* x, float max, float* y) {
  return addexpminusmax<true>(n, x, max, y);
}

float raddexpminusmax(size_t n, const float* x, float max) {
  return addexpminusmax<false>(n, x, max, nullptr);
}

// Loads a full vector, or the first lanes of one (the rest read as 0).
struct FullLoad {
  __m256 operator()(const float* p) const { return _mm256_loadu_ps(p); }
};
struct MaskedLoad {
  __m256i mask;
  __m256 operator()(const float* p) const { return _mm256_maskload_ps(p, mask); }
};

// y[i..i+8) = f(load, i) for i < n: full vectors, then one masked tail.
template <typename F>
inline void map(size_t n, float* y, F f) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256 v0 = f(FullLoad{}, i);
    const __m256 v1 = f(FullLoad{}, i + 8);
    _mm256_storeu_ps(y + i, v0);
    _mm256_storeu_ps(y + i + 8, v1);
  }
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, f(FullLoad{}, i));
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    _mm256_maskstore_ps(y + i, mask, f(MaskedLoad{mask}, i));
  }
}

void vscale(size_t n, const float* x, float s, float* y) {
  const __m256 vs = splat(s);
  map(n, y, [&](auto ld, size_t i) { return _mm256_mul_ps(ld(x + i), vs); });
}

void vsubsub(size_t n, const float* x, float a, float b, float* y) {
  const __m256 va = splat(a), vb = splat(b);
  map(n, y, [&](auto ld, size_t i) { return _mm256_sub_ps(_mm256_sub_ps(ld(x + i), va), vb); });
}

void vmax_acc(size_t n, const float* x, float* m) {
  map(n, m, [&](auto ld, size_t i) { return _mm256_max_ps(ld(m + i), ld(x + i)); });
}

void vexpminus_acc(size_t n, const float* x, const float* m, float* y, float* s) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 e = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(m + i)));
    _mm256_storeu_ps(y + i, e);
    _mm256_storeu_ps(s + i, _mm256_add_ps(_mm256_loadu_ps(s + i), e));
  }
  if (i < n) {
    const __m256i k = tail_mask(n - i);
    const __m256 e = exp_nonpositive(
        _mm256_sub_ps(_mm256_maskload_ps(x + i, k), _mm256_maskload_ps(m + i, k)));
    _mm256_maskstore_ps(y + i, k, e);
    _mm256_maskstore_ps(s + i, k, _mm256_add_ps(_mm256_maskload_ps(s + i, k), e));
  }
}

void vmul(size_t n, const float* x, const float* r, float* y) {
  map(n, y, [&](auto ld, size_t i) { return _mm256_mul_ps(ld(x + i), ld(r + i)); });
}

void vsubsubv(size_t n, const float* x, const float* a, const float* b, float* y) {
  map(n, y, [&](auto ld, size_t i) {
    return _mm256_sub_ps(_mm256_sub_ps(ld(x + i), ld(a + i)), ld(b + i));
  });
}

}  // namespace

extern const F32SoftmaxConfig kF32SoftmaxAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, rmax, raddstoreexpminusmax, raddexpminusmax, vscale,
    vsubsub, vmax_acc, vexpminus_acc, vmul, vsubsubv,
};

}  // namespace ember::kernels::optimized
