// The per-ISA entry points behind s8_kernels.h's dispatch (variants.cpp).
// A family without a DSP or Helium file of its own runs its scalar code in
// that variant (the table in variants.cpp says which). Only the files the
// target can run are compiled: dsp.cpp where the core has the DSP
// extension (__ARM_FEATURE_DSP), helium.cpp where it has MVE.
#pragma once

#include "kernels/cortex_m/s8_kernels.h"

#if defined(__ARM_FEATURE_DSP)
#define EMBER_CORTEX_M_HAVE_DSP 1
#else
#define EMBER_CORTEX_M_HAVE_DSP 0
#endif
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#define EMBER_CORTEX_M_HAVE_HELIUM 1
#else
#define EMBER_CORTEX_M_HAVE_HELIUM 0
#endif

namespace ember::cortex_m {

// The GEMM's two epilogues: int8 through Requant, or float (the fully
// connected layer with a float output).
struct FloatEpilogue {
  const float* scale;
  const float* bias;  // may be null
  float* out;
  int32_t out_stride;
};

#define EMBER_CM_DECLARE_VARIANT(suffix)                                                        \
  void gemm_s8_##suffix(const GemmArgs& args);                                                  \
  void gemm_s8_f32_##suffix(const GemmArgs& args, const FloatEpilogue& epilogue);              \
  void depthwise_conv2d_s8_##suffix(const ConvShape& shape, const int8_t* input,                \
                                    const int8_t* weight, const int32_t* bias,                  \
                                    const Requant& requant, int8_t* output);                    \
  void add_s8_##suffix(const AddParams& params, const int8_t* a, const int8_t* b, int8_t* out, \
                       int32_t count);                                                          \
  void avg_pool2d_s8_##suffix(const PoolShape& shape, const int8_t* input, int8_t* output);     \
  void max_pool2d_s8_##suffix(const PoolShape& shape, const int8_t* input, int8_t* output);     \
  void softmax_s8_##suffix(const int8_t* input, int32_t rows, int32_t length,                   \
                           const int32_t* exp_table, int32_t inv_output_scale_q16,              \
                           int32_t output_zero_point, int8_t* output);                          \
  void requantize_s8_##suffix(const int8_t* input, int32_t count, int32_t input_zero_point,      \
                              int32_t multiplier, int32_t shift, int32_t output_zero_point,     \
                              int8_t* output);                                                  \
  void quantize_f32_s8_##suffix(const float* input, int32_t count, float inv_scale,             \
                                int32_t zero_point, int32_t qmin, int32_t qmax, int8_t* output); \
  void dequantize_s8_f32_##suffix(const int8_t* input, int32_t count, float scale,              \
                                  int32_t zero_point, float* output);

EMBER_CM_DECLARE_VARIANT(scalar)
#if EMBER_CORTEX_M_HAVE_DSP
// The DSP files implement the GEMM, depthwise convolution and max pooling;
// the rest is the scalar code (no SIMD gain on a 32-bit lane).
void gemm_s8_dsp(const GemmArgs& args);
void gemm_s8_f32_dsp(const GemmArgs& args, const FloatEpilogue& epilogue);
void depthwise_conv2d_s8_dsp(const ConvShape& shape, const int8_t* input, const int8_t* weight,
                             const int32_t* bias, const Requant& requant, int8_t* output);
void max_pool2d_s8_dsp(const PoolShape& shape, const int8_t* input, int8_t* output);
#endif
#if EMBER_CORTEX_M_HAVE_HELIUM
EMBER_CM_DECLARE_VARIANT(helium)
#endif
#undef EMBER_CM_DECLARE_VARIANT

// Rows per GEMM block of each variant (the im2col scratch holds this many).
constexpr int32_t kGemmRowsScalar = 1;
constexpr int32_t kGemmRowsDsp = 2;
constexpr int32_t kGemmRowsHelium = 1;

}  // namespace ember::cortex_m
