// The f32 layer-norm family: each row of n contiguous floats normalised to
// zero mean and unit variance (layer norm: two passes for the statistics,
// which stay exact when the mean is large against the spread, then one to
// write (x - mean) * rstd * weight + bias) or by its root mean square (RMS
// norm: x * rstd * weight, rstd = 1 / sqrt(mean(x^2) + eps)). One microkernel
// pair per ISA (scalar.cpp, avx2.cpp, neon.cpp), the variant chosen once from
// the CPU. Rows are short enough (hidden sizes) to stay in L1 or L2 between
// the passes.
//
// This header is included by files compiled with ISA flags, so it must
// define no inline function (see f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::kernels::optimized {

// One row of n > 0: y = (x - mean) * rstd * w + b, w and b of n floats each
// or null (1 and 0). y may be x.
using F32LayerNormUkernelFn = void (*)(size_t n, const float* x, const float* w, const float* b,
                                       float eps, float* y);
// One row of n > 0: y = (x * rstd) * w, w of n floats or null. y may be x.
using F32RmsNormUkernelFn = void (*)(size_t n, const float* x, const float* w, float eps,
                                     float* y);

struct F32LayerNormConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32LayerNormUkernelFn layernorm;
  F32RmsNormUkernelFn rmsnorm;
};

size_t f32_layernorm_num_variants();
const F32LayerNormConfig& f32_layernorm_variant(size_t index);
bool f32_layernorm_variant_supported(const F32LayerNormConfig& config);
const F32LayerNormConfig& f32_layernorm_config();

// Rows [row_begin, row_end) of n floats each: layer norm (w, b) or, with
// `rms`, RMS norm (w; b ignored). n == 0 writes nothing. Allocates nothing.
void f32_layernorm_rows(const F32LayerNormConfig& config, size_t n, const float* x,
                        const float* w, const float* b, float eps, bool rms, float* y,
                        size_t row_begin, size_t row_end);

}  // namespace ember::kernels::optimized
