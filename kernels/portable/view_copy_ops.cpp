// View ops as copies (view_copy, permute_copy, slice_copy, ...). A planned
// program has no aliasing, so every view is materialised into its own output:
// each kernel describes its view of the input as sizes and strides and
// copy_view does the rest, for every dtype and any dim order of input or out.
#include "kernels/portable/util/shape_util.h"

namespace ember::kernels {
namespace {

using shape::StridedView;
using shape::view_of;

void view_copy_out(KernelContext& ctx, const Tensor& self, IntArrayRef size, Tensor& out) {
  constexpr const char* kOp = "view_copy";
  EMBER_KERNEL_CHECK(ctx, size.size() <= kTensorDimensionLimit, "%s: %zu dims is too many", kOp,
                     size.size());
  int64_t sizes[kTensorDimensionLimit];
  int inferred = -1;
  int64_t known = 1;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] == -1) {
      EMBER_KERNEL_CHECK(ctx, inferred < 0, "%s: only one dimension can be -1", kOp);
      inferred = static_cast<int>(i);
      continue;
    }
    EMBER_KERNEL_CHECK(ctx, size[i] >= 0, "%s: invalid size %lld", kOp,
                       static_cast<long long>(size[i]));
    sizes[i] = size[i];
    known = shape::mul_sizes(known, size[i]);
  }
  if (inferred >= 0) {
    // As in PyTorch, -1 next to a 0 is ambiguous: any value would fit.
    EMBER_KERNEL_CHECK(ctx, known != 0 && self.numel() % known == 0,
                       "%s: shape is invalid for an input of %lld elements", kOp,
                       static_cast<long long>(self.numel()));
    sizes[inferred] = self.numel() / known;
  } else {
    EMBER_KERNEL_CHECK(ctx, known == self.numel(),
                       "%s: shape is invalid for an input of %lld elements", kOp,
                       static_cast<long long>(self.numel()));
  }
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == self.scalar_type(),
                     "%s: out dtype %s differs from input dtype %s", kOp,
                     scalar_type_name(out.scalar_type()), scalar_type_name(self.scalar_type()));
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, size.size()), kOp)) return;
  // Both sides are walked in logical order, so the shapes may differ.
  EMBER_KERNEL_CHECK(ctx,
                     shape::copy_view(self.const_data_ptr(), view_of(self),
                                      out.mutable_data_ptr(), view_of(out), self.element_size()),
                     "%s: dtype %s is not supported", kOp, scalar_type_name(self.scalar_type()));
}

// The view of `self` with its dims reordered: view dim i is self dim perm[i].
StridedView permuted(const Tensor& self, const int64_t* perm) {
  const StridedView in = view_of(self);
  StridedView v = in;
  for (int i = 0; i < in.dim; ++i) {
    v.sizes[i] = in.sizes[perm[i]];
    v.strides[i] = in.strides[perm[i]];
  }
  return v;
}

void permute_copy_out(KernelContext& ctx, const Tensor& self, IntArrayRef dims, Tensor& out) {
  constexpr const char* kOp = "permute_copy";
  EMBER_KERNEL_CHECK(ctx, dims.size() == static_cast<size_t>(self.dim()),
                     "%s: %zu dims given for a rank-%d input", kOp, dims.size(), self.dim());
  int64_t perm[kTensorDimensionLimit];
  if (!shape::check_dim_list(ctx, kOp, dims, self.dim(), perm)) return;
  shape::copy_view_to_output(ctx, kOp, self, permuted(self, perm), out);
}

void transpose_copy_int_out(KernelContext& ctx, const Tensor& self, int64_t dim0, int64_t dim1,
                            Tensor& out) {
  constexpr const char* kOp = "transpose_copy";
  int64_t d0 = 0, d1 = 0;
  if (!shape::check_dim(ctx, kOp, dim0, self.dim(), &d0)) return;
  if (!shape::check_dim(ctx, kOp, dim1, self.dim(), &d1)) return;
  StridedView v = view_of(self);
  if (self.dim() > 0) {
    int64_t perm[kTensorDimensionLimit];
    for (int i = 0; i < self.dim(); ++i) perm[i] = i;
    perm[d0] = d1;
    perm[d1] = d0;
    v = permuted(self, perm);
  }
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

void t_copy_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, self.dim() <= 2, "t_copy: expects a tensor of at most 2 dims, got %d",
                     self.dim());
  StridedView v = view_of(self);
  if (self.dim() == 2) {
    const int64_t perm[2] = {1, 0};
    v = permuted(self, perm);
  }
  shape::copy_view_to_output(ctx, "t_copy", self, v, out);
}

