// The Cortex-M int8 operators a program calls (ember_cortex_m::*.out, written
// by ember.targets.cortex_m's export), each checking its arguments before it
// touches memory (a .pte is untrusted) and then calling the build's variant
// (EMBER_CORTEX_M_VARIANT: 0 scalar, 1 DSP, 2 Helium; the host is scalar).
// Tensors are int8 NHWC (activations), weights as s8_kernels.h lays them out.
// Each op's integer parameters come in one constant int32 tensor, `params`:
// the op's values in the order of the enums below, then its per-channel
// rows (bias, multiplier, shift), as python/ember/targets/cortex_m/ops.py
// packs them (every argument costs a microcontroller's method tables RAM).
#include <cstdint>
#include <limits>

#include "kernels/cortex_m/s8_kernels.h"
#include "kernels/portable/util/kernel_util.h"
#include "runtime/kernel/kernel_registry.h"

#ifndef EMBER_CORTEX_M_VARIANT
#define EMBER_CORTEX_M_VARIANT 0
#endif

namespace ember::cortex_m {
namespace {

using kernels::check_contiguous;
using kernels::resize_output;

constexpr Variant kVariant = static_cast<Variant>(EMBER_CORTEX_M_VARIANT);
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
// Bounds that keep every int32 accumulator exact: |bias| <= 2^30 and at most
// 2^16 products of at most 2^14 each.
constexpr int64_t kMaxBias = int64_t{1} << 30;
constexpr int64_t kMaxDepth = int64_t{1} << 16;

// EMBER_KERNEL_CHECK for the helpers that return whether the call is good.
#define EMBER_CM_CHECK(cond, ...)                     \
  do {                                                \
    if (!(cond)) {                                    \
      ctx.fail(Error::InvalidArgument, __VA_ARGS__);  \
      return false;                                   \
    }                                                 \
  } while (0)

bool check_tensor(KernelContext& ctx, const char* op, const char* what, const Tensor& t,
                  ScalarType dtype, int rank) {
  if (t.scalar_type() != dtype) {
    ctx.fail(Error::InvalidArgument, "%s: %s must be %s, not %s", op, what, scalar_type_name(dtype),
             scalar_type_name(t.scalar_type()));
    return false;
  }
  if (rank >= 0 && t.dim() != rank) {
    ctx.fail(Error::InvalidArgument, "%s: %s must have %d dims, not %d", op, what, rank, t.dim());
    return false;
  }
  if (t.numel() > kInt32Max) {
    ctx.fail(Error::InvalidArgument, "%s: %s has more than 2^31 elements", op, what);
    return false;
  }
  return check_contiguous(ctx, op, t);
}

bool check_range(KernelContext& ctx, const char* op, const char* what, int64_t value, int64_t low,
                 int64_t high) {
  if (value < low || value > high) {
    ctx.fail(Error::InvalidArgument, "%s: %s is %lld, outside [%lld, %lld]", op, what,
             static_cast<long long>(value), static_cast<long long>(low),
             static_cast<long long>(high));
    return false;
  }
  return true;
}

// A 1-d tensor of `count` elements of `dtype` (per-channel parameters).
bool check_vector(KernelContext& ctx, const char* op, const char* what, const Tensor& t,
                  ScalarType dtype, int64_t count) {
  if (!check_tensor(ctx, op, what, t, dtype, 1)) return false;
  if (t.numel() != count) {
    ctx.fail(Error::InvalidArgument, "%s: %s has %lld elements, the op needs %lld", op, what,
             static_cast<long long>(t.numel()), static_cast<long long>(count));
    return false;
  }
  return true;
}

bool check_int8_range(KernelContext& ctx, const char* op, const char* what, int64_t value) {
  return check_range(ctx, op, what, value, -128, 127);
}

bool check_activation(KernelContext& ctx, const char* op, int64_t low, int64_t high) {
  return check_int8_range(ctx, op, "activation_min", low) &&
         check_int8_range(ctx, op, "activation_max", high) &&
         check_range(ctx, op, "activation_min", low, -128, high);
}

bool check_bias(KernelContext& ctx, const char* op, const Tensor& bias, int64_t channels) {
  if (!check_vector(ctx, op, "bias", bias, ScalarType::Int, channels)) return false;
  const int32_t* b = bias.const_data_ptr<int32_t>();
  for (int64_t c = 0; c < channels; ++c) {
    if (!check_range(ctx, op, "a bias", b[c], -kMaxBias, kMaxBias)) return false;
  }
  return true;
}

// The output size of a window sliding over `in` (PyTorch's formula, floor).
bool window_output(KernelContext& ctx, const char* op, int64_t in, int64_t kernel, int64_t stride,
                   int64_t pad, int64_t dilation, int64_t* out) {
  const int64_t span = dilation * (kernel - 1) + 1;
  if (in + 2 * pad < span) {
    ctx.fail(Error::InvalidArgument, "%s: a window of %lld does not fit an input of %lld padded by "
             "%lld", op, static_cast<long long>(span), static_cast<long long>(in),
             static_cast<long long>(pad));
    return false;
  }
  *out = (in + 2 * pad - span) / stride + 1;
  return true;
}

bool resize_nhwc(KernelContext& ctx, const char* op, Tensor& out, int64_t n, int64_t h, int64_t w,
                 int64_t c) {
  const int64_t sizes[] = {n, h, w, c};
  return resize_output(ctx, out, Span<const int64_t>(sizes, 4), op);
}

// The params tensor of an op with `count` values and `rows` per-channel rows
// of `row_length`; null (the kernel failed) when it is not that.
const int32_t* read_params(KernelContext& ctx, const char* op, const Tensor& params, int64_t count,
                           int64_t rows = 0, int64_t row_length = 0) {
  if (!check_vector(ctx, op, "params", params, ScalarType::Int, count + rows * row_length)) {
    return nullptr;
  }
  return params.const_data_ptr<int32_t>();
}

// The per-channel rows after an op's `count` values: bias, multiplier,
// shift, each checked.
bool channel_rows(KernelContext& ctx, const char* op, const int32_t* params, int64_t count,
                  int64_t channels, const int32_t** bias, Requant* requant) {
  *bias = params + count;
  requant->multiplier = params + count + channels;
  requant->shift = params + count + 2 * channels;
  for (int64_t c = 0; c < channels; ++c) {
    if (!check_range(ctx, op, "a bias", (*bias)[c], -kMaxBias, kMaxBias) ||
        !check_range(ctx, op, "a multiplier", requant->multiplier[c], 0, kInt32Max) ||
        !check_range(ctx, op, "a shift", requant->shift[c], -31, 30)) {
      return false;
    }
  }
  return true;
}

bool output_range(KernelContext& ctx, const char* op, int32_t zero_point, int32_t low,
                  int32_t high, Requant* requant) {
  if (!check_int8_range(ctx, op, "output_zero_point", zero_point) ||
      !check_activation(ctx, op, low, high)) {
    return false;
  }
  requant->output_zero_point = zero_point;
  requant->activation_min = low;
  requant->activation_max = high;
  return true;
}

// ops.py CONV_PARAMS (DEPTHWISE_PARAMS adds the depth multiplier).
enum ConvParam { kStrideH, kStrideW, kPadH, kPadW, kDilationH, kDilationW, kConvInputZero,
                 kConvOutputZero, kConvMin, kConvMax, kConvParams, kDepthMultiplier = kConvParams,
                 kDepthwiseParams };

// The shape of a convolution's call, checked; false (the kernel failed) when
// its arguments do not describe one.
bool conv_shape(KernelContext& ctx, const char* op, const Tensor& input, int64_t out_c,
                int64_t kernel_h, int64_t kernel_w, const int32_t* p, ConvShape* s) {
  if (!check_tensor(ctx, op, "input", input, ScalarType::Char, 4) ||
      !check_range(ctx, op, "stride", p[kStrideH], 1, 1 << 16) ||
      !check_range(ctx, op, "stride", p[kStrideW], 1, 1 << 16) ||
      !check_range(ctx, op, "padding", p[kPadH], 0, 1 << 16) ||
      !check_range(ctx, op, "padding", p[kPadW], 0, 1 << 16) ||
      !check_range(ctx, op, "dilation", p[kDilationH], 1, 1 << 16) ||
      !check_range(ctx, op, "dilation", p[kDilationW], 1, 1 << 16) ||
      !check_int8_range(ctx, op, "input_zero_point", p[kConvInputZero]) ||
      !check_range(ctx, op, "kernel size", kernel_h, 1, 1 << 16) ||
      !check_range(ctx, op, "kernel size", kernel_w, 1, 1 << 16) ||
      !check_range(ctx, op, "out channels", out_c, 1, kInt32Max)) {
    return false;
  }
  int64_t out_h, out_w;
  if (!window_output(ctx, op, input.size(1), kernel_h, p[kStrideH], p[kPadH], p[kDilationH],
                     &out_h) ||
      !window_output(ctx, op, input.size(2), kernel_w, p[kStrideW], p[kPadW], p[kDilationW],
                     &out_w)) {
    return false;
  }
  *s = ConvShape{static_cast<int32_t>(input.size(0)), static_cast<int32_t>(input.size(1)),
                 static_cast<int32_t>(input.size(2)), static_cast<int32_t>(input.size(3)),
                 static_cast<int32_t>(out_h), static_cast<int32_t>(out_w),
                 static_cast<int32_t>(out_c), static_cast<int32_t>(kernel_h),
                 static_cast<int32_t>(kernel_w), p[kStrideH], p[kStrideW], p[kPadH], p[kPadW],
                 p[kDilationH], p[kDilationW], p[kConvInputZero], 1};
  return true;
}

void conv2d_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                   const Tensor& params, int64_t scratch_bytes, Tensor& out, Tensor& scratch) {
  // scratch_bytes is what the exporter planned `scratch` for (its size).
  constexpr const char* op = "ember_cortex_m::conv2d_s8";
  if (!check_tensor(ctx, op, "weight", weight, ScalarType::Char, 4)) return;
  const int64_t out_c = weight.size(0);
  const int32_t* p = read_params(ctx, op, params, kConvParams, 3, out_c);
  ConvShape s;
  const int32_t* bias;
  Requant q;
  if (p == nullptr || !conv_shape(ctx, op, input, out_c, weight.size(1), weight.size(2), p, &s) ||
      !channel_rows(ctx, op, p, kConvParams, out_c, &bias, &q) ||
      !output_range(ctx, op, p[kConvOutputZero], p[kConvMin], p[kConvMax], &q)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, weight.size(3) == s.in_c,
                     "%s: the weight has %lld input channels, the input %d", op,
                     static_cast<long long>(weight.size(3)), static_cast<int>(s.in_c));
  EMBER_KERNEL_CHECK(ctx, weight.numel() / s.out_c <= kMaxDepth,
                     "%s: %lld products per output exceed the int32 accumulator's bound", op,
                     static_cast<long long>(weight.numel() / s.out_c));
  if (!check_tensor(ctx, op, "out", out, ScalarType::Char, 4) ||
      !check_tensor(ctx, op, "scratch", scratch, ScalarType::Char, -1) ||
      !resize_nhwc(ctx, op, out, s.batches, s.out_h, s.out_w, s.out_c)) {
    return;
  }
  const size_t need = conv2d_scratch_bytes(kVariant, s);
  EMBER_KERNEL_CHECK(ctx, scratch.nbytes() >= need,
                     "%s: the %s kernel needs %zu bytes of scratch, the program plans %zu (export "
                     "for this target)", op, variant_name(kVariant), need, scratch.nbytes());
  conv2d_s8(kVariant, s, input.const_data_ptr<int8_t>(), weight.const_data_ptr<int8_t>(), bias, q,
            scratch.mutable_data_ptr<int8_t>(), out.mutable_data_ptr<int8_t>());
}

void depthwise_conv2d_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                             const Tensor& params, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::depthwise_conv2d_s8";
  if (!check_tensor(ctx, op, "weight", weight, ScalarType::Char, 3)) return;
  const int64_t out_c = weight.size(2);
  const int32_t* p = read_params(ctx, op, params, kDepthwiseParams, 3, out_c);
  ConvShape s;
  const int32_t* bias;
  Requant q;
  if (p == nullptr ||
      !check_range(ctx, op, "depth_multiplier", p[kDepthMultiplier], 1, 1 << 16) ||
      !conv_shape(ctx, op, input, out_c, weight.size(0), weight.size(1), p, &s) ||
      !channel_rows(ctx, op, p, kDepthwiseParams, out_c, &bias, &q) ||
      !output_range(ctx, op, p[kConvOutputZero], p[kConvMin], p[kConvMax], &q)) {
    return;
  }
  s.depth_multiplier = p[kDepthMultiplier];
  EMBER_KERNEL_CHECK(ctx, static_cast<int64_t>(s.in_c) * s.depth_multiplier == s.out_c,
                     "%s: %d input channels times depth multiplier %d is not the weight's %d "
                     "output channels", op, static_cast<int>(s.in_c),
                     static_cast<int>(s.depth_multiplier), static_cast<int>(s.out_c));
  EMBER_KERNEL_CHECK(ctx, static_cast<int64_t>(s.kernel_h) * s.kernel_w <= kMaxDepth,
                     "%s: the window exceeds the int32 accumulator's bound", op);
  if (!check_tensor(ctx, op, "out", out, ScalarType::Char, 4) ||
      !resize_nhwc(ctx, op, out, s.batches, s.out_h, s.out_w, s.out_c)) {
    return;
  }
  depthwise_conv2d_s8(kVariant, s, input.const_data_ptr<int8_t>(), weight.const_data_ptr<int8_t>(),
                      bias, q, out.mutable_data_ptr<int8_t>());
}

