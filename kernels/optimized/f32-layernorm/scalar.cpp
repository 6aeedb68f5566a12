// f32 layer-norm microkernels in portable C++ (no ISA flags): the vector
// variants' two-pass algorithm with four partial sums, one float at a time.
#include <cmath>

#include "kernels/optimized/f32-layernorm/f32_layernorm.h"

namespace ember::kernels::optimized {
namespace {

void layernorm(size_t n, const float* x, const float* w, const float* b, float eps, float* y) {
  float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (size_t i = 0; i < n; ++i) s[i % 4] += x[i];
  const float inv_n = 1.0f / static_cast<float>(n);
  const float mean0 = ((s[0] + s[1]) + (s[2] + s[3])) * inv_n;
  // Deviations from the first mean, summed too: they correct it (see avx2.cpp).
  float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  float q[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (size_t i = 0; i < n; ++i) {
    const float d = x[i] - mean0;
    t[i % 4] += d;
    q[i % 4] += d * d;
  }
  const float d_sum = (t[0] + t[1]) + (t[2] + t[3]);
  const float mean = mean0 + d_sum * inv_n;
  const float var = (((q[0] + q[1]) + (q[2] + q[3])) - d_sum * d_sum * inv_n) * inv_n;
  const float rstd = 1.0f / std::sqrt((var > 0.0f ? var : 0.0f) + eps);
  for (size_t i = 0; i < n; ++i) {
    float v = (x[i] - mean) * rstd;
    if (w != nullptr) v *= w[i];
    if (b != nullptr) v += b[i];
    y[i] = v;
  }
}

void rmsnorm(size_t n, const float* x, const float* w, float eps, float* y) {
  float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (size_t i = 0; i < n; ++i) s[i % 4] += x[i] * x[i];
  const float ms = ((s[0] + s[1]) + (s[2] + s[3])) / static_cast<float>(n);
  const float rstd = 1.0f / std::sqrt(ms + eps);
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i] * rstd;
    y[i] = w != nullptr ? v * w[i] : v;
  }
}

}  // namespace

extern const F32LayerNormConfig kF32LayerNormScalarConfig = {"scalar", 0, layernorm, rmsnorm};

}  // namespace ember::kernels::optimized
