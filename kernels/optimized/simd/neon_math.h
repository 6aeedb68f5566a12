// SIMD helpers shared by the AArch64 Advanced SIMD variants of the f32
// families (their neon.cpp files): splats, padded tail loads and stores, the
// four-chain row accumulation and the exp for x <= 0 of f32-vunary's
// algorithm (f32_vmath_constants.h).
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

#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"

namespace ember::kernels::optimized::neon {

inline float32x4_t splat(float v) { return vdupq_n_f32(v); }

// Loads the first r < 4 floats of p, the other lanes set to `pad`.
inline float32x4_t load_tail(const float* p, size_t r, float pad) {
  float buf[4] = {pad, pad, pad, pad};
  for (size_t j = 0; j < r; ++j) buf[j] = p[j];
  return vld1q_f32(buf);
}

// Stores the first r < 4 lanes of v to p.
inline void store_tail(float* p, size_t r, float32x4_t v) {
  float buf[4];
  vst1q_f32(buf, v);
  for (size_t j = 0; j < r; ++j) p[j] = buf[j];
}

// Four accumulators, each a chain of its own (one would serialise on the
// latency of fadd or fmax).
struct Acc4 {
  float32x4_t a0, a1, a2, a3;
};

// acc = f(v, acc) over x[0, *done) in four chains started at init, 16 floats
// per step then 4 at a time into a0; *done is n rounded down to a multiple
// of 4, the tail is the caller's.
template <typename F>
inline Acc4 accumulate4(size_t n, const float* x, float32x4_t init, size_t* done, F f) {
  Acc4 a{init, init, init, init};
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a.a0 = f(vld1q_f32(x + i), a.a0);
    a.a1 = f(vld1q_f32(x + i + 4), a.a1);
    a.a2 = f(vld1q_f32(x + i + 8), a.a2);
    a.a3 = f(vld1q_f32(x + i + 12), a.a3);
  }
  for (; i + 4 <= n; i += 4) a.a0 = f(vld1q_f32(x + i), a.a0);
  *done = i;
  return a;
}

// 2^n for integral n in [-126, 127] held in a float rounded with
// kRoundMagicBiased (its low mantissa bits are n + 127).
inline float32x4_t pow2_from_biased(float32x4_t n_biased) {
  return vreinterpretq_f32_s32(vshlq_n_s32(vreinterpretq_s32_f32(n_biased), 23));
}

// t = x - n ln2, in two steps (Cody-Waite).
inline float32x4_t reduce_ln2(float32x4_t x, float32x4_t n) {
  namespace vm = vmath;
  const float32x4_t t = vfmsq_f32(x, n, splat(vm::kLn2Hi));
  return vfmsq_f32(t, n, splat(vm::kLn2Lo));
}

// p(t) with exp(t) ~= 1 + t * p(t).
inline float32x4_t exp_poly(float32x4_t t) {
  namespace vm = vmath;
  float32x4_t p = vfmaq_f32(splat(vm::kExpC5), splat(vm::kExpC6), t);
  p = vfmaq_f32(splat(vm::kExpC4), p, t);
  p = vfmaq_f32(splat(vm::kExpC3), p, t);
  p = vfmaq_f32(splat(vm::kExpC2), p, t);
  return vfmaq_f32(splat(vm::kExpC1), p, t);
}

// exp(z) for z <= 0 (or NaN), flushed to 0 below 2^-126 (kExpDenormCutoff):
// one scale factor. f32-vunary's sigmoid and f32-softmax use it.
inline float32x4_t exp_nonpositive(float32x4_t z) {
  namespace vm = vmath;
  float32x4_t n = vfmaq_f32(splat(vm::kRoundMagicBiased), z, splat(vm::kLog2e));
  const float32x4_t s = pow2_from_biased(n);
  n = vsubq_f32(n, splat(vm::kRoundMagicBiased));
  float32x4_t t = reduce_ln2(z, n);
  const float32x4_t p = exp_poly(t);
  t = vmulq_f32(t, s);
  const float32x4_t e = vfmaq_f32(s, t, p);
  const uint32x4_t tiny = vcltq_f32(z, splat(vm::kExpDenormCutoff));
  return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(e), tiny));
}

}  // namespace ember::kernels::optimized::neon
