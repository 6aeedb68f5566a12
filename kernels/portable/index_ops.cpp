// Ops that pick or place elements by index: embedding, index_select, gather,
// scatter, advanced indexing (index, index_put), select/slice_scatter,
// masked_select, and arange. Every index value is checked against the dim it
// indexes before it is used, so a bad index fails the kernel instead of
// reading or writing outside a tensor.
#include <cmath>
#include <cstring>

#include "kernels/portable/util/shape_util.h"

namespace ember::kernels {
namespace {

using shape::check_index_tensor;
using shape::check_index_values;
using shape::StridedView;
using shape::view_of;

// Calls fn(Word{}) with the unsigned type as wide as one element, so that
// index ops move elements of any dtype without a per-dtype switch.
template <typename Fn>
bool with_word_type(size_t elem_size, Fn&& fn) {
  switch (elem_size) {
    case 1: fn(uint8_t{}); return true;
    case 2: fn(uint16_t{}); return true;
    case 4: fn(uint32_t{}); return true;
    case 8: fn(uint64_t{}); return true;
    case 16: fn(shape::Word128{}); return true;
    default: return false;
  }
}

bool check_same_dtype(KernelContext& ctx, const char* op, const Tensor& a, const Tensor& b) {
  if (a.scalar_type() != b.scalar_type()) {
    ctx.fail(Error::InvalidArgument, "%s: dtypes %s and %s differ", op,
             scalar_type_name(a.scalar_type()), scalar_type_name(b.scalar_type()));
    return false;
  }
  return true;
}

void embedding_out(KernelContext& ctx, const Tensor& weight, const Tensor& indices,
                   int64_t padding_idx, bool scale_grad_by_freq, bool sparse, Tensor& out) {
  constexpr const char* kOp = "embedding";
  EMBER_KERNEL_CHECK(ctx, weight.dim() == 2, "%s: weight must be 2-d, got rank %d", kOp,
                     weight.dim());
  EMBER_KERNEL_CHECK(ctx, indices.dim() < kTensorDimensionLimit, "%s: indices rank %d is too high",
                     kOp, indices.dim());
  if (!check_index_tensor(ctx, kOp, indices) || !check_same_dtype(ctx, kOp, weight, out) ||
      !check_contiguous(ctx, kOp, weight) || !check_contiguous(ctx, kOp, out)) {
    return;
  }
  if (!check_index_values(ctx, kOp, indices, weight.size(0))) return;
  int64_t sizes[kTensorDimensionLimit];
  for (int i = 0; i < indices.dim(); ++i) sizes[i] = indices.size(i);
  sizes[indices.dim()] = weight.size(1);
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, indices.dim() + 1), kOp)) return;
  // padding_idx and the other flags only matter for the gradient.
  const size_t row_bytes = static_cast<size_t>(weight.size(1)) * weight.element_size();
  const char* w = static_cast<const char*>(weight.const_data_ptr());
  char* o = static_cast<char*>(out.mutable_data_ptr());
  for (int64_t i = 0; i < indices.numel(); ++i) {
    std::memcpy(o + i * row_bytes, w + shape::read_index(indices, i) * row_bytes, row_bytes);
  }
}

void index_select_out(KernelContext& ctx, const Tensor& self, int64_t dim, const Tensor& index,
                      Tensor& out) {
  constexpr const char* kOp = "index_select";
  if (!check_index_tensor(ctx, kOp, index)) return;
  EMBER_KERNEL_CHECK(ctx, index.dim() <= 1, "%s: index must be a vector, got rank %d", kOp,
                     index.dim());
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  if (self.dim() == 0) {
    // A 0-d input has one element, at index 0.
    EMBER_KERNEL_CHECK(ctx, index.numel() == 1, "%s: a 0-d input takes one index", kOp);
    if (!check_index_values(ctx, kOp, index, 1)) return;
    shape::copy_view_to_output(ctx, kOp, self, view_of(self), out);
    return;
  }
  if (!check_index_values(ctx, kOp, index, self.size(d))) return;
  StridedView result = view_of(self);
  result.sizes[d] = index.numel();
  if (!check_same_dtype(ctx, kOp, self, out) || !resize_output(ctx, out, result.shape(), kOp)) {
    return;
  }
  for (int64_t j = 0; j < index.numel(); ++j) {
    StridedView src = view_of(self), dst = view_of(out);
    shape::narrow(src, static_cast<int>(d), shape::read_index(index, j), 1);
    shape::narrow(dst, static_cast<int>(d), j, 1);
    EMBER_KERNEL_CHECK(ctx,
                       shape::copy_view(self.const_data_ptr(), src, out.mutable_data_ptr(), dst,
                                        self.element_size()),
                       "%s: dtype %s is not supported", kOp,
                       scalar_type_name(self.scalar_type()));
  }
}

// gather and scatter: PyTorch lets 0-d and 1-d tensors stand for each other.
bool same_rank(const Tensor& a, const Tensor& b) {
  return a.dim() == b.dim() || (a.dim() <= 1 && b.dim() <= 1);
}

