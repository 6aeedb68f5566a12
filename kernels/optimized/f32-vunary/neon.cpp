// f32 unary microkernels for AArch64 Advanced SIMD (baseline on AArch64, so
// no extra flags): two independent vectors (8 floats) per iteration, the
// tail through a small buffer. FMIN/FMAX return NaN when either input is
// NaN, so clamps need no care for it.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/simd/neon_math.h"

namespace ember::kernels::optimized {
namespace {

namespace vm = vmath;

using neon::exp_nonpositive;
using neon::exp_poly;
using neon::load_tail;
using neon::pow2_from_biased;
using neon::reduce_ln2;
using neon::splat;
using neon::store_tail;

// Copies the sign of x onto magnitude (whose sign bit is clear).
inline float32x4_t with_sign_of(float32x4_t magnitude, float32x4_t x) {
  return vbslq_f32(vdupq_n_u32(0x80000000u), x, magnitude);
}

inline float32x4_t sigmoid(float32x4_t x) {
  const float32x4_t e = exp_nonpositive(vnegq_f32(vabsq_f32(x)));
  const float32x4_t f = vdivq_f32(e, vaddq_f32(e, splat(1.0f)));
  const uint32x4_t negative = vcltq_f32(x, vdupq_n_f32(0.0f));
  return vbslq_f32(negative, f, vsubq_f32(splat(1.0f), f));
}

struct ClampOp {
  static float32x4_t f(float32x4_t x) { return x; }
};

struct ExpOp {
  static float32x4_t f(float32x4_t x) {
    const float32x4_t xc = vminq_f32(vmaxq_f32(x, splat(vm::kExpMinX)), splat(vm::kExpMaxX));
    float32x4_t n = vfmaq_f32(splat(vm::kRoundMagic), xc, splat(vm::kLog2e));
    const int32x4_t ni = vsubq_s32(vreinterpretq_s32_f32(n),
                                   vreinterpretq_s32_f32(splat(vm::kRoundMagic)));
    n = vsubq_f32(n, splat(vm::kRoundMagic));
    const float32x4_t t = reduce_ln2(xc, n);
    const float32x4_t v = vfmaq_f32(splat(1.0f), t, exp_poly(t));
    const int32x4_t n1 = vshrq_n_s32(ni, 1);
    const int32x4_t n2 = vsubq_s32(ni, n1);
    const int32x4_t bias = vdupq_n_s32(127);
    const float32x4_t s1 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n1, bias), 23));
    const float32x4_t s2 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n2, bias), 23));
    return vmulq_f32(vmulq_f32(v, s1), s2);
  }
};

struct SigmoidOp {
  static float32x4_t f(float32x4_t x) { return sigmoid(x); }
};

struct TanhOp {
  static float32x4_t f(float32x4_t x) {
    const float32x4_t ax = vminq_f32(vabsq_f32(x), splat(vm::kTanhSaturation));
    const float32x4_t z = vmulq_f32(ax, splat(-2.0f));
    float32x4_t n = vfmaq_f32(splat(vm::kRoundMagicBiased), z, splat(vm::kLog2e));
    const float32x4_t s = pow2_from_biased(n);
    n = vsubq_f32(n, splat(vm::kRoundMagicBiased));
    const float32x4_t t = reduce_ln2(z, n);
    float32x4_t q = vfmaq_f32(splat(vm::kExpm1D5), splat(vm::kExpm1D6), t);
    q = vfmaq_f32(splat(vm::kExpm1D4), q, t);
    q = vfmaq_f32(splat(vm::kExpm1D3), q, t);
    q = vfmaq_f32(splat(vm::kExpm1D2), q, t);
    const float32x4_t em1_t = vfmaq_f32(t, vmulq_f32(t, t), q);
    const float32x4_t m = vfmaq_f32(vsubq_f32(s, splat(1.0f)), s, em1_t);
    const float32x4_t r = vdivq_f32(vnegq_f32(m), vaddq_f32(m, splat(2.0f)));
    return with_sign_of(r, x);
  }
};