// The rows and depth of a fully connected layer's input [..., depth], and its
// output's sizes ([..., channels]).
bool fc_shape(KernelContext& ctx, const char* op, const Tensor& input, const Tensor& weight,
              ScalarType out_dtype, Tensor& out, int32_t* rows, int32_t* depth, int32_t* channels) {
  if (!check_tensor(ctx, op, "input", input, ScalarType::Char, -1) ||
      !check_tensor(ctx, op, "weight", weight, ScalarType::Char, 2) ||
      !check_tensor(ctx, op, "out", out, out_dtype, input.dim())) {
    return false;
  }
  EMBER_CM_CHECK(input.dim() >= 1 && input.size(-1) == weight.size(1),
                 "%s: the input's last dim must be the weight's %lld", op,
                 static_cast<long long>(weight.size(1)));
  EMBER_CM_CHECK(weight.size(1) >= 1 && weight.size(1) <= kMaxDepth && weight.size(0) >= 1,
                 "%s: a weight of [%lld, %lld] is not supported", op,
                 static_cast<long long>(weight.size(0)), static_cast<long long>(weight.size(1)));
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d < input.dim(); ++d) sizes[d] = input.size(d);
  sizes[input.dim() - 1] = weight.size(0);
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, static_cast<size_t>(input.dim())), op)) {
    return false;
  }
  *depth = static_cast<int32_t>(weight.size(1));
  *channels = static_cast<int32_t>(weight.size(0));
  *rows = static_cast<int32_t>(input.numel() / weight.size(1));
  return true;
}