int64_t size_or_one(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }

// `t` read at the coordinates of each element of `index`; dim `skip` gets
// stride 0 since the index value supplies it.
StridedView at_index_coords(const Tensor& t, const Tensor& index, int64_t skip) {
  StridedView v;
  v.dim = index.dim();
  for (int d = 0; d < v.dim; ++d) {
    v.sizes[d] = index.size(d);
    v.strides[d] = (d == skip || t.dim() == 0) ? 0 : t.stride(d);
  }
  return v;
}

// Shape rules shared by gather and scatter: index has self's rank and fits in
// self outside `dim` (and in src everywhere).
bool check_gather_shapes(KernelContext& ctx, const char* op, const Tensor& self, int64_t dim,
                         const Tensor& index, const Tensor* src) {
  bool ok = same_rank(index, self) && (src == nullptr || same_rank(index, *src));
  for (int d = 0; ok && d < index.dim(); ++d) {
    ok = (d == dim || index.size(d) <= size_or_one(self, d)) &&
         (src == nullptr || index.size(d) <= size_or_one(*src, d));
  }
  if (!ok) ctx.fail(Error::InvalidArgument, "%s: index shape does not fit the input", op);
  return ok;
}

void gather_out(KernelContext& ctx, const Tensor& self, int64_t dim, const Tensor& index,
                bool sparse_grad, Tensor& out) {
  constexpr const char* kOp = "gather";
  int64_t d = 0;
  // torch checks an empty index's dtype no more than its values.
  if (index.numel() == 0 && is_integral_type(index.scalar_type(), true)) {
    if (!check_same_dtype(ctx, kOp, self, out)) return;
    int64_t sizes[kTensorDimensionLimit];
    for (int i = 0; i < index.dim(); ++i) sizes[i] = index.size(i);
    resize_output(ctx, out, Span<const int64_t>(sizes, index.dim()), kOp);
    return;
  }
  if (!check_index_tensor(ctx, kOp, index) || !shape::check_dim(ctx, kOp, dim, self.dim(), &d) ||
      !check_gather_shapes(ctx, kOp, self, d, index, nullptr) ||
      !check_index_values(ctx, kOp, index, size_or_one(self, d)) ||
      !check_same_dtype(ctx, kOp, self, out) || !resize_output(ctx, out, index.sizes(), kOp)) {
    return;
  }
  const int64_t dim_stride = self.dim() == 0 ? 0 : self.stride(d);
  const StridedView base = at_index_coords(self, index, d);
  const bool ok = with_word_type(self.element_size(), [&](auto word) {
    using W = decltype(word);
    const W* s = self.const_data_ptr<W>();
    W* o = out.mutable_data_ptr<W>();
    int64_t pos = 0;  // index is contiguous and walked in logical order
    shape::for_each_run(base, view_of(out), [&](int64_t so, int64_t oo, int64_t n, int64_t ss,
                                                int64_t os) {
      for (int64_t k = 0; k < n; ++k) {
        o[oo + k * os] = s[so + k * ss + shape::read_index(index, pos + k) * dim_stride];
      }
      pos += n;
    });
  });
  EMBER_KERNEL_CHECK(ctx, ok, "%s: dtype %s is not supported", kOp,
                     scalar_type_name(self.scalar_type()));
}

// out = self, then out[..., index[i], ...] = combine(that, src[i]) for each i.
template <typename T, typename Combine>
void scatter_elements(const Tensor& index, int64_t dim_stride, const T* src,
                      const StridedView& src_view, T* out, const StridedView& out_base,
                      Combine combine) {
  int64_t pos = 0;
  shape::for_each_run(src_view, out_base, [&](int64_t so, int64_t oo, int64_t n, int64_t ss,
                                               int64_t os) {
    for (int64_t k = 0; k < n; ++k) {
      T& dst = out[oo + k * os + shape::read_index(index, pos + k) * dim_stride];
      dst = combine(dst, src[so + k * ss]);
    }
    pos += n;
  });
}

// Validates a scatter and copies self into out; returns the normalized dim.
bool prepare_scatter(KernelContext& ctx, const char* op, const Tensor& self, int64_t dim,
                     const Tensor& index, const Tensor* src, Tensor& out, int64_t* d) {
  return check_index_tensor(ctx, op, index) && shape::check_dim(ctx, op, dim, self.dim(), d) &&
         check_gather_shapes(ctx, op, self, *d, index, src) &&
         (src == nullptr || check_same_dtype(ctx, op, self, *src)) &&
         check_index_values(ctx, op, index, size_or_one(self, *d)) &&
         shape::copy_view_to_output(ctx, op, self, view_of(self), out);
}

// Scatters `src` read through `src_view` (index's shape) into out, assigning.
void scatter_assign(KernelContext& ctx, const char* op, const Tensor& index, int64_t d,
                    const void* src, const StridedView& src_view, Tensor& out) {
  const int64_t dim_stride = out.dim() == 0 ? 0 : out.stride(d);
  const StridedView base = at_index_coords(out, index, d);
  const bool ok = with_word_type(out.element_size(), [&](auto word) {
    using W = decltype(word);
    scatter_elements(index, dim_stride, static_cast<const W*>(src), src_view,
                     out.mutable_data_ptr<W>(), base, [](W, W s) { return s; });
  });
  EMBER_KERNEL_CHECK(ctx, ok, "%s: dtype %s is not supported", op,
                     scalar_type_name(out.scalar_type()));
}

