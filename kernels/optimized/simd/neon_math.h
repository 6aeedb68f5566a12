// The AArch64 Advanced SIMD width (neon::Vec) for the kernel bodies written
// once over vector widths (the f32 families' *_body.h and vec_math.h): their
// neon.cpp files instantiate those bodies with it.
//
// NEON is part of the AArch64 base ISA, so these inline functions carry no
// code a non-NEON CPU could not run; the #error keeps the header to the
// AArch64 build, where the neon.cpp files are compiled (avx2_math.h explains
// why the ISA headers may define functions).
#pragma once

#if !defined(__aarch64__)
#error "neon_math.h is for the AArch64 neon.cpp variants only"
#endif

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"

namespace ember::kernels::optimized::neon {

// The vector width as a type, for the kernel bodies written once over widths
// (*_body.h, vec_math.h): avx2::Vec's members at 4 lanes. A tail mask is a
// lane mask whose first lanes are on; NEON has no masked load, so tails go
// through a 4-float buffer and never touch memory past the end. FMIN/FMAX
// return NaN when either input is NaN (x86's keep the second operand), which
// every body accepts: its clamps and maxima only need NaN kept.
struct Vec {
  using V = float32x4_t;
  using Mask = uint32x4_t;
  static constexpr size_t kLanes = 4;
  static V zero() { return vdupq_n_f32(0.0f); }
  static V splat(float v) { return vdupq_n_f32(v); }
  static V loadu(const float* p) { return vld1q_f32(p); }
  static void storeu(float* p, V v) { vst1q_f32(p, v); }
  static V add(V a, V b) { return vaddq_f32(a, b); }
  static V sub(V a, V b) { return vsubq_f32(a, b); }
  static V mul(V a, V b) { return vmulq_f32(a, b); }
  static V fmadd(V a, V b, V c) { return vfmaq_f32(c, a, b); }
  static V fnmadd(V a, V b, V c) { return vfmsq_f32(c, a, b); }  // c - a b
  static float hsum(V v) { return vaddvq_f32(v); }
  static float hmax(V v) { return vmaxvq_f32(v); }
  static Mask tail_mask(size_t r) {
    static const uint32_t kLaneIndex[4] = {0, 1, 2, 3};
    return vcltq_u32(vld1q_u32(kLaneIndex), vdupq_n_u32(static_cast<uint32_t>(r)));
  }
  static size_t lanes_on(Mask m) { return vaddvq_u32(vshrq_n_u32(m, 31)); }
  static V load_tail(Mask m, const float* p) {
    float buf[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (size_t j = 0, r = lanes_on(m); j < r; ++j) buf[j] = p[j];
    return vld1q_f32(buf);
  }
  static void store_tail(float* p, Mask m, V v) {
    float buf[4];
    vst1q_f32(buf, v);
    for (size_t j = 0, r = lanes_on(m); j < r; ++j) p[j] = buf[j];
  }
  static V keep(Mask m, V v) { return bits(vandq_u32(bits(v), m)); }
  static V load_tail_or(V rest, Mask m, const float* p) {
    return vbslq_f32(m, load_tail(m, p), rest);
  }
  static size_t head(const float*) { return 0; }
  template <typename Body>
  static size_t for_each_block4(size_t n, const float* x, Body body) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      body(vld1q_f32(x + i), vld1q_f32(x + i + 4), vld1q_f32(x + i + 8), vld1q_f32(x + i + 12));
    }
    return i;
  }
  static V div(V a, V b) { return vdivq_f32(a, b); }
  static V min(V a, V b) { return vminq_f32(a, b); }
  static V max(V a, V b) { return vmaxq_f32(a, b); }
  static V sqrt(V a) { return vsqrtq_f32(a); }
  static V bit_and(V a, V b) { return bits(vandq_u32(bits(a), bits(b))); }
  static V bit_or(V a, V b) { return bits(vorrq_u32(bits(a), bits(b))); }
  static V bit_xor(V a, V b) { return bits(veorq_u32(bits(a), bits(b))); }
  static V and_not(V a, V b) { return bits(vbicq_u32(bits(b), bits(a))); }  // ~a & b
  static V sign_bit() { return vdupq_n_f32(-0.0f); }
  static V by_sign(V s, V if_not, V if_negative) {
    const Mask negative = vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_f32(s), 31));
    return vbslq_f32(negative, if_negative, if_not);
  }
  static V where_ge(V a, V b, V then, V otherwise) {
    return vbslq_f32(vcgeq_f32(a, b), then, otherwise);
  }
  static Mask unordered(V a, V b) { return vmvnq_u32(vandq_u32(vceqq_f32(a, a), vceqq_f32(b, b))); }
  static Mask no_lanes() { return vdupq_n_u32(0); }
  static Mask either(Mask a, Mask b) { return vorrq_u32(a, b); }
  static bool any(Mask m) { return vmaxvq_u32(m) != 0; }
  static V select(Mask m, V then, V otherwise) { return vbslq_f32(m, then, otherwise); }
  static V zero_below(V x, V limit, V v) { return bits(vbicq_u32(bits(v), vcltq_f32(x, limit))); }
  // 2^n for integral n in [-126, 127] held in a float rounded with
  // kRoundMagicBiased (its low mantissa bits are n + 127).
  static V pow2_from_biased(V n) {
    return vreinterpretq_f32_s32(vshlq_n_s32(vreinterpretq_s32_f32(n), 23));
  }
  // v * 2^n, n integral held in a float rounded with kRoundMagic, applied as
  // 2^(n/2) * 2^(n - n/2): no special case from subnormals to overflow.
  static V mul_pow2(V v, V n_magic) {
    const int32x4_t n = vsubq_s32(vreinterpretq_s32_f32(n_magic),
                                  vreinterpretq_s32_f32(splat(vmath::kRoundMagic)));
    const int32x4_t n1 = vshrq_n_s32(n, 1);
    const int32x4_t bias = vdupq_n_s32(127);
    const V s1 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n1, bias), 23));
    const V s2 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(vsubq_s32(n, n1), bias), 23));
    return vmulq_f32(vmulq_f32(v, s1), s2);
  }

 private:
  static uint32x4_t bits(V v) { return vreinterpretq_u32_f32(v); }
  static V bits(uint32x4_t v) { return vreinterpretq_f32_u32(v); }
};

}  // namespace ember::kernels::optimized::neon
