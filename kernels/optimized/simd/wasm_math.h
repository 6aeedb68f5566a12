// SIMD helpers shared by the WebAssembly SIMD128 variants of the optimized
// families (their wasmsimd.cpp files): splats, padded tail loads and stores,
// the NaN-keeping clamp, and the width wasm::Vec with which they instantiate
// the kernel bodies written once over vector widths (*_body.h, vec_math.h).
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

// 2^n for integral n in [-126, 127] held in a float rounded with
// kRoundMagicBiased (its low mantissa bits are n + 127).
inline v128_t pow2_from_biased(v128_t n_biased) { return wasm_i32x4_shl(n_biased, 23); }

// The vector width as a type, for the kernel bodies written once over widths
// (*_body.h, vec_math.h): avx2::Vec's members at 4 lanes. min and max are
// pmin/pmax with the operands ordered as x86's minps/maxps (a NaN in either
// gives the second operand): one instruction each where the engine runs on
// x86, and the bodies' NaN handling was written for exactly that. fmadd
// rounds twice (no FMA in SIMD128). A tail mask is a lane mask whose first
// lanes are on; tails go through a 4-float buffer and never touch memory
// past the end.
struct Vec {
  using V = v128_t;
  using Mask = v128_t;
  static constexpr size_t kLanes = 4;
  static V zero() { return wasm_f32x4_splat(0.0f); }
  static V splat(float v) { return wasm_f32x4_splat(v); }
  static V loadu(const float* p) { return wasm_v128_load(p); }
  static void storeu(float* p, V v) { wasm_v128_store(p, v); }
  static V add(V a, V b) { return wasm_f32x4_add(a, b); }
  static V sub(V a, V b) { return wasm_f32x4_sub(a, b); }
  static V mul(V a, V b) { return wasm_f32x4_mul(a, b); }
  static V fmadd(V a, V b, V c) { return madd(a, b, c); }
  static V fnmadd(V a, V b, V c) { return msub(a, b, c); }  // c - a b
  static float hsum(V v) { return wasm::hsum(v); }
  static float hmax(V v) { return wasm::hmax(v); }
  static Mask tail_mask(size_t r) {
    return wasm_i32x4_gt(wasm_i32x4_splat(static_cast<int32_t>(r)), wasm_i32x4_make(0, 1, 2, 3));
  }
  static size_t lanes_on(Mask m) {
    return static_cast<size_t>(__builtin_popcount(wasm_i32x4_bitmask(m)));
  }
  static V load_tail(Mask m, const float* p) { return wasm::load_tail(p, lanes_on(m), 0.0f); }
  static void store_tail(float* p, Mask m, V v) { wasm::store_tail(p, lanes_on(m), v); }
  static V keep(Mask m, V v) { return wasm_v128_and(v, m); }
  static V load_tail_or(V rest, Mask m, const float* p) {
    return wasm_v128_bitselect(load_tail(m, p), rest, m);
  }
  static size_t head(const float*) { return 0; }
  template <typename Body>
  static size_t for_each_block4(size_t n, const float* x, Body body) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      body(load(x + i), load(x + i + 4), load(x + i + 8), load(x + i + 12));
    }
    return i;
  }
  static V div(V a, V b) { return wasm_f32x4_div(a, b); }
  static V min(V a, V b) { return wasm_f32x4_pmin(b, a); }  // a < b ? a : b
  static V max(V a, V b) { return wasm_f32x4_pmax(b, a); }  // b < a ? a : b
  static V sqrt(V a) { return wasm_f32x4_sqrt(a); }
  static V bit_and(V a, V b) { return wasm_v128_and(a, b); }
  static V bit_or(V a, V b) { return wasm_v128_or(a, b); }
  static V bit_xor(V a, V b) { return wasm_v128_xor(a, b); }
  static V and_not(V a, V b) { return wasm_v128_andnot(b, a); }  // ~a & b
  static V sign_bit() { return wasm_f32x4_splat(-0.0f); }
  static V by_sign(V s, V if_not, V if_negative) {
    return wasm_v128_bitselect(if_negative, if_not, wasm_i32x4_shr(s, 31));
  }
  static V where_ge(V a, V b, V then, V otherwise) {
    return wasm_v128_bitselect(then, otherwise, wasm_f32x4_ge(a, b));
  }
  static Mask unordered(V a, V b) {
    return wasm_v128_not(wasm_v128_and(wasm_f32x4_eq(a, a), wasm_f32x4_eq(b, b)));
  }
  static Mask no_lanes() { return wasm_i32x4_splat(0); }
  static Mask either(Mask a, Mask b) { return wasm_v128_or(a, b); }
  static bool any(Mask m) { return wasm_v128_any_true(m); }
  static V select(Mask m, V then, V otherwise) { return wasm_v128_bitselect(then, otherwise, m); }
  static V zero_below(V x, V limit, V v) { return wasm_v128_andnot(v, wasm_f32x4_lt(x, limit)); }
  static V pow2_from_biased(V n) { return wasm::pow2_from_biased(n); }
  // v * 2^n, n integral held in a float rounded with kRoundMagic, applied as
  // 2^(n/2) * 2^(n - n/2): no special case from subnormals to overflow.
  static V mul_pow2(V v, V n_magic) {
    const v128_t n = wasm_i32x4_sub(n_magic, splat(vmath::kRoundMagic));
    const v128_t n1 = wasm_i32x4_shr(n, 1);
    const v128_t bias = wasm_i32x4_splat(127);
    const V s1 = wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23);
    const V s2 = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_sub(n, n1), bias), 23);
    return wasm_f32x4_mul(wasm_f32x4_mul(v, s1), s2);
  }
};

}  // namespace ember::kernels::optimized::wasm
