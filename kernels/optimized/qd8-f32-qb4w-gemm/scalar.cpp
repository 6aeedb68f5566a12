// 4-bit grouped-weight GEMM in plain C++ (2x4 tile, k-group 1, A as s8): the
// variant every CPU runs, and the model the SIMD variants follow.
#include <cmath>
#include <cstdint>

#include "kernels/optimized/qd8-f32-qb4w-gemm/qd8_f32_qb4w_gemm.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kMr = 2;
constexpr size_t kNr = 4;

template <size_t MR>
void tile(size_t nr, size_t k, size_t group, const int8_t* a, const uint8_t* panel, float* c,
          size_t c_stride, const int32_t* row_zero, const float* row_scale,
          const Qd8F32Params* params) {
  const float* corr = reinterpret_cast<const float*>(panel);
  const float* bias = corr + kNr;
  const uint8_t* g = panel + 2 * kNr * sizeof(float);
  float acc[MR][kNr] = {};
  for (size_t k0 = 0; k0 < k; k0 += group) {
    const float* scale = reinterpret_cast<const float*>(g);
    const uint8_t* bytes = g + kNr * sizeof(float);
    int32_t dot[MR][kNr] = {};
    for (size_t q = k0; q < k0 + group; ++q, bytes += kNr / 2) {
      // 16 * w from each nibble: the low one moved up, the high one kept.
      int32_t w[kNr];
      for (size_t j = 0; j < kNr / 2; ++j) {
        w[j] = static_cast<int8_t>(static_cast<uint8_t>(bytes[j] << 4));
        w[j + kNr / 2] = static_cast<int8_t>(bytes[j] & 0xF0);
      }
      for (size_t i = 0; i < MR; ++i) {
        for (size_t j = 0; j < kNr; ++j) dot[i][j] += a[i * k + q] * w[j];
      }
    }
    for (size_t i = 0; i < MR; ++i) {
      for (size_t j = 0; j < kNr; ++j) {
        acc[i][j] = std::fma(static_cast<float>(dot[i][j]), scale[j], acc[i][j]);
      }
    }
    g += kNr * sizeof(float) + group * kNr / 2;
  }
  for (size_t i = 0; i < MR; ++i) {
    const float zero = static_cast<float>(row_zero[i]);
    for (size_t j = 0; j < nr; ++j) {
      float v = std::fma(std::fma(-zero, corr[j], acc[i][j]), row_scale[i], bias[j]);
      v = v < params->min ? params->min : (v > params->max ? params->max : v);
      c[i * c_stride + j] = v;
    }
  }
}

void gemm_2x4(size_t mr, size_t nr, size_t k, size_t group, const void* a, const void* panel,
              float* c, size_t c_stride, const int32_t* row_zero, const float* row_scale,
              const Qd8F32Params* params) {
  const int8_t* as = static_cast<const int8_t*>(a);
  const uint8_t* pw = static_cast<const uint8_t*>(panel);
  if (mr == 2) return tile<2>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
  tile<1>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
}

}  // namespace

extern const Qb4wGemmConfig kQb4wGemmScalarConfig = {
    "scalar", 0, kMr, kNr, /*kr=*/1, Qs8AFormat::S8, /*a_shift=*/0, gemm_2x4,
};

}  // namespace ember::kernels::optimized
