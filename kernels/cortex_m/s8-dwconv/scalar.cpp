// Depthwise convolution, scalar: the reference for the other variants.
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void depthwise_conv2d_s8_scalar(const ConvShape& s, const int8_t* input, const int8_t* weight,
                                const int32_t* bias, const Requant& q, int8_t* output) {
  const int32_t zero = s.input_zero_point;
  for (int32_t n = 0; n < s.batches; ++n) {
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        int8_t* out = output + ((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * s.out_c;
        for (int32_t c = 0; c < s.out_c; ++c) {
          const int32_t ci = c / s.depth_multiplier;
          int32_t acc = bias != nullptr ? bias[c] : 0;
          for (int32_t ky = 0; ky < s.kernel_h; ++ky) {
            const int32_t iy = oy * s.stride_h - s.pad_h + ky * s.dilation_h;
            for (int32_t kx = 0; kx < s.kernel_w; ++kx) {
              const int32_t ix = ox * s.stride_w - s.pad_w + kx * s.dilation_w;
              const int32_t w = weight[(ky * s.kernel_w + kx) * s.out_c + c];
              const bool inside = iy >= 0 && iy < s.in_h && ix >= 0 && ix < s.in_w;
              const int32_t x =
                  inside ? input[((static_cast<size_t>(n) * s.in_h + iy) * s.in_w + ix) * s.in_c + ci]
                         : zero;
              acc += x * w;
            }
          }
          out[c] = requantize_s8(acc, q.multiplier[c], q.shift[c], q.output_zero_point,
                                 q.activation_min, q.activation_max);
        }
      }
    }
  }
}

}  // namespace ember::cortex_m
