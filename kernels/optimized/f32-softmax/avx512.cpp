// f32 softmax microkernels for AVX-512, compiled with ${EMBER_AVX512_FLAGS}
// for this file only: avx2.cpp's loops 16 lanes wide, tails through one
// masked load and store. The exp is f32-vunary's exp for x <= 0
// (simd/avx512_math.h), the AVX2 one operation for operation.
#include <immintrin.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/simd/avx512_math.h"

namespace ember::kernels::optimized {
namespace {

using avx512::Acc4;
using avx512::accumulate4;
using avx512::exp_nonpositive;
using avx512::hmax;
using avx512::hsum;
using avx512::splat;
using avx512::tail_mask;

float rmax(size_t n, const float* x) {
  size_t i;
  Acc4 m = accumulate4(n, x, splat(-INFINITY), &i,
                       [](__m512 v, __m512 acc) { return _mm512_max_ps(acc, v); });
  if (i < n) {
    // Masked-off lanes load as -inf.
    const __m512 v = _mm512_mask_loadu_ps(splat(-INFINITY), tail_mask(n - i), x + i);
    m.a1 = _mm512_max_ps(m.a1, v);
  }
  return hmax(_mm512_max_ps(_mm512_max_ps(m.a0, m.a1), _mm512_max_ps(m.a2, m.a3)));
}

template <bool kStore>
float addexpminusmax(size_t n, const float* x, float max, float* y) {
  const __m512 vmax = splat(max);
  __m512 acc0 = _mm512_setzero_ps(), acc1 = acc0;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512 e0 = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i), vmax));
    const __m512 e1 = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i + 16), vmax));
    const __m512 e2 = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i + 32), vmax));
    const __m512 e3 = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i + 48), vmax));
    if (kStore) {
      _mm512_storeu_ps(y + i, e0);
      _mm512_storeu_ps(y + i + 16, e1);
      _mm512_storeu_ps(y + i + 32, e2);
      _mm512_storeu_ps(y + i + 48, e3);
    }
    acc0 = _mm512_add_ps(acc0, _mm512_add_ps(e0, e2));
    acc1 = _mm512_add_ps(acc1, _mm512_add_ps(e1, e3));
  }
  for (; i + 16 <= n; i += 16) {
    const __m512 e = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i), vmax));
    if (kStore) _mm512_storeu_ps(y + i, e);
    acc0 = _mm512_add_ps(acc0, e);
  }
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    // Zeroed past the tail, so that exp(0 - max) there adds nothing.
    const __m512 e = _mm512_maskz_mov_ps(
        mask, exp_nonpositive(_mm512_sub_ps(_mm512_maskz_loadu_ps(mask, x + i), vmax)));
    if (kStore) _mm512_mask_storeu_ps(y + i, mask, e);
    acc1 = _mm512_add_ps(acc1, e);
  }
  return hsum(_mm512_add_ps(acc0, acc1));
}

float raddstoreexpminusmax(size_t n, const float* x, float max, float* y) {
  return addexpminusmax<true>(n, x, max, y);
}

float raddexpminusmax(size_t n, const float* x, float max) {
  return addexpminusmax<false>(n, x, max, nullptr);
}

// Loads a full vector, or the first lanes of one (the rest read as 0).
struct FullLoad {
  __m512 operator()(const float* p) const { return _mm512_loadu_ps(p); }
};
struct MaskedLoad {
  __mmask16 mask;
  __m512 operator()(const float* p) const { return _mm512_maskz_loadu_ps(mask, p); }
};

// y[i..i+16) = f(load, i) for i < n: a masked head up to a cache line of y
// (split 64-byte stores cost rows in L2; each element's result is the same
// whichever vector it falls in), full vectors, then one masked tail.
template <typename F>
inline void map(size_t n, float* y, F f) {
  size_t i = 0;
  if (n >= 64 && avx512::to_line(y) != 0) {
    const __mmask16 mask = tail_mask(avx512::to_line(y));
    _mm512_mask_storeu_ps(y, mask, f(MaskedLoad{mask}, 0));
    i = avx512::to_line(y);
  }
  for (; i + 32 <= n; i += 32) {
    const __m512 v0 = f(FullLoad{}, i);
    const __m512 v1 = f(FullLoad{}, i + 16);
    _mm512_storeu_ps(y + i, v0);
    _mm512_storeu_ps(y + i + 16, v1);
  }
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, f(FullLoad{}, i));
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    _mm512_mask_storeu_ps(y + i, mask, f(MaskedLoad{mask}, i));
  }
}

void vscale(size_t n, const float* x, float s, float* y) {
  const __m512 vs = splat(s);
  map(n, y, [&](auto ld, size_t i) { return _mm512_mul_ps(ld(x + i), vs); });
}

void vsubsub(size_t n, const float* x, float a, float b, float* y) {
  const __m512 va = splat(a), vb = splat(b);
  map(n, y, [&](auto ld, size_t i) { return _mm512_sub_ps(_mm512_sub_ps(ld(x + i), va), vb); });
}

void vmax_acc(size_t n, const float* x, float* m) {
  map(n, m, [&](auto ld, size_t i) { return _mm512_max_ps(ld(m + i), ld(x + i)); });
}

void vexpminus_acc(size_t n, const float* x, const float* m, float* y, float* s) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 e = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(m + i)));
    _mm512_storeu_ps(y + i, e);
    _mm512_storeu_ps(s + i, _mm512_add_ps(_mm512_loadu_ps(s + i), e));
  }
  if (i < n) {
    const __mmask16 k = tail_mask(n - i);
    const __m512 e = exp_nonpositive(
        _mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), _mm512_maskz_loadu_ps(k, m + i)));
    _mm512_mask_storeu_ps(y + i, k, e);
    _mm512_mask_storeu_ps(s + i, k, _mm512_add_ps(_mm512_maskz_loadu_ps(k, s + i), e));
  }
}

void vmul(size_t n, const float* x, const float* r, float* y) {
  map(n, y, [&](auto ld, size_t i) { return _mm512_mul_ps(ld(x + i), ld(r + i)); });
}

void vsubsubv(size_t n, const float* x, const float* a, const float* b, float* y) {
  map(n, y, [&](auto ld, size_t i) {
    return _mm512_sub_ps(_mm512_sub_ps(ld(x + i), ld(a + i)), ld(b + i));
  });
}

}  // namespace

extern const F32SoftmaxConfig kF32SoftmaxAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, rmax, raddstoreexpminusmax,
    raddexpminusmax, vscale, vsubsub, vmax_acc, vexpminus_acc, vmul, vsubsubv,
};

}  // namespace ember::kernels::optimized
