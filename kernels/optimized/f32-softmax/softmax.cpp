// The f32 softmax family's variant table, start-up choice and drivers.
// Compiled without ISA flags; only the microkernels use AVX2 or NEON.
#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"

namespace ember::kernels::optimized {

extern const F32SoftmaxConfig kF32SoftmaxScalarConfig;
#if defined(__x86_64__)
extern const F32SoftmaxConfig kF32SoftmaxAvx512Config;
extern const F32SoftmaxConfig kF32SoftmaxAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32SoftmaxConfig kF32SoftmaxNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const F32SoftmaxConfig kF32SoftmaxWasmSimdConfig;
#endif

namespace {

const F32SoftmaxConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32SoftmaxAvx512Config,
    &kF32SoftmaxAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32SoftmaxNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kF32SoftmaxWasmSimdConfig,
#endif
    &kF32SoftmaxScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

size_t f32_softmax_num_variants() { return kNumVariants; }

const F32SoftmaxConfig& f32_softmax_variant(size_t index) { return *kVariants[index]; }

bool f32_softmax_variant_supported(const F32SoftmaxConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32SoftmaxConfig& f32_softmax_config() {
  static const F32SoftmaxConfig* const chosen = [] {
    for (const F32SoftmaxConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32SoftmaxScalarConfig;
  }();
  return *chosen;
}

void f32_softmax_rows(const F32SoftmaxConfig& cfg, size_t n, const float* x, float* y, bool log,
                      size_t row_begin, size_t row_end) {
  if (n == 0) return;
  for (size_t r = row_begin; r < row_end; ++r) {
    const float* xr = x + r * n;
    float* yr = y + r * n;
    const float max = cfg.rmax(n, xr);
    if (log) {
      const float sum = cfg.raddexpminusmax(n, xr, max);
      cfg.vsubsub(n, xr, max, std::log(sum), yr);
    } else {
      // The row is in L1 or L2 by now: storing exp and scaling it after costs
      // less than computing exp twice.
      const float sum = cfg.raddstoreexpminusmax(n, xr, max, yr);
      cfg.vscale(n, yr, 1.0f / sum, yr);
    }
  }
}

void f32_softmax_columns(const F32SoftmaxConfig& cfg, size_t size, size_t inner, const float* x,
                         float* y, bool log, size_t o, size_t j_begin, size_t j_end) {
  if (j_end > j_begin + kF32SoftmaxMaxColumns) j_end = j_begin + kF32SoftmaxMaxColumns;
  if (size == 0 || j_begin >= j_end) return;
  const size_t w = j_end - j_begin;
  alignas(64) float max[kF32SoftmaxMaxColumns];
  alignas(64) float sum[kF32SoftmaxMaxColumns];
  alignas(64) float scratch[kF32SoftmaxMaxColumns];  // log: exp values, only summed
  const float* xb = x + o * size * inner + j_begin;
  float* yb = y + o * size * inner + j_begin;
  for (size_t j = 0; j < w; ++j) {
    max[j] = xb[j];
    sum[j] = 0.0f;
  }
  for (size_t k = 1; k < size; ++k) cfg.vmax_acc(w, xb + k * inner, max);
  if (log) {
    // The sums only: y (which may be x) is written once, in the last pass.
    for (size_t k = 0; k < size; ++k) cfg.vexpminus_acc(w, xb + k * inner, max, scratch, sum);
    for (size_t j = 0; j < w; ++j) sum[j] = std::log(sum[j]);
    for (size_t k = 0; k < size; ++k) cfg.vsubsubv(w, xb + k * inner, max, sum, yb + k * inner);
  } else {
    for (size_t k = 0; k < size; ++k) {
      cfg.vexpminus_acc(w, xb + k * inner, max, yb + k * inner, sum);
    }
    for (size_t j = 0; j < w; ++j) sum[j] = 1.0f / sum[j];
    for (size_t k = 0; k < size; ++k) cfg.vmul(w, yb + k * inner, sum, yb + k * inner);
  }
}

}  // namespace ember::kernels::optimized
