// int8 requantization and the float conversions, scalar: the reference for
// Helium. quantize and dequantize compute what the portable
// quantize_per_tensor / dequantize_per_tensor compute, in float32.
#include <cmath>

#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void requantize_s8_scalar(const int8_t* input, int32_t count, int32_t input_zero_point,
                          int32_t multiplier, int32_t shift, int32_t output_zero_point,
                          int8_t* output) {
  for (int32_t i = 0; i < count; ++i) {
    output[i] = requantize_s8(input[i] - input_zero_point, multiplier, shift, output_zero_point,
                              -128, 127);
  }
}

void quantize_f32_s8_scalar(const float* input, int32_t count, float inv_scale, int32_t zero_point,
                            int32_t qmin, int32_t qmax, int8_t* output) {
  const float zp = static_cast<float>(zero_point);
  const float low = static_cast<float>(qmin), high = static_cast<float>(qmax);
  for (int32_t i = 0; i < count; ++i) {
    float v = std::nearbyint(input[i] * inv_scale) + zp;
    if (std::isnan(v)) {
      output[i] = static_cast<int8_t>(zero_point);
      continue;
    }
    v = v < low ? low : v > high ? high : v;
    output[i] = static_cast<int8_t>(v);
  }
}

void dequantize_s8_f32_scalar(const int8_t* input, int32_t count, float scale, int32_t zero_point,
                              float* output) {
  const float zp = static_cast<float>(zero_point);
  for (int32_t i = 0; i < count; ++i) output[i] = (static_cast<float>(input[i]) - zp) * scale;
}

}  // namespace ember::cortex_m
