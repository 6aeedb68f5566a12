// Selection and creation ops: where, masked_fill, and the ops that fill a
// tensor with one value (full, full_like, zeros, ones, fill, scalar_tensor,
// empty, zeros_like, ones_like).
#include <optional>
#include <type_traits>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

void fail_overflow(KernelContext& ctx, const char* op, ScalarType type) {
  ctx.fail(Error::InvalidArgument, "%s: value cannot be converted to type %s without overflow", op,
           scalar_type_name(type));
}

// Writes `value`, converted to out's dtype, to every element of `out`; like
// torch.full, fails when the value overflows that dtype.
void fill_scalar(KernelContext& ctx, const char* op, const Scalar& value, Tensor& out) {
  switch_dtype<kAllAndComplexTypes>(ctx, op, out.scalar_type(), [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    if (!scalar_fits_type<CTYPE>(value)) {
      fail_overflow(ctx, op, out.scalar_type());
      return;
    }
    const CTYPE v = scalar_to<CTYPE>(value);
    CTYPE* data = out.mutable_data_ptr<CTYPE>();
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) data[i] = v;
  });
}

// The layout of a filled tensor is out's planned dim order, so only the
// memory formats the exporter writes (contiguous, preserve) are accepted.
bool check_memory_format(KernelContext& ctx, const char* op,
                         const std::optional<int64_t>& memory_format) {
  if (memory_format.has_value() && *memory_format != 0 && *memory_format != 1) {
    ctx.fail(Error::NotSupported, "%s: memory format %lld is not supported", op,
             static_cast<long long>(*memory_format));
    return false;
  }
  return true;
}

// --- where / masked_fill ---------------------------------------------------------

bool check_bool_mask(KernelContext& ctx, const char* op, const char* name, const Tensor& mask) {
  if (mask.scalar_type() != ScalarType::Bool) {
    ctx.fail(Error::InvalidArgument, "%s: %s must be a Bool tensor, not %s", op, name,
             scalar_type_name(mask.scalar_type()));
    return false;
  }
  return true;
}

// out = condition ? self : other, broadcast; self and other promote together.
void where_self_out(KernelContext& ctx, const Tensor& condition, const Tensor& self,
                    const Tensor& other, Tensor& out) {
  constexpr const char* op = "where.self_out";
  if (!check_bool_mask(ctx, op, "condition", condition)) return;
  ScalarType common;
  if (!binary_result_type(ctx, op, self, other, Promotion::kDefault, &common) ||
      !check_out_dtype(ctx, op, common, out) ||
      !resize_to_broadcast(ctx, op, out, {&condition, &self, &other})) {
    return;
  }
  switch_dtype<kAllAndComplexTypes>(ctx, op, common, [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    map_elementwise<CTYPE, bool, CTYPE, CTYPE>(
        ctx, op, [](bool c, M x, M y) { return c ? x : y; }, out, condition, self, other);
  });
}

// out = mask ? value : self, with mask broadcast against self; keeps self's dtype.
void masked_fill_scalar_out(KernelContext& ctx, const Tensor& self, const Tensor& mask,
                            Scalar value, Tensor& out) {
  constexpr const char* op = "masked_fill.Scalar_out";
  if (!check_bool_mask(ctx, op, "mask", mask) ||
      !check_out_dtype(ctx, op, self.scalar_type(), out) ||
      !resize_to_broadcast(ctx, op, out, {&self, &mask})) {
    return;
  }
  switch_dtype<kAllAndComplexTypes>(ctx, op, self.scalar_type(), [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    using M = opmath_t<CTYPE>;
    if (!scalar_fits_type<CTYPE>(value)) {
      fail_overflow(ctx, op, self.scalar_type());
      return;
    }
    const M v = scalar_to_operand<CTYPE>(value);
    map_elementwise<CTYPE, CTYPE, bool>(
        ctx, op, [v](M x, bool m) { return m ? v : x; }, out, self, mask);
  });
}

// --- creation ------------------------------------------------------------------

void full_out(KernelContext& ctx, IntArrayRef size, Scalar fill_value, Tensor& out) {
  constexpr const char* op = "full.out";
  if (!resize_output(ctx, out, size, op)) return;
  fill_scalar(ctx, op, fill_value, out);
}

