// f32 softmax microkernels in portable C++ (no ISA flags): the AVX2 and NEON
// algorithms one float at a time, with separate multiplies and adds, and
// without branches so that the compiler can vectorize them for the baseline
// ISA. The exp is f32-vunary's scalar exp for x <= 0.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"

namespace ember::kernels::optimized {
namespace {

namespace vm = vmath;

float exp_nonpositive(float z) {
  float n = z * vm::kLog2e + vm::kRoundMagicBiased;
  uint32_t bits;
  std::memcpy(&bits, &n, sizeof(bits));
  bits <<= 23;
  float s;
  std::memcpy(&s, &bits, sizeof(s));
  n -= vm::kRoundMagicBiased;
  const float t = (z - n * vm::kLn2Hi) - n * vm::kLn2Lo;
  float p = vm::kExpC6 * t + vm::kExpC5;
  p = p * t + vm::kExpC4;
  p = p * t + vm::kExpC3;
  p = p * t + vm::kExpC2;
  p = p * t + vm::kExpC1;
  const float e = (t * s) * p + s;
  return z < vm::kExpDenormCutoff ? 0.0f : e;
}

float rmax(size_t n, const float* x) {
  float m = -INFINITY;
  for (size_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

float raddstoreexpminusmax(size_t n, const float* x, float max, float* y) {
  // Four partial sums, as the vector variants keep several.
  float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (size_t i = 0; i < n; ++i) {
    const float e = exp_nonpositive(x[i] - max);
    y[i] = e;
    s[i % 4] += e;
  }
  return (s[0] + s[1]) + (s[2] + s[3]);
}

float raddexpminusmax(size_t n, const float* x, float max) {
  float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (size_t i = 0; i < n; ++i) s[i % 4] += exp_nonpositive(x[i] - max);
  return (s[0] + s[1]) + (s[2] + s[3]);
}

void vscale(size_t n, const float* x, float s, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] * s;
}

void vsubsub(size_t n, const float* x, float a, float b, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = (x[i] - a) - b;
}

void vmax_acc(size_t n, const float* x, float* m) {
  for (size_t i = 0; i < n; ++i) m[i] = x[i] > m[i] ? x[i] : m[i];
}

void vexpminus_acc(size_t n, const float* x, const float* m, float* y, float* s) {
  for (size_t i = 0; i < n; ++i) {
    const float e = exp_nonpositive(x[i] - m[i]);
    y[i] = e;
    s[i] += e;
  }
}

void vmul(size_t n, const float* x, const float* r, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] * r[i];
}

void vsubsubv(size_t n, const float* x, const float* a, const float* b, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = (x[i] - a[i]) - b[i];
}

}  // namespace

extern const F32SoftmaxConfig kF32SoftmaxScalarConfig = {
    "scalar", 0, rmax, raddstoreexpminusmax, raddexpminusmax, vscale,
    vsubsub, vmax_acc, vexpminus_acc, vmul, vsubsubv,
};

}  // namespace ember::kernels::optimized
