// Depthwise convolution with the DSP extension: four channels at a time,
// SXTB16 splitting each word of inputs and weights into int16 pairs and
// SMLABB / SMLATT accumulating each channel on its own. A depth multiplier
// other than 1 (channels no longer line up with the input's) takes the
// scalar code.
#include "kernels/cortex_m/dsp_util.h"
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void depthwise_conv2d_s8_dsp(const ConvShape& s, const int8_t* input, const int8_t* weight,
                             const int32_t* bias, const Requant& q, int8_t* output) {
  if (s.depth_multiplier != 1) {
    depthwise_conv2d_s8_scalar(s, input, weight, bias, q, output);
    return;
  }
  const uint32_t zero_byte = static_cast<uint8_t>(s.input_zero_point);
  const int32_t zero_word = static_cast<int32_t>(zero_byte * 0x01010101u);
  const int32_t channels = s.out_c;
  const int32_t blocked = channels & ~3;
  for (int32_t n = 0; n < s.batches; ++n) {
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        int8_t* out = output + ((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * channels;
        for (int32_t c = 0; c < blocked; c += 4) {
          int32_t acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
          if (bias != nullptr) {
            acc0 = bias[c];
            acc1 = bias[c + 1];
            acc2 = bias[c + 2];
            acc3 = bias[c + 3];
          }
          for (int32_t ky = 0; ky < s.kernel_h; ++ky) {
            const int32_t iy = oy * s.stride_h - s.pad_h + ky * s.dilation_h;
            const bool row_inside = iy >= 0 && iy < s.in_h;
            const int8_t* in_row = input + (static_cast<size_t>(n) * s.in_h + iy) * s.in_w * s.in_c;
            const int8_t* w_row = weight + ky * s.kernel_w * channels + c;
            for (int32_t kx = 0; kx < s.kernel_w; ++kx) {
              const int32_t ix = ox * s.stride_w - s.pad_w + kx * s.dilation_w;
              const int32_t x = row_inside && ix >= 0 && ix < s.in_w
                                    ? dsp::read4(in_row + static_cast<size_t>(ix) * s.in_c + c)
                                    : zero_word;
              const dsp::Pairs xp = dsp::split(x);
              const dsp::Pairs wp = dsp::split(dsp::read4(w_row + kx * channels));
              acc0 = __smlabb(xp.even, wp.even, acc0);
              acc2 = __smlatt(xp.even, wp.even, acc2);
              acc1 = __smlabb(xp.odd, wp.odd, acc1);
              acc3 = __smlatt(xp.odd, wp.odd, acc3);
            }
          }
          const int32_t acc[4] = {acc0, acc1, acc2, acc3};
          for (int32_t i = 0; i < 4; ++i) {
            out[c + i] = requantize_s8(acc[i], q.multiplier[c + i], q.shift[c + i],
                                       q.output_zero_point, q.activation_min, q.activation_max);
          }
        }
        for (int32_t c = blocked; c < channels; ++c) {
          int32_t acc = bias != nullptr ? bias[c] : 0;
          for (int32_t ky = 0; ky < s.kernel_h; ++ky) {
            const int32_t iy = oy * s.stride_h - s.pad_h + ky * s.dilation_h;
            for (int32_t kx = 0; kx < s.kernel_w; ++kx) {
              const int32_t ix = ox * s.stride_w - s.pad_w + kx * s.dilation_w;
              const bool inside = iy >= 0 && iy < s.in_h && ix >= 0 && ix < s.in_w;
              const int32_t x =
                  inside ? input[((static_cast<size_t>(n) * s.in_h + iy) * s.in_w + ix) * s.in_c + c]
                         : s.input_zero_point;
              acc += x * weight[(ky * s.kernel_w + kx) * channels + c];
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
