// The f32 elementwise unary family: y = clamp(f(x), min, max) over n
// contiguous floats, one microkernel per function and ISA (scalar.cpp,
// avx2.cpp, neon.cpp), the variant chosen once from the CPU. The
// transcendental functions are polynomial or rational approximations
// (f32_vmath_constants.h); their measured errors are in the tester
// (tests/cpp/kernels/optimized/f32_vunary_test.cpp).
//
// This header is included by files compiled with ISA flags, so it must
// define no inline function (see f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::kernels::optimized {

enum class F32UnaryOp : uint8_t {
  Clamp = 0,    // f(x) = x: the clamp alone (relu, relu6, hardtanh, clamp)
  Exp,          // exp(x), subnormal results included
  Sigmoid,      // 1 / (1 + exp(-x)); results under 2^-126 flush to 0
  Tanh,
  Gelu,         // x / 2 * (1 + erf(x / sqrt(2)))
  GeluTanh,     // x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))
  Silu,         // x * sigmoid(x)
  HardSwish,    // x * min(max(x + 3, 0), 6) / 6
  HardSigmoid,  // min(max(x + 3, 0), 6) / 6
  Neg,
  Sqrt,
  Rsqrt,        // 1 / sqrt(x), rounded twice as PyTorch's CPU kernel does
  Abs,
};
constexpr size_t kF32UnaryOpCount = 13;

// The clamp fused into every microkernel's output; -inf / +inf for none. A
// NaN result stays NaN, as torch.clamp leaves it.
struct F32VUnaryParams {
  float min;
  float max;
};

// y[i] = clamp(f(x[i])) for i < n. x == y is allowed (in place); otherwise
// they must not overlap.
using F32VUnaryUkernelFn = void (*)(size_t n, const float* x, float* y,
                                    const F32VUnaryParams* params);

struct F32VUnaryConfig {
  const char* name;            // "scalar", "avx2", "neon"
  uint32_t required_features;  // CpuFeature bits (cpu_features.h)
  F32VUnaryUkernelFn ukernel[kF32UnaryOpCount];  // indexed by F32UnaryOp
};

// The variants compiled for this architecture, best first, supported by the
// CPU or not (tests run every supported one).
size_t f32_vunary_num_variants();
const F32VUnaryConfig& f32_vunary_variant(size_t index);
// Whether this CPU (hardware, not the EMBER_FORCE_ISA mask) can run `config`.
bool f32_vunary_variant_supported(const F32VUnaryConfig& config);
// The variant kernels use: the best one cpu_features() allows, chosen on the
// first call and kept.
const F32VUnaryConfig& f32_vunary_config();

const char* f32_unary_op_name(F32UnaryOp op);

}  // namespace ember::kernels::optimized
