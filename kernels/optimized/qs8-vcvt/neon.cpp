// int8 conversions for AArch64 (Advanced SIMD): 16 values per step, the
// per-token quantization in float64x2 vectors; a partial step goes through a
// zero-padded stack buffer. vmaxnm returns the number when one operand is
// NaN, so NaN lands on the low bound as on x86. Baseline on AArch64.
#include <arm_neon.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"
#include "kernels/optimized/qs8-vcvt/blocks_body.h"

namespace ember::kernels::optimized {
namespace {

// Four int32x4 in range narrowed to 16 bytes, in order.
inline int8x16_t narrow(int32x4_t a, int32x4_t b, int32x4_t c, int32x4_t d) {
  return vcombine_s8(vqmovn_s16(vcombine_s16(vqmovn_s32(a), vqmovn_s32(b))),
                     vqmovn_s16(vcombine_s16(vqmovn_s32(c), vqmovn_s32(d))));
}

void quantize_block(const float* x, int8_t* y, const Qs8QuantizeParams* p) {
  const float32x4_t lo = vdupq_n_f32(static_cast<float>(p->min - p->zero));
  const float32x4_t hi = vdupq_n_f32(static_cast<float>(p->max - p->zero));
  const int32x4_t zero = vdupq_n_s32(p->zero);
  int32x4_t q[4];
  for (int v = 0; v < 4; ++v) {
    float32x4_t f = vmaxnmq_f32(vmulq_n_f32(vld1q_f32(x + 4 * v), p->inv_scale), lo);
    f = vminq_f32(f, hi);
    q[v] = vaddq_s32(vcvtnq_s32_f32(f), zero);  // round half to even
  }
  vst1q_s8(y, narrow(q[0], q[1], q[2], q[3]));
}

void quantize(size_t n, const float* x, int8_t* y, const Qs8QuantizeParams* p) {
  in_blocks<16>(n, x, y, [&](const float* xb, int8_t* yb) { quantize_block(xb, yb, p); });
}

void quantize_double_block(const float* x, int8_t* y, double inv, double zero, double min,
                           double max) {
  const float64x2_t lo = vdupq_n_f64(min);
  const float64x2_t hi = vdupq_n_f64(max);
  const float64x2_t z = vdupq_n_f64(zero);
  int32x4_t q[4];
  for (int v = 0; v < 4; ++v) {
    const float32x4_t f = vld1q_f32(x + 4 * v);
    float64x2_t d[2] = {vcvt_f64_f32(vget_low_f32(f)), vcvt_high_f64_f32(f)};
    int64x2_t r[2];
    for (int h = 0; h < 2; ++h) {
      // Multiply, then add: two roundings, as torch's mul and add.
      d[h] = vaddq_f64(vmulq_n_f64(d[h], inv), z);
      d[h] = vminq_f64(vmaxnmq_f64(d[h], lo), hi);
      r[h] = vcvtnq_s64_f64(d[h]);  // round half to even
    }
    q[v] = vcombine_s32(vmovn_s64(r[0]), vmovn_s64(r[1]));
  }
  vst1q_s8(y, narrow(q[0], q[1], q[2], q[3]));
}

void quantize_double(size_t n, const float* x, int8_t* y, double inv_scale, int32_t zero,
                     int32_t min, int32_t max) {
  in_blocks<16>(n, x, y, [&](const float* xb, int8_t* yb) {
    quantize_double_block(xb, yb, inv_scale, zero, min, max);
  });
}

void dequantize_block(const int8_t* x, float* y, int32_t zero, float scale) {
  const int8x16_t b = vld1q_s8(x);
  const int16x8_t lo = vmovl_s8(vget_low_s8(b));
  const int16x8_t hi = vmovl_high_s8(b);
  const int32x4_t z = vdupq_n_s32(zero);
  const int32x4_t v[4] = {vmovl_s16(vget_low_s16(lo)), vmovl_high_s16(lo),
                          vmovl_s16(vget_low_s16(hi)), vmovl_high_s16(hi)};
  for (int j = 0; j < 4; ++j) {
    vst1q_f32(y + 4 * j, vmulq_n_f32(vcvtq_f32_s32(vsubq_s32(v[j], z)), scale));
  }
}

void dequantize(size_t n, const int8_t* x, float* y, int32_t zero, float scale) {
  in_blocks<16>(n, x, y, [&](const int8_t* xb, float* yb) {
    dequantize_block(xb, yb, zero, scale);
  });
}

void minmax(size_t n, const float* x, float* min, float* max) {
  float32x4_t lo[2], hi[2];
  lo[0] = lo[1] = hi[0] = hi[1] = vdupq_n_f32(x[0]);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int v = 0; v < 2; ++v) {
      const float32x4_t xv = vld1q_f32(x + i + 4 * v);
      lo[v] = vminq_f32(lo[v], xv);
      hi[v] = vmaxq_f32(hi[v], xv);
    }
  }
  float a = vminvq_f32(vminq_f32(lo[0], lo[1]));
  float b = vmaxvq_f32(vmaxq_f32(hi[0], hi[1]));
  for (; i < n; ++i) {
    a = x[i] < a ? x[i] : a;
    b = x[i] > b ? x[i] : b;
  }
  *min = a;
  *max = b;
}

}  // namespace

extern const Qs8VcvtConfig kQs8VcvtNeonConfig = {
    "neon", kCpuNeon, quantize, quantize_double, dequantize, minmax,
};

}  // namespace ember::kernels::optimized