void scatter_src_out(KernelContext& ctx, const Tensor& self, int64_t dim, const Tensor& index,
                     const Tensor& src, Tensor& out) {
  int64_t d = 0;
  if (!prepare_scatter(ctx, "scatter", self, dim, index, &src, out, &d)) return;
  scatter_assign(ctx, "scatter", index, d, src.const_data_ptr(), at_index_coords(src, index, -1),
                 out);
}

void scatter_value_out(KernelContext& ctx, const Tensor& self, int64_t dim, const Tensor& index,
                       Scalar value, Tensor& out) {
  constexpr const char* kOp = "scatter";
  alignas(16) uint8_t element[16];
  EMBER_KERNEL_CHECK(ctx, scalar_to_element(value, self.scalar_type(), element),
                     "%s: the value does not fit dtype %s", kOp,
                     scalar_type_name(self.scalar_type()));
  int64_t d = 0;
  if (!prepare_scatter(ctx, kOp, self, dim, index, nullptr, out, &d)) return;
  StridedView one = at_index_coords(out, index, -1);  // every element reads the value
  for (int i = 0; i < one.dim; ++i) one.strides[i] = 0;
  scatter_assign(ctx, kOp, index, d, element, one, out);
}

void scatter_add_out(KernelContext& ctx, const Tensor& self, int64_t dim, const Tensor& index,
                     const Tensor& src, Tensor& out) {
  constexpr const char* kOp = "scatter_add";
  int64_t d = 0;
  if (!prepare_scatter(ctx, kOp, self, dim, index, &src, out, &d)) return;
  const int64_t dim_stride = out.dim() == 0 ? 0 : out.stride(d);
  const StridedView src_view = at_index_coords(src, index, -1);
  const StridedView base = at_index_coords(out, index, d);
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(
      out.scalar_type(),
      ctx.fail(Error::NotSupported, "%s: dtype %s is not supported", kOp,
               scalar_type_name(out.scalar_type())),
      scatter_elements(index, dim_stride, src.const_data_ptr<CTYPE>(), src_view,
                       out.mutable_data_ptr<CTYPE>(), base, wrapping_add<CTYPE>));
}

// scatter with reduce="add" or "multiply" (the legacy scatter_ overloads):
// each src element (or the value) combines into the element it indexes.
bool scatter_reduction(KernelContext& ctx, const char* op, StringView reduce, bool* multiply) {
  const bool add = reduce.size() == 3 && std::memcmp(reduce.data(), "add", 3) == 0;
  *multiply = reduce.size() == 8 && std::memcmp(reduce.data(), "multiply", 8) == 0;
  if (!add && !*multiply) {
    ctx.fail(Error::InvalidArgument, "%s: reduce must be 'add' or 'multiply'", op);
    return false;
  }
  return true;
}

void scatter_reduce_impl(KernelContext& ctx, const char* op, const Tensor& index, int64_t d,
                         const void* src, const StridedView& src_view, bool multiply,
                         Tensor& out) {
  const int64_t dim_stride = out.dim() == 0 ? 0 : out.stride(d);
  const StridedView base = at_index_coords(out, index, d);
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(
      out.scalar_type(),
      ctx.fail(Error::NotSupported, "%s: dtype %s is not supported", op,
               scalar_type_name(out.scalar_type())),
      scatter_elements(index, dim_stride, static_cast<const CTYPE*>(src), src_view,
                       out.mutable_data_ptr<CTYPE>(), base,
                       multiply ? wrapping_mul<CTYPE> : wrapping_add<CTYPE>));
}

void scatter_reduce_out(KernelContext& ctx, const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& src, StringView reduce, Tensor& out) {
  constexpr const char* kOp = "scatter.reduce_out";
  bool multiply = false;
  int64_t d = 0;
  if (!scatter_reduction(ctx, kOp, reduce, &multiply) ||
      !prepare_scatter(ctx, kOp, self, dim, index, &src, out, &d)) {
    return;
  }
  scatter_reduce_impl(ctx, kOp, index, d, src.const_data_ptr(), at_index_coords(src, index, -1),
                      multiply, out);
}

void scatter_value_reduce_out(KernelContext& ctx, const Tensor& self, int64_t dim,
                              const Tensor& index, Scalar value, StringView reduce, Tensor& out) {
  constexpr const char* kOp = "scatter.value_reduce_out";
  bool multiply = false;
  alignas(16) uint8_t element[16];
  EMBER_KERNEL_CHECK(ctx, scalar_to_element(value, self.scalar_type(), element),
                     "%s: the value does not fit dtype %s", kOp,
                     scalar_type_name(self.scalar_type()));
  int64_t d = 0;
  if (!scatter_reduction(ctx, kOp, reduce, &multiply) ||
      !prepare_scatter(ctx, kOp, self, dim, index, nullptr, out, &d)) {
    return;
  }
  StridedView one = at_index_coords(out, index, -1);
  for (int i = 0; i < one.dim; ++i) one.strides[i] = 0;
  scatter_reduce_impl(ctx, kOp, index, d, element, one, multiply, out);
}

