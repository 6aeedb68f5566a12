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

// Columns in chunks of 16 (4 q-registers, two sets for alternate rows so
// that two adds are in flight per register, the second starting from f's
// identity), then a tail of up to 3 scalars.
template <typename F, typename S>
inline void column_accumulate(size_t rows, size_t n, const float* x, size_t stride, float* acc,
                              float identity, F f, S scalar) {
  size_t j = 0;
  for (; j + 4 <= n; j += 16) {
    const size_t vecs = (n - j) / 4 < 4 ? (n - j) / 4 : 4;
    float32x4_t a[4], b[4];
    for (size_t v = 0; v < vecs; ++v) {
      a[v] = vld1q_f32(acc + j + 4 * v);
      b[v] = vdupq_n_f32(identity);
    }
    const float* xr = x + j;
    size_t r = 0;
    for (; r + 2 <= rows; r += 2, xr += 2 * stride) {
      for (size_t v = 0; v < vecs; ++v) {
        a[v] = f(a[v], vld1q_f32(xr + 4 * v));
        b[v] = f(b[v], vld1q_f32(xr + stride + 4 * v));
      }
    }
    if (r < rows) {
      for (size_t v = 0; v < vecs; ++v) a[v] = f(a[v], vld1q_f32(xr + 4 * v));
    }
    for (size_t v = 0; v < vecs; ++v) vst1q_f32(acc + j + 4 * v, f(b[v], a[v]));
    if (vecs < 4) {
      j += 4 * vecs;
      break;
    }
  }
  for (; j < n; ++j) {
    for (size_t r = 0; r < rows; ++r) acc[j] = scalar(acc[j], x[r * stride + j]);
  }
}

void cadd_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate(rows, n, x, stride, acc, 0.0f, [](float32x4_t a, float32x4_t v) {
    return vaddq_f32(a, v);
  }, [](float a, float v) { return a + v; });
}

void cmax_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  // vmaxq_f32 returns NaN when either operand is NaN: NaN wins as it must.
  column_accumulate(rows, n, x, stride, acc, -INFINITY, [](float32x4_t a, float32x4_t v) {
    return vmaxq_f32(a, v);
  }, [](float a, float v) { return (v > a || v != v) ? v : a; });
}

}  // namespace

extern const F32ReduceConfig kF32ReduceNeonConfig = {
    "neon", kCpuNeon, rsum, rmax, vadd_acc, vmax_acc, cadd_acc, cmax_acc,
};

}  // namespace ember::kernels::optimized
