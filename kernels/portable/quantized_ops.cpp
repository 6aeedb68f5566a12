// Reference kernels of the quantized operators a quantized program calls
// (quantized_decomposed::*, the names and argument lists of ExecuTorch's
// kernels/quantized, and ember_quant::unpack_int4). Each computes what
// PyTorch's own implementation (torch/ao/quantization/fx/_decomposed.py)
// computes, in the same types and the same order: round half to even
// (torch.round), then the clamp, then the cast; per-channel and per-token
// parameters promote the arithmetic to their dtype as the tensor ops do there.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/portable/util/kernel_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

constexpr DtypeMask kQuantTypes = dtype_bit(ScalarType::Byte) | dtype_bit(ScalarType::Char) |
                                  dtype_bit(ScalarType::Short) | dtype_bit(ScalarType::Int);

// Calls fn(Q{}) with Q the C type of a quantized dtype; false for other dtypes.
template <typename Fn>
bool with_quant_type(ScalarType type, Fn&& fn) {
  switch (type) {
    case ScalarType::Byte: fn(uint8_t{}); return true;
    case ScalarType::Char: fn(int8_t{}); return true;
    case ScalarType::Short: fn(int16_t{}); return true;
    case ScalarType::Int: fn(int32_t{}); return true;
    default: return false;
  }
}

// Calls fn(F{}) with F float or double.
template <typename Fn>
bool with_float_type(ScalarType type, Fn&& fn) {
  switch (type) {
    case ScalarType::Float: fn(float{}); return true;
    case ScalarType::Double: fn(double{}); return true;
    default: return false;
  }
}

template <typename Q>
bool range_fits(int64_t qmin, int64_t qmax) {
  return qmin <= qmax && qmin >= std::numeric_limits<Q>::min() &&
         qmax <= std::numeric_limits<Q>::max();
}

// The quantized dtype argument, checked against the tensor that has it and
// against [qmin, qmax].
bool check_quantized(KernelContext& ctx, const char* op, int64_t dtype_code, const Tensor& t,
                     int64_t qmin, int64_t qmax) {
  if (!is_valid_scalar_type(static_cast<int>(dtype_code)) ||
      static_cast<ScalarType>(dtype_code) != t.scalar_type()) {
    ctx.fail(Error::InvalidArgument, "%s: the quantized tensor is %s but dtype is %lld", op,
             scalar_type_name(t.scalar_type()), static_cast<long long>(dtype_code));
    return false;
  }
  bool fits = false;
  if (!with_quant_type(t.scalar_type(), [&](auto q) { fits = range_fits<decltype(q)>(qmin, qmax); })) {
    ctx.fail(Error::NotSupported, "%s: quantized dtype %s is not supported (uint8, int8, int16, "
             "int32 are)", op, scalar_type_name(t.scalar_type()));
    return false;
  }
  if (!fits) {
    ctx.fail(Error::InvalidArgument, "%s: [quant_min, quant_max] = [%lld, %lld] does not fit %s",
             op, static_cast<long long>(qmin), static_cast<long long>(qmax),
             scalar_type_name(t.scalar_type()));
    return false;
  }
  return true;
}

bool check_dtype(KernelContext& ctx, const char* op, const char* what, const Tensor& t,
                 ScalarType want) {
  if (t.scalar_type() != want) {
    ctx.fail(Error::InvalidArgument, "%s: %s must be %s, not %s", op, what,
             scalar_type_name(want), scalar_type_name(t.scalar_type()));
    return false;
  }
  return true;
}

bool check_float_input(KernelContext& ctx, const char* op, const Tensor& input) {
  return check_dtype(ctx, op, "input", input, ScalarType::Float) && check_contiguous(ctx, op, input);
}

// The float dtype a dequantize writes: out_dtype when given, else Float.
bool check_dequant_out(KernelContext& ctx, const char* op, std::optional<int64_t> out_dtype,
                       const Tensor& out) {
  const ScalarType want = out_dtype.has_value() && is_valid_scalar_type(static_cast<int>(*out_dtype))
                              ? static_cast<ScalarType>(*out_dtype)
                              : ScalarType::Float;
  if (out_dtype.has_value() && !is_valid_scalar_type(static_cast<int>(*out_dtype))) {
    ctx.fail(Error::InvalidArgument, "%s: out_dtype %lld is not a dtype", op,
             static_cast<long long>(*out_dtype));
    return false;
  }
  if (want != ScalarType::Float && want != ScalarType::Double) {
    ctx.fail(Error::NotSupported, "%s: dequantizing to %s is not supported (float32, float64 are)",
             op, scalar_type_name(want));
    return false;
  }
  return check_dtype(ctx, op, "out", out, want);
}

