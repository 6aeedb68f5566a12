// The Cortex-M int8 kernel family: convolution (with 1x1 and depthwise),
// fully connected, add, average and max pooling, softmax and the
// conversions (quantize, dequantize, requantize), on NHWC int8 tensors with
// TFLite Micro / CMSIS-NN style parameters (per-channel Q31 multipliers and
// shifts, quant_math.h). Each kernel has a scalar variant, the reference,
// in plain C++ that builds anywhere (the host runtime runs Cortex-M programs
// with it), and DSP (Armv7E-M / Armv8-M SIMD: SMLAD, SXTB16, SEL) and
// Helium (Armv8.1-M MVE) variants where the target has them; which one the
// registered operators use is fixed at build time (variants.h). Every
// variant gives the scalar one's results bit for bit
// (tests/cortex_m/kernel_tester.cpp checks them under QEMU).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::cortex_m {

enum class Variant : uint8_t { Scalar = 0, Dsp = 1, Helium = 2 };
const char* variant_name(Variant variant);

// Per-channel requantization of int32 accumulators to int8 (quant_math.h):
// channel c uses multiplier[c] and shift[c].
struct Requant {
  const int32_t* multiplier;
  const int32_t* shift;
  int32_t output_zero_point;
  int32_t activation_min;  // the fused relu / relu6 as int8 bounds
  int32_t activation_max;
};

// out[r][c] = requant_c(bias[c] + sum_k rows[r][k] * weight[c][k]) for r <
// num_rows, c < channels; out row r starts at out + r * out_stride. The
// rows are int8 activations, contiguous over k. bias may be null (zeros).
struct GemmArgs {
  const int8_t* const* rows;
  int32_t num_rows;
  int32_t depth;     // k
  int32_t channels;  // c
  const int8_t* weight;  // [channels][depth]
  const int32_t* bias;
  Requant requant;
  int8_t* out;
  int32_t out_stride;
};
// How many rows a variant's GEMM takes at a time (the convolution gathers
// that many im2col rows into its scratch).
int32_t gemm_rows_per_block(Variant variant);
void gemm_s8(Variant variant, const GemmArgs& args);

// Convolution on NHWC input [batches][in_h][in_w][in_c] with weight
// [out_c][kernel_h][kernel_w][in_c] (groups = 1) into [batches][out_h][out_w]
// [out_c]: acc = bias[c] + sum over taps of x * w, where a tap outside the
// image reads input_zero_point. bias therefore already holds the zero
// point's part (bias_true - zero_point * sum w); the exporter folds it.
// Depthwise: weight [kernel_h][kernel_w][out_c], out_c = in_c * depth_multiplier.
struct ConvShape {
  int32_t batches, in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t kernel_h, kernel_w;
  int32_t stride_h, stride_w;
  int32_t pad_h, pad_w;  // top and left; bottom and right follow from the sizes
  int32_t dilation_h, dilation_w;
  int32_t input_zero_point;
  int32_t depth_multiplier;  // depthwise only
};
// Scratch a convolution needs: the im2col rows of one GEMM block, none
// for a 1x1 convolution with stride 1 and no padding (it reads its input
// rows in place). python/ember/targets/cortex_m/kernels.py computes the same.
size_t conv2d_scratch_bytes(Variant variant, const ConvShape& shape);
void conv2d_s8(Variant variant, const ConvShape& shape, const int8_t* input, const int8_t* weight,
               const int32_t* bias, const Requant& requant, int8_t* scratch, int8_t* output);
void depthwise_conv2d_s8(Variant variant, const ConvShape& shape, const int8_t* input,
                         const int8_t* weight, const int32_t* bias, const Requant& requant,
                         int8_t* output);

// Fully connected: out[r][c] = requant_c(bias[c] + sum_k x[r][k] * w[c][k])
// (bias holds the input zero point's part, as for the convolution).
void fully_connected_s8(Variant variant, const int8_t* input, int32_t num_rows, int32_t depth,
                        int32_t channels, const int8_t* weight, const int32_t* bias,
                        const Requant& requant, int8_t* output);
// Fully connected with a float output (a model's last layer): out[r][c] =
// float(bias[c] + sum_k x[r][k] * w[c][k]) * scale[c] + float_bias[c], each
// step rounded to float (no fused multiply-add). float_bias may be null.
void fully_connected_s8_f32(Variant variant, const int8_t* input, int32_t num_rows, int32_t depth,
                            int32_t channels, const int8_t* weight, const int32_t* bias,
                            const float* scale, const float* float_bias, float* output);

// Elementwise add of two int8 tensors (TFLite's): both inputs moved to a
// common scale with 20 bits of headroom, added, requantized.
struct AddParams {
  int32_t a_zero_point, a_multiplier, a_shift;
  int32_t b_zero_point, b_multiplier, b_shift;
  int32_t left_shift;
  int32_t output_zero_point, output_multiplier, output_shift;
  int32_t activation_min, activation_max;
};
void add_s8(Variant variant, const AddParams& params, const int8_t* a, const int8_t* b,
            int8_t* out, int32_t count);

// Pooling on NHWC int8 with the input's own quantization (the output
// shares it). Average: the sum of the window's codes (a padded tap counts
// as the zero point when count_include_pad, else not at all) divided by
// the count, rounded half away from zero, clamped. Max: padding never wins.
struct PoolShape {
  int32_t batches, in_h, in_w, channels;
  int32_t out_h, out_w;
  int32_t kernel_h, kernel_w, stride_h, stride_w, pad_h, pad_w;
  int32_t zero_point;          // average: the value of a counted pad
  bool count_include_pad;      // average only
  int32_t activation_min, activation_max;
};
void avg_pool2d_s8(Variant variant, const PoolShape& shape, const int8_t* input, int8_t* output);
void max_pool2d_s8(Variant variant, const PoolShape& shape, const int8_t* input, int8_t* output);

// Softmax over rows of `length` int8 values: with d = max(row) - x in
// [0, 255], e = exp_table[d] (exp(-d * input_scale) in Q16, from the
// exporter), out = output_zero_point + round_half_up(e * inv_output_scale_q16
// / (sum(e) * 2^16)), clamped to int8.
void softmax_s8(Variant variant, const int8_t* input, int32_t rows, int32_t length,
                const int32_t* exp_table, int32_t inv_output_scale_q16, int32_t output_zero_point,
                int8_t* output);

// int8 -> int8 with other quantization parameters:
// out = clamp(requantize(x - input_zero_point, multiplier, shift) + output_zero_point).
void requantize_s8(Variant variant, const int8_t* input, int32_t count, int32_t input_zero_point,
                   int32_t multiplier, int32_t shift, int32_t output_zero_point, int8_t* output);
// float <-> int8 per tensor, exactly as the portable quantize_per_tensor /
// dequantize_per_tensor compute them in float32.
void quantize_f32_s8(Variant variant, const float* input, int32_t count, float inv_scale,
                     int32_t zero_point, int32_t qmin, int32_t qmax, int8_t* output);
void dequantize_s8_f32(Variant variant, const int8_t* input, int32_t count, float scale,
                       int32_t zero_point, float* output);

// Whether `variant` was compiled into this build (scalar always is).
bool variant_available(Variant variant);

}  // namespace ember::cortex_m
