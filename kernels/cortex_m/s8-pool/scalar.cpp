// Average and max pooling, scalar: the reference for the other variants.
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/s8-pool/pool.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void avg_pool2d_s8_scalar(const PoolShape& s, const int8_t* input, int8_t* output) {
  for_each_window(s, input, output, [&](const PoolWindow& w, const int8_t* image, int8_t* out) {
    const int32_t pads = w.count - (w.y1 - w.y0) * (w.x1 - w.x0);
    for (int32_t c = 0; c < s.channels; ++c) {
      int32_t sum = pads * s.zero_point;
      for (int32_t y = w.y0; y < w.y1; ++y) {
        for (int32_t x = w.x0; x < w.x1; ++x) sum += *at(s, image, y, x, c);
      }
      out[c] = clamp_s8(rounded_average(sum, w.count), s.activation_min, s.activation_max);
    }
  });
}

void max_pool2d_s8_scalar(const PoolShape& s, const int8_t* input, int8_t* output) {
  for_each_window(s, input, output, [&](const PoolWindow& w, const int8_t* image, int8_t* out) {
    for (int32_t c = 0; c < s.channels; ++c) {
      out[c] = clamp_s8(window_max(s, image, w, c), s.activation_min, s.activation_max);
    }
  });
}

}  // namespace ember::cortex_m