// A float parameter tensor (scales) and an integer one (zero points) as
// values, by element.
double float_at(const Tensor& t, int64_t i) {
  return t.scalar_type() == ScalarType::Double ? t.const_data_ptr<double>()[i]
                                               : t.const_data_ptr<float>()[i];
}
int64_t int_at(const Tensor& t, int64_t i) {
  return t.scalar_type() == ScalarType::Long ? t.const_data_ptr<int64_t>()[i]
                                             : t.const_data_ptr<int32_t>()[i];
}

bool check_params(KernelContext& ctx, const char* op, const Tensor& scales,
                  const Tensor* zero_points, int64_t count) {
  if (scales.scalar_type() != ScalarType::Float && scales.scalar_type() != ScalarType::Double) {
    ctx.fail(Error::InvalidArgument, "%s: scales must be float32 or float64, not %s", op,
             scalar_type_name(scales.scalar_type()));
    return false;
  }
  if (scales.numel() != count) {
    ctx.fail(Error::InvalidArgument, "%s: expected %lld scales, got %lld", op,
             static_cast<long long>(count), static_cast<long long>(scales.numel()));
    return false;
  }
  if (zero_points == nullptr) return true;
  if (zero_points->scalar_type() != ScalarType::Long && zero_points->scalar_type() != ScalarType::Int) {
    ctx.fail(Error::InvalidArgument, "%s: zero points must be int64 or int32, not %s", op,
             scalar_type_name(zero_points->scalar_type()));
    return false;
  }
  if (zero_points->numel() != count) {
    ctx.fail(Error::InvalidArgument, "%s: expected %lld zero points, got %lld", op,
             static_cast<long long>(count), static_cast<long long>(zero_points->numel()));
    return false;
  }
  return true;
}

// torch.clamp(torch.round(v), qmin, qmax).to(Q) once the value is computed in
// S; NaN (which PyTorch leaves to the hardware's cast) becomes `nan_value`.
template <typename Q, typename S>
Q clamp_to(S v, int64_t qmin, int64_t qmax, int64_t nan_value) {
  if (std::isnan(v)) return static_cast<Q>(nan_value);
  v = std::min(std::max(v, static_cast<S>(qmin)), static_cast<S>(qmax));
  return static_cast<Q>(v);
}

// --- per tensor ------------------------------------------------------------------