// Advanced indexing, self[indices]. Index tensors are integer (one per dim)
// or bool masks (standing for their nonzero positions, one dim each of the
// mask's rank); they broadcast together to a shape B. The result holds B in
// place of the indexed dims when those are adjacent, else B first and then
// the other dims, as in PyTorch. Both self and the result are contiguous, so
// the self dims after the last indexed one form a block ("row") that is
// copied whole.
class AdvancedIndex {
 public:
  bool init(KernelContext& ctx, const char* op, const Tensor& self, OptionalTensorList indices);

  Span<const int64_t> result_shape() const {
    return {result_, static_cast<size_t>(result_rank_)};
  }
  int lead_rank() const { return lead_rank_; }
  int64_t row_elems() const { return row_elems_; }

  // Calls fn(self_offset, lead_coords) for each result row in order, where
  // lead_coords index the result dims before the row. Fails the kernel
  // (returning false) on an index out of range.
  template <typename Fn>
  bool for_each_row(KernelContext& ctx, const char* op, Fn&& fn);

 private:
  struct Source {
    const Tensor* t = nullptr;
    bool mask = false;
    int first_dim = 0;  // the first self dim it indexes
    int num_dims = 0;   // 1, or a mask's rank
    int64_t count = 0;  // a mask's number of true elements
    int64_t b_strides[kTensorDimensionLimit] = {};  // over B; 0 where broadcast
    int64_t seen = 0;   // trues up to and including position `flat`
    int64_t flat = -1;
  };

  bool add_source(KernelContext& ctx, const char* op, const Tensor& t, int* dim);
  bool broadcast(KernelContext& ctx, const char* op);
  int64_t nth_true(Source& s, int64_t p);

  const Tensor* self_ = nullptr;
  Source sources_[kTensorDimensionLimit];
  int num_sources_ = 0;
  int64_t b_[kTensorDimensionLimit] = {};
  int b_rank_ = 0;
  // Each leading result dim is a B dim or a self dim (the other is -1).
  int lead_b_dim_[kTensorDimensionLimit] = {};
  int lead_self_dim_[kTensorDimensionLimit] = {};
  int lead_rank_ = 0;
  int64_t result_[kTensorDimensionLimit] = {};
  int result_rank_ = 0;
  int64_t row_elems_ = 1;
};

bool AdvancedIndex::add_source(KernelContext& ctx, const char* op, const Tensor& t, int* dim) {
  Source& s = sources_[num_sources_++];
  s.t = &t;
  s.first_dim = *dim;
  const int rank = self_->dim();
  if (t.scalar_type() == ScalarType::Bool || t.scalar_type() == ScalarType::Byte) {
    s.mask = true;
    s.num_dims = t.dim();
    if (t.dim() == 0 || *dim + t.dim() > rank) {
      ctx.fail(Error::InvalidArgument, "%s: a mask of rank %d does not fit at dim %d", op,
               t.dim(), *dim);
      return false;
    }
    for (int i = 0; i < t.dim(); ++i) {
      if (t.size(i) != self_->size(*dim + i)) {
        ctx.fail(Error::InvalidArgument, "%s: mask dim %d has size %lld, the input %lld", op, i,
                 static_cast<long long>(t.size(i)),
                 static_cast<long long>(self_->size(*dim + i)));
        return false;
      }
    }
    const uint8_t* m = t.const_data_ptr<uint8_t>();
    for (int64_t i = 0; i < t.numel(); ++i) s.count += m[i] != 0;
  } else if (shape::is_index_dtype(t.scalar_type())) {
    s.num_dims = 1;
    if (*dim >= rank) {
      ctx.fail(Error::InvalidArgument, "%s: too many indices for a rank-%d input", op, rank);
      return false;
    }
  } else {
    ctx.fail(Error::InvalidArgument, "%s: indices must be int64, int32, bool or uint8, got %s",
             op, scalar_type_name(t.scalar_type()));
    return false;
  }
  *dim += s.num_dims;
  return true;
}

