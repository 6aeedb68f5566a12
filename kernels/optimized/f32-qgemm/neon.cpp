// NEON microkernels of the quantized GEMM (AArch64: Advanced SIMD is
// baseline). As avx2.cpp, on whole panels of 16 rows as four quarters of 4
// (a lane per row): each chunk load gives 4 rows' codes at 4 (Q8_0) or 8
// (Q4_1) inputs, each input's codes a shift and a mask away.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kRows = kF32QPanelRows;
constexpr size_t kQuarter = 4;  // rows per vector

uint32x4_t load(const uint8_t* p) { return vreinterpretq_u32_u8(vld1q_u8(p)); }

// 4 fp16 values from p as floats.
float32x4_t halfs(const uint8_t* p) {
  uint16_t bits[4];
  __builtin_memcpy(bits, p, 8);
  return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(bits)));
}

template <int kI>
void q4_pair(uint32x4_t v, float32x4_t* low, float32x4_t* high16) {
  const uint32x4_t t = kI == 0 ? v : vshrq_n_u32(v, kI == 0 ? 1 : 8 * kI);
  *low = vcvtq_f32_u32(vandq_u32(t, vdupq_n_u32(0x0F)));
  *high16 = vcvtq_f32_u32(vandq_u32(t, vdupq_n_u32(0xF0)));
}

template <int kI>
float32x4_t q8_code(uint32x4_t v) {
  const int32x4_t s = vreinterpretq_s32_u32(v);
  const int32x4_t t = kI == 3 ? s : vshlq_n_s32(s, kI == 3 ? 0 : 24 - 8 * kI);
  return vcvtq_f32_s32(vshrq_n_s32(t, 24));
}

template <int kI>
void q4_step(uint32x4_t v, const float* xc, float32x4_t* low, float32x4_t* high) {
  float32x4_t ql, qh;
  q4_pair<kI>(v, &ql, &qh);
  *low = vfmaq_n_f32(*low, ql, xc[kI]);
  *high = vfmaq_n_f32(*high, qh, xc[4 + kI]);
}

void gemv_q4_1(size_t nb, const float* x, const float* xsum, const uint8_t* panel, size_t,
               float* y) {
  constexpr size_t kBlock = 20 * kRows;
  float32x4_t acc[4];
  for (size_t g = 0; g < 4; ++g) acc[g] = vdupq_n_f32(0.0f);
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kBlock;
    const float* xb = x + b * 32;
    for (size_t g = 0; g < 4; ++g) {
      float32x4_t low = vdupq_n_f32(0.0f), high = vdupq_n_f32(0.0f);
      for (size_t c = 0; c < 4; ++c) {
        const uint32x4_t v = load(at + 4 * kRows + c * 4 * kRows + g * 4 * kQuarter);
        q4_step<0>(v, xb + 8 * c, &low, &high);
        q4_step<1>(v, xb + 8 * c, &low, &high);
        q4_step<2>(v, xb + 8 * c, &low, &high);
        q4_step<3>(v, xb + 8 * c, &low, &high);
      }
      const float32x4_t dot = vfmaq_n_f32(low, high, 1.0f / 16);
      acc[g] = vfmaq_f32(acc[g], halfs(at + 2 * g * kQuarter), dot);
      acc[g] = vfmaq_n_f32(acc[g], halfs(at + 2 * kRows + 2 * g * kQuarter), xsum[b]);
    }
  }
  for (size_t g = 0; g < 4; ++g) vst1q_f32(y + g * kQuarter, acc[g]);
}

