// Ops on memory layout outside core ATen: narrow_copy, empty_permuted,
// new_empty(_strided), resize (functional), and the scatters that write a view of a copy of self:
// diagonal_scatter and as_strided_scatter. Views go through shape_util's
// StridedView, so every dtype moves as raw elements.
#include <cstring>
#include <optional>

#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

using shape::StridedView;
using shape::view_of;

bool copy_into(KernelContext& ctx, const char* op, const Tensor& src, const StridedView& sv,
               Tensor& dst, const StridedView& dv) {
  if (!shape::copy_view(src.const_data_ptr(), sv, dst.mutable_data_ptr(), dv,
                        src.element_size())) {
    ctx.fail(Error::NotSupported, "%s: dtype %s is not supported", op,
             scalar_type_name(src.scalar_type()));
    return false;
  }
  return true;
}

void narrow_copy_out(KernelContext& ctx, const Tensor& self, int64_t dim, int64_t start,
                     int64_t length, Tensor& out) {
  const char* op = "narrow_copy.out";
  int64_t d = 0;
  if (!shape::check_dim(ctx, op, dim, self.dim(), &d)) return;
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot narrow a 0-d tensor", op);
  const int64_t size = self.size(d);
  if (start < 0) start += size;
  EMBER_KERNEL_CHECK(ctx, start >= 0 && length >= 0 && start <= size && length <= size - start,
                     "%s: start %lld + length %lld exceeds the dim's size %lld", op,
                     static_cast<long long>(start), static_cast<long long>(length),
                     static_cast<long long>(size));
  StridedView v = view_of(self);
  shape::narrow(v, static_cast<int>(d), start, length);
  shape::copy_view_to_output(ctx, op, self, v, out);
}

// Uninitialized in torch; zeros here, so a program's results never depend on
// what the arena held before.
void empty_permuted_out(KernelContext& ctx, IntArrayRef size, IntArrayRef physical_layout,
                        Tensor& out) {
  const char* op = "empty_permuted.out";
  EMBER_KERNEL_CHECK(ctx, physical_layout.size() == size.size(),
                     "%s: %zu sizes and a layout of %zu dims", op, size.size(),
                     physical_layout.size());
  for (int64_t s : size) {
    EMBER_KERNEL_CHECK(ctx, s >= 0, "%s: negative size %lld", op, static_cast<long long>(s));
  }
  if (!resize_output(ctx, out, size, op)) return;
  std::memset(out.mutable_data_ptr(), 0, out.nbytes());
}

// new_empty / new_empty_strided: a tensor of the given size (row-major: a
// planned tensor has no strides of its own), zeros like empty_permuted.
void new_empty_out(KernelContext& ctx, const Tensor& self, IntArrayRef size, Tensor& out) {
  const char* op = "new_empty.out";
  (void)self;
  if (!resize_output(ctx, out, size, op)) return;
  std::memset(out.mutable_data_ptr(), 0, out.nbytes());
}

void new_empty_strided_out(KernelContext& ctx, const Tensor& self, IntArrayRef size,
                           IntArrayRef stride, Tensor& out) {
  const char* op = "new_empty_strided.out";
  (void)self;
  EMBER_KERNEL_CHECK(ctx, stride.size() == size.size(), "%s: %zu sizes and %zu strides", op,
                     size.size(), stride.size());
  if (!resize_output(ctx, out, size, op)) return;
  std::memset(out.mutable_data_ptr(), 0, out.nbytes());
}

// The functional form of resize_: self's elements in memory order, as many
// as fit; new elements (uninitialized in torch) are zeros.
void resize_out(KernelContext& ctx, const Tensor& self, IntArrayRef size,
                std::optional<int64_t> memory_format, Tensor& out) {
  const char* op = "resize.out";
  (void)memory_format;  // planned tensors are row-major
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == self.scalar_type(), "%s: out dtype differs", op);
  if (!check_contiguous(ctx, op, self) || !check_contiguous(ctx, op, out) ||
      !resize_output(ctx, out, size, op)) {
    return;
  }
  const size_t keep = self.nbytes() < out.nbytes() ? self.nbytes() : out.nbytes();
  std::memmove(out.mutable_data_ptr(), self.const_data_ptr(), keep);
  std::memset(static_cast<uint8_t*>(out.mutable_data_ptr()) + keep, 0, out.nbytes() - keep);
}

