// int8 conversions in plain C++: the variant every CPU runs, and the model
// the SIMD variants follow (clamp before converting, so that no conversion
// sees a value outside int32; NaN fails every comparison and lands on the
// low bound).
#include <cmath>
#include <cstdint>

#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"

namespace ember::kernels::optimized {
namespace {

template <typename T>
T clamp_low_first(T v, T lo, T hi) {
  v = v > lo ? v : lo;  // NaN -> lo
  return v < hi ? v : hi;
}

void quantize(size_t n, const float* x, int8_t* y, const Qs8QuantizeParams* p) {
  // round(v) + zero clamped to [min, max] == round(clamp(v, min - zero, max -
  // zero)) + zero: the bounds are integers.
  const float lo = static_cast<float>(p->min - p->zero);
  const float hi = static_cast<float>(p->max - p->zero);
  for (size_t i = 0; i < n; ++i) {
    const float v = clamp_low_first(x[i] * p->inv_scale, lo, hi);
    y[i] = static_cast<int8_t>(static_cast<int32_t>(std::nearbyint(v)) + p->zero);
  }
}

void quantize_double(size_t n, const float* x, int8_t* y, double inv_scale, int32_t zero,
                     int32_t min, int32_t max) {
  for (size_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(x[i]) * inv_scale + zero;
    y[i] = static_cast<int8_t>(std::nearbyint(clamp_low_first<double>(v, min, max)));
  }
}

void dequantize(size_t n, const int8_t* x, float* y, int32_t zero, float scale) {
  for (size_t i = 0; i < n; ++i) y[i] = static_cast<float>(x[i] - zero) * scale;
}

void minmax(size_t n, const float* x, float* min, float* max) {
  float lo = x[0], hi = x[0];
  for (size_t i = 1; i < n; ++i) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  *min = lo;
  *max = hi;
}

}  // namespace

extern const Qs8VcvtConfig kQs8VcvtScalarConfig = {
    "scalar", 0, quantize, quantize_double, dequantize, minmax,
};

}  // namespace ember::kernels::optimized
