// The f32 unary family's variant table and start-up choice. Compiled without
// ISA flags; only the microkernels it hands out use AVX2 or NEON.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"

namespace ember::kernels::optimized {

// Defined by the variant files CMake compiles for this architecture.
extern const F32VUnaryConfig kF32VUnaryScalarConfig;
#if defined(__x86_64__)
extern const F32VUnaryConfig kF32VUnaryAvx512Config;
extern const F32VUnaryConfig kF32VUnaryAvx2Config;
#endif
#if defined(__aarch64__)
extern const F32VUnaryConfig kF32VUnaryNeonConfig;
#endif
#if defined(__wasm_simd128__)
extern const F32VUnaryConfig kF32VUnaryWasmSimdConfig;
#endif

namespace {

const F32VUnaryConfig* const kVariants[] = {
#if defined(__x86_64__)
    &kF32VUnaryAvx512Config,
    &kF32VUnaryAvx2Config,
#endif
#if defined(__aarch64__)
    &kF32VUnaryNeonConfig,
#endif
#if defined(__wasm_simd128__)
    &kF32VUnaryWasmSimdConfig,
#endif
    &kF32VUnaryScalarConfig,
};
constexpr size_t kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

size_t f32_vunary_num_variants() { return kNumVariants; }

const F32VUnaryConfig& f32_vunary_variant(size_t index) { return *kVariants[index]; }

bool f32_vunary_variant_supported(const F32VUnaryConfig& config) {
  return detect_cpu_features().has(config.required_features);
}

const F32VUnaryConfig& f32_vunary_config() {
  static const F32VUnaryConfig* const chosen = [] {
    for (const F32VUnaryConfig* cfg : kVariants) {
      if (cpu_features().has(cfg->required_features)) return cfg;
    }
    return &kF32VUnaryScalarConfig;
  }();
  return *chosen;
}

const char* f32_unary_op_name(F32UnaryOp op) {
  switch (op) {
    case F32UnaryOp::Clamp: return "clamp";
    case F32UnaryOp::Exp: return "exp";
    case F32UnaryOp::Sigmoid: return "sigmoid";
    case F32UnaryOp::Tanh: return "tanh";
    case F32UnaryOp::Gelu: return "gelu";
    case F32UnaryOp::GeluTanh: return "gelu_tanh";
    case F32UnaryOp::Silu: return "silu";
    case F32UnaryOp::HardSwish: return "hardswish";
    case F32UnaryOp::HardSigmoid: return "hardsigmoid";
    case F32UnaryOp::Neg: return "neg";
    case F32UnaryOp::Sqrt: return "sqrt";
    case F32UnaryOp::Rsqrt: return "rsqrt";
    case F32UnaryOp::Abs: return "abs";
  }
  return "?";
}

}  // namespace ember::kernels::optimized
