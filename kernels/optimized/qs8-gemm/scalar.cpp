// int8 GEMM microkernels in plain C++ (4x4 tile, k-group 1, A as s8): the
// variant every CPU runs, and the model the SIMD variants follow. Sums wrap
// modulo 2^32 (unsigned arithmetic, no signed overflow), as the SIMD adds
// do; the result is exact whenever it fits in int32.
#include <cmath>
#include <cstdint>

#include "kernels/optimized/qs8-gemm/qs8_gemm.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kMr = 4;
constexpr size_t kNr = 4;

// The panel's parts (qs8_gemm.h): head, weights, tail.
const int32_t* panel_head(const void* panel) { return static_cast<const int32_t*>(panel); }
const int8_t* panel_weights(const void* panel) {
  return static_cast<const int8_t*>(panel) + kNr * sizeof(int32_t);
}
const float* panel_tail(const void* panel, size_t kp) {
  return reinterpret_cast<const float*>(panel_weights(panel) + kp * kNr);
}

// acc[i][j] += sum over k of a[i * kp + k] * w[k * kNr + j].
template <size_t MR>
void accumulate(size_t kp, const int8_t* a, const int8_t* w, uint32_t (&acc)[MR][kNr]) {
  for (size_t k = 0; k < kp; ++k, w += kNr) {
    for (size_t i = 0; i < MR; ++i) {
      const int32_t av = a[i * kp + k];
      for (size_t j = 0; j < kNr; ++j) acc[i][j] += static_cast<uint32_t>(av * w[j]);
    }
  }
}

template <size_t MR>
void qs8_tile(size_t nr, size_t kp, const int8_t* a, const void* panel, int8_t* c,
              size_t c_stride, const Qs8RequantParams* params) {
  uint32_t acc[MR][kNr];
  const int32_t* head = panel_head(panel);
  for (size_t i = 0; i < MR; ++i) {
    for (size_t j = 0; j < kNr; ++j) acc[i][j] = static_cast<uint32_t>(head[j]);
  }
  accumulate<MR>(kp, a, panel_weights(panel), acc);
  const float* scale = panel_tail(panel, kp);
  for (size_t i = 0; i < MR; ++i) {
    for (size_t j = 0; j < nr; ++j) {
      c[i * c_stride + j] = qs8_requantize(static_cast<int32_t>(acc[i][j]), scale[j], *params);
    }
  }
}

template <size_t MR>
void qd8_tile(size_t nr, size_t kp, const int8_t* a, const void* panel, float* c,
              size_t c_stride, const int32_t* row_zero, const float* row_scale,
              const Qd8F32Params* params) {
  uint32_t acc[MR][kNr];
  const int32_t* colsum = panel_head(panel);
  for (size_t i = 0; i < MR; ++i) {
    for (size_t j = 0; j < kNr; ++j) {
      acc[i][j] = 0u - static_cast<uint32_t>(row_zero[i]) * static_cast<uint32_t>(colsum[j]);
    }
  }
  accumulate<MR>(kp, a, panel_weights(panel), acc);
  const float* w_scale = panel_tail(panel, kp);
  const float* bias = w_scale + kNr;
  for (size_t i = 0; i < MR; ++i) {
    for (size_t j = 0; j < nr; ++j) {
      float v = std::fma(static_cast<float>(static_cast<int32_t>(acc[i][j])) * row_scale[i],
                         w_scale[j], bias[j]);
      v = v < params->min ? params->min : (v > params->max ? params->max : v);
      c[i * c_stride + j] = v;
    }
  }
}

void qs8_gemm_4x4(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, int8_t* c,
                  size_t c_stride, const Qs8RequantParams* params) {
  const int8_t* as = static_cast<const int8_t*>(a);
  switch (mr) {
    case 4: return qs8_tile<4>(nr, kp, as, panel, c, c_stride, params);
    case 3: return qs8_tile<3>(nr, kp, as, panel, c, c_stride, params);
    case 2: return qs8_tile<2>(nr, kp, as, panel, c, c_stride, params);
    default: return qs8_tile<1>(nr, kp, as, panel, c, c_stride, params);
  }
}

void qd8_gemm_4x4(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, float* c,
                  size_t c_stride, const int32_t* row_zero, const float* row_scale,
                  const Qd8F32Params* params) {
  const int8_t* as = static_cast<const int8_t*>(a);
  switch (mr) {
    case 4: return qd8_tile<4>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    case 3: return qd8_tile<3>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    case 2: return qd8_tile<2>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
    default: return qd8_tile<1>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params);
  }
}

}  // namespace

extern const Qs8GemmConfig kQs8GemmScalarConfig = {
    "scalar", 0, kMr, kNr, /*kr=*/1, Qs8AFormat::S8, /*a_shift=*/0, qs8_gemm_4x4, qd8_gemm_4x4,
};

}  // namespace ember::kernels::optimized
