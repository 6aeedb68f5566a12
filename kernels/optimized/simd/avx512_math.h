// SIMD helpers shared by the AVX-512 variants of the f32 families (their
// avx512.cpp files): avx2_math.h's helpers 16 lanes wide, and Vec, the width
// traits of the bodies written once over widths (*_body.h, vec_math.h's
// exp). The arithmetic is the AVX2 one operation for operation, so a body
// gives the AVX2 variant's results bit for bit.
//
// Like avx2_math.h, the one exception to "headers a variant includes define
// no functions" (README.md): the functions here are inline AVX-512 code, so a
// copy the linker kept could only run on an AVX-512 CPU. That is safe because
// every file that may include this header is compiled with
// ${EMBER_AVX512_FLAGS} and is reached only through a config chosen for a
// CPU and OS with AVX-512 (kCpuAvx512 | kCpuOsZmm); the #error below keeps
// any other file from including it.
#pragma once

#if !defined(__AVX512F__) || !defined(__AVX512DQ__) || !defined(__AVX512BW__) || \
    !defined(__AVX512VL__) || !defined(__FMA__)
#error "avx512_math.h is for files compiled with the AVX-512 flags (the avx512.cpp variants) only"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"

namespace ember::kernels::optimized::avx512 {

constexpr size_t kLanes = 16;

inline __m512 splat(float v) { return _mm512_set1_ps(v); }
inline __m512 sign_bit() { return _mm512_set1_ps(-0.0f); }

// The first r lanes on, r <= 16: the mask of a tail's loads and stores
// (masked-off lanes are neither read nor written, so a tail never touches
// memory past the end).
inline __mmask16 tail_mask(size_t r) {
  return static_cast<__mmask16>((uint32_t{1} << r) - 1u);
}

// The lanes whose sign bit is set (blendv's selector in the AVX2 code).
inline __mmask16 sign_mask(__m512 v) { return _mm512_movepi32_mask(_mm512_castps_si512(v)); }

// The sum of the 16 lanes: halves added pairwise down to one lane.
inline float hsum(__m512 v) {
  const __m256 h = _mm256_add_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1));
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// The max of the 16 lanes, in hsum's order (vmaxps: a NaN in the first
// operand is dropped, callers that care track NaNs apart).
inline float hmax(__m512 v) {
  const __m256 h = _mm256_max_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1));
  __m128 s = _mm_max_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
  s = _mm_max_ps(s, _mm_movehl_ps(s, s));
  s = _mm_max_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Four accumulators, each a chain of its own (add and max have a latency of
// 4 and two ports: one chain would serialise on it).
struct Acc4 {
  __m512 a0, a1, a2, a3;
};

// The floats before the next 64-byte boundary at p (0 if p is on one).
inline size_t to_line(const void* p) {
  return (64 - (reinterpret_cast<uintptr_t>(p) & 63)) % 64 / sizeof(float);
}

// Calls body(v0, v1, v2, v3), v_k = x[i + 16 k, i + 16 k + 16), for i = 0,
// 64, ... while i + 64 <= n; returns where it stopped. A row that does not
// start on a 64-byte boundary would split every 64-byte load across two
// cache lines, which halved the speed of reductions over rows in L2; so the
// lines are loaded aligned and each vector shifted into place from two of
// them (vpermt2ps). The vectors are exactly what unaligned loads give, so
// results do not depend on the row's address (no peeled head that would
// regroup a sum). The first line is loaded through a mask (nothing before x
// is read); the last blocks, whose next line would reach past x[n - 1],
// take unaligned loads.
template <typename Body>
inline size_t for_each_block64(size_t n, const float* x, Body body) {
  size_t i = 0;
  const size_t off = (reinterpret_cast<uintptr_t>(x) & 63) / sizeof(float);
  if (off != 0 && n >= 80) {
    const float* line = x - off;  // 64-byte aligned; only lanes >= off of it are x's
    const __m512i idx = _mm512_add_epi32(
        _mm512_set1_epi32(static_cast<int>(off)),
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m512 l0 = _mm512_maskz_load_ps(static_cast<__mmask16>(~tail_mask(off)), line);
    // Step i reads lines up to x[i + 80 - off - 1].
    for (; i + 80 <= n + off; i += 64) {
      const __m512 l1 = _mm512_load_ps(line + i + 16), l2 = _mm512_load_ps(line + i + 32);
      const __m512 l3 = _mm512_load_ps(line + i + 48), l4 = _mm512_load_ps(line + i + 64);
      body(_mm512_permutex2var_ps(l0, idx, l1), _mm512_permutex2var_ps(l1, idx, l2),
           _mm512_permutex2var_ps(l2, idx, l3), _mm512_permutex2var_ps(l3, idx, l4));
      l0 = l4;
    }
  }
  for (; i + 64 <= n; i += 64) {
    body(_mm512_loadu_ps(x + i), _mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(x + i + 32),
         _mm512_loadu_ps(x + i + 48));
  }
  return i;
}

// acc = f(v, acc) over x[0, *done) in four chains started at init, 64 floats
// per step (for_each_block64) then 16 at a time into a0; the rest, x[*done,
// n) (under 16 floats), is the caller's, through tail_mask.
template <typename F>
inline Acc4 accumulate4(size_t n, const float* x, __m512 init, size_t* done, F f) {
  Acc4 a{init, init, init, init};
  size_t i = for_each_block64(n, x, [&](__m512 v0, __m512 v1, __m512 v2, __m512 v3) {
    a.a0 = f(v0, a.a0);
    a.a1 = f(v1, a.a1);
    a.a2 = f(v2, a.a2);
    a.a3 = f(v3, a.a3);
  });
  for (; i + 16 <= n; i += 16) a.a0 = f(_mm512_loadu_ps(x + i), a.a0);
  *done = i;
  return a;
}

// 2^n for integral n in [-126, 127] held in a float rounded with
// kRoundMagicBiased (its low mantissa bits are n + 127).
inline __m512 pow2_from_biased(__m512 n_biased) {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_castps_si512(n_biased), 23));
}

