// Dispatch from s8_kernels.h's entry points to the variant asked for. A
// variant this build lacks (a Helium request on a Cortex-M4, DSP on the
// host) never gets here: the operators use the build's own variant, and
// the tester asks variant_available() first.
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

const char* variant_name(Variant variant) {
  switch (variant) {
    case Variant::Scalar: return "scalar";
    case Variant::Dsp: return "dsp";
    case Variant::Helium: return "helium";
  }
  return "?";
}

bool variant_available(Variant variant) {
  switch (variant) {
    case Variant::Scalar: return true;
    case Variant::Dsp: return EMBER_CORTEX_M_HAVE_DSP != 0;
    case Variant::Helium: return EMBER_CORTEX_M_HAVE_HELIUM != 0;
  }
  return false;
}

int32_t gemm_rows_per_block(Variant variant) {
  switch (variant) {
    case Variant::Scalar: return kGemmRowsScalar;
    case Variant::Dsp: return kGemmRowsDsp;
    case Variant::Helium: return kGemmRowsHelium;
  }
  return kGemmRowsScalar;
}

// CM_CALL(variant, fn, args...) calls fn_helium, fn_dsp or fn_scalar.
#if EMBER_CORTEX_M_HAVE_HELIUM
#define EMBER_CM_HELIUM(fn, ...) \
  case Variant::Helium: fn##_helium(__VA_ARGS__); return;
#else
#define EMBER_CM_HELIUM(fn, ...)
#endif
#if EMBER_CORTEX_M_HAVE_DSP
#define EMBER_CM_DSP(fn, ...) \
  case Variant::Dsp: fn##_dsp(__VA_ARGS__); return;
#else
#define EMBER_CM_DSP(fn, ...)
#endif
// Families with a DSP file of their own.
#define CM_CALL_DSP(variant, fn, ...)  \
  switch (variant) {                   \
    EMBER_CM_HELIUM(fn, __VA_ARGS__)   \
    EMBER_CM_DSP(fn, __VA_ARGS__)      \
    default: fn##_scalar(__VA_ARGS__); \
  }
// Families whose DSP variant is the scalar code.
#define CM_CALL(variant, fn, ...)      \
  switch (variant) {                   \
    EMBER_CM_HELIUM(fn, __VA_ARGS__)   \
    default: fn##_scalar(__VA_ARGS__); \
  }

void gemm_s8(Variant variant, const GemmArgs& args) { CM_CALL_DSP(variant, gemm_s8, args) }

void depthwise_conv2d_s8(Variant variant, const ConvShape& shape, const int8_t* input,
                         const int8_t* weight, const int32_t* bias, const Requant& requant,
                         int8_t* output) {
  CM_CALL_DSP(variant, depthwise_conv2d_s8, shape, input, weight, bias, requant, output)
}

// The GEMM reads its rows through pointers: a few at a time.
constexpr int32_t kFullyConnectedRows = 8;

void fully_connected_s8(Variant variant, const int8_t* input, int32_t num_rows, int32_t depth,
                        int32_t channels, const int8_t* weight, const int32_t* bias,
                        const Requant& requant, int8_t* output) {
  const int8_t* rows[kFullyConnectedRows];
  for (int32_t r0 = 0; r0 < num_rows; r0 += kFullyConnectedRows) {
    const int32_t n = num_rows - r0 < kFullyConnectedRows ? num_rows - r0 : kFullyConnectedRows;
    for (int32_t r = 0; r < n; ++r) rows[r] = input + static_cast<size_t>(r0 + r) * depth;
    const GemmArgs args{rows, n, depth, channels, weight, bias, requant,
                        output + static_cast<size_t>(r0) * channels, channels};
    gemm_s8(variant, args);
  }
}

void fully_connected_s8_f32(Variant variant, const int8_t* input, int32_t num_rows, int32_t depth,
                            int32_t channels, const int8_t* weight, const int32_t* bias,
                            const float* scale, const float* float_bias, float* output) {
  const int8_t* rows[kFullyConnectedRows];
  const Requant unused{nullptr, nullptr, 0, -128, 127};
  for (int32_t r0 = 0; r0 < num_rows; r0 += kFullyConnectedRows) {
    const int32_t n = num_rows - r0 < kFullyConnectedRows ? num_rows - r0 : kFullyConnectedRows;
    for (int32_t r = 0; r < n; ++r) rows[r] = input + static_cast<size_t>(r0 + r) * depth;
    const GemmArgs args{rows, n, depth, channels, weight, bias, unused, nullptr, channels};
    const FloatEpilogue epilogue{scale, float_bias, output + static_cast<size_t>(r0) * channels,
                                 channels};
    CM_CALL_DSP(variant, gemm_s8_f32, args, epilogue)
  }
}

void add_s8(Variant variant, const AddParams& params, const int8_t* a, const int8_t* b,
            int8_t* out, int32_t count) {
  CM_CALL(variant, add_s8, params, a, b, out, count)
}

void avg_pool2d_s8(Variant variant, const PoolShape& shape, const int8_t* input, int8_t* output) {
  CM_CALL(variant, avg_pool2d_s8, shape, input, output)
}

void max_pool2d_s8(Variant variant, const PoolShape& shape, const int8_t* input, int8_t* output) {
  CM_CALL_DSP(variant, max_pool2d_s8, shape, input, output)
}

void softmax_s8(Variant variant, const int8_t* input, int32_t rows, int32_t length,
                const int32_t* exp_table, int32_t inv_output_scale_q16, int32_t output_zero_point,
                int8_t* output) {
  CM_CALL(variant, softmax_s8, input, rows, length, exp_table, inv_output_scale_q16,
          output_zero_point, output)
}

void requantize_s8(Variant variant, const int8_t* input, int32_t count, int32_t input_zero_point,
                   int32_t multiplier, int32_t shift, int32_t output_zero_point, int8_t* output) {
  CM_CALL(variant, requantize_s8, input, count, input_zero_point, multiplier, shift,
          output_zero_point, output)
}

void quantize_f32_s8(Variant variant, const float* input, int32_t count, float inv_scale,
                     int32_t zero_point, int32_t qmin, int32_t qmax, int8_t* output) {
  CM_CALL(variant, quantize_f32_s8, input, count, inv_scale, zero_point, qmin, qmax, output)
}

void dequantize_s8_f32(Variant variant, const int8_t* input, int32_t count, float scale,
                       int32_t zero_point, float* output) {
  CM_CALL(variant, dequantize_s8_f32, input, count, scale, zero_point, output)
}

}  // namespace ember::cortex_m
