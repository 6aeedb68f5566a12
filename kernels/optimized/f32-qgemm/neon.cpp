// NEON microkernels of the quantized GEMM (AArch64: Advanced SIMD is
// baseline). As avx2.cpp: a block's codes widened to 8 x 4 floats, four
// output rows per GEMV pass sharing each load of x.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"

namespace ember::kernels::optimized {
namespace {

float fp16(const uint8_t* p) {
  uint16_t bits;
  __builtin_memcpy(&bits, p, 2);
  return vgetq_lane_f32(vcvt_f32_f16(vreinterpret_f16_u16(vdup_n_u16(bits))), 0);
}

// Eight vectors of four floats: the block's 32 weights in order.
struct Codes {
  float32x4_t q[8];
};

void widen(uint8x16_t bytes, float32x4_t* q) {
  const uint16x8_t lo = vmovl_u8(vget_low_u8(bytes)), hi = vmovl_u8(vget_high_u8(bytes));
  q[0] = vcvtq_f32_u32(vmovl_u16(vget_low_u16(lo)));
  q[1] = vcvtq_f32_u32(vmovl_u16(vget_high_u16(lo)));
  q[2] = vcvtq_f32_u32(vmovl_u16(vget_low_u16(hi)));
  q[3] = vcvtq_f32_u32(vmovl_u16(vget_high_u16(hi)));
}

void widen_signed(int8x16_t bytes, float32x4_t* q) {
  const int16x8_t lo = vmovl_s8(vget_low_s8(bytes)), hi = vmovl_s8(vget_high_s8(bytes));
  q[0] = vcvtq_f32_s32(vmovl_s16(vget_low_s16(lo)));
  q[1] = vcvtq_f32_s32(vmovl_s16(vget_high_s16(lo)));
  q[2] = vcvtq_f32_s32(vmovl_s16(vget_low_s16(hi)));
  q[3] = vcvtq_f32_s32(vmovl_s16(vget_high_s16(hi)));
}

Codes q4_codes(const uint8_t* qs) {
  const uint8x16_t bytes = vld1q_u8(qs);
  Codes c;
  widen(vandq_u8(bytes, vdupq_n_u8(0x0F)), c.q);
  widen(vshrq_n_u8(bytes, 4), c.q + 4);
  return c;
}

Codes q8_codes(const uint8_t* qs) {
  Codes c;
  widen_signed(vreinterpretq_s8_u8(vld1q_u8(qs)), c.q);
  widen_signed(vreinterpretq_s8_u8(vld1q_u8(qs + 16)), c.q + 4);
  return c;
}

template <bool kQ4>
void gemv(size_t nb, const float* x, const float* xsum, const uint8_t* w, size_t w_row_bytes,
          size_t rows, float* y) {
  constexpr size_t kBlock = kQ4 ? 20 : 34;
  constexpr size_t kCodes = kQ4 ? 4 : 2;
  const uint8_t* row[4];
  for (size_t r = 0; r < 4; ++r) row[r] = w + (r < rows ? r : 0) * w_row_bytes;
  float32x4_t acc[4] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f),
                        vdupq_n_f32(0.0f)};
  float mins[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (size_t b = 0; b < nb; ++b) {
    float32x4_t xv[8];
    for (size_t i = 0; i < 8; ++i) xv[i] = vld1q_f32(x + b * 32 + i * 4);
    for (size_t r = 0; r < 4; ++r) {
      const uint8_t* block = row[r] + b * kBlock;
      const Codes c = kQ4 ? q4_codes(block + kCodes) : q8_codes(block + kCodes);
      float32x4_t t = vmulq_f32(c.q[0], xv[0]);
      for (size_t i = 1; i < 8; ++i) t = vfmaq_f32(t, c.q[i], xv[i]);
      acc[r] = vfmaq_n_f32(acc[r], t, fp16(block));
      if (kQ4) mins[r] += fp16(block + 2) * xsum[b];
    }
  }
  for (size_t r = 0; r < rows; ++r) y[r] = vaddvq_f32(acc[r]) + mins[r];
}

template <bool kQ4>
void unpack(size_t nb, const uint8_t* w, size_t w_row_bytes, size_t rows, size_t nr,
            float* panel) {
  constexpr size_t kBlock = kQ4 ? 20 : 34;
  float values[32];
  for (size_t r = 0; r < nr; ++r) {
    const uint8_t* row = w + r * w_row_bytes;
    for (size_t b = 0; b < nb; ++b) {
      float* out = panel + b * 32 * nr + r;
      if (r >= rows) {
        for (size_t j = 0; j < 32; ++j) out[j * nr] = 0.0f;
        continue;
      }
      const uint8_t* block = row + b * kBlock;
      const Codes c = kQ4 ? q4_codes(block + 4) : q8_codes(block + 2);
      const float d = fp16(block);
      const float32x4_t m = vdupq_n_f32(kQ4 ? fp16(block + 2) : 0.0f);
      for (size_t i = 0; i < 8; ++i) vst1q_f32(values + i * 4, vfmaq_n_f32(m, c.q[i], d));
      for (size_t j = 0; j < 32; ++j) out[j * nr] = values[j];
    }
  }
}

}  // namespace

extern const F32QGemmConfig kF32QGemmNeonConfig = {
    "neon", kCpuNeon, gemv<true>, gemv<false>, unpack<true>, unpack<false>,
};

}  // namespace ember::kernels::optimized
