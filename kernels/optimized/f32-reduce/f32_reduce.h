// The f32 reduction family: sum, mean and max of [outer, size, inner] data
// over its middle dim, y [outer, inner]. inner == 1 reduces contiguous rows
// (rsum, rmax: several vector accumulators, then across lanes); inner > 1
// accumulates whole inner-wide vectors (vadd, vmax), which is how a mean over
// H and W of NHWC data, or a sum over a middle dim, runs. One set of
// microkernels per ISA (scalar.cpp, avx2.cpp, neon.cpp), the variant chosen
// once from the CPU; reduce.cpp drives them.
//
// max propagates NaN (a NaN anywhere gives NaN, as torch.amax).
//
// This header is included by files compiled with ISA flags, so it must
// define no inline function (see f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::kernels::optimized {

enum class F32ReduceOp : uint8_t { Sum = 0, Mean, Max };

// The sum (or max) of x[0..n), n > 0.
using F32RSumUkernelFn = float (*)(size_t n, const float* x);
using F32RMaxUkernelFn = float (*)(size_t n, const float* x);
// acc[i] += x[i] (or acc[i] = max(acc[i], x[i]), NaN winning) for i < n.
using F32VAccUkernelFn = void (*)(size_t n, const float* x, float* acc);

// acc[j] += x[r * stride + j] (or the NaN-winning max) for r < rows and
// j < n: a block of rows folded into one row of accumulators held in
// registers across the rows (a mean over H and W of NHWC data, whose rows
// are pixels a few channels wide).
using F32CAccUkernelFn = void (*)(size_t rows, size_t n, const float* x, size_t stride,
                                  float* acc);

struct F32ReduceConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32RSumUkernelFn rsum;
  F32RMaxUkernelFn rmax;
  F32VAccUkernelFn vadd_acc;
  F32VAccUkernelFn vmax_acc;
  // Null in a variant without them: the driver then folds row by row.
  F32CAccUkernelFn cadd_acc = nullptr;
  F32CAccUkernelFn cmax_acc = nullptr;
};

size_t f32_reduce_num_variants();
const F32ReduceConfig& f32_reduce_variant(size_t index);
bool f32_reduce_variant_supported(const F32ReduceConfig& config);
const F32ReduceConfig& f32_reduce_config();

// y[o, j] = op over k < size of x[o, k, j], for the outputs [begin, end) of
// outer * inner in y's order (threads take equal shares of them; when
// inner > 1, a range is cut into whole-vector runs per o). size == 0 gives
// the op's identity: 0 for sum, NaN for mean (0 / 0), -inf for max.
// x and y must not overlap. Allocates nothing.
void f32_reduce(const F32ReduceConfig& config, F32ReduceOp op, size_t size, size_t inner,
                const float* x, float* y, size_t begin, size_t end);

}  // namespace ember::kernels::optimized
