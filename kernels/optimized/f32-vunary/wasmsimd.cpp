// f32 unary microkernels for WebAssembly SIMD128: neon.cpp's algorithms with
// separate multiplies and adds (SIMD128 has no FMA), two vectors (8 floats)
// per iteration, the tail through a small buffer. Clamps use pmin/pmax,
// which keep a NaN input (wasm_math.h).
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/simd/wasm_math.h"

namespace ember::kernels::optimized {
namespace {

namespace vm = vmath;

using wasm::clamp;
using wasm::exp_nonpositive;
using wasm::exp_poly;
using wasm::load;
using wasm::load_tail;
using wasm::madd;
using wasm::pow2_from_biased;
using wasm::reduce_ln2;
using wasm::splat;
using wasm::store;
using wasm::store_tail;

// The sign of x with the other bits of magnitude.
inline v128_t with_sign_of(v128_t magnitude, v128_t x) {
  return wasm_v128_bitselect(x, magnitude, wasm_i32x4_splat(INT32_MIN));
}

inline v128_t sigmoid(v128_t x) {
  const v128_t e = exp_nonpositive(wasm_f32x4_neg(wasm_f32x4_abs(x)));
  const v128_t f = wasm_f32x4_div(e, wasm_f32x4_add(e, splat(1.0f)));
  const v128_t negative = wasm_f32x4_lt(x, splat(0.0f));
  return wasm_v128_bitselect(f, wasm_f32x4_sub(splat(1.0f), f), negative);
}

struct ClampOp {
  static v128_t f(v128_t x) { return x; }
};

struct ExpOp {
  static v128_t f(v128_t x) {
    const v128_t xc = clamp(x, splat(vm::kExpMinX), splat(vm::kExpMaxX));
    v128_t n = madd(xc, splat(vm::kLog2e), splat(vm::kRoundMagic));
    const v128_t ni = wasm_i32x4_sub(n, splat(vm::kRoundMagic));
    n = wasm_f32x4_sub(n, splat(vm::kRoundMagic));
    const v128_t t = reduce_ln2(xc, n);
    const v128_t v = madd(t, exp_poly(t), splat(1.0f));
    const v128_t n1 = wasm_i32x4_shr(ni, 1);
    const v128_t n2 = wasm_i32x4_sub(ni, n1);
    const v128_t bias = wasm_i32x4_splat(127);
    const v128_t s1 = wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23);
    const v128_t s2 = wasm_i32x4_shl(wasm_i32x4_add(n2, bias), 23);
    return wasm_f32x4_mul(wasm_f32x4_mul(v, s1), s2);
  }
};

struct SigmoidOp {
  static v128_t f(v128_t x) { return sigmoid(x); }
};

struct TanhOp {
  static v128_t f(v128_t x) {
    const v128_t ax = wasm_f32x4_pmin(wasm_f32x4_abs(x), splat(vm::kTanhSaturation));
    const v128_t z = wasm_f32x4_mul(ax, splat(-2.0f));
    v128_t n = madd(z, splat(vm::kLog2e), splat(vm::kRoundMagicBiased));
    const v128_t s = pow2_from_biased(n);
    n = wasm_f32x4_sub(n, splat(vm::kRoundMagicBiased));
    const v128_t t = reduce_ln2(z, n);
    v128_t q = madd(splat(vm::kExpm1D6), t, splat(vm::kExpm1D5));
    q = madd(q, t, splat(vm::kExpm1D4));
    q = madd(q, t, splat(vm::kExpm1D3));
    q = madd(q, t, splat(vm::kExpm1D2));
    const v128_t em1_t = madd(wasm_f32x4_mul(t, t), q, t);
    const v128_t m = madd(s, em1_t, wasm_f32x4_sub(s, splat(1.0f)));
    const v128_t r = wasm_f32x4_div(wasm_f32x4_neg(m), wasm_f32x4_add(m, splat(2.0f)));
    return with_sign_of(r, x);
  }
};

struct GeluOp {
  static v128_t f(v128_t x) {
    const v128_t ax = wasm_f32x4_abs(x);
    const v128_t a = wasm_f32x4_pmin(ax, splat(vm::kGeluSaturation));
    const v128_t a2 = wasm_f32x4_mul(a, a);
    v128_t p = madd(splat(vm::kGeluP5), a2, splat(vm::kGeluP4));
    p = madd(p, a2, splat(vm::kGeluP3));
    p = madd(p, a2, splat(vm::kGeluP2));
    p = madd(p, a2, splat(vm::kGeluP1));
    p = madd(p, a2, splat(vm::kGeluP0));
    v128_t q = madd(splat(vm::kGeluQ5), a2, splat(vm::kGeluQ4));
    q = madd(q, a2, splat(vm::kGeluQ3));
    q = madd(q, a2, splat(vm::kGeluQ2));
    q = madd(q, a2, splat(vm::kGeluQ1));
    q = madd(q, a2, splat(1.0f));
    v128_t g = wasm_f32x4_pmin(wasm_f32x4_div(wasm_f32x4_mul(a, p), q), splat(1.0f));
    g = wasm_v128_bitselect(splat(1.0f), g, wasm_f32x4_ge(ax, splat(vm::kGeluSaturation)));
    const v128_t erf = with_sign_of(g, x);
    return wasm_f32x4_mul(wasm_f32x4_mul(x, splat(0.5f)), wasm_f32x4_add(erf, splat(1.0f)));
  }
};

struct GeluTanhOp {
  static v128_t f(v128_t x) {
    const v128_t x2 = wasm_f32x4_mul(x, x);
    const v128_t z =
        wasm_f32x4_mul(x, madd(x2, splat(vm::kGeluTanhC1), splat(vm::kGeluTanhC0)));
    return wasm_f32x4_mul(x, sigmoid(z));
  }
};

struct SiluOp {
  static v128_t f(v128_t x) { return wasm_f32x4_mul(x, sigmoid(x)); }
};

inline v128_t relu6_of_x_plus_3(v128_t x) {
  return clamp(wasm_f32x4_add(x, splat(3.0f)), splat(0.0f), splat(6.0f));
}

struct HardSwishOp {
  static v128_t f(v128_t x) {
    return wasm_f32x4_mul(wasm_f32x4_mul(x, relu6_of_x_plus_3(x)), splat(1.0f / 6.0f));
  }
};

struct HardSigmoidOp {
  static v128_t f(v128_t x) { return wasm_f32x4_mul(relu6_of_x_plus_3(x), splat(1.0f / 6.0f)); }
};

struct NegOp {
  static v128_t f(v128_t x) { return wasm_f32x4_neg(x); }
};

struct SqrtOp {
  static v128_t f(v128_t x) { return wasm_f32x4_sqrt(x); }
};

struct RsqrtOp {
  static v128_t f(v128_t x) { return wasm_f32x4_div(splat(1.0f), wasm_f32x4_sqrt(x)); }
};

struct AbsOp {
  static v128_t f(v128_t x) { return wasm_f32x4_abs(x); }
};

template <typename Op>
void ukernel(size_t n, const float* x, float* y, const F32VUnaryParams* params) {
  const v128_t lo = splat(params->min);
  const v128_t hi = splat(params->max);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t a = Op::f(load(x + i));
    const v128_t b = Op::f(load(x + i + 4));
    store(y + i, clamp(a, lo, hi));
    store(y + i + 4, clamp(b, lo, hi));
  }
  if (i + 4 <= n) {
    store(y + i, clamp(Op::f(load(x + i)), lo, hi));
    i += 4;
  }
  if (i < n) store_tail(y + i, n - i, clamp(Op::f(load_tail(x + i, n - i, 0.0f)), lo, hi));
}

}  // namespace

extern const F32VUnaryConfig kF32VUnaryWasmSimdConfig = {
    "wasmsimd",
    kCpuWasmSimd,
    {
        ukernel<ClampOp>, ukernel<ExpOp>, ukernel<SigmoidOp>, ukernel<TanhOp>,
        ukernel<GeluOp>, ukernel<GeluTanhOp>, ukernel<SiluOp>, ukernel<HardSwishOp>,
        ukernel<HardSigmoidOp>, ukernel<NegOp>, ukernel<SqrtOp>, ukernel<RsqrtOp>,
        ukernel<AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