// Broadcasts every source's shape into B and records its strides over B.
bool AdvancedIndex::broadcast(KernelContext& ctx, const char* op) {
  for (int i = 0; i < num_sources_; ++i) {
    const Source& s = sources_[i];
    // A mask stands for a 1-d index of its true count.
    int64_t own[kTensorDimensionLimit] = {s.count};
    int own_rank = 1;
    if (!s.mask) {
      own_rank = s.t->dim();
      for (int d = 0; d < own_rank; ++d) own[d] = s.t->size(d);
    }
    const Span<const int64_t> shape(own, static_cast<size_t>(own_rank));
    int64_t merged[kTensorDimensionLimit];
    int rank = 0;
    if (!shape::broadcast_shapes(Span<const int64_t>(b_, b_rank_), shape, merged, &rank)) {
      ctx.fail(Error::InvalidArgument, "%s: index tensors cannot be broadcast together", op);
      return false;
    }
    for (int d = 0; d < rank; ++d) b_[d] = merged[d];
    b_rank_ = rank;
  }
  for (int i = 0; i < num_sources_; ++i) {
    Source& s = sources_[i];
    if (s.mask) {
      s.b_strides[b_rank_ - 1] = s.count == 1 ? 0 : 1;
      continue;
    }
    const int lead = b_rank_ - s.t->dim();
    for (int d = 0; d < s.t->dim(); ++d) {
      s.b_strides[lead + d] = s.t->size(d) == 1 ? 0 : s.t->stride(d);
    }
  }
  return true;
}

bool AdvancedIndex::init(KernelContext& ctx, const char* op, const Tensor& self,
                         OptionalTensorList indices) {
  self_ = &self;
  const int rank = self.dim();
  if (indices.items.size() > static_cast<size_t>(rank)) {
    ctx.fail(Error::InvalidArgument, "%s: %zu indices for a rank-%d input", op,
             indices.items.size(), rank);
    return false;
  }
  int dim = 0;
  for (const Tensor* t : indices.items) {
    if (t == nullptr) {
      ++dim;  // None keeps the whole dim
      continue;
    }
    if (!check_contiguous(ctx, op, *t) || !add_source(ctx, op, *t, &dim)) return false;
  }
  if (!broadcast(ctx, op)) return false;
  // Indexed dims span [first, end); adjacent when every dim in it is indexed.
  const int first = num_sources_ > 0 ? sources_[0].first_dim : 0;
  const Source* last = num_sources_ > 0 ? &sources_[num_sources_ - 1] : nullptr;
  const int end = last != nullptr ? last->first_dim + last->num_dims : 0;
  bool indexed[kTensorDimensionLimit] = {};
  int num_indexed = 0;
  for (int i = 0; i < num_sources_; ++i) {
    for (int k = 0; k < sources_[i].num_dims; ++k) indexed[sources_[i].first_dim + k] = true;
    num_indexed += sources_[i].num_dims;
  }
  const bool adjacent = num_indexed == end - first;
  if (end - num_indexed + b_rank_ > kTensorDimensionLimit) {
    ctx.fail(Error::InvalidArgument, "%s: the result would have too many dims", op);
    return false;
  }
  auto add_b_dims = [&] {
    for (int j = 0; j < b_rank_; ++j) {
      lead_b_dim_[lead_rank_] = j;
      lead_self_dim_[lead_rank_] = -1;
      result_[lead_rank_++] = b_[j];
    }
  };
  if (!adjacent) add_b_dims();
  for (int d = 0; d < end; ++d) {
    if (adjacent && d == first) add_b_dims();
    if (indexed[d]) continue;
    lead_b_dim_[lead_rank_] = -1;
    lead_self_dim_[lead_rank_] = d;
    result_[lead_rank_++] = self.size(d);
  }
  result_rank_ = lead_rank_;
  for (int d = end; d < rank; ++d) {
    if (result_rank_ >= kTensorDimensionLimit) {
      ctx.fail(Error::InvalidArgument, "%s: the result would have too many dims", op);
      return false;
    }
    result_[result_rank_++] = self.size(d);
    row_elems_ *= self.size(d);
  }
  return true;
}

// Position of the p-th true element of a mask. Walks on from the last answer,
// so the usual in-order requests cost O(mask size) in all.
int64_t AdvancedIndex::nth_true(Source& s, int64_t p) {
  if (p < s.seen - 1) {
    s.seen = 0;
    s.flat = -1;
  }
  const uint8_t* m = s.t->const_data_ptr<uint8_t>();
  while (s.seen <= p) {
    ++s.flat;
    s.seen += m[s.flat] != 0;
  }
  return s.flat;
}

template <typename Fn>
bool AdvancedIndex::for_each_row(KernelContext& ctx, const char* op, Fn&& fn) {
  int64_t total = 1;
  for (int d = 0; d < result_rank_; ++d) total *= result_[d];
  if (total == 0) return true;
  int64_t rows = 1;
  for (int d = 0; d < lead_rank_; ++d) rows *= result_[d];
  int64_t lead[kTensorDimensionLimit] = {};
  int64_t b[kTensorDimensionLimit] = {};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = 0;
    for (int i = 0; i < lead_rank_; ++i) {
      if (lead_b_dim_[i] >= 0) b[lead_b_dim_[i]] = lead[i];
      if (lead_self_dim_[i] >= 0) offset += lead[i] * self_->stride(lead_self_dim_[i]);
    }
    for (int i = 0; i < num_sources_; ++i) {
      Source& s = sources_[i];
      int64_t p = 0;
      for (int j = 0; j < b_rank_; ++j) p += b[j] * s.b_strides[j];
      if (s.mask) {
        // Unravel the mask position into the dims it covers.
        int64_t flat = nth_true(s, p);
        for (int k = s.num_dims - 1; k >= 0; --k) {
          const int64_t size = s.t->size(k);
          offset += (flat % size) * self_->stride(s.first_dim + k);
          flat /= size;
        }
        continue;
      }
      const int64_t size = self_->size(s.first_dim);
      int64_t v = shape::read_index(*s.t, p);
      if (!shape::normalize_index(v, size, &v)) {
        ctx.fail(Error::InvalidArgument, "%s: index %lld is out of range for dim %d of size %lld",
                 op, static_cast<long long>(shape::read_index(*s.t, p)), s.first_dim,
                 static_cast<long long>(size));
        return false;
      }
      offset += v * self_->stride(s.first_dim);
    }
    fn(offset, lead);
    for (int d = lead_rank_ - 1; d >= 0 && ++lead[d] == result_[d]; --d) lead[d] = 0;
  }
  return true;
}

