// Ops that join, split, tile or rearrange whole tensors: cat, stack, split,
// unbind, repeat, constant_pad_nd, flip, roll, tril and triu. Like the view
// ops they are copies between strided views, so they move raw elements and
// work in any dim order; cat and stack also convert to a promoted out dtype.
#include "kernels/portable/util/shape_util.h"

namespace ember::kernels {
namespace {

using shape::StridedView;
using shape::view_of;

// PyTorch's result dtype for the list, which must be castable to out's.
bool check_list_dtype(KernelContext& ctx, const char* op, TensorList tensors, const Tensor& out) {
  ScalarType common = tensors[0]->scalar_type();
  for (const Tensor* t : tensors) {
    if (t->scalar_type() != common && !promote_types(common, t->scalar_type(), &common)) {
      ctx.fail(Error::InvalidArgument, "%s: cannot combine dtypes %s and %s", op,
               scalar_type_name(common), scalar_type_name(t->scalar_type()));
      return false;
    }
  }
  if (common != out.scalar_type() && !can_cast(common, out.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: result dtype %s cannot be cast to out dtype %s", op,
             scalar_type_name(common), scalar_type_name(out.scalar_type()));
    return false;
  }
  return true;
}

bool convert_piece(KernelContext& ctx, const char* op, const Tensor& src, Tensor& out,
                   const StridedView& dst) {
  if (!shape::convert_view(src.const_data_ptr(), src.scalar_type(), view_of(src),
                           out.mutable_data_ptr(), out.scalar_type(), dst)) {
    ctx.fail(Error::NotSupported, "%s: cannot convert %s to %s", op,
             scalar_type_name(src.scalar_type()), scalar_type_name(out.scalar_type()));
    return false;
  }
  return true;
}

// cat accepts (and skips) 1-d empty tensors next to tensors of any rank, a
// legacy PyTorch rule that exported graphs still rely on.
bool is_legacy_empty(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

void cat_out(KernelContext& ctx, TensorList tensors, int64_t dim, Tensor& out) {
  constexpr const char* kOp = "cat";
  EMBER_KERNEL_CHECK(ctx, tensors.size() > 0, "%s: expects a non-empty list of tensors", kOp);
  if (!check_list_dtype(ctx, kOp, tensors, out)) return;
  const Tensor* ref = nullptr;
  for (const Tensor* t : tensors) {
    if (!is_legacy_empty(*t)) {
      ref = t;
      break;
    }
  }
  if (ref == nullptr) {
    const int64_t empty[1] = {0};
    resize_output(ctx, out, Span<const int64_t>(empty, 1), kOp);
    return;
  }
  EMBER_KERNEL_CHECK(ctx, ref->dim() > 0, "%s: cannot concatenate 0-d tensors", kOp);
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dim, ref->dim(), &d)) return;
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < ref->dim(); ++i) sizes[i] = ref->size(i);
  sizes[d] = 0;
  for (const Tensor* t : tensors) {
    if (is_legacy_empty(*t)) continue;
    bool same = t->dim() == ref->dim();
    for (int i = 0; same && i < ref->dim(); ++i) same = i == d || t->size(i) == ref->size(i);
    EMBER_KERNEL_CHECK(ctx, same, "%s: input shapes differ outside dim %lld", kOp,
                       static_cast<long long>(d));
    sizes[d] += t->size(d);
  }
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, ref->dim()), kOp)) return;
  int64_t at = 0;
  for (const Tensor* t : tensors) {
    if (is_legacy_empty(*t)) continue;
    StridedView dst = view_of(out);
    shape::narrow(dst, static_cast<int>(d), at, t->size(d));
    if (!convert_piece(ctx, kOp, *t, out, dst)) return;
    at += t->size(d);
  }
}

