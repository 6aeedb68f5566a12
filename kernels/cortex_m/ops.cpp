// The Cortex-M int8 operators a program calls (ember_cortex_m::*.out, written
// by ember.targets.cortex_m's export), each checking its arguments before it
// touches memory (a .pte is untrusted) and then calling the build's variant
// (EMBER_CORTEX_M_VARIANT: 0 scalar, 1 DSP, 2 Helium; the host is scalar).
// Tensors are int8 NHWC (activations), weights as s8_kernels.h lays them out.
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

bool check_pair(KernelContext& ctx, const char* op, const char* what, IntArrayRef list,
                int64_t low) {
  if (list.size() != 2) {
    ctx.fail(Error::InvalidArgument, "%s: %s must have 2 values, not %zu", op, what, list.size());
    return false;
  }
  return check_range(ctx, op, what, list[0], low, 1 << 16) &&
         check_range(ctx, op, what, list[1], low, 1 << 16);
}

bool check_int8_range(KernelContext& ctx, const char* op, const char* what, int64_t value) {
  return check_range(ctx, op, what, value, -128, 127);
}

bool check_activation(KernelContext& ctx, const char* op, int64_t low, int64_t high) {
  return check_int8_range(ctx, op, "activation_min", low) &&
         check_int8_range(ctx, op, "activation_max", high) &&
         check_range(ctx, op, "activation_min", low, -128, high);
}

// Q31 multipliers and shifts (quant_math.h): one per channel.
bool check_requant(KernelContext& ctx, const char* op, const Tensor& multiplier,
                   const Tensor& shift, int64_t channels) {
  if (!check_vector(ctx, op, "multiplier", multiplier, ScalarType::Int, channels) ||
      !check_vector(ctx, op, "shift", shift, ScalarType::Int, channels)) {
    return false;
  }
  const int32_t* m = multiplier.const_data_ptr<int32_t>();
  const int32_t* s = shift.const_data_ptr<int32_t>();
  for (int64_t c = 0; c < channels; ++c) {
    if (!check_range(ctx, op, "a multiplier", m[c], 0, kInt32Max) ||
        !check_range(ctx, op, "a shift", s[c], -31, 30)) {
      return false;
    }
  }
  return true;
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

// The shape of a convolution's call, checked; false (the kernel failed) when
// its arguments do not describe one.
bool conv_shape(KernelContext& ctx, const char* op, const Tensor& input, int64_t out_c,
                int64_t kernel_h, int64_t kernel_w, IntArrayRef stride, IntArrayRef padding,
                IntArrayRef dilation, int64_t input_zero_point, ConvShape* s) {
  if (!check_tensor(ctx, op, "input", input, ScalarType::Char, 4) ||
      !check_pair(ctx, op, "stride", stride, 1) || !check_pair(ctx, op, "padding", padding, 0) ||
      !check_pair(ctx, op, "dilation", dilation, 1) ||
      !check_int8_range(ctx, op, "input_zero_point", input_zero_point) ||
      !check_range(ctx, op, "out channels", out_c, 1, kInt32Max)) {
    return false;
  }
  int64_t out_h, out_w;
  if (!window_output(ctx, op, input.size(1), kernel_h, stride[0], padding[0], dilation[0], &out_h) ||
      !window_output(ctx, op, input.size(2), kernel_w, stride[1], padding[1], dilation[1], &out_w)) {
    return false;
  }
  *s = ConvShape{static_cast<int32_t>(input.size(0)), static_cast<int32_t>(input.size(1)),
                 static_cast<int32_t>(input.size(2)), static_cast<int32_t>(input.size(3)),
                 static_cast<int32_t>(out_h), static_cast<int32_t>(out_w),
                 static_cast<int32_t>(out_c), static_cast<int32_t>(kernel_h),
                 static_cast<int32_t>(kernel_w), static_cast<int32_t>(stride[0]),
                 static_cast<int32_t>(stride[1]), static_cast<int32_t>(padding[0]),
                 static_cast<int32_t>(padding[1]), static_cast<int32_t>(dilation[0]),
                 static_cast<int32_t>(dilation[1]), static_cast<int32_t>(input_zero_point), 1};
  return true;
}

Requant requant_of(const Tensor& multiplier, const Tensor& shift, int64_t zero_point, int64_t low,
                   int64_t high) {
  return Requant{multiplier.const_data_ptr<int32_t>(), shift.const_data_ptr<int32_t>(),
                 static_cast<int32_t>(zero_point), static_cast<int32_t>(low),
                 static_cast<int32_t>(high)};
}

void conv2d_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                   const Tensor& bias, const Tensor& multiplier, const Tensor& shift,
                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                   int64_t input_zero_point, int64_t output_zero_point, int64_t activation_min,
                   int64_t activation_max, int64_t scratch_bytes, Tensor& out, Tensor& scratch) {
  // scratch_bytes is what the exporter planned `scratch` for (its size).
  constexpr const char* op = "ember_cortex_m::conv2d_s8";
  ConvShape s;
  if (!check_tensor(ctx, op, "weight", weight, ScalarType::Char, 4) ||
      !conv_shape(ctx, op, input, weight.size(0), weight.size(1), weight.size(2), stride, padding,
                  dilation, input_zero_point, &s)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, weight.size(3) == s.in_c,
                     "%s: the weight has %lld input channels, the input %d", op,
                     static_cast<long long>(weight.size(3)), static_cast<int>(s.in_c));
  EMBER_KERNEL_CHECK(ctx, weight.numel() / s.out_c <= kMaxDepth,
                     "%s: %lld products per output exceed the int32 accumulator's bound", op,
                     static_cast<long long>(weight.numel() / s.out_c));
  if (!check_bias(ctx, op, bias, s.out_c) || !check_requant(ctx, op, multiplier, shift, s.out_c) ||
      !check_int8_range(ctx, op, "output_zero_point", output_zero_point) ||
      !check_activation(ctx, op, activation_min, activation_max) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, 4) ||
      !check_tensor(ctx, op, "scratch", scratch, ScalarType::Char, -1) ||
      !resize_nhwc(ctx, op, out, s.batches, s.out_h, s.out_w, s.out_c)) {
    return;
  }
  const size_t need = conv2d_scratch_bytes(kVariant, s);
  EMBER_KERNEL_CHECK(ctx, scratch.nbytes() >= need,
                     "%s: the %s kernel needs %zu bytes of scratch, the program plans %zu (export "
                     "for this target)", op, variant_name(kVariant), need, scratch.nbytes());
  conv2d_s8(kVariant, s, input.const_data_ptr<int8_t>(), weight.const_data_ptr<int8_t>(),
            bias.const_data_ptr<int32_t>(),
            requant_of(multiplier, shift, output_zero_point, activation_min, activation_max),
            scratch.mutable_data_ptr<int8_t>(), out.mutable_data_ptr<int8_t>());
}

