// f32 unary microkernels in portable C++: the AVX2 and NEON algorithms one
// float at a time, with separate multiplies and adds where those use FMA
// (this file is compiled without ISA flags). The fallback on CPUs without
// them. Written without branches (selects only), so that the compiler can
// vectorize the loops for the baseline ISA (SSE2 on x86-64: 4 lanes).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"

namespace ember::kernels::optimized {
namespace {

namespace vm = vmath;

uint32_t bits_of(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

float float_of(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof(v));
  return v;
}

float with_sign_of(float magnitude, float x) {
  return float_of(bits_of(magnitude) | (bits_of(x) & 0x80000000u));
}

// min and max that return v when it is NaN, as the vector variants do.
float max_nan(float lo, float v) { return v < lo ? lo : v; }
float min_nan(float hi, float v) { return v > hi ? hi : v; }

float reduce_ln2(float x, float n) { return (x - n * vm::kLn2Hi) - n * vm::kLn2Lo; }

float exp_poly(float t) {
  float p = vm::kExpC6 * t + vm::kExpC5;
  p = p * t + vm::kExpC4;
  p = p * t + vm::kExpC3;
  p = p * t + vm::kExpC2;
  return p * t + vm::kExpC1;
}

// exp(z) for z <= 0 (or NaN), flushed to 0 below 2^-126.
float exp_nonpositive(float z) {
  float n = z * vm::kLog2e + vm::kRoundMagicBiased;
  const float s = float_of(bits_of(n) << 23);
  n -= vm::kRoundMagicBiased;
  const float t = reduce_ln2(z, n);
  const float e = (t * s) * exp_poly(t) + s;
  return z < vm::kExpDenormCutoff ? 0.0f : e;
}

float sigmoid(float x) {
  const float e = exp_nonpositive(-std::fabs(x));
  const float f = e / (e + 1.0f);
  return std::signbit(x) ? f : 1.0f - f;
}

float exp_any(float x) {
  // NaN flows through (v is NaN whatever the scales come out as).
  const float xc = min_nan(vm::kExpMaxX, max_nan(vm::kExpMinX, x));
  float n = xc * vm::kLog2e + vm::kRoundMagic;
  const int32_t ni = static_cast<int32_t>(bits_of(n) - bits_of(vm::kRoundMagic));
  n -= vm::kRoundMagic;
  const float t = reduce_ln2(xc, n);
  const float v = t * exp_poly(t) + 1.0f;
  // n in [-150, 128]: any split into two normal scales will do. Unsigned,
  // so that the garbage n of a NaN wraps rather than overflows.
  const uint32_t n1 = static_cast<uint32_t>(ni >> 1);
  const uint32_t n2 = static_cast<uint32_t>(ni) - n1;
  return (v * float_of((n1 + 127u) << 23)) * float_of((n2 + 127u) << 23);
}

float tanh_(float x) {
  const float z = -2.0f * min_nan(vm::kTanhSaturation, std::fabs(x));
  float n = z * vm::kLog2e + vm::kRoundMagicBiased;
  const float s = float_of(bits_of(n) << 23);
  n -= vm::kRoundMagicBiased;
  const float t = reduce_ln2(z, n);
  float q = vm::kExpm1D6 * t + vm::kExpm1D5;
  q = q * t + vm::kExpm1D4;
  q = q * t + vm::kExpm1D3;
  q = q * t + vm::kExpm1D2;
  const float em1_t = (t * t) * q + t;
  const float m = s * em1_t + (s - 1.0f);
  return with_sign_of(-m / (m + 2.0f), x);
}

float gelu(float x) {
  const float ax = std::fabs(x);
  const float a = min_nan(vm::kGeluSaturation, ax);
  const float a2 = a * a;
  float p = vm::kGeluP5 * a2 + vm::kGeluP4;
  p = p * a2 + vm::kGeluP3;
  p = p * a2 + vm::kGeluP2;
  p = p * a2 + vm::kGeluP1;
  p = p * a2 + vm::kGeluP0;
  float q = vm::kGeluQ5 * a2 + vm::kGeluQ4;
  q = q * a2 + vm::kGeluQ3;
  q = q * a2 + vm::kGeluQ2;
  q = q * a2 + vm::kGeluQ1;
  q = q * a2 + 1.0f;
  const float g = ax >= vm::kGeluSaturation ? 1.0f : min_nan(1.0f, (a * p) / q);
  return (x * 0.5f) * (with_sign_of(g, x) + 1.0f);
}

float gelu_tanh(float x) {
  const float z = x * ((x * x) * vm::kGeluTanhC1 + vm::kGeluTanhC0);
  return x * sigmoid(z);
}

float relu6_of_x_plus_3(float x) { return min_nan(6.0f, max_nan(0.0f, x + 3.0f)); }

struct ClampOp {
  static float f(float x) { return x; }
};
struct ExpOp {
  static float f(float x) { return exp_any(x); }
};
struct SigmoidOp {
  static float f(float x) { return sigmoid(x); }
};
struct TanhOp {
  static float f(float x) { return tanh_(x); }
};
struct GeluOp {
  static float f(float x) { return gelu(x); }
};
struct GeluTanhOp {
  static float f(float x) { return gelu_tanh(x); }
};
struct SiluOp {
  static float f(float x) { return x * sigmoid(x); }
};
struct HardSwishOp {
  static float f(float x) { return (x * relu6_of_x_plus_3(x)) * (1.0f / 6.0f); }
};
struct HardSigmoidOp {
  static float f(float x) { return relu6_of_x_plus_3(x) * (1.0f / 6.0f); }
};
struct NegOp {
  static float f(float x) { return -x; }
};
struct SqrtOp {
  static float f(float x) { return std::sqrt(x); }
};
struct RsqrtOp {
  static float f(float x) { return 1.0f / std::sqrt(x); }
};

struct AbsOp {
  static float f(float x) { return std::fabs(x); }
};

template <typename Op>
void ukernel(size_t n, const float* x, float* y, const F32VUnaryParams* params) {
  const float lo = params->min;
  const float hi = params->max;
  for (size_t i = 0; i < n; ++i) y[i] = min_nan(hi, max_nan(lo, Op::f(x[i])));
}

}  // namespace

extern const F32VUnaryConfig kF32VUnaryScalarConfig = {
    "scalar",
    0,
    {
        ukernel<ClampOp>, ukernel<ExpOp>, ukernel<SigmoidOp>, ukernel<TanhOp>,
        ukernel<GeluOp>, ukernel<GeluTanhOp>, ukernel<SiluOp>, ukernel<HardSwishOp>,
        ukernel<HardSigmoidOp>, ukernel<NegOp>, ukernel<SqrtOp>, ukernel<RsqrtOp>,
        ukernel<AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