// ops.py FC_PARAMS
enum FcParam { kFcOutputZero, kFcMin, kFcMax, kFcParams };

void fully_connected_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                            const Tensor& params, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::fully_connected_s8";
  int32_t rows, depth, channels;
  if (!fc_shape(ctx, op, input, weight, ScalarType::Char, out, &rows, &depth, &channels)) return;
  const int32_t* p = read_params(ctx, op, params, kFcParams, 3, channels);
  const int32_t* bias;
  Requant q;
  if (p == nullptr || !channel_rows(ctx, op, p, kFcParams, channels, &bias, &q) ||
      !output_range(ctx, op, p[kFcOutputZero], p[kFcMin], p[kFcMax], &q)) {
    return;
  }
  fully_connected_s8(kVariant, input.const_data_ptr<int8_t>(), rows, depth, channels,
                     weight.const_data_ptr<int8_t>(), bias, q, out.mutable_data_ptr<int8_t>());
}

void fully_connected_s8_f32_out(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                                const Tensor& bias, const Tensor& scale, const Tensor* float_bias,
                                Tensor& out) {
  constexpr const char* op = "ember_cortex_m::fully_connected_s8_f32";
  int32_t rows, depth, channels;
  if (!fc_shape(ctx, op, input, weight, ScalarType::Float, out, &rows, &depth, &channels) ||
      !check_bias(ctx, op, bias, channels) ||
      !check_vector(ctx, op, "scale", scale, ScalarType::Float, channels) ||
      (float_bias != nullptr &&
       !check_vector(ctx, op, "float_bias", *float_bias, ScalarType::Float, channels))) {
    return;
  }
  fully_connected_s8_f32(kVariant, input.const_data_ptr<int8_t>(), rows, depth, channels,
                         weight.const_data_ptr<int8_t>(), bias.const_data_ptr<int32_t>(),
                         scale.const_data_ptr<float>(),
                         float_bias != nullptr ? float_bias->const_data_ptr<float>() : nullptr,
                         out.mutable_data_ptr<float>());
}

