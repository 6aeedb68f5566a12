// f32 binary microkernels in portable C++ (no ISA flags): the fallback on
// CPUs without AVX2 or NEON. Plain loops, which the compiler may vectorize
// for the baseline ISA (SSE2 on x86-64).
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"

namespace ember::kernels::optimized {
namespace {

template <F32BinaryOp Op>
inline float apply(float a, float b) {
  if constexpr (Op == F32BinaryOp::Add) return a + b;
  if constexpr (Op == F32BinaryOp::Sub) return a - b;
  if constexpr (Op == F32BinaryOp::Mul) return a * b;
  if constexpr (Op == F32BinaryOp::Div) return a / b;
  if constexpr (Op == F32BinaryOp::RSub) return b - a;
  if constexpr (Op == F32BinaryOp::RDiv) return b / a;
  // NaN from either operand (a + b is NaN then), as torch.maximum/minimum.
  if constexpr (Op == F32BinaryOp::Max) return a != a || b != b ? a + b : (a > b ? a : b);
  if constexpr (Op == F32BinaryOp::Min) return a != a || b != b ? a + b : (a < b ? a : b);
}

// NaN passes, as in torch.clamp.
inline float clamp(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

template <F32BinaryOp Op>
void vv(size_t n, const float* a, const float* b, float* y, const F32VBinaryParams* p) {
  const float lo = p->min, hi = p->max;
  for (size_t i = 0; i < n; ++i) y[i] = clamp(apply<Op>(a[i], b[i]), lo, hi);
}

template <F32BinaryOp Op>
void vs(size_t n, const float* a, float b, float* y, const F32VBinaryParams* p) {
  const float lo = p->min, hi = p->max;
  for (size_t i = 0; i < n; ++i) y[i] = clamp(apply<Op>(a[i], b), lo, hi);
}

template <F32BinaryOp Op>
void rows(size_t rows, size_t c, const float* a, const float* b, float* y,
          const F32VBinaryParams* p) {
  for (size_t r = 0; r < rows; ++r) vv<Op>(c, a + r * c, b, y + r * c, p);
}

}  // namespace

extern const F32VBinaryConfig kF32VBinaryScalarConfig = {
    "scalar",
    0,
    EMBER_F32_VBINARY_OPS(vv),
    EMBER_F32_VBINARY_OPS(vs),
    EMBER_F32_VBINARY_OPS(rows),
};

}  // namespace ember::kernels::optimized
