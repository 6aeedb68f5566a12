// int8 depthwise convolution in plain C++ (4-channel tiles, int8 taps): the
// variant every CPU runs. Sums wrap modulo 2^32 (unsigned arithmetic), as the
// SIMD adds do.
#include <cstdint>

#include "kernels/optimized/qs8-dwconv/pixels_body.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kTile = 4;

// T: the tap count, or 0 when it is known at run time only.
template <size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const int8_t* const* input,
            size_t input_stride, size_t input_offset, const int8_t* zero, const void* weights,
            int8_t* output, size_t output_stride, const Qs8RequantParams* params) {
  walk_pixels<T>(taps, pixels, input, input_stride, input_offset, zero, output, output_stride,
                 [&](size_t nt, auto in, int8_t* out) {
    const size_t tile_bytes = 2 * kTile * sizeof(int32_t) + nt * kTile;
    const uint8_t* w = static_cast<const uint8_t*>(weights);
    for (size_t c = 0; c < channels; c += kTile, w += tile_bytes) {
      const int32_t* head = reinterpret_cast<const int32_t*>(w);
      const int8_t* taps_w = reinterpret_cast<const int8_t*>(w + kTile * sizeof(int32_t));
      const float* scale = reinterpret_cast<const float*>(taps_w + nt * kTile);
      const size_t n = channels - c < kTile ? channels - c : kTile;
      uint32_t acc[kTile];
      for (size_t j = 0; j < kTile; ++j) acc[j] = static_cast<uint32_t>(head[j]);
      for (size_t t = 0; t < nt; ++t) {
        const int8_t* tap = in(t) + c;
        for (size_t j = 0; j < n; ++j) {
          acc[j] += static_cast<uint32_t>(tap[j] * taps_w[t * kTile + j]);
        }
      }
      for (size_t j = 0; j < n; ++j) {
        out[c + j] = qs8_requantize(static_cast<int32_t>(acc[j]), scale[j], *params);
      }
    }
  });
}

}  // namespace

extern const Qs8DwconvConfig kQs8DwconvScalarConfig = {
    "scalar", 0, kTile, Qs8DwconvLayout::S8, dwconv<9>, dwconv<25>, dwconv<0>,
};

}  // namespace ember::kernels::optimized
