// Depthwise convolution with Helium: four channels per vector of int32
// lanes (a widening byte load for inputs and weights, VMLA), requantized
// lane by lane with VQRDMULH / VRSHL; the channel tail predicated. A depth
// multiplier other than 1 takes the scalar code.
#include "kernels/cortex_m/helium_util.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void depthwise_conv2d_s8_helium(const ConvShape& s, const int8_t* input, const int8_t* weight,
                                const int32_t* bias, const Requant& q, int8_t* output) {
  if (s.depth_multiplier != 1) {
    depthwise_conv2d_s8_scalar(s, input, weight, bias, q, output);
    return;
  }
  const int32_t channels = s.out_c;
  const int32x4_t zero_point = vdupq_n_s32(s.input_zero_point);
  for (int32_t n = 0; n < s.batches; ++n) {
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        int8_t* out = output + ((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * channels;
        for (int32_t c = 0; c < channels; c += 4) {
          const mve_pred16_t p = vctp32q(static_cast<uint32_t>(channels - c));
          int32x4_t acc = bias != nullptr ? vldrwq_z_s32(bias + c, p) : vdupq_n_s32(0);
          for (int32_t ky = 0; ky < s.kernel_h; ++ky) {
            const int32_t iy = oy * s.stride_h - s.pad_h + ky * s.dilation_h;
            const bool row_inside = iy >= 0 && iy < s.in_h;
            const int8_t* in_row = input + (static_cast<size_t>(n) * s.in_h + iy) * s.in_w * s.in_c;
            const int8_t* w_row = weight + ky * s.kernel_w * channels + c;
            for (int32_t kx = 0; kx < s.kernel_w; ++kx) {
              const int32_t ix = ox * s.stride_w - s.pad_w + kx * s.dilation_w;
              const int32x4_t x = row_inside && ix >= 0 && ix < s.in_w
                                      ? vldrbq_z_s32(in_row + static_cast<size_t>(ix) * s.in_c + c, p)
                                      : zero_point;
              acc = vaddq_s32(acc, vmulq_s32(x, vldrbq_z_s32(w_row + kx * channels, p)));
            }
          }
          const int32x4_t result = helium::requantize_s8(
              acc, vldrwq_z_s32(q.multiplier + c, p), vldrwq_z_s32(q.shift + c, p),
              q.output_zero_point, q.activation_min, q.activation_max);
          vstrbq_p_s32(out + c, result, p);
        }
      }
    }
  }
}

}  // namespace ember::cortex_m