void stack_out(KernelContext& ctx, TensorList tensors, int64_t dim, Tensor& out) {
  constexpr const char* kOp = "stack";
  EMBER_KERNEL_CHECK(ctx, tensors.size() > 0, "%s: expects a non-empty list of tensors", kOp);
  if (!check_list_dtype(ctx, kOp, tensors, out)) return;
  const Tensor& ref = *tensors[0];
  EMBER_KERNEL_CHECK(ctx, ref.dim() < kTensorDimensionLimit, "%s: rank %d is too high", kOp,
                     ref.dim());
  int64_t d = 0;
  if (!normalize_dim(dim, ref.dim() + 1, &d)) {
    ctx.fail(Error::InvalidArgument, "%s: dim %lld is out of range for rank %d", kOp,
             static_cast<long long>(dim), ref.dim() + 1);
    return;
  }
  for (const Tensor* t : tensors) {
    bool same = t->dim() == ref.dim();
    for (int i = 0; same && i < ref.dim(); ++i) same = t->size(i) == ref.size(i);
    EMBER_KERNEL_CHECK(ctx, same, "%s: all inputs must have the same shape", kOp);
  }
  StridedView shape = view_of(ref);
  shape::insert_dim(shape, static_cast<int>(d), static_cast<int64_t>(tensors.size()), 0);
  if (!resize_output(ctx, out, shape.shape(), kOp)) return;
  for (size_t i = 0; i < tensors.size(); ++i) {
    StridedView dst = view_of(out);
    shape::select(dst, static_cast<int>(d), static_cast<int64_t>(i));
    if (!convert_piece(ctx, kOp, *tensors[i], out, dst)) return;
  }
}

// Copies `len` elements of dim `d` of `self`, from `start` on, into `out`.
bool copy_piece(KernelContext& ctx, const char* op, const Tensor& self, int d, int64_t start,
                int64_t len, Tensor& out) {
  StridedView v = view_of(self);
  shape::narrow(v, d, start, len);
  return shape::copy_view_to_output(ctx, op, self, v, out);
}

void split_copy_tensor_out(KernelContext& ctx, const Tensor& self, int64_t split_size,
                           int64_t dim, TensorList out) {
  constexpr const char* kOp = "split_copy";
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot split a 0-d tensor", kOp);
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  const int64_t size = self.size(d);
  EMBER_KERNEL_CHECK(ctx, split_size > 0 || (split_size == 0 && size == 0),
                     "%s: invalid split size %lld for a dim of size %lld", kOp,
                     static_cast<long long>(split_size), static_cast<long long>(size));
  // An empty dim still gives one (empty) piece.
  const int64_t expected = size == 0 ? 1 : (size - 1) / split_size + 1;
  EMBER_KERNEL_CHECK(ctx, static_cast<int64_t>(out.size()) == expected,
                     "%s: %zu outputs given, the split makes %lld", kOp, out.size(),
                     static_cast<long long>(expected));
  for (int64_t i = 0; i < expected; ++i) {
    const int64_t start = i * split_size;
    const int64_t len = size - start < split_size ? size - start : split_size;
    if (!copy_piece(ctx, kOp, self, static_cast<int>(d), start, len, *out[i])) return;
  }
}

void split_with_sizes_copy_out(KernelContext& ctx, const Tensor& self, IntArrayRef split_sizes,
                               int64_t dim, TensorList out) {
  constexpr const char* kOp = "split_with_sizes_copy";
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot split a 0-d tensor", kOp);
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  EMBER_KERNEL_CHECK(ctx, split_sizes.size() == out.size(), "%s: %zu sizes but %zu outputs", kOp,
                     split_sizes.size(), out.size());
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    EMBER_KERNEL_CHECK(ctx, s >= 0 && s <= self.size(d), "%s: invalid split size %lld", kOp,
                       static_cast<long long>(s));
    total += s;
  }
  EMBER_KERNEL_CHECK(ctx, total == self.size(d), "%s: sizes sum to %lld, dim %lld has size %lld",
                     kOp, static_cast<long long>(total), static_cast<long long>(d),
                     static_cast<long long>(self.size(d)));
  int64_t start = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!copy_piece(ctx, kOp, self, static_cast<int>(d), start, split_sizes[i], *out[i])) return;
    start += split_sizes[i];
  }
}