void full_like_out(KernelContext& ctx, const Tensor& self, Scalar fill_value,
                   std::optional<int64_t> memory_format, Tensor& out) {
  constexpr const char* op = "full_like.out";
  if (!check_memory_format(ctx, op, memory_format) ||
      !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  fill_scalar(ctx, op, fill_value, out);
}

// A Scalar argument that holds a constant.
struct ConstScalar {
  explicit ConstScalar(int64_t v) : value(v) {}
  EValue value;
  Scalar scalar() const { return Scalar{&value}; }
};

void zeros_out(KernelContext& ctx, IntArrayRef size, Tensor& out) {
  constexpr const char* op = "zeros.out";
  if (!resize_output(ctx, out, size, op)) return;
  fill_scalar(ctx, op, ConstScalar(0).scalar(), out);
}

void ones_out(KernelContext& ctx, IntArrayRef size, Tensor& out) {
  constexpr const char* op = "ones.out";
  if (!resize_output(ctx, out, size, op)) return;
  fill_scalar(ctx, op, ConstScalar(1).scalar(), out);
}

void zeros_like_out(KernelContext& ctx, const Tensor& self, std::optional<int64_t> memory_format,
                    Tensor& out) {
  constexpr const char* op = "zeros_like.out";
  if (!check_memory_format(ctx, op, memory_format) ||
      !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  fill_scalar(ctx, op, ConstScalar(0).scalar(), out);
}

void ones_like_out(KernelContext& ctx, const Tensor& self, std::optional<int64_t> memory_format,
                   Tensor& out) {
  constexpr const char* op = "ones_like.out";
  if (!check_memory_format(ctx, op, memory_format) ||
      !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  fill_scalar(ctx, op, ConstScalar(1).scalar(), out);
}

// Only the shape matters: the contents of an empty tensor are unspecified.
void empty_out(KernelContext& ctx, IntArrayRef size, std::optional<int64_t> memory_format,
               Tensor& out) {
  constexpr const char* op = "empty.out";
  if (!check_memory_format(ctx, op, memory_format)) return;
  resize_output(ctx, out, size, op);
}

void scalar_tensor_out(KernelContext& ctx, Scalar s, Tensor& out) {
  constexpr const char* op = "scalar_tensor.out";
  if (!resize_output(ctx, out, Span<const int64_t>(), op)) return;
  fill_scalar(ctx, op, s, out);
}

void fill_scalar_out(KernelContext& ctx, const Tensor& self, Scalar value, Tensor& out) {
  constexpr const char* op = "fill.Scalar_out";
  if (!resize_output(ctx, out, self.sizes(), op)) return;
  fill_scalar(ctx, op, value, out);
}

// torch's fill_ with a 0-d tensor is self.copy_(value): the element is cast
// to out's dtype like any copy, unchecked (dtype_rules.h's convert), so
// fill_(int8, tensor(300)) gives 44 and fill_(int32, tensor(nan)) INT32_MIN,
// where fill_(int8, 300) raises.
void fill_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor& value, Tensor& out) {
  constexpr const char* op = "fill.Tensor_out";
  EMBER_KERNEL_CHECK(ctx, value.dim() == 0,
                     "%s: only a 0-dimension value tensor is supported, got %d dimensions", op,
                     value.dim());
  if (!resize_output(ctx, out, self.sizes(), op)) return;
  switch_dtype<kAllAndComplexTypes>(ctx, op, out.scalar_type(), [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    const LoadFn<CTYPE> load = get_load_fn<CTYPE>(value.scalar_type());
    if (load == nullptr) {
      fail_dtype(ctx, op, value.scalar_type());
      return;
    }
    const CTYPE v = convert<CTYPE>(load(value.const_data_ptr(), 0));
    CTYPE* data = out.mutable_data_ptr<CTYPE>();
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) data[i] = v;
  });
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::where.self_out", where_self_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::masked_fill.Scalar_out", masked_fill_scalar_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::full.out", full_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::full_like.out", full_like_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::zeros.out", zeros_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ones.out", ones_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::zeros_like.out", zeros_like_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::ones_like.out", ones_like_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::empty.out", empty_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::scalar_tensor.out", scalar_tensor_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::fill.Scalar_out", fill_scalar_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::fill.Tensor_out", fill_tensor_out, kAllAndComplexTypes);

}  // namespace ember::kernels
