// Softmax over int8 rows through the exporter's table of exp(-d * scale),
// scalar: the reference for Helium.
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

// The row's outputs from its maximum: shared with the Helium variant, which
// only finds the maximum faster.
void softmax_row_from_max(const int8_t* x, int32_t length, int32_t max, const int32_t* table,
                          int32_t inv_scale_q16, int32_t zero_point, int8_t* out) {
  uint64_t sum = 0;
  for (int32_t i = 0; i < length; ++i) sum += static_cast<uint32_t>(table[max - x[i]]);
  const uint64_t denominator = sum << 16;
  for (int32_t i = 0; i < length; ++i) {
    const uint64_t numerator =
        static_cast<uint64_t>(static_cast<uint32_t>(table[max - x[i]])) * static_cast<uint32_t>(inv_scale_q16);
    const int64_t q = static_cast<int64_t>((numerator + denominator / 2) / denominator);
    out[i] = clamp_s8(static_cast<int32_t>(q) + zero_point, -128, 127);  // q <= 2^15
  }
}

void softmax_s8_scalar(const int8_t* input, int32_t rows, int32_t length, const int32_t* table,
                       int32_t inv_scale_q16, int32_t zero_point, int8_t* output) {
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* x = input + static_cast<size_t>(r) * length;
    int32_t max = -128;
    for (int32_t i = 0; i < length; ++i) max = x[i] > max ? x[i] : max;
    softmax_row_from_max(x, length, max, table, inv_scale_q16, zero_point,
                         output + static_cast<size_t>(r) * length);
  }
}

}  // namespace ember::cortex_m