void unbind_copy_int_out(KernelContext& ctx, const Tensor& self, int64_t dim, TensorList out) {
  constexpr const char* kOp = "unbind_copy";
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot unbind a 0-d tensor", kOp);
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  EMBER_KERNEL_CHECK(ctx, static_cast<int64_t>(out.size()) == self.size(d),
                     "%s: %zu outputs for a dim of size %lld", kOp, out.size(),
                     static_cast<long long>(self.size(d)));
  for (size_t i = 0; i < out.size(); ++i) {
    StridedView v = view_of(self);
    shape::select(v, static_cast<int>(d), static_cast<int64_t>(i));
    if (!shape::copy_view_to_output(ctx, kOp, self, v, *out[i])) return;
  }
}

void repeat_out(KernelContext& ctx, const Tensor& self, IntArrayRef repeats, Tensor& out) {
  constexpr const char* kOp = "repeat";
  EMBER_KERNEL_CHECK(ctx, repeats.size() >= static_cast<size_t>(self.dim()) &&
                              repeats.size() <= kTensorDimensionLimit,
                     "%s: %zu repeats for a rank-%d input", kOp, repeats.size(), self.dim());
  // Out dim i, of size r * s, reads as two dims (r with stride 0, s with the
  // input's stride); in row-major order that is exactly out's logical order.
  StridedView src;
  int64_t sizes[kTensorDimensionLimit];
  const int lead = static_cast<int>(repeats.size()) - self.dim();
  for (int i = 0; i < static_cast<int>(repeats.size()); ++i) {
    EMBER_KERNEL_CHECK(ctx, repeats[i] >= 0, "%s: negative repeat %lld", kOp,
                       static_cast<long long>(repeats[i]));
    const int64_t s = i < lead ? 1 : self.size(i - lead);
    shape::insert_dim(src, src.dim, repeats[i], 0);
    shape::insert_dim(src, src.dim, s, i < lead ? 0 : self.stride(i - lead));
    sizes[i] = shape::mul_sizes(repeats[i], s);
  }
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == self.scalar_type(),
                     "%s: out dtype %s differs from input dtype %s", kOp,
                     scalar_type_name(out.scalar_type()), scalar_type_name(self.scalar_type()));
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, repeats.size()), kOp)) return;
  EMBER_KERNEL_CHECK(ctx,
                     shape::copy_view(self.const_data_ptr(), src, out.mutable_data_ptr(),
                                      view_of(out), self.element_size()),
                     "%s: dtype %s is not supported", kOp, scalar_type_name(self.scalar_type()));
}

void constant_pad_nd_out(KernelContext& ctx, const Tensor& self, IntArrayRef pad,
                         Scalar value, Tensor& out) {
  constexpr const char* kOp = "constant_pad_nd";
  EMBER_KERNEL_CHECK(ctx, pad.size() % 2 == 0 && pad.size() / 2 <= static_cast<size_t>(self.dim()),
                     "%s: %zu pad values for a rank-%d input", kOp, pad.size(), self.dim());
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == self.scalar_type(),
                     "%s: out dtype %s differs from input dtype %s", kOp,
                     scalar_type_name(out.scalar_type()), scalar_type_name(self.scalar_type()));
  alignas(16) uint8_t fill[16];
  EMBER_KERNEL_CHECK(ctx, scalar_to_element(value, self.scalar_type(), fill),
                     "%s: the value does not fit dtype %s", kOp,
                     scalar_type_name(self.scalar_type()));
  // Pads come in (before, after) pairs from the last dim backwards; negative
  // pads crop. `src` is the part of self that survives, `keep` its extent.
  StridedView src = view_of(self);
  int64_t sizes[kTensorDimensionLimit];
  int64_t out_start[kTensorDimensionLimit] = {};
  for (int i = 0; i < self.dim(); ++i) sizes[i] = self.size(i);
  bool empty_src = self.numel() == 0;
  for (size_t j = 0; j < pad.size() / 2; ++j) {
    const int d = self.dim() - 1 - static_cast<int>(j);
    const int64_t before = pad[2 * j], after = pad[2 * j + 1];
    EMBER_KERNEL_CHECK(ctx, before >= -INT32_MAX && before <= INT32_MAX && after >= -INT32_MAX &&
                                after <= INT32_MAX,
                       "%s: pad out of range", kOp);
    sizes[d] = self.size(d) + before + after;
    EMBER_KERNEL_CHECK(ctx, sizes[d] >= 0, "%s: padding dim %d gives a negative size", kOp, d);
    const int64_t crop_before = before < 0 ? -before : 0;
    const int64_t crop_after = after < 0 ? -after : 0;
    const int64_t keep = self.size(d) - crop_before - crop_after;
    if (keep <= 0) {
      empty_src = true;
      continue;
    }
    shape::narrow(src, d, crop_before, keep);
    out_start[d] = before > 0 ? before : 0;
  }
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, self.dim()), kOp)) return;
  StridedView dst = view_of(out);
  shape::fill_view(out.mutable_data_ptr(), dst, fill, out.element_size());
  if (empty_src) return;
  for (int d = 0; d < self.dim(); ++d) shape::narrow(dst, d, out_start[d], src.sizes[d]);
  EMBER_KERNEL_CHECK(ctx,
                     shape::copy_view(self.const_data_ptr(), src, out.mutable_data_ptr(), dst,
                                      self.element_size()),
                     "%s: dtype %s is not supported", kOp, scalar_type_name(self.scalar_type()));
}