void expand_copy_out(KernelContext& ctx, const Tensor& self, IntArrayRef size, bool implicit,
                     Tensor& out) {
  constexpr const char* kOp = "expand_copy";
  EMBER_KERNEL_CHECK(ctx, size.size() >= static_cast<size_t>(self.dim()),
                     "%s: %zu sizes given for a rank-%d input", kOp, size.size(), self.dim());
  EMBER_KERNEL_CHECK(ctx, size.size() <= kTensorDimensionLimit, "%s: %zu dims is too many", kOp,
                     size.size());
  StridedView v;
  v.dim = static_cast<int>(size.size());
  const int lead = v.dim - self.dim();
  for (int i = 0; i < v.dim; ++i) {
    if (i < lead) {
      EMBER_KERNEL_CHECK(ctx, size[i] >= 0, "%s: size %lld is invalid for a new leading dim", kOp,
                         static_cast<long long>(size[i]));
      v.sizes[i] = size[i];
      continue;  // stride 0: the whole input repeats
    }
    const int64_t have = self.size(i - lead);
    const int64_t want = size[i] == -1 ? have : size[i];
    EMBER_KERNEL_CHECK(ctx, want == have || (have == 1 && want >= 0),
                       "%s: cannot expand dim %d of size %lld to %lld", kOp, i - lead,
                       static_cast<long long>(have), static_cast<long long>(size[i]));
    v.sizes[i] = want;
    v.strides[i] = want == have ? self.stride(i - lead) : 0;
  }
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

void slice_copy_tensor_out(KernelContext& ctx, const Tensor& self, int64_t dim,
                           std::optional<int64_t> start, std::optional<int64_t> end,
                           int64_t step, Tensor& out) {
  constexpr const char* kOp = "slice_copy";
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot slice a 0-d tensor", kOp);
  EMBER_KERNEL_CHECK(ctx, step > 0, "%s: step must be positive, got %lld", kOp,
                     static_cast<long long>(step));
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  int64_t first = 0;
  const int64_t len = shape::slice_length(start, end, step, self.size(d), &first);
  StridedView v = view_of(self);
  shape::narrow(v, static_cast<int>(d), first, len, step);
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

void select_copy_int_out(KernelContext& ctx, const Tensor& self, int64_t dim, int64_t index,
                         Tensor& out) {
  constexpr const char* kOp = "select_copy";
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot select from a 0-d tensor", kOp);
  int64_t d = 0, i = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  EMBER_KERNEL_CHECK(ctx, shape::normalize_index(index, self.size(d), &i),
                     "%s: index %lld is out of range for dim %lld of size %lld", kOp,
                     static_cast<long long>(index), static_cast<long long>(d),
                     static_cast<long long>(self.size(d)));
  StridedView v = view_of(self);
  shape::select(v, static_cast<int>(d), i);
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

void unsqueeze_copy_out(KernelContext& ctx, const Tensor& self, int64_t dim, Tensor& out) {
  constexpr const char* kOp = "unsqueeze_copy";
  int64_t d = 0;
  // Rank + 1 positions: the new dim may go after the last one.
  if (!normalize_dim(dim, self.dim() + 1, &d)) {
    ctx.fail(Error::InvalidArgument, "%s: dim %lld is out of range for rank %d", kOp,
             static_cast<long long>(dim), self.dim() + 1);
    return;
  }
  StridedView v = view_of(self);
  shape::insert_dim(v, static_cast<int>(d), 1, 0);
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

// Drops the dims of `self` flagged in `drop` whose size is 1.
void squeeze_into(KernelContext& ctx, const char* op, const Tensor& self, const bool* drop,
                  Tensor& out) {
  StridedView v = view_of(self);
  for (int d = self.dim() - 1; d >= 0; --d) {
    if (drop[d] && v.sizes[d] == 1) shape::remove_dim(v, d);
  }
  shape::copy_view_to_output(ctx, op, self, v, out);
}

void squeeze_copy_dims_out(KernelContext& ctx, const Tensor& self, IntArrayRef dims,
                           Tensor& out) {
  constexpr const char* kOp = "squeeze_copy";
  int64_t norm[kTensorDimensionLimit];
  if (!shape::check_dim_list(ctx, kOp, dims, self.dim(), norm)) return;
  bool drop[kTensorDimensionLimit] = {};
  // A 0-d input accepts dim 0 (or -1), which names nothing to drop.
  for (size_t i = 0; i < dims.size(); ++i) drop[norm[i]] = self.dim() > 0;
  squeeze_into(ctx, kOp, self, drop, out);
}

void squeeze_copy_dim_out(KernelContext& ctx, const Tensor& self, int64_t dim, Tensor& out) {
  constexpr const char* kOp = "squeeze_copy";
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  bool drop[kTensorDimensionLimit] = {};
  drop[d] = self.dim() > 0;
  squeeze_into(ctx, kOp, self, drop, out);
}

void squeeze_copy_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  bool drop[kTensorDimensionLimit];
  for (bool& b : drop) b = true;
  squeeze_into(ctx, "squeeze_copy", self, drop, out);
}

void alias_copy_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  shape::copy_view_to_output(ctx, "alias_copy", self, view_of(self), out);
}

void detach_copy_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  shape::copy_view_to_output(ctx, "detach_copy", self, view_of(self), out);
}

void lift_fresh_copy_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  shape::copy_view_to_output(ctx, "lift_fresh_copy", self, view_of(self), out);
}

