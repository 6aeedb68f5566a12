// Copies that may change layout or dtype: clone, _to_copy, copy, and
// ExecuTorch's dim-order twins. The output's layout is its dim order; the
// input is read by logical index through its strides, so any input layout can
// be copied into any output layout (e.g. contiguous -> channels-last).
#include "kernels/portable/util/shape_util.h"

namespace ember::kernels {
namespace {

using shape::view_of;

// c10::MemoryFormat, as programs carry it.
enum class MemoryFormat : int64_t {
  Contiguous = 0,
  Preserve = 1,
  ChannelsLast = 2,
  ChannelsLast3d = 3,
};

bool has_dim_order(const Tensor& t, const DimOrderType* order) {
  for (int i = 0; i < t.dim(); ++i) {
    if (t.dim_order()[i] != order[i]) return false;
  }
  return true;
}

// A requested memory format must be the one the planner gave `out`; Preserve
// (or none) accepts whatever it gave.
bool check_memory_format(KernelContext& ctx, const char* op, std::optional<int64_t> format,
                         const Tensor& out) {
  static const DimOrderType kChannelsLast[] = {0, 2, 3, 1};
  static const DimOrderType kChannelsLast3d[] = {0, 2, 3, 4, 1};
  const int64_t requested = format.value_or(static_cast<int64_t>(MemoryFormat::Preserve));
  bool ok = true;
  switch (static_cast<MemoryFormat>(requested)) {
    case MemoryFormat::Preserve: break;
    case MemoryFormat::Contiguous: ok = out.is_contiguous_dim_order(); break;
    case MemoryFormat::ChannelsLast:
      ok = out.dim() == 4 && has_dim_order(out, kChannelsLast);
      break;
    case MemoryFormat::ChannelsLast3d:
      ok = out.dim() == 5 && has_dim_order(out, kChannelsLast3d);
      break;
    default:
      ctx.fail(Error::InvalidArgument, "%s: unknown memory format %lld", op,
               static_cast<long long>(requested));
      return false;
  }
  if (!ok) {
    ctx.fail(Error::InvalidArgument, "%s: out's dim order does not match memory format %lld", op,
             static_cast<long long>(requested));
  }
  return ok;
}

// `dim_order`, when given, must be out's dim order.
bool check_dim_order(KernelContext& ctx, const char* op, std::optional<IntArrayRef> dim_order,
                     const Tensor& out) {
  if (!dim_order.has_value()) return true;
  bool ok = dim_order->size() == static_cast<size_t>(out.dim());
  for (int i = 0; ok && i < out.dim(); ++i) ok = (*dim_order)[i] == out.dim_order()[i];
  if (!ok) ctx.fail(Error::InvalidArgument, "%s: dim_order does not match out's dim order", op);
  return ok;
}

// Resizes `out` to `self`'s shape and converts every element into it.
void convert_into(KernelContext& ctx, const char* op, const Tensor& self, Tensor& out) {
  if (!resize_output(ctx, out, self.sizes(), op)) return;
  EMBER_KERNEL_CHECK(ctx,
                     shape::convert_view(self.const_data_ptr(), self.scalar_type(), view_of(self),
                                         out.mutable_data_ptr(), out.scalar_type(),
                                         view_of(out)),
                     "%s: cannot convert %s to %s", op, scalar_type_name(self.scalar_type()),
                     scalar_type_name(out.scalar_type()));
}

void clone_out(KernelContext& ctx, const Tensor& self, std::optional<int64_t> memory_format,
               Tensor& out) {
  if (!check_memory_format(ctx, "clone", memory_format, out)) return;
  shape::copy_view_to_output(ctx, "clone", self, view_of(self), out);
}

void to_copy_out(KernelContext& ctx, const Tensor& self, bool non_blocking,
                 std::optional<int64_t> memory_format, Tensor& out) {
  if (!check_memory_format(ctx, "_to_copy", memory_format, out)) return;
  convert_into(ctx, "_to_copy", self, out);
}

void to_dim_order_copy_out(KernelContext& ctx, const Tensor& self, bool non_blocking,
                           std::optional<IntArrayRef> dim_order, Tensor& out) {
  if (!check_dim_order(ctx, "_to_dim_order_copy", dim_order, out)) return;
  convert_into(ctx, "_to_dim_order_copy", self, out);
}

void clone_dim_order_out(KernelContext& ctx, const Tensor& self, bool non_blocking,
                         std::optional<IntArrayRef> dim_order, Tensor& out) {
  if (!check_dim_order(ctx, "_clone_dim_order", dim_order, out)) return;
  shape::copy_view_to_output(ctx, "_clone_dim_order", self, view_of(self), out);
}

// self.clone().copy_(src): `src` broadcast to `self`'s shape, in self's dtype.
void copy_out(KernelContext& ctx, const Tensor& self, const Tensor& src, bool non_blocking,
              Tensor& out) {
  constexpr const char* kOp = "copy";
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == self.scalar_type(),
                     "%s: out dtype %s differs from self dtype %s", kOp,
                     scalar_type_name(out.scalar_type()), scalar_type_name(self.scalar_type()));
  shape::StridedView src_view;
  const shape::StridedView self_view = view_of(self);
  EMBER_KERNEL_CHECK(ctx, shape::broadcast_view(src, self_view.shape(), &src_view),
                     "%s: src of rank %d does not broadcast to self's shape", kOp, src.dim());
  if (!resize_output(ctx, out, self.sizes(), kOp)) return;
  EMBER_KERNEL_CHECK(ctx,
                     shape::convert_view(src.const_data_ptr(), src.scalar_type(), src_view,
                                         out.mutable_data_ptr(), out.scalar_type(),
                                         view_of(out)),
                     "%s: cannot convert %s to %s", kOp, scalar_type_name(src.scalar_type()),
                     scalar_type_name(out.scalar_type()));
}

// self.copy_(src): the write-back of a mutable buffer (ExecuTorch's
// `aten::copy_`, args self, src, non_blocking, then the return).
void copy_inplace(KernelContext& ctx, Tensor& self, const Tensor& src, bool non_blocking) {
  if (src.const_data_ptr() == self.const_data_ptr() && src.nbytes() == self.nbytes()) return;
  copy_out(ctx, self, src, non_blocking, self);
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::copy_", copy_inplace, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::clone.out", clone_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::_to_copy.out", to_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::copy.out", copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("dim_order_ops::_to_dim_order_copy.out", to_dim_order_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("dim_order_ops::_clone_dim_order.out", clone_dim_order_out, kAllAndComplexTypes);

}  // namespace ember::kernels