bool same_sizes(const Tensor& a, const Tensor& b) {
  if (a.dim() != b.dim()) return false;
  for (int d = 0; d < a.dim(); ++d) {
    if (a.size(d) != b.size(d)) return false;
  }
  return true;
}

// ops.py ADD_PARAMS
enum AddParam { kAZero, kAMult, kAShift, kBZero, kBMult, kBShift, kLeftShift, kAddOutZero,
                kAddOutMult, kAddOutShift, kAddMin, kAddMax, kAddParams };

void add_s8_out(KernelContext& ctx, const Tensor& a, const Tensor& b, const Tensor& params,
                Tensor& out) {
  constexpr const char* op = "ember_cortex_m::add_s8";
  const int32_t* p = read_params(ctx, op, params, kAddParams);
  if (p == nullptr || !check_tensor(ctx, op, "a", a, ScalarType::Char, -1) ||
      !check_tensor(ctx, op, "b", b, ScalarType::Char, a.dim()) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, a.dim())) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, same_sizes(a, b), "%s: a and b must have the same sizes", op);
  if (!check_int8_range(ctx, op, "a_zero_point", p[kAZero]) ||
      !check_int8_range(ctx, op, "b_zero_point", p[kBZero]) ||
      !check_int8_range(ctx, op, "output_zero_point", p[kAddOutZero]) ||
      !check_range(ctx, op, "a_multiplier", p[kAMult], 0, kInt32Max) ||
      !check_range(ctx, op, "b_multiplier", p[kBMult], 0, kInt32Max) ||
      !check_range(ctx, op, "output_multiplier", p[kAddOutMult], 0, kInt32Max) ||
      !check_range(ctx, op, "a_shift", p[kAShift], -31, 0) ||
      !check_range(ctx, op, "b_shift", p[kBShift], -31, 0) ||
      !check_range(ctx, op, "output_shift", p[kAddOutShift], -31, 30) ||
      !check_range(ctx, op, "left_shift", p[kLeftShift], 0, 20) ||
      !check_activation(ctx, op, p[kAddMin], p[kAddMax]) ||
      !resize_output(ctx, out, a.sizes(), op)) {
    return;
  }
  const AddParams ap{p[kAZero], p[kAMult], p[kAShift], p[kBZero], p[kBMult], p[kBShift],
                     p[kLeftShift], p[kAddOutZero], p[kAddOutMult], p[kAddOutShift], p[kAddMin],
                     p[kAddMax]};
  add_s8(kVariant, ap, a.const_data_ptr<int8_t>(), b.const_data_ptr<int8_t>(),
         out.mutable_data_ptr<int8_t>(), static_cast<int32_t>(a.numel()));
}