// The vector width as a type (avx2::Vec has the same members), for kernel
// bodies written once over widths (f32-layernorm/layernorm_body.h,
// f32-vunary/vunary_body.h).
struct Vec {
  using V = __m512;
  using Mask = __mmask16;
  static constexpr size_t kLanes = 16;
  static V zero() { return _mm512_setzero_ps(); }
  static V splat(float v) { return _mm512_set1_ps(v); }
  static V loadu(const float* p) { return _mm512_loadu_ps(p); }
  static void storeu(float* p, V v) { _mm512_storeu_ps(p, v); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V fnmadd(V a, V b, V c) { return _mm512_fnmadd_ps(a, b, c); }  // c - a b
  static float hsum(V v) { return avx512::hsum(v); }
  static float hmax(V v) { return avx512::hmax(v); }
  static Mask tail_mask(size_t r) { return avx512::tail_mask(r); }
  static V load_tail(Mask m, const float* p) { return _mm512_maskz_loadu_ps(m, p); }
  static void store_tail(float* p, Mask m, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static V keep(Mask m, V v) { return _mm512_maskz_mov_ps(m, v); }
  static V load_tail_or(V rest, Mask m, const float* p) { return _mm512_mask_loadu_ps(rest, m, p); }
  // A masked head first, so that 64-byte stores stay within cache lines:
  // split ones cost a row loop up to 15% in L2.
  static size_t head(const float* y) { return to_line(y); }
  template <typename Body>
  static size_t for_each_block4(size_t n, const float* x, Body body) {
    return for_each_block64(n, x, body);
  }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V min(V a, V b) { return _mm512_min_ps(a, b); }
  static V max(V a, V b) { return _mm512_max_ps(a, b); }
  static V sqrt(V a) { return _mm512_sqrt_ps(a); }
  static V bit_and(V a, V b) { return _mm512_and_ps(a, b); }
  static V bit_or(V a, V b) { return _mm512_or_ps(a, b); }
  static V bit_xor(V a, V b) { return _mm512_xor_ps(a, b); }
  static V and_not(V a, V b) { return _mm512_andnot_ps(a, b); }  // ~a & b
  static V sign_bit() { return avx512::sign_bit(); }
  // Per lane: if_negative where s has its sign bit set, else if_not.
  static V by_sign(V s, V if_not, V if_negative) {
    return _mm512_mask_blend_ps(sign_mask(s), if_not, if_negative);
  }
  // Per lane: then where a >= b (ordered), else otherwise.
  static V where_ge(V a, V b, V then, V otherwise) {
    return _mm512_mask_mov_ps(otherwise, _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ), then);
  }
  static Mask unordered(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q); }
  static Mask no_lanes() { return 0; }
  static Mask either(Mask a, Mask b) { return static_cast<Mask>(a | b); }
  static bool any(Mask m) { return m != 0; }
  static V select(Mask m, V then, V otherwise) { return _mm512_mask_mov_ps(otherwise, m, then); }
  static V zero_below(V x, V limit, V v) {
    return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, limit, _CMP_NLT_UQ), v);
  }
  static V pow2_from_biased(V n) { return avx512::pow2_from_biased(n); }
  // v * 2^n, n integral held in a float rounded with kRoundMagic, applied as
  // 2^(n/2) * 2^(n - n/2): no special case from subnormals to overflow.
  static V mul_pow2(V v, V n_magic) {
    const __m512i n = _mm512_sub_epi32(_mm512_castps_si512(n_magic),
                                       _mm512_castps_si512(splat(vmath::kRoundMagic)));
    const __m512i n1 = _mm512_srai_epi32(n, 1);
    const __m512i bias = _mm512_set1_epi32(127);
    const V s1 = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(n1, bias), 23));
    const V s2 = _mm512_castsi512_ps(
        _mm512_slli_epi32(_mm512_add_epi32(_mm512_sub_epi32(n, n1), bias), 23));
    return _mm512_mul_ps(_mm512_mul_ps(v, s1), s2);
  }
};

}  // namespace ember::kernels::optimized::avx512
