// f32 layer-norm microkernels for AArch64 Advanced SIMD (baseline, no extra
// flags): four vector accumulators per sum, tails one float at a time.
#include <arm_neon.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/simd/neon_math.h"

namespace ember::kernels::optimized {
namespace {

// The sum over i < n of f(x[i], acc) with vector and scalar forms of f.
template <typename F, typename F1>
inline float reduce_sum(size_t n, const float* x, F f, F1 f1) {
  size_t i;
  const neon::Acc4 a = neon::accumulate4(n, x, vdupq_n_f32(0.0f), &i, f);
  float tail = 0.0f;
  for (; i < n; ++i) tail = f1(x[i], tail);
  return vaddvq_f32(vaddq_f32(vaddq_f32(a.a0, a.a1), vaddq_f32(a.a2, a.a3))) + tail;
}

void layernorm(size_t n, const float* x, const float* w, const float* b, float eps, float* y) {
  const float inv_n = 1.0f / static_cast<float>(n);
  const float mean0 = reduce_sum(
                          n, x, [](float32x4_t v, float32x4_t acc) { return vaddq_f32(acc, v); },
                          [](float v, float acc) { return acc + v; }) *
                      inv_n;
  // Deviations from the first mean, summed too: they correct it (see avx2.cpp).
  const float32x4_t vmean0 = vdupq_n_f32(mean0);
  float32x4_t s0 = vdupq_n_f32(0.0f), q0 = s0, s1 = s0, q1 = s0;
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const float32x4_t d0 = vsubq_f32(vld1q_f32(x + k), vmean0);
    const float32x4_t d1 = vsubq_f32(vld1q_f32(x + k + 4), vmean0);
    s0 = vaddq_f32(s0, d0);
    s1 = vaddq_f32(s1, d1);
    q0 = vfmaq_f32(q0, d0, d0);
    q1 = vfmaq_f32(q1, d1, d1);
  }
  float d_tail = 0.0f, q_tail = 0.0f;
  for (; k < n; ++k) {
    const float d = x[k] - mean0;
    d_tail += d;
    q_tail += d * d;
  }
  const float d_sum = vaddvq_f32(vaddq_f32(s0, s1)) + d_tail;
  const float d2_sum = vaddvq_f32(vaddq_f32(q0, q1)) + q_tail;
  const float mean = mean0 + d_sum * inv_n;
  const float var = (d2_sum - d_sum * d_sum * inv_n) * inv_n;
  const float32x4_t vmean = vdupq_n_f32(mean);
  const float rstd = 1.0f / std::sqrt((var > 0.0f ? var : 0.0f) + eps);
  const float32x4_t vrstd = vdupq_n_f32(rstd);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float32x4_t d = vmulq_f32(vsubq_f32(vld1q_f32(x + i), vmean), vrstd);
    if (w != nullptr) d = vmulq_f32(d, vld1q_f32(w + i));
    if (b != nullptr) d = vaddq_f32(d, vld1q_f32(b + i));
    vst1q_f32(y + i, d);
  }
  for (; i < n; ++i) {
    float v = (x[i] - mean) * rstd;
    if (w != nullptr) v *= w[i];
    if (b != nullptr) v += b[i];
    y[i] = v;
  }
}

void rmsnorm(size_t n, const float* x, const float* w, float eps, float* y) {
  const float ms = reduce_sum(
                       n, x, [](float32x4_t v, float32x4_t acc) { return vfmaq_f32(acc, v, v); },
                       [](float v, float acc) { return acc + v * v; }) /
                   static_cast<float>(n);
  const float rstd = 1.0f / std::sqrt(ms + eps);
  const float32x4_t vrstd = vdupq_n_f32(rstd);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float32x4_t v = vmulq_f32(vld1q_f32(x + i), vrstd);
    if (w != nullptr) v = vmulq_f32(v, vld1q_f32(w + i));
    vst1q_f32(y + i, v);
  }
  for (; i < n; ++i) {
    const float v = x[i] * rstd;
    y[i] = w != nullptr ? v * w[i] : v;
  }
}

}  // namespace

extern const F32LayerNormConfig kF32LayerNormNeonConfig = {"neon", kCpuNeon, layernorm, rmsnorm};

}  // namespace ember::kernels::optimized
