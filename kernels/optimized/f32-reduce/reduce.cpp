// The f32 reduction family's variant table, start-up choice and driver.
// Compiled without ISA flags; only the microkernels use AVX2 or NEON.
#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"

namespace ember::kernels::optimized {

extern const F32ReduceConfig kF32ReduceScalarConfig;
#if defined(__x86_64__)
extern const F32ReduceConfig kF32ReduceAvx512Config;
extern const F32ReduceConfig kF32ReduceAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32ReduceConfig kF32ReduceNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const F32ReduceConfig kF32ReduceWasmSimdConfig;
#endif

namespace {

const F32ReduceConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32ReduceAvx512Config,
    &kF32ReduceAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32ReduceNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kF32ReduceWasmSimdConfig,
#endif
    &kF32ReduceScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

size_t min_of(size_t a, size_t b) { return a < b ? a : b; }

constexpr size_t kMaxRun = 2048;  // floats: 8 KiB of accumulators
constexpr size_t kRowBlock = 64;  // rows per column-kernel call

}  // namespace

size_t f32_reduce_num_variants() { return kNumVariants; }

const F32ReduceConfig& f32_reduce_variant(size_t index) { return *kVariants[index]; }

bool f32_reduce_variant_supported(const F32ReduceConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32ReduceConfig& f32_reduce_config() {
  static const F32ReduceConfig* const chosen = [] {
    for (const F32ReduceConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32ReduceScalarConfig;
  }();
  return *chosen;
}

void f32_reduce(const F32ReduceConfig& cfg, F32ReduceOp op, size_t size, size_t inner,
                const float* x, float* y, size_t begin, size_t end) {
  if (inner == 0 || begin >= end) return;
  if (size == 0) {
    const float identity =
        op == F32ReduceOp::Sum ? 0.0f : (op == F32ReduceOp::Mean ? NAN : -INFINITY);
    for (size_t i = begin; i < end; ++i) y[i] = identity;
    return;
  }
  const float scale = op == F32ReduceOp::Mean ? 1.0f / static_cast<float>(size) : 1.0f;
  if (inner == 1) {
    for (size_t o = begin; o < end; ++o) {
      const float* row = x + o * size;
      y[o] = op == F32ReduceOp::Max ? cfg.rmax(size, row) : cfg.rsum(size, row) * scale;
    }
    return;
  }
  const F32VAccUkernelFn acc = op == F32ReduceOp::Max ? cfg.vmax_acc : cfg.vadd_acc;
  const F32CAccUkernelFn cacc = op == F32ReduceOp::Max ? cfg.cmax_acc : cfg.cadd_acc;
  size_t i = begin;
  while (i < end) {
    const size_t o = i / inner;
    const size_t j = i % inner;
    // At most kMaxRun columns at a time, so that the accumulators stay in
    // L1 while every row of the block folds into them.
    const size_t w = min_of(min_of(inner - j, end - i), kMaxRun);
    const float* xo = x + o * size * inner + j;
    float* yo = y + i;
    // Row 0 initialises the accumulators in y; the others fold in.
    for (size_t t = 0; t < w; ++t) yo[t] = xo[t];
    if (cacc != nullptr) {
      // Blocks of rows, so that the block stays in L1 while the kernel
      // passes over it once per chunk of columns it holds in registers.
      for (size_t k = 1; k < size; k += kRowBlock) {
        cacc(min_of(kRowBlock, size - k), w, xo + k * inner, inner, yo);
      }
    } else {
      for (size_t k = 1; k < size; ++k) acc(w, xo + k * inner, yo);
    }
    if (scale != 1.0f) {
      for (size_t t = 0; t < w; ++t) yo[t] *= scale;
    }
    i += w;
  }
}

}  // namespace ember::kernels::optimized
