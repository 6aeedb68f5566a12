// The 4-bit grouped-weight GEMM family (XNNPACK's qd8-f32-qb4w): float C =
// int8 activations with a zero point and scale per row (dynamic, per token)
// times int4 weights with a scale per group of `group` values along K
// (torchao's 8da4w: groups of 32, 64 or 128) and per column, plus a float
// bias. The weights stay 4-bit in memory and are unpacked inside the inner
// loop, never to a float (or int8) copy; A is gathered per row tile as the
// qs8-gemm family does it (qs8_gemm_tiling.h). One file per ISA (scalar.cpp,
// avx2.cpp, avxvnni.cpp, avx512vnni.cpp, neon.cpp, neondot.cpp).
//
// Arithmetic: per group b an exact int32 dot product of the shifted A values
// (a + a_shift) with 16 * w (a nibble moved to a byte's high half is 16 * w
// as int8, one shift and one and per 64 weights), converted to float and
// accumulated times scale_b / 16; at the end
//   c = clamp((acc - (a_zero + a_shift) * corr[n]) * a_scale + bias[n])
// with corr[n] = sum over groups of scale_b * sum of the group's w, packed
// once. Against the float reference (dequantize both, a float matmul) the
// result differs by float rounding only: tolerance in the tester.
//
// Included by files compiled with ISA flags: defines no inline function (see
// f32-gemm/f32_gemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qs8-gemm/qs8_gemm.h"

namespace ember {

class KernelContext;

namespace kernels::optimized {

// A panel of nr columns (qb4w_gemm_panel_bytes apart):
//   float corr[nr], float bias[nr], then per group of K:
//   float scale[nr] (the group's scale / 16), then the group's weights in
//   k-groups of kr: per k-group nr * kr nibbles in nr * kr / 2 bytes, byte j
//   holding value j in its low nibble and value j + nr * kr / 2 in its high
//   one, value v = column * kr + (k within the k-group).
// A microkernel: c[i * c_stride + j] for i < mr, j < nr from the packed A
// tile (mr rows of k values in the config's a_format) and the panel, k a
// multiple of `group`, group a multiple of 16.
using Qb4wGemmUkernelFn = void (*)(size_t mr, size_t nr, size_t k, size_t group, const void* a,
                                   const void* panel, float* c, size_t c_stride,
                                   const int32_t* row_zero, const float* row_scale,
                                   const Qd8F32Params* params);

struct Qb4wGemmConfig {
  const char* name;
  uint32_t required_features;
  uint32_t mr, nr, kr;
  Qs8AFormat a_format;
  int32_t a_shift;
  Qb4wGemmUkernelFn gemm;
};

size_t qb4w_gemm_num_variants();
const Qb4wGemmConfig& qb4w_gemm_variant(size_t index);
bool qb4w_gemm_variant_supported(const Qb4wGemmConfig& config);
const Qb4wGemmConfig& qb4w_gemm_config();

// Whether K and the group size are ones the family takes: group a multiple
// of 16 (32, 64 and 128 are torchao's), K a multiple of group, at most
// kQs8GemmMaxK.
bool qb4w_gemm_supports(const Qb4wGemmConfig& config, size_t k, size_t group);

size_t qb4w_gemm_panel_bytes(const Qb4wGemmConfig& config, size_t k, size_t group);
size_t qb4w_gemm_packed_size(const Qb4wGemmConfig& config, size_t k, size_t n, size_t group);

// The weights as torchao's 8da4w holds them before packing: int4 values as
// int8 in [-8, 7], element (k, n) at data[k * k_stride + n * n_stride] (its
// [n, k] weight: k_stride 1, n_stride k), and scales [n, k / group]
// row-major.
struct Qb4wWeights {
  const int8_t* data = nullptr;
  size_t k = 0;
  size_t n = 0;
  ptrdiff_t k_stride = 0;
  ptrdiff_t n_stride = 0;
  size_t group = 0;
  const float* scale = nullptr;
};

// Packs them (bias: float [n], or null) into `packed` (4-byte aligned).
// False, nothing written, when a value lies outside [-8, 7] or the shape is
// one qb4w_gemm_supports refuses.
bool qb4w_gemm_pack_weights(const Qb4wGemmConfig& config, const Qb4wWeights& weights,
                            const float* bias, void* packed);

// C[m, n] (float, rows ldc apart) = A [m, k] (int8, rows lda apart, with
// a_zero[m] and a_scale[m] from qs8-vcvt's per-token quantization) times the
// packed weights; clamped by params. Allocates nothing; false when
// qb4w_gemm_supports says no.
struct Qb4wGemmProblem {
  size_t m = 0;
  size_t n = 0;
  size_t k = 0;
  size_t group = 0;
  const int8_t* a = nullptr;
  size_t lda = 0;
  const int32_t* a_zero = nullptr;
  const float* a_scale = nullptr;
  const void* packed_w = nullptr;
  float* c = nullptr;
  size_t ldc = 0;
  Qd8F32Params params;
  F32RowActivation activation;  // as Qd8F32GemmProblem's
};
bool qd8_f32_qb4w_gemm(const Qb4wGemmConfig& config, const Qb4wGemmProblem& problem,
                       KernelContext* ctx);

}  // namespace kernels::optimized
}  // namespace ember