// ops.py AVG_POOL_PARAMS and MAX_POOL_PARAMS: the window, then (average)
// count_include_pad and the zero point, then the clamp.
enum PoolParam { kKernelH, kKernelW, kPoolStrideH, kPoolStrideW, kPoolPadH, kPoolPadW,
                 kMaxPoolMin = 6, kMaxPoolMax, kMaxPoolParams,
                 kCountIncludePad = 6, kPoolZero, kAvgPoolMin, kAvgPoolMax, kAvgPoolParams };

bool pool_shape(KernelContext& ctx, const char* op, const Tensor& input, const int32_t* p,
                int32_t activation_min, int32_t activation_max, Tensor& out, PoolShape* s) {
  if (!check_tensor(ctx, op, "input", input, ScalarType::Char, 4) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, 4) ||
      !check_range(ctx, op, "kernel size", p[kKernelH], 1, 1 << 16) ||
      !check_range(ctx, op, "kernel size", p[kKernelW], 1, 1 << 16) ||
      !check_range(ctx, op, "stride", p[kPoolStrideH], 1, 1 << 16) ||
      !check_range(ctx, op, "stride", p[kPoolStrideW], 1, 1 << 16) ||
      !check_range(ctx, op, "padding", p[kPoolPadH], 0, p[kKernelH] / 2) ||
      !check_range(ctx, op, "padding", p[kPoolPadW], 0, p[kKernelW] / 2) ||
      !check_activation(ctx, op, activation_min, activation_max)) {
    return false;
  }
  EMBER_CM_CHECK(static_cast<int64_t>(p[kKernelH]) * p[kKernelW] <= kMaxDepth,
                 "%s: the window exceeds the int32 sum's bound", op);
  int64_t out_h, out_w;
  if (!window_output(ctx, op, input.size(1), p[kKernelH], p[kPoolStrideH], p[kPoolPadH], 1,
                     &out_h) ||
      !window_output(ctx, op, input.size(2), p[kKernelW], p[kPoolStrideW], p[kPoolPadW], 1,
                     &out_w) ||
      !resize_nhwc(ctx, op, out, input.size(0), out_h, out_w, input.size(3))) {
    return false;
  }
  *s = PoolShape{static_cast<int32_t>(input.size(0)), static_cast<int32_t>(input.size(1)),
                 static_cast<int32_t>(input.size(2)), static_cast<int32_t>(input.size(3)),
                 static_cast<int32_t>(out_h), static_cast<int32_t>(out_w), p[kKernelH],
                 p[kKernelW], p[kPoolStrideH], p[kPoolStrideW], p[kPoolPadH], p[kPoolPadW], 0,
                 false, activation_min, activation_max};
  return true;
}