struct GeluOp {
  static float32x4_t f(float32x4_t x) {
    const float32x4_t ax = vabsq_f32(x);
    const float32x4_t a = vminq_f32(ax, splat(vm::kGeluSaturation));
    const float32x4_t a2 = vmulq_f32(a, a);
    float32x4_t p = vfmaq_f32(splat(vm::kGeluP4), splat(vm::kGeluP5), a2);
    p = vfmaq_f32(splat(vm::kGeluP3), p, a2);
    p = vfmaq_f32(splat(vm::kGeluP2), p, a2);
    p = vfmaq_f32(splat(vm::kGeluP1), p, a2);
    p = vfmaq_f32(splat(vm::kGeluP0), p, a2);
    float32x4_t q = vfmaq_f32(splat(vm::kGeluQ4), splat(vm::kGeluQ5), a2);
    q = vfmaq_f32(splat(vm::kGeluQ3), q, a2);
    q = vfmaq_f32(splat(vm::kGeluQ2), q, a2);
    q = vfmaq_f32(splat(vm::kGeluQ1), q, a2);
    q = vfmaq_f32(splat(1.0f), q, a2);
    float32x4_t g = vminq_f32(vdivq_f32(vmulq_f32(a, p), q), splat(1.0f));
    g = vbslq_f32(vcgeq_f32(ax, splat(vm::kGeluSaturation)), splat(1.0f), g);
    const float32x4_t erf = with_sign_of(g, x);
    return vmulq_f32(vmulq_f32(x, splat(0.5f)), vaddq_f32(erf, splat(1.0f)));
  }
};

struct GeluTanhOp {
  static float32x4_t f(float32x4_t x) {
    const float32x4_t x2 = vmulq_f32(x, x);
    const float32x4_t z =
        vmulq_f32(x, vfmaq_f32(splat(vm::kGeluTanhC0), x2, splat(vm::kGeluTanhC1)));
    return vmulq_f32(x, sigmoid(z));
  }
};

struct SiluOp {
  static float32x4_t f(float32x4_t x) { return vmulq_f32(x, sigmoid(x)); }
};

inline float32x4_t relu6_of_x_plus_3(float32x4_t x) {
  return vminq_f32(vmaxq_f32(vaddq_f32(x, splat(3.0f)), vdupq_n_f32(0.0f)), splat(6.0f));
}

struct HardSwishOp {
  static float32x4_t f(float32x4_t x) {
    return vmulq_f32(vmulq_f32(x, relu6_of_x_plus_3(x)), splat(1.0f / 6.0f));
  }
};

struct HardSigmoidOp {
  static float32x4_t f(float32x4_t x) {
    return vmulq_f32(relu6_of_x_plus_3(x), splat(1.0f / 6.0f));
  }
};

struct NegOp {
  static float32x4_t f(float32x4_t x) { return vnegq_f32(x); }
};

struct SqrtOp {
  static float32x4_t f(float32x4_t x) { return vsqrtq_f32(x); }
};

struct RsqrtOp {
  static float32x4_t f(float32x4_t x) { return vdivq_f32(splat(1.0f), vsqrtq_f32(x)); }
};

struct AbsOp {
  static float32x4_t f(float32x4_t x) { return vabsq_f32(x); }
};

template <typename Op>
void ukernel(size_t n, const float* x, float* y, const F32VUnaryParams* params) {
  const float32x4_t lo = splat(params->min);
  const float32x4_t hi = splat(params->max);
  auto clamp = [&](float32x4_t v) { return vminq_f32(vmaxq_f32(v, lo), hi); };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const float32x4_t a = Op::f(vld1q_f32(x + i));
    const float32x4_t b = Op::f(vld1q_f32(x + i + 4));
    vst1q_f32(y + i, clamp(a));
    vst1q_f32(y + i + 4, clamp(b));
  }
  if (i + 4 <= n) {
    vst1q_f32(y + i, clamp(Op::f(vld1q_f32(x + i))));
    i += 4;
  }
  if (i < n) {
    store_tail(y + i, n - i, clamp(Op::f(load_tail(x + i, n - i, 0.0f))));
  }
}

}  // namespace

extern const F32VUnaryConfig kF32VUnaryNeonConfig = {
    "neon",
    kCpuNeon,
    {
        ukernel<ClampOp>, ukernel<ExpOp>, ukernel<SigmoidOp>, ukernel<TanhOp>,
        ukernel<GeluOp>, ukernel<GeluTanhOp>, ukernel<SiluOp>, ukernel<HardSwishOp>,
        ukernel<HardSigmoidOp>, ukernel<NegOp>, ukernel<SqrtOp>, ukernel<RsqrtOp>,
        ukernel<AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