void depthwise_conv2d_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                             const Tensor& bias, const Tensor& multiplier, const Tensor& shift,
                             IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                             int64_t depth_multiplier, int64_t input_zero_point,
                             int64_t output_zero_point, int64_t activation_min,
                             int64_t activation_max, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::depthwise_conv2d_s8";
  ConvShape s;
  if (!check_tensor(ctx, op, "weight", weight, ScalarType::Char, 3) ||
      !check_range(ctx, op, "depth_multiplier", depth_multiplier, 1, 1 << 16) ||
      !conv_shape(ctx, op, input, weight.size(2), weight.size(0), weight.size(1), stride, padding,
                  dilation, input_zero_point, &s)) {
    return;
  }
  s.depth_multiplier = static_cast<int32_t>(depth_multiplier);
  EMBER_KERNEL_CHECK(ctx, static_cast<int64_t>(s.in_c) * depth_multiplier == s.out_c,
                     "%s: %d input channels times depth multiplier %lld is not the weight's %d "
                     "output channels", op, static_cast<int>(s.in_c),
                     static_cast<long long>(depth_multiplier), static_cast<int>(s.out_c));
  EMBER_KERNEL_CHECK(ctx, static_cast<int64_t>(s.kernel_h) * s.kernel_w <= kMaxDepth,
                     "%s: the window exceeds the int32 accumulator's bound", op);
  if (!check_bias(ctx, op, bias, s.out_c) || !check_requant(ctx, op, multiplier, shift, s.out_c) ||
      !check_int8_range(ctx, op, "output_zero_point", output_zero_point) ||
      !check_activation(ctx, op, activation_min, activation_max) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, 4) ||
      !resize_nhwc(ctx, op, out, s.batches, s.out_h, s.out_w, s.out_c)) {
    return;
  }
  depthwise_conv2d_s8(kVariant, s, input.const_data_ptr<int8_t>(), weight.const_data_ptr<int8_t>(),
                      bias.const_data_ptr<int32_t>(),
                      requant_of(multiplier, shift, output_zero_point, activation_min, activation_max),
                      out.mutable_data_ptr<int8_t>());
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