void index_tensor_out(KernelContext& ctx, const Tensor& self, OptionalTensorList indices,
                      Tensor& out) {
  constexpr const char* kOp = "index";
  if (!check_same_dtype(ctx, kOp, self, out) || !check_contiguous(ctx, kOp, self) ||
      !check_contiguous(ctx, kOp, out)) {
    return;
  }
  AdvancedIndex index;
  if (!index.init(ctx, kOp, self, indices) ||
      !resize_output(ctx, out, index.result_shape(), kOp)) {
    return;
  }
  const size_t elem = self.element_size();
  const size_t row_bytes = static_cast<size_t>(index.row_elems()) * elem;
  const char* s = static_cast<const char*>(self.const_data_ptr());
  char* o = static_cast<char*>(out.mutable_data_ptr());
  index.for_each_row(ctx, kOp, [&](int64_t offset, const int64_t*) {
    std::memcpy(o, s + offset * elem, row_bytes);
    o += row_bytes;
  });
}

template <typename T>
void add_view(const T* src, const StridedView& sv, T* dst, const StridedView& dv) {
  shape::for_each_run(sv, dv, [&](int64_t so, int64_t dof, int64_t n, int64_t ss, int64_t ds) {
    for (int64_t k = 0; k < n; ++k) {
      dst[dof + k * ds] = wrapping_add(dst[dof + k * ds], src[so + k * ss]);
    }
  });
}

void index_put_out(KernelContext& ctx, const Tensor& self, OptionalTensorList indices,
                   const Tensor& values, bool accumulate, Tensor& out) {
  constexpr const char* kOp = "index_put";
  if (!check_same_dtype(ctx, kOp, self, values) || !check_contiguous(ctx, kOp, self) ||
      !check_contiguous(ctx, kOp, out)) {
    return;
  }
  AdvancedIndex index;
  if (!index.init(ctx, kOp, self, indices)) return;
  StridedView vals;
  EMBER_KERNEL_CHECK(ctx, shape::broadcast_view(values, index.result_shape(), &vals),
                     "%s: values of rank %d do not broadcast to the indexed shape", kOp,
                     values.dim());
  // In place (index_put_, a KV cache update): out already holds self.
  if (out.const_data_ptr() != self.const_data_ptr() &&
      !shape::copy_view_to_output(ctx, kOp, self, view_of(self), out)) {
    return;
  }
  // Per row: the values' trailing dims, and a contiguous block of out (which
  // has self's shape and layout, so self offsets address it).
  StridedView value_row;
  for (int d = index.lead_rank(); d < vals.dim; ++d) {
    shape::insert_dim(value_row, value_row.dim, vals.sizes[d], vals.strides[d]);
  }
  StridedView out_row;
  shape::insert_dim(out_row, 0, index.row_elems(), 1);
  auto place = [&](int64_t offset, const int64_t* lead) {
    value_row.offset = 0;
    for (int i = 0; i < index.lead_rank(); ++i) value_row.offset += lead[i] * vals.strides[i];
    out_row.offset = offset;
  };
  if (!accumulate) {
    index.for_each_row(ctx, kOp, [&](int64_t offset, const int64_t* lead) {
      place(offset, lead);
      shape::copy_view(values.const_data_ptr(), value_row, out.mutable_data_ptr(), out_row,
                       out.element_size());
    });
    return;
  }
  EMBER_SWITCH_ALL_AND_COMPLEX_TYPES(
      out.scalar_type(),
      ctx.fail(Error::NotSupported, "%s: dtype %s is not supported", kOp,
               scalar_type_name(out.scalar_type())),
      index.for_each_row(ctx, kOp, [&](int64_t offset, const int64_t* lead) {
        place(offset, lead);
        add_view(values.const_data_ptr<CTYPE>(), value_row, out.mutable_data_ptr<CTYPE>(),
                 out_row);
      }));
}

// self[indices] = values, in place: what a KV cache update is once the
// exporter has dropped its write-back copy (ExecuTorch's reinplace pass).
void index_put_inplace(KernelContext& ctx, Tensor& self, OptionalTensorList indices,
                       const Tensor& values, bool accumulate) {
  index_put_out(ctx, self, indices, values, accumulate, self);
}