void gemv_q8_0(size_t nb, const float* x, const float*, const uint8_t* panel, size_t, float* y) {
  constexpr size_t kBlock = 34 * kRows;
  float32x4_t acc[4];
  for (size_t g = 0; g < 4; ++g) acc[g] = vdupq_n_f32(0.0f);
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kBlock;
    const float* xb = x + b * 32;
    for (size_t g = 0; g < 4; ++g) {
      float32x4_t s[2] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
      for (size_t c = 0; c < 8; ++c) {
        const uint32x4_t v = load(at + 2 * kRows + c * 4 * kRows + g * 4 * kQuarter);
        const float* xc = xb + 4 * c;
        s[c % 2] = vfmaq_n_f32(s[c % 2], q8_code<0>(v), xc[0]);
        s[c % 2] = vfmaq_n_f32(s[c % 2], q8_code<1>(v), xc[1]);
        s[c % 2] = vfmaq_n_f32(s[c % 2], q8_code<2>(v), xc[2]);
        s[c % 2] = vfmaq_n_f32(s[c % 2], q8_code<3>(v), xc[3]);
      }
      acc[g] = vfmaq_f32(acc[g], halfs(at + 2 * g * kQuarter), vaddq_f32(s[0], s[1]));
    }
  }
  for (size_t g = 0; g < 4; ++g) vst1q_f32(y + g * kQuarter, acc[g]);
}

template <int kI>
void q4_unpack_step(uint32x4_t v, float32x4_t d, float32x4_t d16, float32x4_t m, float* out,
                    size_t nr) {
  float32x4_t ql, qh;
  q4_pair<kI>(v, &ql, &qh);
  vst1q_f32(out + kI * nr, vfmaq_f32(m, ql, d));
  vst1q_f32(out + (4 + kI) * nr, vfmaq_f32(m, qh, d16));
}

// Whole panels only (r0 0, 16 rows): the driver sends the rest to scalar.
void unpack_q4_1(size_t nb, const uint8_t* blocks, size_t, size_t, size_t, size_t nr,
                 float* out) {
  constexpr size_t kBlock = 20 * kRows;
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * kBlock;
    for (size_t g = 0; g < 4; ++g) {
      const float32x4_t d = halfs(at + 2 * g * kQuarter);
      const float32x4_t d16 = vmulq_n_f32(d, 1.0f / 16);
      const float32x4_t m = halfs(at + 2 * kRows + 2 * g * kQuarter);
      for (size_t c = 0; c < 4; ++c) {
        const uint32x4_t v = load(at + 4 * kRows + c * 4 * kRows + g * 4 * kQuarter);
        float* o = out + (b * 32 + 8 * c) * nr + g * kQuarter;
        q4_unpack_step<0>(v, d, d16, m, o, nr);
        q4_unpack_step<1>(v, d, d16, m, o, nr);
        q4_unpack_step<2>(v, d, d16, m, o, nr);
        q4_unpack_step<3>(v, d, d16, m, o, nr);
      }
    }
  }
}

void unpack_q8_0(size_t nb, const uint8_t* blocks, size_t, size_t, size_t, size_t nr,
                 float* out) {
  constexpr size_t kBlock = 34 * kRows;
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * kBlock;
    for (size_t g = 0; g < 4; ++g) {
      const float32x4_t d = halfs(at + 2 * g * kQuarter);
      for (size_t c = 0; c < 8; ++c) {
        const uint32x4_t v = load(at + 2 * kRows + c * 4 * kRows + g * 4 * kQuarter);
        float* o = out + (b * 32 + 4 * c) * nr + g * kQuarter;
        vst1q_f32(o, vmulq_f32(q8_code<0>(v), d));
        vst1q_f32(o + nr, vmulq_f32(q8_code<1>(v), d));
        vst1q_f32(o + 2 * nr, vmulq_f32(q8_code<2>(v), d));
        vst1q_f32(o + 3 * nr, vmulq_f32(q8_code<3>(v), d));
      }
    }
  }
}

}  // namespace

extern const F32QGemmConfig kF32QGemmNeonConfig = {
    "neon", kCpuNeon, gemv_q4_1, gemv_q8_0, unpack_q4_1, unpack_q8_0,
};

}  // namespace ember::kernels::optimized