void fully_connected_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& weight,
                            const Tensor& bias, const Tensor& multiplier, const Tensor& shift,
                            int64_t output_zero_point, int64_t activation_min,
                            int64_t activation_max, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::fully_connected_s8";
  int32_t rows, depth, channels;
  if (!fc_shape(ctx, op, input, weight, ScalarType::Char, out, &rows, &depth, &channels) ||
      !check_bias(ctx, op, bias, channels) || !check_requant(ctx, op, multiplier, shift, channels) ||
      !check_int8_range(ctx, op, "output_zero_point", output_zero_point) ||
      !check_activation(ctx, op, activation_min, activation_max)) {
    return;
  }
  fully_connected_s8(kVariant, input.const_data_ptr<int8_t>(), rows, depth, channels,
                     weight.const_data_ptr<int8_t>(), bias.const_data_ptr<int32_t>(),
                     requant_of(multiplier, shift, output_zero_point, activation_min, activation_max),
                     out.mutable_data_ptr<int8_t>());
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

void add_s8_out(KernelContext& ctx, const Tensor& a, const Tensor& b, int64_t a_zero_point,
                int64_t a_multiplier, int64_t a_shift, int64_t b_zero_point, int64_t b_multiplier,
                int64_t b_shift, int64_t left_shift, int64_t output_zero_point,
                int64_t output_multiplier, int64_t output_shift, int64_t activation_min,
                int64_t activation_max, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::add_s8";
  if (!check_tensor(ctx, op, "a", a, ScalarType::Char, -1) ||
      !check_tensor(ctx, op, "b", b, ScalarType::Char, a.dim()) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, a.dim())) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, same_sizes(a, b), "%s: a and b must have the same sizes", op);
  if (!check_int8_range(ctx, op, "a_zero_point", a_zero_point) ||
      !check_int8_range(ctx, op, "b_zero_point", b_zero_point) ||
      !check_int8_range(ctx, op, "output_zero_point", output_zero_point) ||
      !check_range(ctx, op, "a_multiplier", a_multiplier, 0, kInt32Max) ||
      !check_range(ctx, op, "b_multiplier", b_multiplier, 0, kInt32Max) ||
      !check_range(ctx, op, "output_multiplier", output_multiplier, 0, kInt32Max) ||
      !check_range(ctx, op, "a_shift", a_shift, -31, 0) ||
      !check_range(ctx, op, "b_shift", b_shift, -31, 0) ||
      !check_range(ctx, op, "output_shift", output_shift, -31, 30) ||
      !check_range(ctx, op, "left_shift", left_shift, 0, 20) ||
      !check_activation(ctx, op, activation_min, activation_max) ||
      !resize_output(ctx, out, a.sizes(), op)) {
    return;
  }
  const AddParams p{static_cast<int32_t>(a_zero_point), static_cast<int32_t>(a_multiplier),
                    static_cast<int32_t>(a_shift), static_cast<int32_t>(b_zero_point),
                    static_cast<int32_t>(b_multiplier), static_cast<int32_t>(b_shift),
                    static_cast<int32_t>(left_shift), static_cast<int32_t>(output_zero_point),
                    static_cast<int32_t>(output_multiplier), static_cast<int32_t>(output_shift),
                    static_cast<int32_t>(activation_min), static_cast<int32_t>(activation_max)};
  add_s8(kVariant, p, a.const_data_ptr<int8_t>(), b.const_data_ptr<int8_t>(),
         out.mutable_data_ptr<int8_t>(), static_cast<int32_t>(a.numel()));
}

bool pool_shape(KernelContext& ctx, const char* op, const Tensor& input, IntArrayRef kernel,
                IntArrayRef stride, IntArrayRef padding, int64_t activation_min,
                int64_t activation_max, Tensor& out, PoolShape* s) {
  if (!check_tensor(ctx, op, "input", input, ScalarType::Char, 4) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, 4) ||
      !check_pair(ctx, op, "kernel_size", kernel, 1) || !check_pair(ctx, op, "stride", stride, 1) ||
      !check_pair(ctx, op, "padding", padding, 0) ||
      !check_activation(ctx, op, activation_min, activation_max)) {
    return false;
  }
  EMBER_CM_CHECK(padding[0] * 2 <= kernel[0] && padding[1] * 2 <= kernel[1],
                     "%s: padding must be at most half the kernel size", op);
  EMBER_CM_CHECK(kernel[0] * kernel[1] <= kMaxDepth,
                     "%s: the window exceeds the int32 sum's bound", op);
  int64_t out_h, out_w;
  if (!window_output(ctx, op, input.size(1), kernel[0], stride[0], padding[0], 1, &out_h) ||
      !window_output(ctx, op, input.size(2), kernel[1], stride[1], padding[1], 1, &out_w) ||
      !resize_nhwc(ctx, op, out, input.size(0), out_h, out_w, input.size(3))) {
    return false;
  }
  *s = PoolShape{static_cast<int32_t>(input.size(0)), static_cast<int32_t>(input.size(1)),
                 static_cast<int32_t>(input.size(2)), static_cast<int32_t>(input.size(3)),
                 static_cast<int32_t>(out_h), static_cast<int32_t>(out_w),
                 static_cast<int32_t>(kernel[0]), static_cast<int32_t>(kernel[1]),
                 static_cast<int32_t>(stride[0]), static_cast<int32_t>(stride[1]),
                 static_cast<int32_t>(padding[0]), static_cast<int32_t>(padding[1]), 0, false,
                 static_cast<int32_t>(activation_min), static_cast<int32_t>(activation_max)};
  return true;
}

