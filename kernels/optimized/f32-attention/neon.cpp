// f32 attention row operations for AArch64 Advanced SIMD. Built only for
// AArch64, where NEON is part of the base ISA, so it needs no extra flags.
// The exp is the scalar and AVX2 variants' algorithm (XNNPACK's rr2_p5), four
// lanes at a time.
#include <arm_neon.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/simd/neon_math.h"

namespace ember::kernels::optimized {
namespace {

using neon::Acc4;
using neon::accumulate4;
using neon::load_tail;
using neon::store_tail;

float row_max(const float* x, size_t n) {
  // Started at x[0] (not -inf, as softmax's rmax is) and finished by a
  // scalar tail, as the scalar attention variant does, so that the variants
  // treat NaNs alike.
  size_t i;
  const Acc4 a = accumulate4(n, x, vdupq_n_f32(x[0]), &i,
                             [](float32x4_t v, float32x4_t acc) { return vmaxq_f32(acc, v); });
  float m = vmaxvq_f32(vmaxq_f32(vmaxq_f32(a.a0, a.a1), vmaxq_f32(a.a2, a.a3)));
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

// exp(x) for x <= 0: Cody-Waite reduction with two constants, degree-5
// polynomial, 2^n built in the exponent bits; 0 below -87.34 (and for -inf).
// Not neon::exp_nonpositive (f32-vunary's degree-6 exp, another flush
// threshold): the scalar and AVX2 attention variants compute this one.
float32x4_t exp_nonpositive(float32x4_t x) {
  const float32x4_t magic = vdupq_n_f32(0x1.8000FEp23f);
  float32x4_t n = vfmaq_f32(magic, x, vdupq_n_f32(0x1.715476p+0f));
  const float32x4_t scale = vreinterpretq_f32_u32(vshlq_n_u32(vreinterpretq_u32_f32(n), 23));
  n = vsubq_f32(n, magic);
  float32x4_t t = vfmaq_f32(x, n, vdupq_n_f32(-0x1.62E43p-1f));
  t = vfmaq_f32(t, n, vdupq_n_f32(0x1.05C61p-29f));
  float32x4_t p = vfmaq_f32(vdupq_n_f32(0x1.573A1Ap-5f), vdupq_n_f32(0x1.0F9F9Cp-7f), t);
  p = vfmaq_f32(vdupq_n_f32(0x1.555A80p-3f), p, t);
  p = vfmaq_f32(vdupq_n_f32(0x1.FFFDC6p-2f), p, t);
  p = vfmaq_f32(vdupq_n_f32(0x1.FFFFF6p-1f), p, t);
  t = vmulq_f32(t, scale);
  const float32x4_t f = vfmaq_f32(scale, t, p);
  const uint32x4_t underflow = vcltq_f32(x, vdupq_n_f32(-0x1.5D589Ep6f));
  return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(f), underflow));
}

float exp_row(float* x, size_t n, float max) {
  const float32x4_t vmax = vdupq_n_f32(max);
  float32x4_t s0 = vdupq_n_f32(0.0f), s1 = s0;
  size_t i = 0;
  // Two vectors per step: each exp is a chain of ~10 dependent operations.
  for (; i + 8 <= n; i += 8) {
    const float32x4_t e0 = exp_nonpositive(vsubq_f32(vld1q_f32(x + i), vmax));
    const float32x4_t e1 = exp_nonpositive(vsubq_f32(vld1q_f32(x + i + 4), vmax));
    vst1q_f32(x + i, e0);
    vst1q_f32(x + i + 4, e1);
    s0 = vaddq_f32(s0, e0);
    s1 = vaddq_f32(s1, e1);
  }
  for (; i + 4 <= n; i += 4) {
    const float32x4_t e = exp_nonpositive(vsubq_f32(vld1q_f32(x + i), vmax));
    vst1q_f32(x + i, e);
    s0 = vaddq_f32(s0, e);
  }
  if (i < n) {
    // The tail padded with -inf, whose exp is 0.
    const float32x4_t e = exp_nonpositive(vsubq_f32(load_tail(x + i, n - i, -INFINITY), vmax));
    store_tail(x + i, n - i, e);
    s1 = vaddq_f32(s1, e);
  }
  return vaddvq_f32(vaddq_f32(s0, s1));
}

void scale_row(float* x, size_t n, float s) {
  const float32x4_t vs = vdupq_n_f32(s);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(x + i, vmulq_f32(vld1q_f32(x + i), vs));
  for (; i < n; ++i) x[i] *= s;
}

// dst[c * ld + r] = src[r * lds + c] for a 4 x 4 block.
void transpose4x4(const float* src, size_t lds, float* dst, size_t ld) {
  const float32x4_t r0 = vld1q_f32(src), r1 = vld1q_f32(src + lds);
  const float32x4_t r2 = vld1q_f32(src + 2 * lds), r3 = vld1q_f32(src + 3 * lds);
  const float64x2_t t0 = vreinterpretq_f64_f32(vtrn1q_f32(r0, r1));
  const float64x2_t t1 = vreinterpretq_f64_f32(vtrn2q_f32(r0, r1));
  const float64x2_t t2 = vreinterpretq_f64_f32(vtrn1q_f32(r2, r3));
  const float64x2_t t3 = vreinterpretq_f64_f32(vtrn2q_f32(r2, r3));
  vst1q_f32(dst, vreinterpretq_f32_f64(vtrn1q_f64(t0, t2)));
  vst1q_f32(dst + ld, vreinterpretq_f32_f64(vtrn1q_f64(t1, t3)));
  vst1q_f32(dst + 2 * ld, vreinterpretq_f32_f64(vtrn2q_f64(t0, t2)));
  vst1q_f32(dst + 3 * ld, vreinterpretq_f32_f64(vtrn2q_f64(t1, t3)));
}

void pack_kt(size_t n, size_t d, const float* k, size_t ldk, size_t nr, float* packed) {
  for (size_t j0 = 0; j0 < n; j0 += nr) {
    const size_t cols = n - j0 < nr ? n - j0 : nr;
    float* panel = packed + j0 * d;  // panel j0 / nr starts at (j0 / nr) * d * nr
    size_t c = 0;
    // Four keys at a time, four dims at a time, through registers.
    if (nr % 4 == 0) {
      for (; c + 4 <= cols; c += 4) {
        const float* src = k + (j0 + c) * ldk;
        size_t p = 0;
        for (; p + 4 <= d; p += 4) transpose4x4(src + p, ldk, panel + p * nr + c, nr);
        for (; p < d; ++p) {
          for (size_t cc = 0; cc < 4; ++cc) panel[p * nr + c + cc] = src[cc * ldk + p];
        }
      }
    }
    for (; c < cols; ++c) {
      const float* src = k + (j0 + c) * ldk;
      for (size_t p = 0; p < d; ++p) panel[p * nr + c] = src[p];
    }
    for (; c < nr; ++c) {
      for (size_t p = 0; p < d; ++p) panel[p * nr + c] = 0.0f;
    }
  }
}

float dot(const float* a, const float* b, size_t n) {
  float32x4_t s0 = vdupq_n_f32(0.0f), s1 = vdupq_n_f32(0.0f);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    s0 = vfmaq_f32(s0, vld1q_f32(a + i), vld1q_f32(b + i));
    s1 = vfmaq_f32(s1, vld1q_f32(a + i + 4), vld1q_f32(b + i + 4));
  }
  if (i + 4 <= n) {
    s0 = vfmaq_f32(s0, vld1q_f32(a + i), vld1q_f32(b + i));
    i += 4;
  }
  float tail = 0.0f;
  for (; i < n; ++i) tail += a[i] * b[i];
  return vaddvq_f32(vaddq_f32(s0, s1)) + tail;
}

void add_scaled(float* y, const float* x, float a, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(y + i, vfmaq_n_f32(vld1q_f32(y + i), vld1q_f32(x + i), a));
  for (; i < n; ++i) y[i] += a * x[i];
}

}  // namespace

extern const F32AttentionConfig kF32AttentionNeonConfig = {
    "neon", kCpuNeon, row_max, exp_row, scale_row, pack_kt, dot, add_scaled,
};

}  // namespace ember::kernels::optimized
