// f32 reduction microkernels for AArch64 Advanced SIMD (baseline, no extra
// flags). FMAX returns NaN when either input is NaN, so max needs no NaN
// bookkeeping.
#include <arm_neon.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"

namespace ember::kernels::optimized {
namespace {

float rsum(size_t n, const float* x) {
  float32x4_t a0 = vdupq_n_f32(0.0f), a1 = a0, a2 = a0, a3 = a0;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a0 = vaddq_f32(a0, vld1q_f32(x + i));
    a1 = vaddq_f32(a1, vld1q_f32(x + i + 4));
    a2 = vaddq_f32(a2, vld1q_f32(x + i + 8));
    a3 = vaddq_f32(a3, vld1q_f32(x + i + 12));
  }
  for (; i + 4 <= n; i += 4) a0 = vaddq_f32(a0, vld1q_f32(x + i));
  float tail = 0.0f;
  for (; i < n; ++i) tail += x[i];
  return vaddvq_f32(vaddq_f32(vaddq_f32(a0, a1), vaddq_f32(a2, a3))) + tail;
}

float rmax(size_t n, const float* x) {
  float32x4_t m0 = vdupq_n_f32(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    m0 = vmaxq_f32(m0, vld1q_f32(x + i));
    m1 = vmaxq_f32(m1, vld1q_f32(x + i + 4));
    m2 = vmaxq_f32(m2, vld1q_f32(x + i + 8));
    m3 = vmaxq_f32(m3, vld1q_f32(x + i + 12));
  }
  for (; i + 4 <= n; i += 4) m0 = vmaxq_f32(m0, vld1q_f32(x + i));
  float m = vmaxvq_f32(vmaxq_f32(vmaxq_f32(m0, m1), vmaxq_f32(m2, m3)));
  for (; i < n; ++i) {
    if (x[i] != x[i] || x[i] > m) m = x[i];
  }
  return m;
}

void vadd_acc(size_t n, const float* x, float* acc) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(acc + i, vaddq_f32(vld1q_f32(acc + i), vld1q_f32(x + i)));
  for (; i < n; ++i) acc[i] += x[i];
}

void vmax_acc(size_t n, const float* x, float* acc) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(acc + i, vmaxq_f32(vld1q_f32(acc + i), vld1q_f32(x + i)));
  for (; i < n; ++i) {
    if (x[i] > acc[i] || x[i] != x[i]) acc[i] = x[i];
  }
}

}  // namespace

extern const F32ReduceConfig kF32ReduceNeonConfig = {
    "neon", kCpuNeon, rsum, rmax, vadd_acc, vmax_acc,
};

}  // namespace ember::kernels::optimized
