// f32 softmax microkernels for AArch64 Advanced SIMD (baseline, no extra
// flags). The exp is f32-vunary's NEON exp for x <= 0 and tails go through a
// padded 4-float buffer (both simd/neon_math.h).
#include <arm_neon.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/simd/neon_math.h"

namespace ember::kernels::optimized {
namespace {

using neon::Acc4;
using neon::accumulate4;
using neon::exp_nonpositive;
using neon::load_tail;
using neon::splat;
using neon::store_tail;

float rmax(size_t n, const float* x) {
  size_t i;
  Acc4 m = accumulate4(n, x, splat(-INFINITY), &i,
                       [](float32x4_t v, float32x4_t acc) { return vmaxq_f32(acc, v); });
  if (i < n) m.a1 = vmaxq_f32(m.a1, load_tail(x + i, n - i, -INFINITY));
  return vmaxvq_f32(vmaxq_f32(vmaxq_f32(m.a0, m.a1), vmaxq_f32(m.a2, m.a3)));
}

template <bool kStore>
float addexpminusmax(size_t n, const float* x, float max, float* y) {
  const float32x4_t vmax = splat(max);
  float32x4_t acc0 = splat(0.0f), acc1 = acc0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const float32x4_t e0 = exp_nonpositive(vsubq_f32(vld1q_f32(x + i), vmax));
    const float32x4_t e1 = exp_nonpositive(vsubq_f32(vld1q_f32(x + i + 4), vmax));
    if (kStore) {
      vst1q_f32(y + i, e0);
      vst1q_f32(y + i + 4, e1);
    }
    acc0 = vaddq_f32(acc0, e0);
    acc1 = vaddq_f32(acc1, e1);
  }
  for (; i + 4 <= n; i += 4) {
    const float32x4_t e = exp_nonpositive(vsubq_f32(vld1q_f32(x + i), vmax));
    if (kStore) vst1q_f32(y + i, e);
    acc0 = vaddq_f32(acc0, e);
  }
  if (i < n) {
    // Padding with -inf makes the unused lanes exp(-inf) = 0.
    const float32x4_t e = exp_nonpositive(vsubq_f32(load_tail(x + i, n - i, -INFINITY), vmax));
    if (kStore) store_tail(y + i, n - i, e);
    acc1 = vaddq_f32(acc1, e);
  }
  return vaddvq_f32(vaddq_f32(acc0, acc1));
}

float raddstoreexpminusmax(size_t n, const float* x, float max, float* y) {
  return addexpminusmax<true>(n, x, max, y);
}

float raddexpminusmax(size_t n, const float* x, float max) {
  return addexpminusmax<false>(n, x, max, nullptr);
}

// y[i..i+4) = f(load, i): full vectors, then a padded tail.
struct FullLoad {
  float32x4_t operator()(const float* p) const { return vld1q_f32(p); }
};
struct TailLoad {
  size_t r;
  float32x4_t operator()(const float* p) const { return load_tail(p, r, 0.0f); }
};

template <typename F>
inline void map(size_t n, float* y, F f) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const float32x4_t v0 = f(FullLoad{}, i);
    const float32x4_t v1 = f(FullLoad{}, i + 4);
    vst1q_f32(y + i, v0);
    vst1q_f32(y + i + 4, v1);
  }
  for (; i + 4 <= n; i += 4) vst1q_f32(y + i, f(FullLoad{}, i));
  if (i < n) store_tail(y + i, n - i, f(TailLoad{n - i}, i));
}

void vscale(size_t n, const float* x, float s, float* y) {
  const float32x4_t vs = splat(s);
  map(n, y, [&](auto ld, size_t i) { return vmulq_f32(ld(x + i), vs); });
}

void vsubsub(size_t n, const float* x, float a, float b, float* y) {
  const float32x4_t va = splat(a), vb = splat(b);
  map(n, y, [&](auto ld, size_t i) { return vsubq_f32(vsubq_f32(ld(x + i), va), vb); });
}

void vmax_acc(size_t n, const float* x, float* m) {
  map(n, m, [&](auto ld, size_t i) { return vmaxq_f32(ld(m + i), ld(x + i)); });
}

void vexpminus_acc(size_t n, const float* x, const float* m, float* y, float* s) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const float32x4_t e = exp_nonpositive(vsubq_f32(vld1q_f32(x + i), vld1q_f32(m + i)));
    vst1q_f32(y + i, e);
    vst1q_f32(s + i, vaddq_f32(vld1q_f32(s + i), e));
  }
  if (i < n) {
    const size_t r = n - i;
    const float32x4_t e =
        exp_nonpositive(vsubq_f32(load_tail(x + i, r, 0.0f), load_tail(m + i, r, 0.0f)));
    store_tail(y + i, r, e);
    store_tail(s + i, r, vaddq_f32(load_tail(s + i, r, 0.0f), e));
  }
}

void vmul(size_t n, const float* x, const float* r, float* y) {
  map(n, y, [&](auto ld, size_t i) { return vmulq_f32(ld(x + i), ld(r + i)); });
}

void vsubsubv(size_t n, const float* x, const float* a, const float* b, float* y) {
  map(n, y, [&](auto ld, size_t i) {
    return vsubq_f32(vsubq_f32(ld(x + i), ld(a + i)), ld(b + i));
  });
}

}  // namespace

extern const F32SoftmaxConfig kF32SoftmaxNeonConfig = {
    "neon", kCpuNeon, rmax, raddstoreexpminusmax, raddexpminusmax, vscale,
    vsubsub, vmax_acc, vexpminus_acc, vmul, vsubsubv,
};

}  // namespace ember::kernels::optimized