void flip_out(KernelContext& ctx, const Tensor& self, IntArrayRef dims, Tensor& out) {
  constexpr const char* kOp = "flip";
  int64_t norm[kTensorDimensionLimit];
  if (!shape::check_dim_list(ctx, kOp, dims, self.dim(), norm)) return;
  StridedView v = view_of(self);
  for (size_t i = 0; i < dims.size() && self.dim() > 0; ++i) {
    const int d = static_cast<int>(norm[i]);
    if (v.sizes[d] == 0) continue;
    // Start at the last element and walk backwards.
    v.offset += (v.sizes[d] - 1) * v.strides[d];
    v.strides[d] = -v.strides[d];
  }
  shape::copy_view_to_output(ctx, kOp, self, v, out);
}

// Rolls `src` into `dst` (same shape) by shift[d] along each dim d: with k
// shifted dims, each dim splits into a wrapped and an unwrapped part, so the
// copy is 2^k block copies.
bool roll_views(const Tensor& self, const StridedView& src, const StridedView& dst,
                const int64_t* shift, Tensor& out) {
  int shifted[kTensorDimensionLimit];
  int k = 0;
  for (int d = 0; d < src.dim; ++d) {
    if (shift[d] != 0) shifted[k++] = d;
  }
  for (uint32_t mask = 0; mask < (1u << k); ++mask) {
    StridedView s = src, t = dst;
    for (int i = 0; i < k; ++i) {
      const int d = shifted[i];
      const int64_t n = src.sizes[d], sh = shift[d];
      if (mask & (1u << i)) {
        shape::narrow(s, d, n - sh, sh);  // the tail wraps to the front
        shape::narrow(t, d, 0, sh);
      } else {
        shape::narrow(s, d, 0, n - sh);
        shape::narrow(t, d, sh, n - sh);
      }
    }
    if (!shape::copy_view(self.const_data_ptr(), s, out.mutable_data_ptr(), t,
                          self.element_size())) {
      return false;
    }
  }
  return true;
}

