// int8 depthwise convolution for AArch64 (Advanced SIMD): 16-channel tiles,
// inputs widened to int16 (vmovl) and multiplied into int32 sums by vmlal
// against int16 weights (Qs8DwconvLayout::S16), exactly. The dot-product
// extension does not help here (qs8_dwconv.h), so this is NEON's only
// variant. Baseline on AArch64: no extra flags.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-dwconv/pixels_body.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kTile = 16;

// One pixel's channels, tap t's input pixel at in(t).
template <size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const uint8_t* w, int8_t* out,
                                                 const Qs8RequantParams* params) {
  const size_t tile_bytes = 2 * kTile * sizeof(int32_t) + nt * kTile * sizeof(int16_t);
  const float32x4_t low = vdupq_n_f32(static_cast<float>(params->min - params->zero));
  const float32x4_t high = vdupq_n_f32(static_cast<float>(params->max - params->zero));
  const int32x4_t zero = vdupq_n_s32(params->zero);
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += tile_bytes) {
    const int32_t* head = reinterpret_cast<const int32_t*>(w);
    const int16_t* wt = reinterpret_cast<const int16_t*>(w + kTile * sizeof(int32_t));
    int32x4_t acc[4] = {vld1q_s32(head), vld1q_s32(head + 4), vld1q_s32(head + 8),
                        vld1q_s32(head + 12)};
#pragma GCC unroll 25
    for (size_t t = 0; t < nt; ++t, wt += kTile) {
      const int8x16_t x = vld1q_s8(in(t) + c);
      const int16x8_t x_lo = vmovl_s8(vget_low_s8(x));
      const int16x8_t x_hi = vmovl_high_s8(x);
      const int16x8_t w_lo = vld1q_s16(wt);
      const int16x8_t w_hi = vld1q_s16(wt + 8);
      acc[0] = vmlal_s16(acc[0], vget_low_s16(x_lo), vget_low_s16(w_lo));
      acc[1] = vmlal_high_s16(acc[1], x_lo, w_lo);
      acc[2] = vmlal_s16(acc[2], vget_low_s16(x_hi), vget_low_s16(w_hi));
      acc[3] = vmlal_high_s16(acc[3], x_hi, w_hi);
    }
    const float* scale = reinterpret_cast<const float*>(wt);
    int16x4_t q16[4];
    for (size_t v = 0; v < 4; ++v) {
      // Scale, clamp (integer bounds less the zero point), round half to
      // even, add the zero point, narrow (in range already).
      float32x4_t f = vmulq_f32(vcvtq_f32_s32(acc[v]), vld1q_f32(scale + 4 * v));
      f = vminq_f32(vmaxq_f32(f, low), high);
      q16[v] = vqmovn_s32(vaddq_s32(vcvtnq_s32_f32(f), zero));
    }
    vst1q_s8(out + c, vcombine_s8(vqmovn_s16(vcombine_s16(q16[0], q16[1])),
                                  vqmovn_s16(vcombine_s16(q16[2], q16[3]))));
  }
  // The last, partial tile, in plain C++: no vector load may read past the
  // input's channels.
  const int32_t* head = reinterpret_cast<const int32_t*>(w);
  const int16_t* wt = reinterpret_cast<const int16_t*>(w + kTile * sizeof(int32_t));
  const float* scale = reinterpret_cast<const float*>(wt + nt * kTile);
  for (size_t j = 0; c + j < channels; ++j) {
    uint32_t acc = static_cast<uint32_t>(head[j]);
    for (size_t t = 0; t < nt; ++t) acc += static_cast<uint32_t>(in(t)[c + j] * wt[t * kTile + j]);
    out[c + j] = qs8_requantize(static_cast<int32_t>(acc), scale[j], *params);
  }
}

template <size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const int8_t* const* input,
            size_t input_stride, size_t input_offset, const int8_t* zero, const void* weights,
            int8_t* output, size_t output_stride, const Qs8RequantParams* params) {
  const uint8_t* w = static_cast<const uint8_t*>(weights);
  walk_pixels<T>(taps, pixels, input, input_stride, input_offset, zero, output, output_stride,
                 [&](size_t nt, auto in, int8_t* out) {
                   pixel<T>(nt, channels, in, w, out, params);
                 });
}

}  // namespace

extern const Qs8DwconvConfig kQs8DwconvNeonConfig = {
    "neon", kCpuNeon, kTile, Qs8DwconvLayout::S16, dwconv<9>, dwconv<25>, dwconv<0>,
};

}  // namespace ember::kernels::optimized
