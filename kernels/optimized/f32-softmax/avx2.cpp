// f32 softmax microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for this
// file only. The exp is f32-vunary's exp for x <= 0 (same constants, same
// operations), repeated here because headers shared with ISA-flagged files
// may define no functions.
#include <immintrin.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"

namespace ember::kernels::optimized {
namespace {

namespace vm = vmath;

// kMaskTable + 8 - r: the first r lanes on.
const int32_t kMaskTable[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};

inline __m256i tail_mask(size_t r) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kMaskTable + 8 - r));
}

inline __m256 splat(float v) { return _mm256_set1_ps(v); }

// exp(z) for z <= 0 (or NaN), flushed to 0 below 2^-126.
inline __m256 exp_nonpositive(__m256 z) {
  __m256 n = _mm256_fmadd_ps(z, splat(vm::kLog2e), splat(vm::kRoundMagicBiased));
  const __m256 s = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(n), 23));
  n = _mm256_sub_ps(n, splat(vm::kRoundMagicBiased));
  __m256 t = _mm256_fnmadd_ps(n, splat(vm::kLn2Hi), z);
  t = _mm256_fnmadd_ps(n, splat(vm::kLn2Lo), t);
  __m256 p = _mm256_fmadd_ps(splat(vm::kExpC6), t, splat(vm::kExpC5));
  p = _mm256_fmadd_ps(p, t, splat(vm::kExpC4));
  p = _mm256_fmadd_ps(p, t, splat(vm::kExpC3));
  p = _mm256_fmadd_ps(p, t, splat(vm::kExpC2));
  p = _mm256_fmadd_ps(p, t, splat(vm::kExpC1));
  t = _mm256_mul_ps(t, s);
  const __m256 e = _mm256_fmadd_ps(t, p, s);
  return _mm256_andnot_ps(_mm256_cmp_ps(z, splat(vm::kExpDenormCutoff), _CMP_LT_OQ), e);
}

inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

inline float hmax(__m256 v) {
  __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_max_ps(s, _mm_movehl_ps(s, s));
  s = _mm_max_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

float rmax(size_t n, const float* x) {
  // Four accumulators: max has a 3-cycle latency and two ports.
  __m256 m0 = splat(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    m0 = _mm256_max_ps(m0, _mm256_loadu_ps(x + i));
    m1 = _mm256_max_ps(m1, _mm256_loadu_ps(x + i + 8));
    m2 = _mm256_max_ps(m2, _mm256_loadu_ps(x + i + 16));
    m3 = _mm256_max_ps(m3, _mm256_loadu_ps(x + i + 24));
  }
  for (; i + 8 <= n; i += 8) m0 = _mm256_max_ps(m0, _mm256_loadu_ps(x + i));
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    const __m256 v = _mm256_blendv_ps(splat(-INFINITY), _mm256_maskload_ps(x + i, mask),
                                      _mm256_castsi256_ps(mask));
    m1 = _mm256_max_ps(m1, v);
  }
  return hmax(_mm256_max_ps(_mm256_max_ps(m0, m1), _mm256_max_ps(m2, m3)));
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
