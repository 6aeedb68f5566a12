// A fused activation for the convolution and GEMM drivers: a function the
// driver applies in place to each run of output floats it has just finished,
// while they are still in cache, instead of a separate pass over the output.
//
// Included by files compiled with ISA flags: defines no function (see
// f32-gemm/f32_gemm.h).
#pragma once

#include <cstddef>

namespace ember::kernels::optimized {

struct F32RowActivation {
  // data[i] = f(data[i]) for i < n; null: no activation.
  void (*fn)(size_t n, float* data, const void* params) = nullptr;
  const void* params = nullptr;
  // Memory fn reads at the output's offsets (a residual: it reads
  // read_ahead[x - origin] for output float x), or null. A driver may fetch
  // the part its next tile will read while the current one computes: a
  // residual comes from memory, and the add would otherwise wait on it.
  const float* read_ahead = nullptr;
  const float* origin = nullptr;
};

}  // namespace ember::kernels::optimized
