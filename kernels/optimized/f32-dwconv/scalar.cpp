// f32 depthwise convolution in plain C++ (4-channel tiles): the variant every
// CPU runs, vectorised by the compiler for the baseline ISA where it can.
#include <cstdint>

#include "kernels/optimized/f32-dwconv/f32_dwconv.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kTile = 4;

// T: the tap count, or 0 when it is known at run time only.
template <size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const float* const* input,
            size_t input_stride, size_t input_offset, const float* zero, const float* weights,
            float* output, size_t output_stride, const F32DwconvParams* params) {
  const size_t nt = T != 0 ? T : taps;
  const float low = params->min;
  const float high = params->max;
  for (size_t x = 0; x < pixels; ++x, input += input_stride, output += output_stride) {
    const float* w = weights;
    for (size_t c0 = 0; c0 < channels; c0 += kTile) {
      float acc[kTile];
      for (size_t j = 0; j < kTile; ++j) acc[j] = w[j];
      w += kTile;
      const size_t n = channels - c0 < kTile ? channels - c0 : kTile;
      for (size_t t = 0; t < nt; ++t, w += kTile) {
        const float* in = input[t];
        if (in != zero) {
          in = reinterpret_cast<const float*>(reinterpret_cast<uintptr_t>(in) + input_offset);
        }
        in += c0;
        if (n == kTile) {
          for (size_t j = 0; j < kTile; ++j) acc[j] += in[j] * w[j];
        } else {
          for (size_t j = 0; j < n; ++j) acc[j] += in[j] * w[j];
        }
      }
      for (size_t j = 0; j < n; ++j) {
        float v = acc[j];
        if (v < low) v = low;  // false for NaN, which passes through
        if (v > high) v = high;
        output[c0 + j] = v;
      }
    }
  }
}

}  // namespace

extern const F32DwconvConfig kF32DwconvScalarConfig = {
    "scalar", 0, kTile, dwconv<9>, dwconv<25>, dwconv<0>,
};

}  // namespace ember::kernels::optimized
