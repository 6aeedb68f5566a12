// The f32 softmax family: softmax and log-softmax along contiguous rows
// (max, exp-sum, scale: XNNPACK's rmax / raddstoreexpminusmax / vmulc) and
// along a middle dim of [outer, size, inner] data, where each step works on
// inner-wide vectors instead. One set of microkernels per ISA (scalar.cpp,
// avx2.cpp, neon.cpp), the variant chosen once from the CPU; softmax.cpp
// drives them.
//
// exp(x - max) uses the f32-vunary exp (f32_vmath_constants.h) and flushes
// results under 2^-126 to 0. A row holding NaN, +inf, or only -inf comes out
// all NaN, as PyTorch's does.
//
// This header is included by files compiled with ISA flags, so it must
// define no inline function (see f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::kernels::optimized {

// --- row microkernels (n > 0) ---

// max of x[0..n); which of several NaNs or a NaN and a number wins is left
// open (the exp-sum carries any NaN into the whole row).
using F32RMaxUkernelFn = float (*)(size_t n, const float* x);
// y[i] = exp(x[i] - max); returns the sum of the y[i]. y may be x.
using F32RAddStoreExpMinusMaxUkernelFn = float (*)(size_t n, const float* x, float max, float* y);
// The sum of exp(x[i] - max), nothing stored (log-softmax).
using F32RAddExpMinusMaxUkernelFn = float (*)(size_t n, const float* x, float max);
// y[i] = x[i] * s. y may be x.
using F32VScaleUkernelFn = void (*)(size_t n, const float* x, float s, float* y);
// y[i] = (x[i] - a) - b: log-softmax's output, (x - max) - log(sum), in
// that order so that a large max does not swallow the small log term.
using F32VSubSubUkernelFn = void (*)(size_t n, const float* x, float a, float b, float* y);

// --- column microkernels: element-wise over vectors of n (n > 0) ---

// m[i] = max(m[i], x[i]) (NaN as in rmax).
using F32VMaxAccUkernelFn = void (*)(size_t n, const float* x, float* m);
// y[i] = exp(x[i] - m[i]); s[i] += y[i]. y may be x.
using F32VExpMinusAccUkernelFn = void (*)(size_t n, const float* x, const float* m, float* y,
                                          float* s);
// y[i] = x[i] * r[i]. y may be x.
using F32VMulUkernelFn = void (*)(size_t n, const float* x, const float* r, float* y);
// y[i] = (x[i] - a[i]) - b[i]. y may be x.
using F32VSubSubVUkernelFn = void (*)(size_t n, const float* x, const float* a, const float* b,
                                      float* y);

struct F32SoftmaxConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32RMaxUkernelFn rmax;
  F32RAddStoreExpMinusMaxUkernelFn raddstoreexpminusmax;
  F32RAddExpMinusMaxUkernelFn raddexpminusmax;
  F32VScaleUkernelFn vscale;
  F32VSubSubUkernelFn vsubsub;
  F32VMaxAccUkernelFn vmax_acc;
  F32VExpMinusAccUkernelFn vexpminus_acc;
  F32VMulUkernelFn vmul;
  F32VSubSubVUkernelFn vsubsubv;
};

size_t f32_softmax_num_variants();
const F32SoftmaxConfig& f32_softmax_variant(size_t index);
bool f32_softmax_variant_supported(const F32SoftmaxConfig& config);
const F32SoftmaxConfig& f32_softmax_config();

// Softmax (log_softmax when `log`) of rows [row_begin, row_end) of n
// contiguous floats each. y may be x. Allocates nothing.
void f32_softmax_rows(const F32SoftmaxConfig& config, size_t n, const float* x, float* y,
                      bool log, size_t row_begin, size_t row_end);

// The widest slice of `inner` that f32_softmax_columns handles per call: its
// per-column vectors live on the stack (12 KiB).
constexpr size_t kF32SoftmaxMaxColumns = 1024;

// Softmax along the middle dim of a contiguous [outer, size, inner] tensor
// (size > 0), for block `o` < outer and columns [j_begin, j_end) of inner,
// at most kF32SoftmaxMaxColumns of them. y may be x. Allocates nothing.
void f32_softmax_columns(const F32SoftmaxConfig& config, size_t size, size_t inner,
                         const float* x, float* y, bool log, size_t o, size_t j_begin,
                         size_t j_end);

}  // namespace ember::kernels::optimized
