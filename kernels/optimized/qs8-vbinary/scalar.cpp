// int8 add and mul in plain C++: the variant every CPU runs, and the model
// the SIMD variants follow (qs8_vbinary.h gives the arithmetic).
#include <cmath>
#include <cstdint>

#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"

namespace ember::kernels::optimized {
namespace {

// round(v) + zero clamped to [min, max] == round(clamp(v, min - zero, max -
// zero)) + zero: the bounds are integers.
int8_t requantize(float v, const Qs8BinaryParams* p) {
  const float lo = static_cast<float>(p->out_min - p->out_zero);
  const float hi = static_cast<float>(p->out_max - p->out_zero);
  v = v < lo ? lo : (v > hi ? hi : v);
  return static_cast<int8_t>(static_cast<int32_t>(std::nearbyint(v)) + p->out_zero);
}

float apply(Qs8BinaryOp op, int32_t a, int32_t b, const Qs8BinaryParams* p) {
  if (op == Qs8BinaryOp::Add) {
    return std::fma(static_cast<float>(a - p->a_zero), p->a_mult,
                    static_cast<float>(b - p->b_zero) * p->b_mult);
  }
  return static_cast<float>((a - p->a_zero) * (b - p->b_zero)) * p->a_mult;
}

template <Qs8BinaryOp Op>
void vv(size_t n, const int8_t* a, const int8_t* b, int8_t* y, const Qs8BinaryParams* p) {
  for (size_t i = 0; i < n; ++i) y[i] = requantize(apply(Op, a[i], b[i], p), p);
}

template <Qs8BinaryOp Op>
void vs(size_t n, const int8_t* a, int8_t b, int8_t* y, const Qs8BinaryParams* p) {
  for (size_t i = 0; i < n; ++i) y[i] = requantize(apply(Op, a[i], b, p), p);
}

}  // namespace

extern const Qs8VBinaryConfig kQs8VBinaryScalarConfig = {
    "scalar", 0, {vv<Qs8BinaryOp::Add>, vv<Qs8BinaryOp::Mul>},
    {vs<Qs8BinaryOp::Add>, vs<Qs8BinaryOp::Mul>},
};

}  // namespace ember::kernels::optimized
