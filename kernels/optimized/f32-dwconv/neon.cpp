// f32 depthwise convolution for AArch64 Advanced SIMD: 8-channel tiles (two
// q-register accumulators), taps unrolled for 3x3 and 5x5, a scalar channel
// tail. Built only for AArch64, where NEON is baseline.
#include <arm_neon.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kTile = 8;

inline const float* translate(const float* p, size_t offset, const float* zero) {
  return p != zero ? reinterpret_cast<const float*>(reinterpret_cast<uintptr_t>(p) + offset)
                   : zero;
}

// vmaxq/vminq would turn NaN into a bound: select keeps v where it is not
// below low (or above high), NaN included.
inline float32x4_t clamp(float32x4_t v, float32x4_t low, float32x4_t high) {
  v = vbslq_f32(vcltq_f32(v, low), low, v);
  return vbslq_f32(vcgtq_f32(v, high), high, v);
}

template <size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const float* w, float* out, float32x4_t low,
                                                 float32x4_t high, float low_s, float high_s) {
  const size_t stride = (nt + 1) * kTile;
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += stride) {
    float32x4_t acc0 = vld1q_f32(w);
    float32x4_t acc1 = vld1q_f32(w + 4);
    for (size_t t = 0; t < nt; ++t) {
      const float* i0 = in(t) + c;
      const float* w0 = w + kTile + t * kTile;
      acc0 = vfmaq_f32(acc0, vld1q_f32(i0), vld1q_f32(w0));
      acc1 = vfmaq_f32(acc1, vld1q_f32(i0 + 4), vld1q_f32(w0 + 4));
    }
    vst1q_f32(out + c, clamp(acc0, low, high));
    vst1q_f32(out + c + 4, clamp(acc1, low, high));
  }
  if (c == channels) return;
  size_t lane = 0;
  if (channels - c >= 4) {
    float32x4_t acc = vld1q_f32(w);
    for (size_t t = 0; t < nt; ++t) {
      acc = vfmaq_f32(acc, vld1q_f32(in(t) + c), vld1q_f32(w + kTile + t * kTile));
    }
    vst1q_f32(out + c, clamp(acc, low, high));
    c += 4;
    lane = 4;
  }
  for (; c < channels; ++c, ++lane) {
    float acc = w[lane];
    for (size_t t = 0; t < nt; ++t) acc += in(t)[c] * w[kTile + t * kTile + lane];
    if (acc < low_s) acc = low_s;
    if (acc > high_s) acc = high_s;
    out[c] = acc;
  }
}

template <size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const float* const* input,
            size_t input_stride, size_t input_offset, const float* zero, const float* weights,
            float* output, size_t output_stride, const F32DwconvParams* params) {
  const float32x4_t low = vdupq_n_f32(params->min);
  const float32x4_t high = vdupq_n_f32(params->max);
  for (size_t x = 0; x < pixels; ++x, input += input_stride, output += output_stride) {
    if constexpr (T != 0) {
      const float* in[T];
      for (size_t t = 0; t < T; ++t) in[t] = translate(input[t], input_offset, zero);
      pixel<T>(T, channels, [&](size_t t) { return in[t]; }, weights, output, low, high,
               params->min, params->max);
    } else {
      pixel<0>(taps, channels,
               [&](size_t t) { return translate(input[t], input_offset, zero); }, weights,
               output, low, high, params->min, params->max);
    }
  }
}

}  // namespace

extern const F32DwconvConfig kF32DwconvNeonConfig = {
    "neon", kCpuNeon, kTile, dwconv<9>, dwconv<25>, dwconv<0>,
};

}  // namespace ember::kernels::optimized
