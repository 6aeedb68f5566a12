// SIMD helpers shared by the WebAssembly SIMD128 variants of the optimized
// families (their wasmsimd.cpp files): splats, padded tail loads and stores,
// the NaN-keeping clamp, the four-chain row accumulation and the exp for
// x <= 0 of f32-vunary's algorithm (f32_vmath_constants.h).
//
// A WebAssembly module is built with or without SIMD128 as a whole (an
// engine without it refuses the module), so these inline functions carry no
// code that could run where SIMD128 is missing; the #error keeps the header
// to the -msimd128 build (avx2_math.h explains why the ISA headers may
// define functions).
//
// SIMD128 has no fused multiply-add (relaxed SIMD's is not in every engine):
// madd rounds twice. Its min and max return NaN when either input is NaN,
// like NEON's, but engines emulate those on x86 with several instructions;
// pmin/pmax (`b < a ? b : a`) are one minps/maxps each, and keep a NaN x
// when x is the first operand of the comparison, which is how clamp uses them.
#pragma once

#if !defined(__wasm_simd128__)
#error "wasm_math.h is for the wasmsimd.cpp variants of a -msimd128 build only"
#endif

#include <wasm_simd128.h>

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"

namespace ember::kernels::optimized::wasm {

inline v128_t splat(float v) { return wasm_f32x4_splat(v); }

// a * b + c, rounded twice.
inline v128_t madd(v128_t a, v128_t b, v128_t c) {
  return wasm_f32x4_add(wasm_f32x4_mul(a, b), c);
}
// c - a * b, rounded twice.
inline v128_t msub(v128_t a, v128_t b, v128_t c) {
  return wasm_f32x4_sub(c, wasm_f32x4_mul(a, b));
}

// x clamped to [lo, hi]; NaN stays NaN.
inline v128_t clamp(v128_t x, v128_t lo, v128_t hi) {
  // pmax(x, lo) = x < lo ? lo : x; pmin(x, hi) = hi < x ? hi : x.
  return wasm_f32x4_pmin(wasm_f32x4_pmax(x, lo), hi);
}

// Loads the first r < 4 floats of p, the other lanes set to `pad`.
inline v128_t load_tail(const float* p, size_t r, float pad) {
  float buf[4] = {pad, pad, pad, pad};
  for (size_t j = 0; j < r; ++j) buf[j] = p[j];
  return wasm_v128_load(buf);
}

// Stores the first r < 4 lanes of v to p.
inline void store_tail(float* p, size_t r, v128_t v) {
  float buf[4];
  wasm_v128_store(buf, v);
  for (size_t j = 0; j < r; ++j) p[j] = buf[j];
}

inline v128_t load(const float* p) { return wasm_v128_load(p); }
inline void store(float* p, v128_t v) { wasm_v128_store(p, v); }

// The sum and the maximum of the four lanes.
inline float hsum(v128_t v) {
  const v128_t s = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  return wasm_f32x4_extract_lane(wasm_f32x4_add(s, wasm_i32x4_shuffle(s, s, 1, 0, 3, 2)), 0);
}
// NaN-propagating: a NaN lane gives NaN.
inline float hmax(v128_t v) {
  const v128_t m = wasm_f32x4_max(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  return wasm_f32x4_extract_lane(wasm_f32x4_max(m, wasm_i32x4_shuffle(m, m, 1, 0, 3, 2)), 0);
}

// Four accumulators, each a chain of its own (one would serialise on the
// latency of the add or max).
struct Acc4 {
  v128_t a0, a1, a2, a3;
};

// acc = f(v, acc) over x[0, *done) in four chains started at init, 16 floats
// per step then 4 at a time into a0; *done is n rounded down to a multiple
// of 4, the tail is the caller's.
template <typename F>
inline Acc4 accumulate4(size_t n, const float* x, v128_t init, size_t* done, F f) {
  Acc4 a{init, init, init, init};
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a.a0 = f(load(x + i), a.a0);
    a.a1 = f(load(x + i + 4), a.a1);
    a.a2 = f(load(x + i + 8), a.a2);
    a.a3 = f(load(x + i + 12), a.a3);
  }
  for (; i + 4 <= n; i += 4) a.a0 = f(load(x + i), a.a0);
  *done = i;
  return a;
}

// 2^n for integral n in [-126, 127] held in a float rounded with
// kRoundMagicBiased (its low mantissa bits are n + 127).
inline v128_t pow2_from_biased(v128_t n_biased) { return wasm_i32x4_shl(n_biased, 23); }

// t = x - n ln2, in two steps (Cody-Waite).
inline v128_t reduce_ln2(v128_t x, v128_t n) {
  namespace vm = vmath;
  const v128_t t = msub(n, splat(vm::kLn2Hi), x);
  return msub(n, splat(vm::kLn2Lo), t);
}

// p(t) with exp(t) ~= 1 + t * p(t).
inline v128_t exp_poly(v128_t t) {
  namespace vm = vmath;
  v128_t p = madd(splat(vm::kExpC6), t, splat(vm::kExpC5));
  p = madd(p, t, splat(vm::kExpC4));
  p = madd(p, t, splat(vm::kExpC3));
  p = madd(p, t, splat(vm::kExpC2));
  return madd(p, t, splat(vm::kExpC1));
}

// exp(z) for z <= 0 (or NaN), flushed to 0 below 2^-126 (kExpDenormCutoff):
// one scale factor. f32-vunary's sigmoid and f32-softmax use it.
inline v128_t exp_nonpositive(v128_t z) {
  namespace vm = vmath;
  v128_t n = madd(z, splat(vm::kLog2e), splat(vm::kRoundMagicBiased));
  const v128_t s = pow2_from_biased(n);
  n = wasm_f32x4_sub(n, splat(vm::kRoundMagicBiased));
  v128_t t = reduce_ln2(z, n);
  const v128_t p = exp_poly(t);
  t = wasm_f32x4_mul(t, s);
  const v128_t e = madd(t, p, s);
  const v128_t tiny = wasm_f32x4_lt(z, splat(vm::kExpDenormCutoff));
  return wasm_v128_andnot(e, tiny);
}

}  // namespace ember::kernels::optimized::wasm