void avg_pool2d_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& params,
                       Tensor& out) {
  constexpr const char* op = "ember_cortex_m::avg_pool2d_s8";
  const int32_t* p = read_params(ctx, op, params, kAvgPoolParams);
  PoolShape s;
  if (p == nullptr || !check_int8_range(ctx, op, "zero_point", p[kPoolZero]) ||
      !check_range(ctx, op, "count_include_pad", p[kCountIncludePad], 0, 1) ||
      !pool_shape(ctx, op, input, p, p[kAvgPoolMin], p[kAvgPoolMax], out, &s)) {
    return;
  }
  s.zero_point = p[kPoolZero];
  s.count_include_pad = p[kCountIncludePad] != 0;
  avg_pool2d_s8(kVariant, s, input.const_data_ptr<int8_t>(), out.mutable_data_ptr<int8_t>());
}

void max_pool2d_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& params,
                       Tensor& out) {
  constexpr const char* op = "ember_cortex_m::max_pool2d_s8";
  const int32_t* p = read_params(ctx, op, params, kMaxPoolParams);
  PoolShape s;
  if (p == nullptr || !pool_shape(ctx, op, input, p, p[kMaxPoolMin], p[kMaxPoolMax], out, &s)) {
    return;
  }
  max_pool2d_s8(kVariant, s, input.const_data_ptr<int8_t>(), out.mutable_data_ptr<int8_t>());
}

// ops.py SOFTMAX_PARAMS, then the 256 entries of the exp table.
enum SoftmaxParam { kInvScale, kSoftmaxZero, kSoftmaxParams };
constexpr int64_t kExpTable = 256;

void softmax_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& params, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::softmax_s8";
  const int32_t* p = read_params(ctx, op, params, kSoftmaxParams, 1, kExpTable);
  if (p == nullptr || !check_tensor(ctx, op, "input", input, ScalarType::Char, -1) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, input.dim()) ||
      !check_range(ctx, op, "inv_output_scale_q16", p[kInvScale], 0, kInt32Max) ||
      !check_int8_range(ctx, op, "output_zero_point", p[kSoftmaxZero]) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, input.dim() >= 1 && input.size(-1) >= 1, "%s: rows must not be empty", op);
  const int32_t* table = p + kSoftmaxParams;
  for (int64_t i = 0; i < kExpTable; ++i) {
    if (!check_range(ctx, op, "an exp_table entry", table[i], 0, 1 << 16)) return;
  }
  const int32_t length = static_cast<int32_t>(input.size(-1));
  softmax_s8(kVariant, input.const_data_ptr<int8_t>(), static_cast<int32_t>(input.numel() / length),
             length, table, p[kInvScale], p[kSoftmaxZero], out.mutable_data_ptr<int8_t>());
}

