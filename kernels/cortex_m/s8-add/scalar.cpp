// Elementwise add, scalar (TFLite's int8 add): the reference for Helium.
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void add_s8_scalar(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                   int32_t count) {
  for (int32_t i = 0; i < count; ++i) {
    const int32_t sa = requantize((a[i] - p.a_zero_point) * (1 << p.left_shift), p.a_multiplier,
                                  p.a_shift);
    const int32_t sb = requantize((b[i] - p.b_zero_point) * (1 << p.left_shift), p.b_multiplier,
                                  p.b_shift);
    out[i] = requantize_s8(sa + sb, p.output_multiplier, p.output_shift, p.output_zero_point,
                           p.activation_min, p.activation_max);
  }
}

}  // namespace ember::cortex_m
