// The f32 unary microkernels written once over a vector width W (avx2::Vec,
// avx512::Vec, neon::Vec, wasm::Vec from simd/*_math.h): each ISA file
// (avx2.cpp, avx512.cpp, neon.cpp, wasmsimd.cpp) instantiates them at its
// width. Every op is the same sequence of operations at every width, so the
// variants with a fused multiply-add agree bit for bit (wasm's rounds twice).
// Two independent vectors per iteration let the long dependency chains of the
// polynomials overlap; the tail goes through a masked load and store (never
// touching memory past the end), and W::head peels what keeps stores within
// cache lines.
//
// Included only by those ISA files, after their simd headers; everything here
// has internal linkage (an unnamed namespace), so each file's copy is
// compiled with its own flags and no copy can stand in for another at link.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "vunary_body.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include <cstddef>

#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/simd/vec_math.h"

namespace ember::kernels::optimized {
namespace {

namespace vm = vmath;

// 1 / (1 + exp(-x)) from e = exp(-|x|): e / (1 + e), reflected for x > 0
// (the sign bit decides, NaNs included).
template <typename W>
inline typename W::V sigmoid(typename W::V x) {
  const typename W::V e = exp_nonpositive<W>(W::bit_or(x, W::sign_bit()));
  const typename W::V f = W::div(e, W::add(e, W::splat(1.0f)));
  return W::by_sign(x, W::sub(W::splat(1.0f), f), f);
}

template <typename W>
struct ClampOp {
  static typename W::V f(typename W::V x) { return x; }
};

template <typename W>
struct ExpOp {
  // x clamped to [kExpMinX, kExpMaxX] (NaN kept), 2^n applied in two halves
  // (W::mul_pow2) so that results down to subnormals and up to overflow need
  // no special case.
  static typename W::V f(typename W::V x) {
    using V = typename W::V;
    const V xc = W::min(W::splat(vm::kExpMaxX), W::max(W::splat(vm::kExpMinX), x));
    const V n_magic = W::fmadd(xc, W::splat(vm::kLog2e), W::splat(vm::kRoundMagic));
    const V t = reduce_ln2<W>(xc, W::sub(n_magic, W::splat(vm::kRoundMagic)));
    return W::mul_pow2(W::fmadd(t, exp_poly<W>(t), W::splat(1.0f)), n_magic);
  }
};

template <typename W>
struct SigmoidOp {
  static typename W::V f(typename W::V x) { return sigmoid<W>(x); }
};

template <typename W>
struct TanhOp {
  // tanh(|x|) = -m / (2 + m), m = expm1(-2|x|) = 2^n expm1(t) + (2^n - 1).
  static typename W::V f(typename W::V x) {
    using V = typename W::V;
    const V ax = W::and_not(W::sign_bit(), x);
    const V z = W::mul(W::min(W::splat(vm::kTanhSaturation), ax), W::splat(-2.0f));
    V n = W::fmadd(z, W::splat(vm::kLog2e), W::splat(vm::kRoundMagicBiased));
    const V s = W::pow2_from_biased(n);
    n = W::sub(n, W::splat(vm::kRoundMagicBiased));
    const V t = reduce_ln2<W>(z, n);
    V q = W::fmadd(W::splat(vm::kExpm1D6), t, W::splat(vm::kExpm1D5));
    q = W::fmadd(q, t, W::splat(vm::kExpm1D4));
    q = W::fmadd(q, t, W::splat(vm::kExpm1D3));
    q = W::fmadd(q, t, W::splat(vm::kExpm1D2));
    const V em1_t = W::fmadd(W::mul(t, t), q, t);
    const V m = W::fmadd(s, em1_t, W::sub(s, W::splat(1.0f)));
    const V r = W::div(W::bit_xor(m, W::sign_bit()), W::add(m, W::splat(2.0f)));
    return W::bit_or(r, W::bit_and(x, W::sign_bit()));
  }
};

template <typename W>
struct GeluOp {
  // x / 2 (1 + erf(x / sqrt 2)), erf as a rational function of |x|.
  static typename W::V f(typename W::V x) {
    using V = typename W::V;
    const V ax = W::and_not(W::sign_bit(), x);
    const V a = W::min(W::splat(vm::kGeluSaturation), ax);
    const V a2 = W::mul(a, a);
    V p = W::fmadd(W::splat(vm::kGeluP5), a2, W::splat(vm::kGeluP4));
    p = W::fmadd(p, a2, W::splat(vm::kGeluP3));
    p = W::fmadd(p, a2, W::splat(vm::kGeluP2));
    p = W::fmadd(p, a2, W::splat(vm::kGeluP1));
    p = W::fmadd(p, a2, W::splat(vm::kGeluP0));
    V q = W::fmadd(W::splat(vm::kGeluQ5), a2, W::splat(vm::kGeluQ4));
    q = W::fmadd(q, a2, W::splat(vm::kGeluQ3));
    q = W::fmadd(q, a2, W::splat(vm::kGeluQ2));
    q = W::fmadd(q, a2, W::splat(vm::kGeluQ1));
    q = W::fmadd(q, a2, W::splat(1.0f));
    V g = W::min(W::splat(1.0f), W::div(W::mul(a, p), q));
    g = W::where_ge(ax, W::splat(vm::kGeluSaturation), W::splat(1.0f), g);
    const V erf = W::bit_or(g, W::bit_and(x, W::sign_bit()));
    return W::mul(W::mul(x, W::splat(0.5f)), W::add(erf, W::splat(1.0f)));
  }
};

template <typename W>
struct GeluTanhOp {
  static typename W::V f(typename W::V x) {
    const typename W::V x2 = W::mul(x, x);
    const typename W::V z =
        W::mul(x, W::fmadd(x2, W::splat(vm::kGeluTanhC1), W::splat(vm::kGeluTanhC0)));
    return W::mul(x, sigmoid<W>(z));
  }
};

template <typename W>
struct SiluOp {
  static typename W::V f(typename W::V x) { return W::mul(x, sigmoid<W>(x)); }
};

template <typename W>
inline typename W::V relu6_of_x_plus_3(typename W::V x) {
  return W::min(W::splat(6.0f), W::max(W::zero(), W::add(x, W::splat(3.0f))));
}

template <typename W>
struct HardSwishOp {
  static typename W::V f(typename W::V x) {
    return W::mul(W::mul(x, relu6_of_x_plus_3<W>(x)), W::splat(1.0f / 6.0f));
  }
};

template <typename W>
struct HardSigmoidOp {
  static typename W::V f(typename W::V x) {
    return W::mul(relu6_of_x_plus_3<W>(x), W::splat(1.0f / 6.0f));
  }
};

template <typename W>
struct NegOp {
  static typename W::V f(typename W::V x) { return W::bit_xor(x, W::sign_bit()); }
};

template <typename W>
struct SqrtOp {
  static typename W::V f(typename W::V x) { return W::sqrt(x); }
};

template <typename W>
struct RsqrtOp {
  static typename W::V f(typename W::V x) { return W::div(W::splat(1.0f), W::sqrt(x)); }
};

template <typename W>
struct AbsOp {
  static typename W::V f(typename W::V x) { return W::and_not(W::sign_bit(), x); }
};

// y[i] = clamp(Op(x[i]), min, max) for i < n.
template <typename W, template <typename> class Op>
void ukernel(size_t n, const float* x, float* y, const F32VUnaryParams* params) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes;
  const V lo = W::splat(params->min);
  const V hi = W::splat(params->max);
  // max(lo, v) and min(hi, v) return v when it is NaN.
  auto clamp = [&](V v) { return W::min(hi, W::max(lo, v)); };
  size_t i = 0;
  const size_t head = W::head(y);
  if (head != 0 && head < n) {
    const typename W::Mask mask = W::tail_mask(head);
    W::store_tail(y, mask, clamp(Op<W>::f(W::load_tail(mask, x))));
    i = head;
  }
  for (; i + 2 * L <= n; i += 2 * L) {
    const V a = Op<W>::f(W::loadu(x + i));
    const V b = Op<W>::f(W::loadu(x + i + L));
    W::storeu(y + i, clamp(a));
    W::storeu(y + i + L, clamp(b));
  }
  if (i + L <= n) {
    W::storeu(y + i, clamp(Op<W>::f(W::loadu(x + i))));
    i += L;
  }
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    W::store_tail(y + i, mask, clamp(Op<W>::f(W::load_tail(mask, x + i))));
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