void roll_out(KernelContext& ctx, const Tensor& self, IntArrayRef shifts, IntArrayRef dims,
              Tensor& out) {
  constexpr const char* kOp = "roll";
  EMBER_KERNEL_CHECK(ctx, out.scalar_type() == self.scalar_type(),
                     "%s: out dtype %s differs from input dtype %s", kOp,
                     scalar_type_name(out.scalar_type()), scalar_type_name(self.scalar_type()));
  if (!resize_output(ctx, out, self.sizes(), kOp)) return;
  StridedView src = view_of(self), dst = view_of(out);
  int64_t shift[kTensorDimensionLimit] = {};
  if (dims.size() == 0) {
    // No dims: roll the flattened tensor, i.e. memory order when contiguous.
    EMBER_KERNEL_CHECK(ctx, shifts.size() == 1, "%s: expects one shift without dims, got %zu",
                       kOp, shifts.size());
    if (!check_contiguous(ctx, kOp, self) || !check_contiguous(ctx, kOp, out)) return;
    src = StridedView();
    src.dim = 1;
    src.sizes[0] = self.numel();
    src.strides[0] = 1;
    dst = src;
    if (self.numel() > 0) shift[0] = ((shifts[0] % self.numel()) + self.numel()) % self.numel();
  } else {
    EMBER_KERNEL_CHECK(ctx, shifts.size() == dims.size() && dims.size() <= kTensorDimensionLimit,
                       "%s: %zu shifts for %zu dims", kOp, shifts.size(), dims.size());
    EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot roll a 0-d tensor along a dim", kOp);
    for (size_t i = 0; i < dims.size(); ++i) {
      int64_t d = 0;
      if (!shape::check_dim(ctx, kOp, dims[i], self.dim(), &d)) return;
      const int64_t n = self.size(d);
      // Rolling the same dim twice adds up.
      if (n > 0) shift[d] = (shift[d] + shifts[i] % n + n) % n;
    }
  }
  EMBER_KERNEL_CHECK(ctx, roll_views(self, src, dst, shift, out), "%s: dtype %s is not supported",
                     kOp, scalar_type_name(self.scalar_type()));
}

// Copies self and zeroes, per matrix row i, the columns [begin(i), end(i)).
template <typename ZeroRange>
void triangle(KernelContext& ctx, const char* op, const Tensor& self, Tensor& out,
              ZeroRange zero_range) {
  EMBER_KERNEL_CHECK(ctx, self.dim() >= 2, "%s: input must have at least 2 dims, got %d", op,
                     self.dim());
  if (!shape::copy_view_to_output(ctx, op, self, view_of(self), out)) return;
  const int rank = out.dim();
  const int64_t rows = out.size(-2), cols = out.size(-1);
  alignas(16) const uint64_t zero[2] = {0, 0};  // all-zero bytes are 0 in every dtype
  for (int64_t i = 0; i < rows; ++i) {
    int64_t begin = 0, end = 0;
    zero_range(i, &begin, &end);
    begin = begin < 0 ? 0 : begin;
    end = end > cols ? cols : end;
    if (begin >= end) continue;
    StridedView v = view_of(out);
    shape::narrow(v, rank - 2, i, 1);
    shape::narrow(v, rank - 1, begin, end - begin);
    shape::fill_view(out.mutable_data_ptr(), v, zero, out.element_size());
  }
}

// Clamping the diagonal keeps i + diagonal from overflowing without changing
// which elements are zeroed.
int64_t clamp_diagonal(int64_t diagonal, const Tensor& self) {
  const int64_t bound = self.dim() >= 2 ? self.size(-2) + self.size(-1) + 1 : 1;
  return diagonal < -bound ? -bound : (diagonal > bound ? bound : diagonal);
}

void tril_out(KernelContext& ctx, const Tensor& self, int64_t diagonal, Tensor& out) {
  const int64_t diag = clamp_diagonal(diagonal, self);
  triangle(ctx, "tril", self, out, [&](int64_t i, int64_t* begin, int64_t* end) {
    *begin = i + diag + 1;
    *end = INT64_MAX;
  });
}

void triu_out(KernelContext& ctx, const Tensor& self, int64_t diagonal, Tensor& out) {
  const int64_t diag = clamp_diagonal(diagonal, self);
  triangle(ctx, "triu", self, out, [&](int64_t i, int64_t* begin, int64_t* end) {
    *begin = 0;
    *end = i + diag;
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::cat.out", cat_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::stack.out", stack_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::split_copy.Tensor_out", split_copy_tensor_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::split_with_sizes_copy.out", split_with_sizes_copy_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::unbind_copy.int_out", unbind_copy_int_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::repeat.out", repeat_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::constant_pad_nd.out", constant_pad_nd_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::flip.out", flip_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::roll.out", roll_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::tril.out", tril_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::triu.out", triu_out, kAllAndComplexTypes);

}  // namespace ember::kernels
