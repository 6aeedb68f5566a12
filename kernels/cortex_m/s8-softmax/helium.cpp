// Softmax with Helium: the row's maximum 16 lanes at a time (VMAXV); the
// table lookups and the division are the scalar code's.
#include "kernels/cortex_m/helium_util.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void softmax_row_from_max(const int8_t* x, int32_t length, int32_t max, const int32_t* table,
                          int32_t inv_scale_q16, int32_t zero_point, int8_t* out);

void softmax_s8_helium(const int8_t* input, int32_t rows, int32_t length, const int32_t* table,
                       int32_t inv_scale_q16, int32_t zero_point, int8_t* output) {
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* x = input + static_cast<size_t>(r) * length;
    int8_t max = -128;
    for (int32_t i = 0; i < length; i += 16) {
      const mve_pred16_t p = vctp8q(static_cast<uint32_t>(length - i));
      max = vmaxvq_p_s8(max, vldrbq_z_s8(x + i, p), p);
    }
    softmax_row_from_max(x, length, max, table, inv_scale_q16, zero_point,
                         output + static_cast<size_t>(r) * length);
  }
}

}  // namespace ember::cortex_m