// out = self with `src` copied over the part of it that `dst` views.
void scatter_view(KernelContext& ctx, const char* op, const Tensor& self, const Tensor& src,
                  const StridedView& dst, Tensor& out) {
  bool same = src.dim() == dst.dim;
  for (int d = 0; same && d < dst.dim; ++d) same = src.size(d) == dst.sizes[d];
  EMBER_KERNEL_CHECK(ctx, same, "%s: src shape does not match the slice it replaces", op);
  if (!check_same_dtype(ctx, op, self, src) ||
      !shape::copy_view_to_output(ctx, op, self, view_of(self), out)) {
    return;
  }
  shape::copy_view(src.const_data_ptr(), view_of(src), out.mutable_data_ptr(), dst,
                   out.element_size());
}

void select_scatter_out(KernelContext& ctx, const Tensor& self, const Tensor& src, int64_t dim,
                        int64_t index, Tensor& out) {
  constexpr const char* kOp = "select_scatter";
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot select from a 0-d tensor", kOp);
  int64_t d = 0, i = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  EMBER_KERNEL_CHECK(ctx, shape::normalize_index(index, self.size(d), &i),
                     "%s: index %lld is out of range for dim %lld of size %lld", kOp,
                     static_cast<long long>(index), static_cast<long long>(d),
                     static_cast<long long>(self.size(d)));
  if (!resize_output(ctx, out, self.sizes(), kOp)) return;
  StridedView dst = view_of(out);
  shape::select(dst, static_cast<int>(d), i);
  scatter_view(ctx, kOp, self, src, dst, out);
}

void slice_scatter_out(KernelContext& ctx, const Tensor& self, const Tensor& src, int64_t dim,
                       std::optional<int64_t> start, std::optional<int64_t> end, int64_t step,
                       Tensor& out) {
  constexpr const char* kOp = "slice_scatter";
  EMBER_KERNEL_CHECK(ctx, self.dim() > 0, "%s: cannot slice a 0-d tensor", kOp);
  EMBER_KERNEL_CHECK(ctx, step > 0, "%s: step must be positive, got %lld", kOp,
                     static_cast<long long>(step));
  int64_t d = 0;
  if (!shape::check_dim(ctx, kOp, dim, self.dim(), &d)) return;
  if (!resize_output(ctx, out, self.sizes(), kOp)) return;
  int64_t first = 0;
  const int64_t len = shape::slice_length(start, end, step, self.size(d), &first);
  StridedView dst = view_of(out);
  shape::narrow(dst, static_cast<int>(d), first, len, step);
  scatter_view(ctx, kOp, self, src, dst, out);
}

void masked_select_out(KernelContext& ctx, const Tensor& self, const Tensor& mask, Tensor& out) {
  constexpr const char* kOp = "masked_select";
  EMBER_KERNEL_CHECK(ctx, mask.scalar_type() == ScalarType::Bool ||
                              mask.scalar_type() == ScalarType::Byte,
                     "%s: mask must be bool, got %s", kOp, scalar_type_name(mask.scalar_type()));
  EMBER_KERNEL_CHECK(ctx, out.dim() == 1, "%s: out must be 1-d, got rank %d", kOp, out.dim());
  if (!check_same_dtype(ctx, kOp, self, out)) return;
  int64_t shape[kTensorDimensionLimit];
  int rank = 0;
  StridedView sv, mv;
  const StridedView self_shape = view_of(self), mask_shape = view_of(mask);
  EMBER_KERNEL_CHECK(ctx,
                     shape::broadcast_shapes(self_shape.shape(), mask_shape.shape(), shape,
                                             &rank) &&
                         shape::broadcast_view(self, Span<const int64_t>(shape, rank), &sv) &&
                         shape::broadcast_view(mask, Span<const int64_t>(shape, rank), &mv),
                     "%s: self and mask do not broadcast", kOp);
  const uint8_t* m = mask.const_data_ptr<uint8_t>();
  int64_t count = 0;
  shape::for_each_run(mv, mv, [&](int64_t mo, int64_t, int64_t n, int64_t ms, int64_t) {
    for (int64_t k = 0; k < n; ++k) count += m[mo + k * ms] != 0;
  });
  const int64_t sizes[1] = {count};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 1), kOp)) return;
  const bool ok = with_word_type(self.element_size(), [&](auto word) {
    using W = decltype(word);
    const W* s = self.const_data_ptr<W>();
    W* o = out.mutable_data_ptr<W>();
    shape::for_each_run(sv, mv, [&](int64_t so, int64_t mo, int64_t n, int64_t ss, int64_t ms) {
      for (int64_t k = 0; k < n; ++k) {
        if (m[mo + k * ms] != 0) *o++ = s[so + k * ss];
      }
    });
  });
  EMBER_KERNEL_CHECK(ctx, ok, "%s: dtype %s is not supported", kOp,
                     scalar_type_name(self.scalar_type()));
}