// torch.clamp(torch.round(x * float(1 / scale)) + zero_point, qmin, qmax).to(dtype),
// all in float32: the Python scalars enter a float32 op as float32.
void quantize_per_tensor_impl(KernelContext& ctx, const char* op, const Tensor& input,
                              double scale, int64_t zero_point, int64_t qmin, int64_t qmax,
                              int64_t dtype, Tensor& out) {
  if (!check_float_input(ctx, op, input) || !check_quantized(ctx, op, dtype, out, qmin, qmax) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  const float inv = static_cast<float>(1.0 / scale);
  const float zp = static_cast<float>(zero_point);
  const float* x = input.const_data_ptr<float>();
  with_quant_type(out.scalar_type(), [&](auto tag) {
    using Q = decltype(tag);
    Q* y = out.mutable_data_ptr<Q>();
    for (int64_t i = 0; i < input.numel(); ++i) {
      y[i] = clamp_to<Q>(std::nearbyint(x[i] * inv) + zp, qmin, qmax, zero_point);
    }
  });
}

// (float(q) - float(zero_point)) * float(scale), in float32 (or float64 for out_dtype).
void dequantize_per_tensor_impl(KernelContext& ctx, const char* op, const Tensor& input,
                                double scale, int64_t zero_point, int64_t qmin, int64_t qmax,
                                int64_t dtype, std::optional<int64_t> out_dtype, Tensor& out) {
  if (!check_quantized(ctx, op, dtype, input, qmin, qmax) || !check_contiguous(ctx, op, input) ||
      !check_dequant_out(ctx, op, out_dtype, out) || !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  with_quant_type(input.scalar_type(), [&](auto qtag) {
    using Q = decltype(qtag);
    const Q* q = input.const_data_ptr<Q>();
    with_float_type(out.scalar_type(), [&](auto ftag) {
      using F = decltype(ftag);
      const F s = static_cast<F>(scale);
      const F zp = static_cast<F>(zero_point);
      F* y = out.mutable_data_ptr<F>();
      for (int64_t i = 0; i < input.numel(); ++i) y[i] = (static_cast<F>(q[i]) - zp) * s;
    });
  });
}

bool single_params(KernelContext& ctx, const char* op, const Tensor& scale,
                   const Tensor& zero_point, double* s, int64_t* zp) {
  if (!check_params(ctx, op, scale, &zero_point, 1)) return false;
  *s = float_at(scale, 0);
  *zp = int_at(zero_point, 0);
  return true;
}

void quantize_per_tensor_out(KernelContext& ctx, const Tensor& input, double scale,
                             int64_t zero_point, int64_t qmin, int64_t qmax, int64_t dtype,
                             Tensor& out) {
  quantize_per_tensor_impl(ctx, "quantize_per_tensor.out", input, scale, zero_point, qmin, qmax,
                           dtype, out);
}

void quantize_per_tensor_tensor_out(KernelContext& ctx, const Tensor& input, const Tensor& scale,
                                    const Tensor& zero_point, int64_t qmin, int64_t qmax,
                                    int64_t dtype, Tensor& out) {
  constexpr const char* op = "quantize_per_tensor.Tensor_out";
  double s;
  int64_t zp;
  if (single_params(ctx, op, scale, zero_point, &s, &zp)) {
    quantize_per_tensor_impl(ctx, op, input, s, zp, qmin, qmax, dtype, out);
  }
}

void dequantize_per_tensor_out(KernelContext& ctx, const Tensor& input, double scale,
                               int64_t zero_point, int64_t qmin, int64_t qmax, int64_t dtype,
                               std::optional<int64_t> out_dtype, Tensor& out) {
  dequantize_per_tensor_impl(ctx, "dequantize_per_tensor.out", input, scale, zero_point, qmin,
                             qmax, dtype, out_dtype, out);
}

void dequantize_per_tensor_tensor_out(KernelContext& ctx, const Tensor& input,
                                      const Tensor& scale, const Tensor& zero_point, int64_t qmin,
                                      int64_t qmax, int64_t dtype,
                                      std::optional<int64_t> out_dtype, Tensor& out) {
  constexpr const char* op = "dequantize_per_tensor.Tensor_out";
  double s;
  int64_t zp;
  if (single_params(ctx, op, scale, zero_point, &s, &zp)) {
    dequantize_per_tensor_impl(ctx, op, input, s, zp, qmin, qmax, dtype, out_dtype, out);
  }
}

// --- per channel -----------------------------------------------------------------

// Splits a row-major tensor around `axis`: outer x channels x inner.
struct AxisSplit {
  int64_t outer = 1, channels = 1, inner = 1;
};

bool split_axis(KernelContext& ctx, const char* op, const Tensor& t, int64_t axis, AxisSplit* s) {
  int64_t d;
  if (t.dim() == 0 || !normalize_dim(axis, t.dim(), &d)) {
    ctx.fail(Error::InvalidArgument, "%s: axis %lld is out of range for a %d-d tensor", op,
             static_cast<long long>(axis), t.dim());
    return false;
  }
  for (int i = 0; i < t.dim(); ++i) {
    if (i < d) s->outer *= t.size(i);
    if (i > d) s->inner *= t.size(i);
  }
  s->channels = t.size(d);
  return true;
}

// Blocks of elements that share one scale and zero point: block (o, g) is
// elements [(o * channels + g) * inner, + inner), with parameters g. Per
// channel it is the split around the axis; per token, one outer and a group
// per row.
//
// clamp(round(x * (1 / scales)) [+ zero_points inside or outside the round]):
// the reciprocal and the product in the scales' dtype (a float64 scale makes
// the product float64). PyTorch's per-channel op adds the zero point after
// rounding, its per-token op before.
void quantize_groups(const float* x, const Tensor& scales, const Tensor& zero_points,
                     const AxisSplit& split, bool shift_before_round, int64_t qmin, int64_t qmax,
                     Tensor& out) {
  with_quant_type(out.scalar_type(), [&](auto qtag) {
    using Q = decltype(qtag);
    Q* y = out.mutable_data_ptr<Q>();
    with_float_type(scales.scalar_type(), [&](auto stag) {
      using S = decltype(stag);
      const S* sc = scales.const_data_ptr<S>();
      for (int64_t o = 0; o < split.outer; ++o) {
        for (int64_t g = 0; g < split.channels; ++g) {
          const S inv = S(1) / sc[g];
          const int64_t zp = int_at(zero_points, g);
          const S shift = static_cast<S>(zp);
          const int64_t base = (o * split.channels + g) * split.inner;
          for (int64_t i = base; i < base + split.inner; ++i) {
            const S v = shift_before_round ? std::nearbyint(static_cast<S>(x[i]) * inv + shift)
                                           : std::nearbyint(static_cast<S>(x[i]) * inv) + shift;
            y[i] = clamp_to<Q>(v, qmin, qmax, zp);
          }
        }
      }
    });
  });
}

// (q - zero_points) * scales by block as above: the difference exact in int64,
// the product in the scales' dtype, then cast to out.
void dequantize_groups(const Tensor& input, const Tensor& scales, const Tensor* zero_points,
                       const AxisSplit& split, Tensor& out) {
  with_quant_type(input.scalar_type(), [&](auto qtag) {
    using Q = decltype(qtag);
    const Q* q = input.const_data_ptr<Q>();
    with_float_type(scales.scalar_type(), [&](auto stag) {
      using S = decltype(stag);
      const S* sc = scales.const_data_ptr<S>();
      with_float_type(out.scalar_type(), [&](auto ftag) {
        using F = decltype(ftag);
        F* y = out.mutable_data_ptr<F>();
        for (int64_t o = 0; o < split.outer; ++o) {
          for (int64_t g = 0; g < split.channels; ++g) {
            const int64_t zp = zero_points != nullptr ? int_at(*zero_points, g) : 0;
            const int64_t base = (o * split.channels + g) * split.inner;
            for (int64_t i = base; i < base + split.inner; ++i) {
              y[i] = static_cast<F>(static_cast<S>(static_cast<int64_t>(q[i]) - zp) * sc[g]);
            }
          }
        }
      });
    });
  });
}

void quantize_per_channel_out(KernelContext& ctx, const Tensor& input, const Tensor& scales,
                              const Tensor& zero_points, int64_t axis, int64_t qmin, int64_t qmax,
                              int64_t dtype, Tensor& out) {
  constexpr const char* op = "quantize_per_channel.out";
  AxisSplit split;
  if (!check_float_input(ctx, op, input) || !check_quantized(ctx, op, dtype, out, qmin, qmax) ||
      !split_axis(ctx, op, input, axis, &split) ||
      !check_params(ctx, op, scales, &zero_points, split.channels) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  quantize_groups(input.const_data_ptr<float>(), scales, zero_points, split,
                  /*shift_before_round=*/false, qmin, qmax, out);
}

void dequantize_per_channel_out(KernelContext& ctx, const Tensor& input, const Tensor& scales,
                                const Tensor* zero_points, int64_t axis, int64_t qmin,
                                int64_t qmax, int64_t dtype, std::optional<int64_t> out_dtype,
                                Tensor& out) {
  constexpr const char* op = "dequantize_per_channel.out";
  AxisSplit split;
  if (!check_quantized(ctx, op, dtype, input, qmin, qmax) || !check_contiguous(ctx, op, input) ||
      !check_dequant_out(ctx, op, out_dtype, out) || !split_axis(ctx, op, input, axis, &split) ||
      !check_params(ctx, op, scales, zero_points, split.channels) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  dequantize_groups(input, scales, zero_points, split, out);
}

// --- per token -------------------------------------------------------------------

// The tokens: one group per row of the last dim.
bool token_rows(KernelContext& ctx, const char* op, const Tensor& t, AxisSplit* rows) {
  if (t.dim() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: per-token quantization needs at least one dim", op);
    return false;
  }
  rows->outer = 1;
  rows->inner = t.size(t.dim() - 1);
  rows->channels = 1;
  for (int i = 0; i + 1 < t.dim(); ++i) rows->channels *= t.size(i);
  return true;
}

// XNNPACK's asymmetric int8 parameters per row, as _decomposed.py computes
// them in float32: the range widened to include 0, scale = range / 255 (at
// least float32 eps), and the zero point from whichever end loses less.
void choose_qparams_per_token_asymmetric_out(KernelContext& ctx, const Tensor& input,
                                             int64_t dtype, Tensor& scale_out,
                                             Tensor& zero_point_out) {
  constexpr const char* op = "choose_qparams_per_token_asymmetric.out";
  (void)dtype;  // the parameters are int8's whatever dtype says, as in PyTorch
  AxisSplit rows;
  if (!check_float_input(ctx, op, input) || !token_rows(ctx, op, input, &rows) ||
      !check_dtype(ctx, op, "scale_out", scale_out, ScalarType::Double) ||
      !check_dtype(ctx, op, "zero_point_out", zero_point_out, ScalarType::Long)) {
    return;
  }
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < input.dim(); ++i) sizes[i] = input.size(i);
  sizes[input.dim() - 1] = 1;
  const Span<const int64_t> shape(sizes, static_cast<size_t>(input.dim()));
  if (!resize_output(ctx, scale_out, shape, op) || !resize_output(ctx, zero_point_out, shape, op)) {
    return;
  }
  if (rows.inner == 0) {
    ctx.fail(Error::InvalidArgument, "%s: a token has no elements", op);
    return;
  }
  constexpr float kQmin = -128.0f, kQmax = 127.0f;
  const float eps = std::numeric_limits<float>::epsilon();
  const float* x = input.const_data_ptr<float>();
  double* scales = scale_out.mutable_data_ptr<double>();
  int64_t* zero_points = zero_point_out.mutable_data_ptr<int64_t>();
  for (int64_t r = 0; r < rows.channels; ++r) {
    const float* row = x + r * rows.inner;
    float lo = row[0], hi = row[0];
    for (int64_t i = 1; i < rows.inner; ++i) {
      lo = std::min(lo, row[i]);
      hi = std::max(hi, row[i]);
    }
    const float min_neg = std::min(lo, 0.0f), max_pos = std::max(hi, 0.0f);
    const float scale = std::max((max_pos - min_neg) / 255.0f, eps);
    const float descaled_min = min_neg / scale, descaled_max = max_pos / scale;
    const float from_min = kQmin + descaled_min, from_max = kQmax + descaled_max;
    float zp = from_min + from_max > 0 ? kQmin - descaled_min : kQmax - descaled_max;
    zp = std::nearbyint(std::min(std::max(zp, kQmin), kQmax));
    scales[r] = static_cast<double>(scale);
    zero_points[r] = static_cast<int64_t>(zp);
  }
}

// x.mul(1 / scales).add(zero_points).round().clamp(qmin, qmax): in the
// scales' dtype (float64 from choose_qparams_per_token_asymmetric).
void quantize_per_token_out(KernelContext& ctx, const Tensor& input, const Tensor& scales,
                            const Tensor& zero_points, int64_t qmin, int64_t qmax, int64_t dtype,
                            Tensor& out) {
  constexpr const char* op = "quantize_per_token.out";
  AxisSplit rows;
  if (!check_float_input(ctx, op, input) || !check_quantized(ctx, op, dtype, out, qmin, qmax) ||
      !token_rows(ctx, op, input, &rows) ||
      !check_params(ctx, op, scales, &zero_points, rows.channels) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  quantize_groups(input.const_data_ptr<float>(), scales, zero_points, rows,
                  /*shift_before_round=*/true, qmin, qmax, out);
}

// (q - zero_points) * scales, then cast to output_dtype.
void dequantize_per_token_out(KernelContext& ctx, const Tensor& input, const Tensor& scales,
                              const Tensor& zero_points, int64_t qmin, int64_t qmax, int64_t dtype,
                              int64_t output_dtype, Tensor& out) {
  constexpr const char* op = "dequantize_per_token.out";
  AxisSplit rows;
  if (!check_quantized(ctx, op, dtype, input, qmin, qmax) || !check_contiguous(ctx, op, input) ||
      !check_dequant_out(ctx, op, output_dtype, out) || !token_rows(ctx, op, input, &rows) ||
      !check_params(ctx, op, scales, &zero_points, rows.channels) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  dequantize_groups(input, scales, &zero_points, rows, out);
}

// --- per channel group (4-bit weights) ---------------------------------------------

// w [N, K] in groups of group_size along K: (q - zp) * scale per group.
void dequantize_per_channel_group_out(KernelContext& ctx, const Tensor& input,
                                      const Tensor& scales, const Tensor* zero_points,
                                      int64_t qmin, int64_t qmax, int64_t dtype,
                                      int64_t group_size, int64_t output_dtype, Tensor& out) {
  constexpr const char* op = "dequantize_per_channel_group.out";
  if (!check_quantized(ctx, op, dtype, input, qmin, qmax) || !check_contiguous(ctx, op, input) ||
      !check_dequant_out(ctx, op, output_dtype, out)) {
    return;
  }
  if (input.dim() != 2 || group_size <= 1) {
    ctx.fail(Error::InvalidArgument, "%s: needs a 2-d input and group_size > 1 (got %d-d, %lld)",
             op, input.dim(), static_cast<long long>(group_size));
    return;
  }
  const int64_t rows = input.size(0), k = input.size(1);
  // As PyTorch: one scale per row and a group wider than the row is the row.
  if (group_size > k && scales.dim() > 0 && scales.size(scales.dim() - 1) == 1) group_size = k;
  if (k % group_size != 0) {
    ctx.fail(Error::InvalidArgument, "%s: the row length %lld is not a multiple of group_size "
             "%lld", op, static_cast<long long>(k), static_cast<long long>(group_size));
    return;
  }
  const int64_t groups = k / group_size;
  if (!check_params(ctx, op, scales, zero_points, rows * groups) ||
      !resize_output(ctx, out, input.sizes(), op)) {
    return;
  }
  AxisSplit split;
  split.channels = rows * groups;
  split.inner = group_size;
  dequantize_groups(input, scales, zero_points, split, out);
}

// Two signed 4-bit values a byte (element 2j low nibble, 2j+1 high, each + 8)
// -> int8 [..., 2 * bytes].
void unpack_int4_out(KernelContext& ctx, const Tensor& packed, Tensor& out) {
  constexpr const char* op = "ember_quant::unpack_int4.out";
  if (!check_dtype(ctx, op, "packed", packed, ScalarType::Byte) ||
      !check_dtype(ctx, op, "out", out, ScalarType::Char) || !check_contiguous(ctx, op, packed)) {
    return;
  }
  if (packed.dim() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: packed weights need at least one dim", op);
    return;
  }
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < packed.dim(); ++i) sizes[i] = packed.size(i);
  sizes[packed.dim() - 1] *= 2;
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, static_cast<size_t>(packed.dim())), op)) {
    return;
  }
  const uint8_t* bytes = packed.const_data_ptr<uint8_t>();
  int8_t* y = out.mutable_data_ptr<int8_t>();
  for (int64_t j = 0; j < packed.numel(); ++j) {
    y[2 * j] = static_cast<int8_t>((bytes[j] & 0x0F) - 8);
    y[2 * j + 1] = static_cast<int8_t>((bytes[j] >> 4) - 8);
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("quantized_decomposed::quantize_per_tensor.out", quantize_per_tensor_out,
                      kFloatTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::quantize_per_tensor.Tensor_out",
                      quantize_per_tensor_tensor_out, kFloatTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_tensor.out", dequantize_per_tensor_out,
                      kQuantTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_tensor.Tensor_out",
                      dequantize_per_tensor_tensor_out, kQuantTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::quantize_per_channel.out", quantize_per_channel_out,
                      kFloatTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_channel.out",
                      dequantize_per_channel_out, kQuantTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::choose_qparams_per_token_asymmetric.out",
                      choose_qparams_per_token_asymmetric_out, kFloatTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::quantize_per_token.out", quantize_per_token_out,
                      kFloatTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_token.out", dequantize_per_token_out,
                      kQuantTypes);
EMBER_REGISTER_KERNEL("quantized_decomposed::dequantize_per_channel_group.out",
                      dequantize_per_channel_group_out, kQuantTypes);
EMBER_REGISTER_KERNEL("ember_quant::unpack_int4.out", unpack_int4_out,
                      dtype_bit(ScalarType::Byte));

}  // namespace ember::kernels
