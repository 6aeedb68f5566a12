// f32 reduction microkernels in portable C++ (no ISA flags): four partial
// sums per row, as the vector variants keep several; max lets NaN win.
#include <cmath>

#include "kernels/optimized/f32-reduce/f32_reduce.h"

namespace ember::kernels::optimized {
namespace {

float rsum(size_t n, const float* x) {
  float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (size_t i = 0; i < n; ++i) s[i % 4] += x[i];
  return (s[0] + s[1]) + (s[2] + s[3]);
}

float rmax(size_t n, const float* x) {
  float m = -INFINITY;
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != x[i]) return x[i];
    m = x[i] > m ? x[i] : m;
  }
  return m;
}

void vadd_acc(size_t n, const float* x, float* acc) {
  for (size_t i = 0; i < n; ++i) acc[i] += x[i];
}

void vmax_acc(size_t n, const float* x, float* acc) {
  for (size_t i = 0; i < n; ++i) {
    // A NaN accumulator stays (no comparison is true); a NaN x replaces it.
    if (x[i] > acc[i] || x[i] != x[i]) acc[i] = x[i];
  }
}

void cadd_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  for (size_t r = 0; r < rows; ++r) vadd_acc(n, x + r * stride, acc);
}

void cmax_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  for (size_t r = 0; r < rows; ++r) vmax_acc(n, x + r * stride, acc);
}

}  // namespace

extern const F32ReduceConfig kF32ReduceScalarConfig = {"scalar", 0,        rsum,     rmax,
                                                      vadd_acc, vmax_acc, cadd_acc, cmax_acc};

}  // namespace ember::kernels::optimized