void avg_pool2d_s8_out(KernelContext& ctx, const Tensor& input, IntArrayRef kernel_size,
                       IntArrayRef stride, IntArrayRef padding, bool count_include_pad,
                       int64_t zero_point, int64_t activation_min, int64_t activation_max,
                       Tensor& out) {
  constexpr const char* op = "ember_cortex_m::avg_pool2d_s8";
  PoolShape s;
  if (!check_int8_range(ctx, op, "zero_point", zero_point) ||
      !pool_shape(ctx, op, input, kernel_size, stride, padding, activation_min, activation_max, out,
                  &s)) {
    return;
  }
  s.zero_point = static_cast<int32_t>(zero_point);
  s.count_include_pad = count_include_pad;
  avg_pool2d_s8(kVariant, s, input.const_data_ptr<int8_t>(), out.mutable_data_ptr<int8_t>());
}

void max_pool2d_s8_out(KernelContext& ctx, const Tensor& input, IntArrayRef kernel_size,
                       IntArrayRef stride, IntArrayRef padding, int64_t activation_min,
                       int64_t activation_max, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::max_pool2d_s8";
  PoolShape s;
  if (!pool_shape(ctx, op, input, kernel_size, stride, padding, activation_min, activation_max, out,
                  &s)) {
    return;
  }
  max_pool2d_s8(kVariant, s, input.const_data_ptr<int8_t>(), out.mutable_data_ptr<int8_t>());
}

void softmax_s8_out(KernelContext& ctx, const Tensor& input, const Tensor& exp_table,
                    int64_t inv_output_scale_q16, int64_t output_zero_point, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::softmax_s8";
  if (!check_tensor(ctx, op, "input", input, ScalarType::Char, -1) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, input.dim()) ||
      !check_vector(ctx, op, "exp_table", exp_table, ScalarType::Int, 256) ||
      !check_range(ctx, op, "inv_output_scale_q16", inv_output_scale_q16, 0, kInt32Max) ||
      !check_int8_range(ctx, op, "output_zero_point", output_zero_point) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, input.dim() >= 1 && input.size(-1) >= 1, "%s: rows must not be empty", op);
  const int32_t* table = exp_table.const_data_ptr<int32_t>();
  for (int i = 0; i < 256; ++i) {
    if (!check_range(ctx, op, "an exp_table entry", table[i], 0, 1 << 16)) return;
  }
  const int32_t length = static_cast<int32_t>(input.size(-1));
  softmax_s8(kVariant, input.const_data_ptr<int8_t>(), static_cast<int32_t>(input.numel() / length),
             length, table, static_cast<int32_t>(inv_output_scale_q16),
             static_cast<int32_t>(output_zero_point), out.mutable_data_ptr<int8_t>());
}

void requantize_s8_out(KernelContext& ctx, const Tensor& input, int64_t input_zero_point,
                       int64_t multiplier, int64_t shift, int64_t output_zero_point, Tensor& out) {
  constexpr const char* op = "ember_cortex_m::requantize_s8";
  if (!check_tensor(ctx, op, "input", input, ScalarType::Char, -1) ||
      !check_tensor(ctx, op, "out", out, ScalarType::Char, input.dim()) ||
      !check_int8_range(ctx, op, "input_zero_point", input_zero_point) ||
      !check_int8_range(ctx, op, "output_zero_point", output_zero_point) ||
      !check_range(ctx, op, "multiplier", multiplier, 0, kInt32Max) ||
      !check_range(ctx, op, "shift", shift, -31, 30) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  requantize_s8(kVariant, input.const_data_ptr<int8_t>(), static_cast<int32_t>(input.numel()),
                static_cast<int32_t>(input_zero_point), static_cast<int32_t>(multiplier),
                static_cast<int32_t>(shift), static_cast<int32_t>(output_zero_point),
                out.mutable_data_ptr<int8_t>());
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
