// The 4-bit grouped-weight GEMM tiles of the AArch64 variants (neon.cpp:
// vmlal on int16; neondot.cpp: sdot on byte quads), 2 rows x 16 columns:
// per group an int32 dot product per row and vector of 4 columns (the
// variant's inner loop), converted and accumulated in float times the
// group's scale; the zero point, row scale and bias at the end.
//
// Functions in a header, as qs8-gemm/neon_tiles.h has them: the #error keeps
// other files out, and the unnamed namespace gives each variant file its own
// copy.
#pragma once

#if !defined(__ARM_NEON)
#error "qd8-f32-qb4w-gemm/neon_tiles.h is for AArch64 (NEON) variant files only"
#endif

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qd8-f32-qb4w-gemm/qd8_f32_qb4w_gemm.h"

namespace ember::kernels::optimized::qb4w_neon {
namespace {

constexpr size_t kMr = 2;
constexpr size_t kNr = 16;

inline uint32_t load_u32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// Inner supplies AValue, kShift, kKr and dot<MR>(group, rows, bytes, acc).
template <typename Inner, size_t MR>
void tile(size_t nr, size_t k, size_t group, const typename Inner::AValue* a,
          const uint8_t* panel, float* c, size_t c_stride, const int32_t* row_zero,
          const float* row_scale, const Qd8F32Params* params) {
  const float* corr = reinterpret_cast<const float*>(panel);
  const float* bias = corr + kNr;
  const uint8_t* g = panel + 2 * kNr * sizeof(float);
  const size_t group_bytes = kNr * sizeof(float) + group * kNr / 2;
  float32x4_t acc[MR][4];
  for (size_t i = 0; i < MR; ++i) {
    for (size_t v = 0; v < 4; ++v) acc[i][v] = vdupq_n_f32(0.0f);
  }
  for (size_t k0 = 0; k0 < k; k0 += group, g += group_bytes) {
    const float* scale = reinterpret_cast<const float*>(g);
    const typename Inner::AValue* rows[MR];
    for (size_t i = 0; i < MR; ++i) rows[i] = a + i * k + k0;
    int32x4_t dot[MR][4];
    for (size_t i = 0; i < MR; ++i) {
      for (size_t v = 0; v < 4; ++v) dot[i][v] = vdupq_n_s32(0);
    }
    Inner::template dot<MR>(group, rows, g + kNr * sizeof(float), dot);
    for (size_t i = 0; i < MR; ++i) {
      for (size_t v = 0; v < 4; ++v) {
        acc[i][v] = vfmaq_f32(acc[i][v], vcvtq_f32_s32(dot[i][v]), vld1q_f32(scale + 4 * v));
      }
    }
  }
  const float32x4_t low = vdupq_n_f32(params->min);
  const float32x4_t high = vdupq_n_f32(params->max);
  for (size_t i = 0; i < MR; ++i) {
    const float32x4_t zero = vdupq_n_f32(static_cast<float>(row_zero[i] + Inner::kShift));
    float out[kNr];
    for (size_t v = 0; v < 4; ++v) {
      const float32x4_t t = vfmsq_f32(acc[i][v], zero, vld1q_f32(corr + 4 * v));
      const float32x4_t y = vfmaq_n_f32(vld1q_f32(bias + 4 * v), t, row_scale[i]);
      vst1q_f32(out + 4 * v, vminq_f32(vmaxq_f32(y, low), high));
    }
    std::memcpy(c + i * c_stride, out, nr * sizeof(float));
  }
}

template <typename Inner>
void ukernel(size_t mr, size_t nr, size_t k, size_t group, const void* a, const void* panel,
             float* c, size_t c_stride, const int32_t* row_zero, const float* row_scale,
             const Qd8F32Params* params) {
  const auto* as = static_cast<const typename Inner::AValue*>(a);
  const uint8_t* pw = static_cast<const uint8_t*>(panel);
  if (mr == 2) {
    return tile<Inner, 2>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
  }
  tile<Inner, 1>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
}

}  // namespace
}  // namespace ember::kernels::optimized::qb4w_neon
