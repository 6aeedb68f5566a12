// f32-vunary's exp, written once over a vector width W (avx2::Vec, avx512::Vec,
// neon::Vec, wasm::Vec from simd/*_math.h): the same operations at every width,
// so the variants with a fused multiply-add agree bit for bit. f32-vunary's
// exp, sigmoid and tanh and f32-softmax use it. Included after the simd header
// by files compiled with its ISA flags; internal linkage (an unnamed namespace)
// as for the bodies.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "vec_math.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"

namespace ember::kernels::optimized {
namespace {

// t = x - n ln2, in two steps (Cody-Waite).
template <typename W>
inline typename W::V reduce_ln2(typename W::V x, typename W::V n) {
  const typename W::V t = W::fnmadd(n, W::splat(vmath::kLn2Hi), x);
  return W::fnmadd(n, W::splat(vmath::kLn2Lo), t);
}

// p(t) with exp(t) ~= 1 + t * p(t).
template <typename W>
inline typename W::V exp_poly(typename W::V t) {
  typename W::V p = W::fmadd(W::splat(vmath::kExpC6), t, W::splat(vmath::kExpC5));
  p = W::fmadd(p, t, W::splat(vmath::kExpC4));
  p = W::fmadd(p, t, W::splat(vmath::kExpC3));
  p = W::fmadd(p, t, W::splat(vmath::kExpC2));
  return W::fmadd(p, t, W::splat(vmath::kExpC1));
}

// exp(z) for z <= 0 (or NaN), flushed to 0 below 2^-126 (kExpDenormCutoff):
// one scale factor.
template <typename W>
inline typename W::V exp_nonpositive(typename W::V z) {
  using V = typename W::V;
  V n = W::fmadd(z, W::splat(vmath::kLog2e), W::splat(vmath::kRoundMagicBiased));
  const V s = W::pow2_from_biased(n);
  n = W::sub(n, W::splat(vmath::kRoundMagicBiased));
  V t = reduce_ln2<W>(z, n);
  const V p = exp_poly<W>(t);
  t = W::mul(t, s);
  // Lanes below the cutoff are zeroed; NaN compares false and is kept.
  return W::zero_below(z, W::splat(vmath::kExpDenormCutoff), W::fmadd(t, p, s));
}

}  // namespace
}  // namespace ember::kernels::optimized