// out = self, then src written through `view` of out.
void scatter_view(KernelContext& ctx, const char* op, const Tensor& self, const Tensor& src,
                  const StridedView& view, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, src.scalar_type() == self.scalar_type() &&
                              out.scalar_type() == self.scalar_type(),
                     "%s: self, src and out must share a dtype", op);
  int64_t view_numel = 1;
  for (int d = 0; d < view.dim; ++d) view_numel *= view.sizes[d];
  EMBER_KERNEL_CHECK(ctx, view.dim == src.dim(), "%s: src has %d dims, the view %d", op,
                     src.dim(), view.dim);
  for (int d = 0; d < view.dim; ++d) {
    EMBER_KERNEL_CHECK(ctx, view.sizes[d] == src.size(d), "%s: src does not fit the view", op);
  }
  if (!resize_output(ctx, out, self.sizes(), op)) return;
  if (!copy_into(ctx, op, self, view_of(self), out, view_of(out))) return;
  if (view_numel > 0) copy_into(ctx, op, src, view_of(src), out, view);
}

void diagonal_scatter_out(KernelContext& ctx, const Tensor& self, const Tensor& src,
                          int64_t offset, int64_t dim1, int64_t dim2, Tensor& out) {
  const char* op = "diagonal_scatter.out";
  int64_t d1 = 0, d2 = 0;
  if (!shape::check_dim(ctx, op, dim1, self.dim(), &d1) ||
      !shape::check_dim(ctx, op, dim2, self.dim(), &d2)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, self.dim() >= 2 && d1 != d2,
                     "%s: needs two different dims of a tensor of rank >= 2", op);
  if (!check_contiguous(ctx, op, out)) return;
  // out's diagonal, as diagonal_copy reads self's.
  const int64_t s1 = self.size(d1), s2 = self.size(d2);
  int64_t len = 0;
  if (offset >= 0) len = offset >= s2 ? 0 : (s1 < s2 - offset ? s1 : s2 - offset);
  else len = offset <= -s1 ? 0 : (s1 + offset < s2 ? s1 + offset : s2);
  if (!resize_output(ctx, out, self.sizes(), op)) return;
  StridedView v = view_of(out);
  const int64_t st1 = out.stride(d1), st2 = out.stride(d2);
  if (len > 0) v.offset = offset >= 0 ? offset * st2 : -offset * st1;
  shape::remove_dim(v, static_cast<int>(d1 > d2 ? d1 : d2));
  shape::remove_dim(v, static_cast<int>(d1 > d2 ? d2 : d1));
  shape::insert_dim(v, v.dim, len, st1 + st2);
  scatter_view(ctx, op, self, src, v, out);
}

// src written through the view as_strided(size, stride, storage_offset) of a
// row-major copy of self; the view must stay inside it.
void as_strided_scatter_out(KernelContext& ctx, const Tensor& self, const Tensor& src,
                            IntArrayRef size, IntArrayRef stride,
                            std::optional<int64_t> storage_offset, Tensor& out) {
  const char* op = "as_strided_scatter.out";
  EMBER_KERNEL_CHECK(ctx, size.size() == stride.size() && size.size() <= kTensorDimensionLimit,
                     "%s: %zu sizes and %zu strides", op, size.size(), stride.size());
  if (!check_contiguous(ctx, op, out)) return;
  const int64_t offset = storage_offset.value_or(0);
  EMBER_KERNEL_CHECK(ctx, offset >= 0, "%s: negative storage offset", op);
  StridedView v;
  v.dim = static_cast<int>(size.size());
  v.offset = offset;
  bool empty = false;
  for (int i = 0; i < v.dim; ++i) {
    EMBER_KERNEL_CHECK(ctx, size[i] >= 0 && size[i] <= INT32_MAX && stride[i] >= 0 &&
                                stride[i] <= INT32_MAX,
                       "%s: invalid size %lld or stride %lld", op, static_cast<long long>(size[i]),
                       static_cast<long long>(stride[i]));
    v.sizes[i] = size[i];
    v.strides[i] = stride[i];
    empty = empty || size[i] == 0;
  }
  if (!empty) {
    int64_t last = offset;
    for (int i = 0; i < v.dim && last < self.numel(); ++i) last += (size[i] - 1) * stride[i];
    EMBER_KERNEL_CHECK(ctx, last < self.numel(),
                       "%s: the view writes past the end of a %lld-element input", op,
                       static_cast<long long>(self.numel()));
  }
  scatter_view(ctx, op, self, src, v, out);
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::narrow_copy.out", narrow_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::empty_permuted.out", empty_permuted_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::resize.out", resize_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::new_empty.out", new_empty_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::new_empty_strided.out", new_empty_strided_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::diagonal_scatter.out", diagonal_scatter_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::as_strided_scatter.out", as_strided_scatter_out,
                      kAllAndComplexTypes);

}  // namespace ember::kernels
