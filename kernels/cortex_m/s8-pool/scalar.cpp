// Average and max pooling, scalar: the reference for the other variants.
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/s8-pool/pool.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void avg_pool2d_s8_scalar(const PoolShape& s, const int8_t* input, int8_t* output) {
  for (int32_t n = 0; n < s.batches; ++n) {
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        const PoolWindow w = pool_window(s, oy, ox);
        const int32_t pads = w.count - (w.y1 - w.y0) * (w.x1 - w.x0);
        int8_t* out = output + ((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * s.channels;
        for (int32_t c = 0; c < s.channels; ++c) {
          int32_t sum = pads * s.zero_point;
          for (int32_t y = w.y0; y < w.y1; ++y) {
            for (int32_t x = w.x0; x < w.x1; ++x) {
              sum += input[((static_cast<size_t>(n) * s.in_h + y) * s.in_w + x) * s.channels + c];
            }
          }
          out[c] = clamp_s8(rounded_average(sum, w.count), s.activation_min, s.activation_max);
        }
      }
    }
  }
}

void max_pool2d_s8_scalar(const PoolShape& s, const int8_t* input, int8_t* output) {
  for (int32_t n = 0; n < s.batches; ++n) {
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        const PoolWindow w = pool_window(s, oy, ox);
        int8_t* out = output + ((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * s.channels;
        for (int32_t c = 0; c < s.channels; ++c) {
          int32_t best = -128;
          for (int32_t y = w.y0; y < w.y1; ++y) {
            for (int32_t x = w.x0; x < w.x1; ++x) {
              const int32_t v =
                  input[((static_cast<size_t>(n) * s.in_h + y) * s.in_w + x) * s.channels + c];
              best = v > best ? v : best;
            }
          }
          out[c] = clamp_s8(best, s.activation_min, s.activation_max);
        }
      }
    }
  }
}

}  // namespace ember::cortex_m
