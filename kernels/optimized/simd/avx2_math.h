// SIMD helpers shared by the AVX2 + FMA variants of the f32 families (their
// avx2.cpp files): splats, tail masks, horizontal sums and maxima, the
// four-chain row accumulation, 2^n from exponent bits, and Vec, the width
// traits that the bodies written once over widths (*_body.h, vec_math.h's
// exp) instantiate.
//
// The one exception to "headers a variant includes define no functions"
// (README.md): the functions here are inline AVX2 code, so a copy the linker
// kept could only be run on an AVX2 CPU. That is safe because every file that
// may include this header is compiled with -mavx2 -mfma and is reached only
// through a config chosen for an AVX2 + FMA CPU; the #error below keeps any
// file compiled without those flags from including it.
#pragma once

#if !defined(__AVX2__) || !defined(__FMA__)
#error "avx2_math.h is for files compiled with -mavx2 -mfma (the avx2.cpp variants) only"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"

namespace ember::kernels::optimized::avx2 {

inline __m256 splat(float v) { return _mm256_set1_ps(v); }
inline __m256 sign_bit() { return _mm256_set1_ps(-0.0f); }

// kMaskTable + 8 - r: the first r lanes on. Not `inline`: a constexpr
// variable at namespace scope has internal linkage, so each file addresses
// its own copy directly rather than through the GOT (-fPIC).
constexpr int32_t kMaskTable[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};

// The first r < 8 (or r == 8) lanes on, for masked loads and stores of a tail.
inline __m256i tail_mask(size_t r) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kMaskTable + 8 - r));
}

// The sum of the 8 lanes, as ((lo + hi) pairwise) then the last two.
inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// The max of the 8 lanes, in hsum's order (vmaxps: a NaN in the first
// operand is dropped, callers that care track NaNs apart).
inline float hmax(__m256 v) {
  __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_max_ps(s, _mm_movehl_ps(s, s));
  s = _mm_max_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Four accumulators, each a chain of its own (add and max have a latency of 3
// and two ports: one chain would serialise on it).
struct Acc4 {
  __m256 a0, a1, a2, a3;
};

// acc = f(v, acc) over x[0, *done) in four chains started at init, 32 floats
// per step then 8 at a time into a0; *done is n rounded down to a multiple
// of 8, the tail is the caller's.
template <typename F>
inline Acc4 accumulate4(size_t n, const float* x, __m256 init, size_t* done, F f) {
  Acc4 a{init, init, init, init};
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a.a0 = f(_mm256_loadu_ps(x + i), a.a0);
    a.a1 = f(_mm256_loadu_ps(x + i + 8), a.a1);
    a.a2 = f(_mm256_loadu_ps(x + i + 16), a.a2);
    a.a3 = f(_mm256_loadu_ps(x + i + 24), a.a3);
  }
  for (; i + 8 <= n; i += 8) a.a0 = f(_mm256_loadu_ps(x + i), a.a0);
  *done = i;
  return a;
}

// Calls body(v0, v1, v2, v3), v_k = x[i + 8 k, i + 8 k + 8), for i = 0, 32,
// ... while i + 32 <= n; returns where it stopped (avx512::for_each_block64's
// shape, so that one body serves both widths).
template <typename Body>
inline size_t for_each_block4(size_t n, const float* x, Body body) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    body(_mm256_loadu_ps(x + i), _mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(x + i + 16),
         _mm256_loadu_ps(x + i + 24));
  }
  return i;
}

// 2^n for integral n in [-126, 127] held in a float rounded with
// kRoundMagicBiased (its low mantissa bits are n + 127).
inline __m256 pow2_from_biased(__m256 n_biased) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(n_biased), 23));
}

