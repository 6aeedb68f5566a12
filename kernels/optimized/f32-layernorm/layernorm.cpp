// The f32 layer-norm family's variant table, start-up choice and row driver.
// Compiled without ISA flags; only the microkernels use AVX2 or NEON.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"

namespace ember::kernels::optimized {

extern const F32LayerNormConfig kF32LayerNormScalarConfig;
#if defined(__x86_64__)
extern const F32LayerNormConfig kF32LayerNormAvx512Config;
extern const F32LayerNormConfig kF32LayerNormAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32LayerNormConfig kF32LayerNormNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const F32LayerNormConfig kF32LayerNormWasmSimdConfig;
#endif

namespace {

const F32LayerNormConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32LayerNormAvx512Config,
    &kF32LayerNormAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32LayerNormNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kF32LayerNormWasmSimdConfig,
#endif
    &kF32LayerNormScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

size_t f32_layernorm_num_variants() { return kNumVariants; }

const F32LayerNormConfig& f32_layernorm_variant(size_t index) { return *kVariants[index]; }

bool f32_layernorm_variant_supported(const F32LayerNormConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32LayerNormConfig& f32_layernorm_config() {
  static const F32LayerNormConfig* const chosen = [] {
    for (const F32LayerNormConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32LayerNormScalarConfig;
  }();
  return *chosen;
}

void f32_layernorm_rows(const F32LayerNormConfig& cfg, size_t n, const float* x, const float* w,
                        const float* b, float eps, bool rms, float* y, size_t row_begin,
                        size_t row_end) {
  if (n == 0) return;
  for (size_t r = row_begin; r < row_end; ++r) {
    if (rms) {
      cfg.rmsnorm(n, x + r * n, w, eps, y + r * n);
    } else {
      cfg.layernorm(n, x + r * n, w, b, eps, y + r * n);
    }
  }
}

}  // namespace ember::kernels::optimized