// ops.py REQUANTIZE_PARAMS
enum RequantizeParam { kInZero, kMult, kShift, kOutZero, kRequantizeParams };

void requantize_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& params, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::requantize_s8";
  const int32_t* p = read_params(ctx, op, params, kRequantizeParams);
  if (p == nullptr || !check_tensor(ctx, op, "input", input, ScalarType::Char, -1) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, input.dim()) ||
      !check_int8_range(ctx, op, "input_zero_point", p[kInZero]) ||
      !check_int8_range(ctx, op, "output_zero_point", p[kOutZero]) ||
      !check_range(ctx, op, "multiplier", p[kMult], 0, kInt32Max) ||
      !check_range(ctx, op, "shift", p[kShift], -31, 30) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  requantize_s8(kVariant, input.const_data_ptr<int8_t>(), static_cast<int32_t>(input.numel()),
                p[kInZero], p[kMult], p[kShift], p[kOutZero], out.mutable_data_ptr<int8_t>());
}

bool check_scale(KernelContext& ctx, const char* op, double scale) {
  EMBER_CM_CHECK(scale > 0 && scale < std::numeric_limits<float>::max(),
                     "%s: scale %g must be positive and finite", op, scale);
  return true;
}

void quantize_s8_out(KernelContext& ctx, const Tensor& input, double scale, int64_t zero_point,
                     int64_t quant_min, int64_t quant_max, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::quantize_s8";
  if (!check_tensor(ctx, op, "input", input, ScalarType::Float, -1) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, input.dim()) || !check_scale(ctx, op, scale) ||
      !check_int8_range(ctx, op, "quant_min", quant_min) ||
      !check_range(ctx, op, "quant_max", quant_max, quant_min, 127) ||
      !check_range(ctx, op, "zero_point", zero_point, quant_min, quant_max) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  quantize_f32_s8(kVariant, input.const_data_ptr<float>(), static_cast<int32_t>(input.numel()),
                  static_cast<float>(1.0 / scale), static_cast<int32_t>(zero_point),
                  static_cast<int32_t>(quant_min), static_cast<int32_t>(quant_max),
                  out.mutable_data_ptr<int8_t>());
}

void dequantize_s8_out(KernelContext& ctx, const Tensor& input, double scale, int64_t zero_point,
                       Tensor& out) {
  constexpr const char* op = "ember_cortex_m::dequantize_s8";
  if (!check_tensor(ctx, op, "input", input, ScalarType::Char, -1) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Float, input.dim()) ||
      !check_scale(ctx, op, scale) || !check_int8_range(ctx, op, "zero_point", zero_point) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  dequantize_s8_f32(kVariant, input.const_data_ptr<int8_t>(), static_cast<int32_t>(input.numel()),
                    static_cast<float>(scale), static_cast<int32_t>(zero_point),
                    out.mutable_data_ptr<float>());
}

constexpr DtypeMask kInt8 = dtype_bit(ScalarType::Char);
constexpr DtypeMask kFloat32 = dtype_bit(ScalarType::Float);

EMBER_REGISTER_KERNEL("ember_cortex_m::conv2d_s8.out", conv2d_s8_out, kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::depthwise_conv2d_s8.out", depthwise_conv2d_s8_out, kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::fully_connected_s8.out", fully_connected_s8_out, kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::fully_connected_s8_f32.out", fully_connected_s8_f32_out,
                      kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::add_s8.out", add_s8_out, kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::avg_pool2d_s8.out", avg_pool2d_s8_out, kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::max_pool2d_s8.out", max_pool2d_s8_out, kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::softmax_s8.out", softmax_s8_out, kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::requantize_s8.out", requantize_s8_out, kInt8);
EMBER_REGISTER_KERNEL("ember_cortex_m::quantize_s8.out", quantize_s8_out, kFloat32);
EMBER_REGISTER_KERNEL("ember_cortex_m::dequantize_s8.out", dequantize_s8_out, kInt8);

}  // namespace
}  // namespace ember::cortex_m
