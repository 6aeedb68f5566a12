// Which variant every optimized family chooses: the widest ISA level that the
// CPU and the environment (EMBER_FORCE_ISA, EMBER_CPU_FEATURES_MASK) allow,
// the same level in every family, so that a forced level reaches them all.
// ctest runs this test once as it is and once under EMBER_FORCE_ISA=avx2
// (tests/cpp/CMakeLists.txt), where an AVX-512 CPU must get the AVX2
// variants; each family's tester covers every variant's results.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/f32-winograd/f32_winograd.h"

namespace ember::kernels::optimized {
namespace {

// The widest ISA level cpu_features() allows.
std::string widest_allowed() {
  const CpuFeatures& allowed = cpu_features();
#if defined(__x86_64__)
  const uint32_t avx2 = kCpuAvx2 | kCpuFma | kCpuOsYmm;
  if (allowed.has(avx2 | kCpuAvx512 | kCpuOsZmm)) return "avx512";
  if (allowed.has(avx2)) return "avx2";
#elif defined(__aarch64__)
  if (allowed.has(kCpuNeon)) return "neon";
#elif defined(__wasm_simd128__)
  if (allowed.has(kCpuWasmSimd)) return "wasmsimd";
#endif
  return "scalar";
}

// The family's chosen variant is its widest one at or below the allowed
// level (a family may have no variant for a level: f32-vbinary has no
// AVX-512 one, which was not faster).
template <typename Config>
void expect_widest(const char* family, const Config& chosen, size_t count,
                   const Config& (*variant)(size_t)) {
  const char* const levels[] = {"avx512", "avx2", "neon", "wasmsimd", "scalar"};
  const std::string allowed = widest_allowed();
  std::string want;
  bool reached = false;
  for (const char* level : levels) {
    reached = reached || allowed == level;
    for (size_t i = 0; reached && want.empty() && i < count; ++i) {
      if (std::string(variant(i).name) == level) want = level;
    }
  }
  EXPECT_EQ(chosen.name, want) << family << " under " << allowed;
}

TEST(VariantSelection, EveryFamilyChoosesTheWidestAllowedLevel) {
  const char* forced = std::getenv("EMBER_FORCE_ISA");
  const std::string allowed = widest_allowed();
  std::printf("EMBER_FORCE_ISA=%s: the widest level allowed is %s\n",
              forced != nullptr ? forced : "(unset)", allowed.c_str());
  expect_widest("f32-gemm", f32_gemm_config(), f32_gemm_num_variants(), f32_gemm_variant);
  expect_widest("f32-dwconv", f32_dwconv_config(), f32_dwconv_num_variants(), f32_dwconv_variant);
  expect_widest("f32-attention", f32_attention_config(), f32_attention_num_variants(),
                f32_attention_variant);
  expect_widest("f32-winograd", f32_winograd_config(), f32_winograd_num_variants(),
                f32_winograd_variant);
  expect_widest("f32-vunary", f32_vunary_config(), f32_vunary_num_variants(), f32_vunary_variant);
  expect_widest("f32-vbinary", f32_vbinary_config(), f32_vbinary_num_variants(),
                f32_vbinary_variant);
  expect_widest("f32-softmax", f32_softmax_config(), f32_softmax_num_variants(),
                f32_softmax_variant);
  expect_widest("f32-layernorm", f32_layernorm_config(), f32_layernorm_num_variants(),
                f32_layernorm_variant);
  expect_widest("f32-reduce", f32_reduce_config(), f32_reduce_num_variants(), f32_reduce_variant);
  // A forced level is never exceeded.
  if (forced != nullptr && std::string(forced) == "avx2") EXPECT_NE(allowed, "avx512");
  if (forced != nullptr && std::string(forced) == "scalar") EXPECT_EQ(allowed, "scalar");
}

}  // namespace
}  // namespace ember::kernels::optimized