void diagonal_copy_out(KernelContext& ctx, const Tensor& self, int64_t offset, int64_t dim1,
                       int64_t dim2, Tensor& out) {
  constexpr const char* kOp = "diagonal_copy";
  int64_t d1 = 0, d2 = 0;
  if (!shape::check_dim(ctx, kOp, dim1, self.dim(), &d1)) return;
  if (!shape::check_dim(ctx, kOp, dim2, self.dim(), &d2)) return;
  EMBER_KERNEL_CHECK(ctx, self.dim() >= 2 && d1 != d2,
                     "%s: needs two different dims of a tensor of rank >= 2", kOp);
  const int64_t s1 = self.size(d1), s2 = self.size(d2);
  const int64_t st1 = self.stride(d1), st2 = self.stride(d2);
  // Written so that no huge offset can overflow.
  int64_t len = 0;
  if (offset >= 0) {
    len = offset >= s2 ? 0 : (s1 < s2 - offset ? s1 : s2 - offset);
  } else {
    len = offset <= -s1 ? 0 : (s1 + offset < s2 ? s1 + offset : s2);
  }
  StridedView v = view_of(self);
  if (len > 0) v.offset = offset >= 0 ? offset * st2 : -offset * st1;
  shape::remove_dim(v, static_cast<int>(d1 > d2 ? d1 : d2));
  shape::remove_dim(v, static_cast<int>(d1 > d2 ? d2 : d1));
  shape::insert_dim(v, v.dim, len, st1 + st2);
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

// Reads the input's memory (its storage, in its own dim order) with the given
// sizes and strides, as PyTorch's as_strided reads a storage.
void as_strided_copy_out(KernelContext& ctx, const Tensor& self, IntArrayRef size,
                         IntArrayRef stride, std::optional<int64_t> storage_offset, Tensor& out) {
  constexpr const char* kOp = "as_strided_copy";
  EMBER_KERNEL_CHECK(ctx, size.size() == stride.size() && size.size() <= kTensorDimensionLimit,
                     "%s: %zu sizes and %zu strides", kOp, size.size(), stride.size());
  const int64_t offset = storage_offset.value_or(0);
  EMBER_KERNEL_CHECK(ctx, offset >= 0, "%s: negative storage offset", kOp);
  StridedView v;
  v.dim = static_cast<int>(size.size());
  v.offset = offset;
  bool empty = false;
  for (int i = 0; i < v.dim; ++i) {
    EMBER_KERNEL_CHECK(ctx, size[i] >= 0 && size[i] <= INT32_MAX && stride[i] >= 0 &&
                                stride[i] <= INT32_MAX,
                       "%s: invalid size %lld or stride %lld", kOp,
                       static_cast<long long>(size[i]), static_cast<long long>(stride[i]));
    v.sizes[i] = size[i];
    v.strides[i] = stride[i];
    empty = empty || size[i] == 0;
  }
  if (!empty) {
    // The last element the view reads must lie inside the input.
    int64_t last = offset;
    for (int i = 0; i < v.dim && last < self.numel(); ++i) last += (size[i] - 1) * stride[i];
    EMBER_KERNEL_CHECK(ctx, last < self.numel(),
                       "%s: the view reads past the end of a %lld-element input", kOp,
                       static_cast<long long>(self.numel()));
  }
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

void unfold_copy_out(KernelContext& ctx, const Tensor& self, int64_t dimension, int64_t size,
                     int64_t step, Tensor& out) {
  constexpr const char* kOp = "unfold_copy";
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dimension, self.dim(), &d)) return;
  const int64_t dim_size = self.dim() == 0 ? 1 : self.size(d);
  EMBER_KERNEL_CHECK(ctx, size >= 0 && size <= dim_size,
                     "%s: size %lld is out of range for a dim of size %lld", kOp,
                     static_cast<long long>(size), static_cast<long long>(dim_size));
  EMBER_KERNEL_CHECK(ctx, step > 0, "%s: step must be positive, got %lld", kOp,
                     static_cast<long long>(step));
  StridedView v = view_of(self);
  if (self.dim() == 0) {
    // A 0-d input unfolds to one window of `size` (0 or 1) elements.
    shape::insert_dim(v, 0, size, 1);
  } else {
    const int64_t stride = v.strides[d];
    v.sizes[d] = (dim_size - size) / step + 1;
    v.strides[d] = stride * step;
    shape::insert_dim(v, v.dim, size, stride);
  }
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::view_copy.out", view_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::permute_copy.out", permute_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::expand_copy.out", expand_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::slice_copy.Tensor_out", slice_copy_tensor_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::select_copy.int_out", select_copy_int_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::unsqueeze_copy.out", unsqueeze_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::squeeze_copy.dims_out", squeeze_copy_dims_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::squeeze_copy.dim_out", squeeze_copy_dim_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::squeeze_copy.out", squeeze_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::t_copy.out", t_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::transpose_copy.int_out", transpose_copy_int_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::alias_copy.out", alias_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::detach_copy.out", detach_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::lift_fresh_copy.out", lift_fresh_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::diagonal_copy.out", diagonal_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::as_strided_copy.out", as_strided_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::unfold_copy.out", unfold_copy_out, kAllAndComplexTypes);

}  // namespace ember::kernels
