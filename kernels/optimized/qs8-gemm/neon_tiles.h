// The int8 GEMM tiles of the AArch64 variants (neon.cpp: vmlal on int16
// lanes; neondot.cpp: sdot on byte quads), 4 rows x 16 columns in four int32x4
// accumulators per row: the start of the sums from the panel's head, the
// requantization to int8 and the float epilogue, around the inner loop each
// variant supplies.
//
// Functions in a header a variant includes, as in qs8-gemm/avx2_tiles.h: the
// #error keeps files without NEON from including it, and the unnamed
// namespace gives each variant file (neondot.cpp has more ISA flags) its own
// copy.
#pragma once

#if !defined(__ARM_NEON)
#error "qs8-gemm/neon_tiles.h is for AArch64 (NEON) variant files only"
#endif

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qs8-gemm/qs8_gemm.h"

namespace ember::kernels::optimized::qs8_neon {
namespace {

constexpr size_t kMr = 4;
constexpr size_t kNr = 16;

inline uint32_t load_u32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// A panel's parts (qs8_gemm.h): the head, the weights, the tail.
struct Panel {
  const int32_t* head;
  const int8_t* w;
  const float* tail;
  Panel(const void* panel, size_t kp)
      : head(static_cast<const int32_t*>(panel)),
        w(static_cast<const int8_t*>(panel) + kNr * sizeof(int32_t)),
        tail(reinterpret_cast<const float*>(w + kp * kNr)) {}
};

// Inner supplies AValue, kShift and accumulate<MR>(kp, a, w, acc), which adds
// the products of all kp values of each row into acc[i][0..4).
template <typename Inner, size_t MR>
void qs8_tile(size_t nr, size_t kp, const typename Inner::AValue* a, const void* panel, int8_t* c,
              size_t c_stride, const Qs8RequantParams* params) {
  const Panel p(panel, kp);
  int32x4_t acc[MR][4];
  for (size_t i = 0; i < MR; ++i) {
    for (size_t v = 0; v < 4; ++v) acc[i][v] = vld1q_s32(p.head + 4 * v);
  }
  Inner::template accumulate<MR>(kp, a, p.w, acc);

  float32x4_t scale[4];
  for (size_t v = 0; v < 4; ++v) scale[v] = vld1q_f32(p.tail + 4 * v);
  const float32x4_t low = vdupq_n_f32(static_cast<float>(params->min - params->zero));
  const float32x4_t high = vdupq_n_f32(static_cast<float>(params->max - params->zero));
  const int32x4_t zero = vdupq_n_s32(params->zero);
  for (size_t i = 0; i < MR; ++i) {
    int16x4_t q16[4];
    for (size_t v = 0; v < 4; ++v) {
      // Scale, clamp (integer bounds less the zero point), round half to
      // even (vcvtnq), add the zero point; then narrow, in range already.
      float32x4_t f = vmulq_f32(vcvtq_f32_s32(acc[i][v]), scale[v]);
      f = vminq_f32(vmaxq_f32(f, low), high);
      q16[v] = vqmovn_s32(vaddq_s32(vcvtnq_s32_f32(f), zero));
    }
    const int8x16_t bytes = vcombine_s8(vqmovn_s16(vcombine_s16(q16[0], q16[1])),
                                        vqmovn_s16(vcombine_s16(q16[2], q16[3])));
    int8_t* dst = c + i * c_stride;
    if (nr == kNr) {
      vst1q_s8(dst, bytes);
    } else {
      int8_t buf[16];
      vst1q_s8(buf, bytes);
      std::memcpy(dst, buf, nr);
    }
  }
}

template <typename Inner, size_t MR>
void qd8_tile(size_t nr, size_t kp, const typename Inner::AValue* a, const void* panel, float* c,
              size_t c_stride, const int32_t* row_zero, const float* row_scale,
              const Qd8F32Params* params) {
  const Panel p(panel, kp);
  int32x4_t acc[MR][4];
  for (size_t i = 0; i < MR; ++i) {
    // The zero point's share, -(zero + shift) * colsum, modulo 2^32.
    const int32x4_t nz = vdupq_n_s32(-(row_zero[i] + Inner::kShift));
    for (size_t v = 0; v < 4; ++v) acc[i][v] = vmulq_s32(vld1q_s32(p.head + 4 * v), nz);
  }
  Inner::template accumulate<MR>(kp, a, p.w, acc);

  const float32x4_t low = vdupq_n_f32(params->min);
  const float32x4_t high = vdupq_n_f32(params->max);
  for (size_t i = 0; i < MR; ++i) {
    const float rs = row_scale[i];
    float out[16];
    for (size_t v = 0; v < 4; ++v) {
      const float32x4_t f = vfmaq_f32(vld1q_f32(p.tail + kNr + 4 * v),
                                      vmulq_n_f32(vcvtq_f32_s32(acc[i][v]), rs),
                                      vld1q_f32(p.tail + 4 * v));
      vst1q_f32(out + 4 * v, vminq_f32(vmaxq_f32(f, low), high));
    }
    std::memcpy(c + i * c_stride, out, nr * sizeof(float));
  }
}

template <typename Inner>
void qs8_ukernel(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, int8_t* c,
                 size_t c_stride, const Qs8RequantParams* params) {
  const auto* as = static_cast<const typename Inner::AValue*>(a);
  switch (mr) {
    case 4: return qs8_tile<Inner, 4>(nr, kp, as, panel, c, c_stride, params);
    case 3: return qs8_tile<Inner, 3>(nr, kp, as, panel, c, c_stride, params);
    case 2: return qs8_tile<Inner, 2>(nr, kp, as, panel, c, c_stride, params);
    default: return qs8_tile<Inner, 1>(nr, kp, as, panel, c, c_stride, params);
  }
}

template <typename Inner>
void qd8_ukernel(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, float* c,
                 size_t c_stride, const int32_t* row_zero, const float* row_scale,
                 const Qd8F32Params* params) {
  const auto* as = static_cast<const typename Inner::AValue*>(a);
  switch (mr) {
    case 4: return qd8_tile<Inner, 4>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    case 3: return qd8_tile<Inner, 3>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    case 2: return qd8_tile<Inner, 2>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    default:
      return qd8_tile<Inner, 1>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
  }
}

}  // namespace
}  // namespace ember::kernels::optimized::qs8_neon
