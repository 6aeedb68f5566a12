// f32 binary microkernels for AArch64 Advanced SIMD (baseline on AArch64, no
// extra flags): 16 floats per iteration, the tail one float at a time.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"

namespace ember::kernels::optimized {
namespace {

template <F32BinaryOp Op>
inline float32x4_t apply(float32x4_t a, float32x4_t b) {
  if constexpr (Op == F32BinaryOp::Add) return vaddq_f32(a, b);
  if constexpr (Op == F32BinaryOp::Sub) return vsubq_f32(a, b);
  if constexpr (Op == F32BinaryOp::Mul) return vmulq_f32(a, b);
  if constexpr (Op == F32BinaryOp::Div) return vdivq_f32(a, b);
  if constexpr (Op == F32BinaryOp::RSub) return vsubq_f32(b, a);
  if constexpr (Op == F32BinaryOp::RDiv) return vdivq_f32(b, a);
  // a > b ? a : b (b for equal zeros, as the other variants; FMAX would
  // order -0 below +0), NaN from either through a + b.
  if constexpr (Op == F32BinaryOp::Max || Op == F32BinaryOp::Min) {
    const uint32x4_t pick_a = Op == F32BinaryOp::Max ? vcgtq_f32(a, b) : vcltq_f32(a, b);
    const uint32x4_t ordered = vandq_u32(vceqq_f32(a, a), vceqq_f32(b, b));
    return vbslq_f32(ordered, vbslq_f32(pick_a, a, b), vaddq_f32(a, b));
  }
}

template <F32BinaryOp Op>
inline float apply1(float a, float b) {
  if constexpr (Op == F32BinaryOp::Add) return a + b;
  if constexpr (Op == F32BinaryOp::Sub) return a - b;
  if constexpr (Op == F32BinaryOp::Mul) return a * b;
  if constexpr (Op == F32BinaryOp::Div) return a / b;
  if constexpr (Op == F32BinaryOp::RSub) return b - a;
  if constexpr (Op == F32BinaryOp::RDiv) return b / a;
  if constexpr (Op == F32BinaryOp::Max) return a != a || b != b ? a + b : (a > b ? a : b);
  if constexpr (Op == F32BinaryOp::Min) return a != a || b != b ? a + b : (a < b ? a : b);
}

// b is a stream (kStream) or one number broadcast (b[0]). FMIN/FMAX return
// NaN when either input is NaN, so the clamp keeps NaN.
template <F32BinaryOp Op, bool kStream>
inline void run(size_t n, const float* a, const float* b, float* y, float32x4_t lo,
                float32x4_t hi) {
  auto clamp = [&](float32x4_t v) { return vminq_f32(vmaxq_f32(v, lo), hi); };
  const float32x4_t bb = vld1q_dup_f32(b);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const float32x4_t v0 = apply<Op>(vld1q_f32(a + i), kStream ? vld1q_f32(b + i) : bb);
    const float32x4_t v1 = apply<Op>(vld1q_f32(a + i + 4), kStream ? vld1q_f32(b + i + 4) : bb);
    const float32x4_t v2 = apply<Op>(vld1q_f32(a + i + 8), kStream ? vld1q_f32(b + i + 8) : bb);
    const float32x4_t v3 = apply<Op>(vld1q_f32(a + i + 12), kStream ? vld1q_f32(b + i + 12) : bb);
    vst1q_f32(y + i, clamp(v0));
    vst1q_f32(y + i + 4, clamp(v1));
    vst1q_f32(y + i + 8, clamp(v2));
    vst1q_f32(y + i + 12, clamp(v3));
  }
  for (; i + 4 <= n; i += 4) {
    vst1q_f32(y + i, clamp(apply<Op>(vld1q_f32(a + i), kStream ? vld1q_f32(b + i) : bb)));
  }
  const float lo1 = vgetq_lane_f32(lo, 0), hi1 = vgetq_lane_f32(hi, 0);
  for (; i < n; ++i) {
    const float v = apply1<Op>(a[i], kStream ? b[i] : b[0]);
    y[i] = v < lo1 ? lo1 : (v > hi1 ? hi1 : v);
  }
}

template <F32BinaryOp Op>
void vv(size_t n, const float* a, const float* b, float* y, const F32VBinaryParams* p) {
  run<Op, true>(n, a, b, y, vdupq_n_f32(p->min), vdupq_n_f32(p->max));
}

template <F32BinaryOp Op>
void vs(size_t n, const float* a, float b, float* y, const F32VBinaryParams* p) {
  run<Op, false>(n, a, &b, y, vdupq_n_f32(p->min), vdupq_n_f32(p->max));
}

template <F32BinaryOp Op>
void rows(size_t rows, size_t c, const float* a, const float* b, float* y,
          const F32VBinaryParams* p) {
  const float32x4_t lo = vdupq_n_f32(p->min);
  const float32x4_t hi = vdupq_n_f32(p->max);
  for (size_t r = 0; r < rows; ++r) run<Op, true>(c, a + r * c, b, y + r * c, lo, hi);
}

}  // namespace

extern const F32VBinaryConfig kF32VBinaryNeonConfig = {
    "neon",
    kCpuNeon,
    EMBER_F32_VBINARY_OPS(vv),
    EMBER_F32_VBINARY_OPS(vs),
    EMBER_F32_VBINARY_OPS(rows),
};

}  // namespace ember::kernels::optimized
