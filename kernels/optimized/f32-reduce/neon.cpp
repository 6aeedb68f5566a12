// f32 reduction microkernels for AArch64 Advanced SIMD (baseline, no extra
// flags). FMAX returns NaN when either input is NaN, so max needs no NaN
// bookkeeping.
#include <arm_neon.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"
#include "kernels/optimized/simd/neon_math.h"

namespace ember::kernels::optimized {
namespace {

using neon::Acc4;
using neon::accumulate4;

float rsum(size_t n, const float* x) {
  size_t i;
  const Acc4 a = accumulate4(n, x, vdupq_n_f32(0.0f), &i,
                             [](float32x4_t v, float32x4_t acc) { return vaddq_f32(acc, v); });
  float tail = 0.0f;
  for (; i < n; ++i) tail += x[i];
  return vaddvq_f32(vaddq_f32(vaddq_f32(a.a0, a.a1), vaddq_f32(a.a2, a.a3))) + tail;
}

float rmax(size_t n, const float* x) {
  size_t i;
  const Acc4 a = accumulate4(n, x, vdupq_n_f32(-INFINITY), &i,
                             [](float32x4_t v, float32x4_t acc) { return vmaxq_f32(acc, v); });
  float m = vmaxvq_f32(vmaxq_f32(vmaxq_f32(a.a0, a.a1), vmaxq_f32(a.a2, a.a3)));
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