// A Scalar truncated to int64, as PyTorch's Scalar::to<int64_t>; false when a
// double is out of range (or NaN).
bool scalar_to_int64(const Scalar& s, int64_t* out) {
  if (s.is_integral()) {
    *out = s.to_int();
    return true;
  }
  const double v = s.to_double();
  if (!(v > -9.2e18 && v < 9.2e18)) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

// PyTorch's arange: the length is ceil((end - start) / step) in double
// (exact integer arithmetic for int64 out); integer outputs use start and
// step truncated to integers, float outputs compute start + i * step in
// double (float for the 16-bit types).
void arange_impl(KernelContext& ctx, const char* op, const Scalar* start_opt, const Scalar& end,
                 const Scalar* step_opt, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, out.dim() == 1, "%s: out must be 1-d, got rank %d", op, out.dim());
  const double start = start_opt ? start_opt->to_double() : 0.0;
  const double step = step_opt ? step_opt->to_double() : 1.0;
  const double stop = end.to_double();
  EMBER_KERNEL_CHECK(ctx, std::isfinite(start) && std::isfinite(stop) && std::isfinite(step),
                     "%s: bounds and step must be finite", op);
  EMBER_KERNEL_CHECK(ctx, step != 0, "%s: step must be nonzero", op);
  EMBER_KERNEL_CHECK(ctx, (step > 0 && stop >= start) || (step < 0 && stop <= start),
                     "%s: upper bound and lower bound inconsistent with step sign", op);
  const ScalarType type = out.scalar_type();
  const bool integral = is_integral_type(type, /*include_bool=*/false);
  int64_t istart = 0, istep = 1, istop = 0;
  if (integral) {
    EMBER_KERNEL_CHECK(ctx,
                       (start_opt == nullptr || scalar_to_int64(*start_opt, &istart)) &&
                           (step_opt == nullptr || scalar_to_int64(*step_opt, &istep)) &&
                           scalar_to_int64(end, &istop),
                       "%s: bounds out of range for %s", op, scalar_type_name(type));
  }
  double length = std::ceil((stop - start) / step);
  if (type == ScalarType::Long) {
    // Bounded so that the sum below cannot overflow.
    constexpr int64_t kLimit = int64_t{1} << 61;
    EMBER_KERNEL_CHECK(ctx, istart > -kLimit && istart < kLimit && istop > -kLimit &&
                                istop < kLimit && istep > -kLimit && istep < kLimit,
                       "%s: bounds out of range", op);
    EMBER_KERNEL_CHECK(ctx, istep != 0, "%s: step must be nonzero", op);
    const int64_t sign = istep > 0 ? 1 : -1;
    length = static_cast<double>((istop - istart + istep - sign) / istep);
  }
  EMBER_KERNEL_CHECK(ctx, length >= 0 && length <= INT32_MAX, "%s: invalid length %g", op,
                     length);
  const int64_t n = static_cast<int64_t>(length);
  const int64_t sizes[1] = {n};
  if (!resize_output(ctx, out, Span<const int64_t>(sizes, 1), op)) return;
  EMBER_SWITCH_REAL_TYPES(
      type,
      ctx.fail(Error::NotSupported, "%s: dtype %s is not supported", op, scalar_type_name(type)),
      {
        CTYPE* o = out.mutable_data_ptr<CTYPE>();
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (std::is_integral_v<CTYPE>) {
            // Wrapping arithmetic: huge bounds give PyTorch's wrapped values, not UB.
            o[i] = static_cast<CTYPE>(static_cast<int64_t>(
                static_cast<uint64_t>(istart) +
                static_cast<uint64_t>(istep) * static_cast<uint64_t>(i)));
          } else {
            using Acc = std::conditional_t<sizeof(CTYPE) == 2, float, double>;
            o[i] = static_cast<CTYPE>(static_cast<Acc>(start) +
                                      static_cast<Acc>(step) * static_cast<Acc>(i));
          }
        }
      });
}

void arange_out(KernelContext& ctx, Scalar end, Tensor& out) {
  arange_impl(ctx, "arange", nullptr, end, nullptr, out);
}

void arange_start_out(KernelContext& ctx, Scalar start, Scalar end, Scalar step, Tensor& out) {
  arange_impl(ctx, "arange", &start, end, &step, out);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::embedding.out", embedding_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::index_select.out", index_select_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::gather.out", gather_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::scatter.src_out", scatter_src_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::scatter.value_out", scatter_value_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::scatter_add.out", scatter_add_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::scatter.reduce_out", scatter_reduce_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::scatter.value_reduce_out", scatter_value_reduce_out,
                      kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::index.Tensor_out", index_tensor_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::index_put.out", index_put_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::index_put_", index_put_inplace, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::select_scatter.out", select_scatter_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::slice_scatter.out", slice_scatter_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::masked_select.out", masked_select_out, kAllAndComplexTypes);
EMBER_REGISTER_KERNEL("aten::arange.out", arange_out, kAllTypes);
EMBER_REGISTER_KERNEL("aten::arange.start_out", arange_start_out, kAllTypes);

}  // namespace ember::kernels
