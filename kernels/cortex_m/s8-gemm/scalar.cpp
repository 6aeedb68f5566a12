// GEMM, scalar: one row by one channel, the reference for the other variants.
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {
namespace {

template <typename Store>
void gemm(const GemmArgs& a, Store&& store) {
  for (int32_t r = 0; r < a.num_rows; ++r) {
    const int8_t* x = a.rows[r];
    for (int32_t c = 0; c < a.channels; ++c) {
      const int8_t* w = a.weight + static_cast<size_t>(c) * a.depth;
      int32_t acc = a.bias != nullptr ? a.bias[c] : 0;
      for (int32_t k = 0; k < a.depth; ++k) acc += x[k] * w[k];
      store(r, c, acc);
    }
  }
}

}  // namespace

void gemm_s8_scalar(const GemmArgs& a) {
  const Requant& q = a.requant;
  gemm(a, [&](int32_t r, int32_t c, int32_t acc) {
    a.out[r * a.out_stride + c] = requantize_s8(acc, q.multiplier[c], q.shift[c], q.output_zero_point,
                                                q.activation_min, q.activation_max);
  });
}

void gemm_s8_f32_scalar(const GemmArgs& a, const FloatEpilogue& e) {
  gemm(a, [&](int32_t r, int32_t c, int32_t acc) {
    const float scaled = static_cast<float>(acc) * e.scale[c];
    e.out[r * e.out_stride + c] = e.bias != nullptr ? scaled + e.bias[c] : scaled;
  });
}

}  // namespace ember::cortex_m