// The vector width as a type, for kernel bodies written once over widths
// (f32-layernorm/layernorm_body.h, f32-vunary/vunary_body.h): avx512::Vec
// has the same members.
struct Vec {
  using V = __m256;
  using Mask = __m256i;
  static constexpr size_t kLanes = 8;
  static V zero() { return _mm256_setzero_ps(); }
  static V splat(float v) { return _mm256_set1_ps(v); }
  static V loadu(const float* p) { return _mm256_loadu_ps(p); }
  static void storeu(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V fnmadd(V a, V b, V c) { return _mm256_fnmadd_ps(a, b, c); }  // c - a b
  static float hsum(V v) { return avx2::hsum(v); }
  static float hmax(V v) { return avx2::hmax(v); }
  // The first r < kLanes lanes; loads through it read 0 elsewhere.
  static Mask tail_mask(size_t r) { return avx2::tail_mask(r); }
  static V load_tail(Mask m, const float* p) { return _mm256_maskload_ps(p, m); }
  static void store_tail(float* p, Mask m, V v) { _mm256_maskstore_ps(p, m, v); }
  static V keep(Mask m, V v) { return _mm256_and_ps(v, _mm256_castsi256_ps(m)); }
  // The mask's lanes loaded from p, the others `rest`.
  static V load_tail_or(V rest, Mask m, const float* p) {
    return _mm256_blendv_ps(rest, _mm256_maskload_ps(p, m), _mm256_castsi256_ps(m));
  }
  // Floats to peel before stores stay within cache lines: none at this width
  // (measured no gain for 32-byte stores).
  static size_t head(const float*) { return 0; }
  template <typename Body>
  static size_t for_each_block4(size_t n, const float* x, Body body) {
    return avx2::for_each_block4(n, x, body);
  }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V min(V a, V b) { return _mm256_min_ps(a, b); }
  static V max(V a, V b) { return _mm256_max_ps(a, b); }
  static V sqrt(V a) { return _mm256_sqrt_ps(a); }
  static V bit_and(V a, V b) { return _mm256_and_ps(a, b); }
  static V bit_or(V a, V b) { return _mm256_or_ps(a, b); }
  static V bit_xor(V a, V b) { return _mm256_xor_ps(a, b); }
  static V and_not(V a, V b) { return _mm256_andnot_ps(a, b); }  // ~a & b
  static V sign_bit() { return avx2::sign_bit(); }
  // Per lane: if_negative where s has its sign bit set, else if_not.
  static V by_sign(V s, V if_not, V if_negative) { return _mm256_blendv_ps(if_not, if_negative, s); }
  // Per lane: then where a >= b (ordered), else otherwise.
  static V where_ge(V a, V b, V then, V otherwise) {
    return _mm256_blendv_ps(otherwise, then, _mm256_cmp_ps(a, b, _CMP_GE_OQ));
  }
  // Lane masks from comparisons, for NaN tracking and selects.
  static Mask unordered(V a, V b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_UNORD_Q)); }
  static Mask no_lanes() { return _mm256_setzero_si256(); }
  static Mask either(Mask a, Mask b) { return _mm256_or_si256(a, b); }
  static bool any(Mask m) { return _mm256_testz_si256(m, m) == 0; }
  // Per lane: then where m is on, else otherwise.
  static V select(Mask m, V then, V otherwise) {
    return _mm256_blendv_ps(otherwise, then, _mm256_castsi256_ps(m));
  }
  // Per lane: 0 where x < limit, else v (x NaN included).
  static V zero_below(V x, V limit, V v) {
    return _mm256_andnot_ps(_mm256_cmp_ps(x, limit, _CMP_LT_OQ), v);
  }
  static V pow2_from_biased(V n) { return avx2::pow2_from_biased(n); }
  // v * 2^n, n integral held in a float rounded with kRoundMagic, applied as
  // 2^(n/2) * 2^(n - n/2): no special case from subnormals to overflow.
  static V mul_pow2(V v, V n_magic) {
    const __m256i n = _mm256_sub_epi32(_mm256_castps_si256(n_magic),
                                       _mm256_castps_si256(splat(vmath::kRoundMagic)));
    const __m256i n1 = _mm256_srai_epi32(n, 1);
    const __m256i bias = _mm256_set1_epi32(127);
    const V s1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n1, bias), 23));
    const V s2 = _mm256_castsi256_ps(
        _mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(n, n1), bias), 23));
    return _mm256_mul_ps(_mm256_mul_ps(v, s1), s2);
  }
};

}  // namespace ember::kernels::optimized::avx2
