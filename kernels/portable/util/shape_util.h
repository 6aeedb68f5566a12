// Strided views and the copy loop behind the shape, copy, join and index
// kernels. Every view op (permute, slice, expand, ...) is "read the input
// through a view, write the output in logical order", so one loop serves them
// all, in any dim order, for every dtype.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "kernels/portable/util/dtype_rules.h"
#include "kernels/portable/util/elementwise_loop.h"
#include "kernels/portable/util/kernel_util.h"

namespace ember::kernels::shape {

// A 16-byte element (ComplexDouble), moved as raw bytes like the integer words.
struct alignas(16) Word128 {
  uint64_t lo, hi;
};

// Room for a view with every dim split in two (repeat does this).
constexpr int kMaxViewDims = 2 * kTensorDimensionLimit;

// Which element each logical index reads: offset + sum(index[d] * strides[d]),
// in elements. Strides may be zero (broadcast) or negative (flip).
struct StridedView {
  int dim = 0;
  int64_t sizes[kMaxViewDims] = {};
  int64_t strides[kMaxViewDims] = {};
  int64_t offset = 0;

  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < dim; ++d) n *= sizes[d];
    return n;
  }
  Span<const int64_t> shape() const { return {sizes, static_cast<size_t>(dim)}; }
};

// The view that reads `t` as it is.
inline StridedView view_of(const Tensor& t) {
  StridedView v;
  v.dim = t.dim();
  for (int d = 0; d < v.dim; ++d) {
    v.sizes[d] = t.size(d);
    v.strides[d] = t.stride(d);
  }
  return v;
}

inline void insert_dim(StridedView& v, int pos, int64_t size, int64_t stride) {
  for (int d = v.dim; d > pos; --d) {
    v.sizes[d] = v.sizes[d - 1];
    v.strides[d] = v.strides[d - 1];
  }
  v.sizes[pos] = size;
  v.strides[pos] = stride;
  ++v.dim;
}

inline void remove_dim(StridedView& v, int pos) {
  for (int d = pos; d + 1 < v.dim; ++d) {
    v.sizes[d] = v.sizes[d + 1];
    v.strides[d] = v.strides[d + 1];
  }
  --v.dim;
}

// Keeps `len` elements of dim `d`: start, start + step, ... (caller checks bounds).
inline void narrow(StridedView& v, int d, int64_t start, int64_t len, int64_t step = 1) {
  if (len > 0) v.offset += start * v.strides[d];
  v.sizes[d] = len;
  v.strides[d] *= step;
}

// Fixes dim `d` at `index` and drops it.
inline void select(StridedView& v, int d, int64_t index) {
  v.offset += index * v.strides[d];
  remove_dim(v, d);
}

// Reads `t` broadcast to `shape` (right-aligned, PyTorch rules); false when
// the shapes are not compatible.
inline bool broadcast_view(const Tensor& t, Span<const int64_t> shape, StridedView* out) {
  const int rank = static_cast<int>(shape.size());
  if (t.dim() > rank || rank > kMaxViewDims) return false;
  StridedView v;
  v.dim = rank;
  const int lead = rank - t.dim();
  for (int d = 0; d < rank; ++d) {
    v.sizes[d] = shape[d];
    if (d < lead) continue;  // a new leading dim: stride 0 repeats the tensor
    const int64_t s = t.size(d - lead);
    if (s == shape[d]) {
      v.strides[d] = t.stride(d - lead);
    } else if (s != 1) {
      return false;
    }
  }
  *out = v;
  return true;
}

// The broadcast of `a` and `b` (at most kTensorDimensionLimit dims); false
// when they do not broadcast.
inline bool broadcast_shapes(Span<const int64_t> a, Span<const int64_t> b, int64_t* out,
                             int* out_rank) {
  const int rank = static_cast<int>(a.size() > b.size() ? a.size() : b.size());
  if (rank > kTensorDimensionLimit) return false;
  for (int i = 0; i < rank; ++i) {
    const int ia = static_cast<int>(a.size()) - rank + i;
    const int ib = static_cast<int>(b.size()) - rank + i;
    const int64_t sa = ia >= 0 ? a[ia] : 1;
    const int64_t sb = ib >= 0 ? b[ib] : 1;
    if (sa != sb && sa != 1 && sb != 1) return false;
    out[i] = sa == 1 ? sb : sa;
  }
  *out_rank = rank;
  return true;
}

// Drops size-1 dims and merges each dim into its outer neighbour where the
// memory allows; the logical order is kept and the inner runs get longer.
// The result has at least one dim.
inline StridedView coalesce(const StridedView& v) {
  StridedView r;
  r.offset = v.offset;
  for (int d = 0; d < v.dim; ++d) {
    if (v.sizes[d] == 1) continue;
    if (r.dim > 0 && r.strides[r.dim - 1] == v.strides[d] * v.sizes[d]) {
      r.sizes[r.dim - 1] *= v.sizes[d];
      r.strides[r.dim - 1] = v.strides[d];
    } else {
      r.sizes[r.dim] = v.sizes[d];
      r.strides[r.dim] = v.strides[d];
      ++r.dim;
    }
  }
  if (r.dim == 0) {
    r.dim = 1;
    r.sizes[0] = 1;
    r.strides[0] = 1;
  }
  return r;
}

namespace detail {
// A position in a view, walked in row-major logical order.
struct Cursor {
  const StridedView& v;
  int64_t index[kMaxViewDims] = {};
  int64_t offset;

  explicit Cursor(const StridedView& view) : v(view), offset(view.offset) {}
  int64_t run_left() const { return v.sizes[v.dim - 1] - index[v.dim - 1]; }
  int64_t inner_stride() const { return v.strides[v.dim - 1]; }
  // Moves `n` elements on; n never passes the end of the innermost dim.
  void advance(int64_t n) {
    int d = v.dim - 1;
    index[d] += n;
    offset += n * v.strides[d];
    while (d > 0 && index[d] == v.sizes[d]) {
      offset -= index[d] * v.strides[d];
      index[d] = 0;
      --d;
      ++index[d];
      offset += v.strides[d];
    }
  }
};
}  // namespace detail

// Walks `a` and `b` together in logical order (they must have the same numel,
// their shapes may differ) and calls fn(a_offset, b_offset, n, a_stride,
// b_stride) for each stretch of `n` elements that is strided in both.
template <typename Fn>
void for_each_run(const StridedView& a_view, const StridedView& b_view, Fn&& fn) {
  const StridedView a = coalesce(a_view);
  const StridedView b = coalesce(b_view);
  int64_t remaining = a.numel();
  detail::Cursor ca(a), cb(b);
  while (remaining > 0) {
    const int64_t left_a = ca.run_left(), left_b = cb.run_left();
    const int64_t n = left_a < left_b ? left_a : left_b;
    fn(ca.offset, cb.offset, n, ca.inner_stride(), cb.inner_stride());
    ca.advance(n);
    cb.advance(n);
    remaining -= n;
  }
}

template <typename Word>
void copy_words(const void* src, const StridedView& sv, void* dst, const StridedView& dv) {
  const Word* s = static_cast<const Word*>(src);
  Word* d = static_cast<Word*>(dst);
  for_each_run(sv, dv, [&](int64_t so, int64_t dof, int64_t n, int64_t ss, int64_t ds) {
    if (ss == 1 && ds == 1) {
      // memmove: a crafted program may plan a copy's input and output over
      // each other (fuzzing found one); the result is then garbage, never UB.
      std::memmove(d + dof, s + so, static_cast<size_t>(n) * sizeof(Word));
      return;
    }
    for (int64_t k = 0; k < n; ++k) d[dof + k * ds] = s[so + k * ss];
  });
}

// Copies the elements of `sv` over `src` into `dv` over `dst`, moving raw
// elements of `elem_size` bytes, so it serves every dtype. False for an
// element size it cannot move.
inline bool copy_view(const void* src, const StridedView& sv, void* dst, const StridedView& dv,
                      size_t elem_size) {
  switch (elem_size) {
    case 1: copy_words<uint8_t>(src, sv, dst, dv); return true;
    case 2: copy_words<uint16_t>(src, sv, dst, dv); return true;
    case 4: copy_words<uint32_t>(src, sv, dst, dv); return true;
    case 8: copy_words<uint64_t>(src, sv, dst, dv); return true;
    case 16: copy_words<Word128>(src, sv, dst, dv); return true;
    default: return false;
  }
}

// copy_view with a dtype conversion between any two of the twelve computing
// dtypes (the complex types included) (a raw copy when the dtypes match), by dtype_rules.h's `convert`.
// False for other dtypes.
inline bool convert_view(const void* src, ScalarType src_type, const StridedView& sv, void* dst,
                         ScalarType dst_type, const StridedView& dv) {
  if (src_type == dst_type) {
    return copy_view(src, sv, dst, dv, element_size(src_type));
  }
  const size_t src_size = element_size(src_type), dst_size = element_size(dst_type);
  bool ok = true;
  for_each_run(sv, dv, [&](int64_t so, int64_t dof, int64_t n, int64_t ss, int64_t ds) {
    ok = ok && convert_elements(src_type, static_cast<const char*>(src) + so * src_size, ss,
                                dst_type, static_cast<char*>(dst) + dof * dst_size, ds, n);
  });
  return ok;
}

// Sets every element of `dv` over `dst` to the element in `bytes`.
inline bool fill_view(void* dst, const StridedView& dv, const void* bytes, size_t elem_size) {
  StridedView src = dv;  // same shape, every stride 0: reads the one element
  src.offset = 0;
  for (int d = 0; d < src.dim; ++d) src.strides[d] = 0;
  return copy_view(bytes, src, dst, dv, elem_size);
}

// Reads `src` through `view` into `out`: checks the dtype, resizes `out` to the
// view's shape and copies. The view must have at most kTensorDimensionLimit dims.
inline bool copy_view_to_output(KernelContext& ctx, const char* op, const Tensor& src,
                                const StridedView& view, Tensor& out) {
  if (out.scalar_type() != src.scalar_type()) {
    ctx.fail(Error::InvalidArgument, "%s: out dtype %s differs from input dtype %s", op,
             scalar_type_name(out.scalar_type()), scalar_type_name(src.scalar_type()));
    return false;
  }
  if (!resize_output(ctx, out, view.shape(), op)) return false;
  if (!copy_view(src.const_data_ptr(), view, out.mutable_data_ptr(), view_of(out),
                 src.element_size())) {
    ctx.fail(Error::NotSupported, "%s: dtype %s is not supported", op,
             scalar_type_name(src.scalar_type()));
    return false;
  }
  return true;
}

// Normalizes `dim` for a tensor of `rank` or fails the kernel naming `op`.
inline bool check_dim(KernelContext& ctx, const char* op, int64_t dim, int64_t rank,
                      int64_t* out) {
  if (!normalize_dim(dim, rank, out)) {
    ctx.fail(Error::InvalidArgument, "%s: dim %lld is out of range for rank %lld", op,
             static_cast<long long>(dim), static_cast<long long>(rank));
    return false;
  }
  return true;
}

// Normalizes a list of distinct dims; fails on a repeated or out-of-range dim.
inline bool check_dim_list(KernelContext& ctx, const char* op, IntArrayRef dims, int64_t rank,
                           int64_t* out) {
  if (dims.size() > kTensorDimensionLimit) {
    ctx.fail(Error::InvalidArgument, "%s: %zu dims given", op, dims.size());
    return false;
  }
  bool seen[kTensorDimensionLimit] = {};
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!check_dim(ctx, op, dims[i], rank, &out[i])) return false;
    if (seen[out[i]]) {
      ctx.fail(Error::InvalidArgument, "%s: dim %lld appears more than once", op,
               static_cast<long long>(out[i]));
      return false;
    }
    seen[out[i]] = true;
  }
  return true;
}

// Normalizes an element index along a dim of `size` (negative counts from the
// end); false when it is out of range.
inline bool normalize_index(int64_t index, int64_t size, int64_t* out) {
  if (index < -size || index >= size) return false;
  *out = index < 0 ? index + size : index;
  return true;
}

// PyTorch's slice bounds: None means the whole dim, negatives count from the
// end, and both ends clamp to [0, size]. Returns the number of elements.
inline int64_t slice_length(std::optional<int64_t> start_opt, std::optional<int64_t> end_opt,
                            int64_t step, int64_t size, int64_t* start_out) {
  int64_t start = start_opt.value_or(0);
  int64_t end = end_opt.value_or(size);
  if (start < 0) start += size;
  if (end < 0) end += size;
  start = start < 0 ? 0 : (start > size ? size : start);
  end = end < start ? start : (end > size ? size : end);
  *start_out = start;
  return (end - start + step - 1) / step;
}

// a * b for non-negative sizes, saturating instead of overflowing, so that a
// hostile size list cannot wrap around to a plausible element count.
inline int64_t mul_sizes(int64_t a, int64_t b) {
  if (a != 0 && b > INT64_MAX / a) return INT64_MAX;
  return a * b;
}

// Index tensors: int64 or int32.
inline bool is_index_dtype(ScalarType t) { return t == ScalarType::Long || t == ScalarType::Int; }

inline int64_t read_index(const Tensor& t, int64_t i) {
  return t.scalar_type() == ScalarType::Long ? t.const_data_ptr<int64_t>()[i]
                                             : t.const_data_ptr<int32_t>()[i];
}

// Index tensors are int64 or int32 and read in memory order.
inline bool check_index_tensor(KernelContext& ctx, const char* op, const Tensor& index) {
  if (!is_index_dtype(index.scalar_type())) {
    ctx.fail(Error::InvalidArgument, "%s: indices must be int64 or int32, got %s", op,
             scalar_type_name(index.scalar_type()));
    return false;
  }
  return check_contiguous(ctx, op, index);
}

// Every value of `index` must lie in [0, size): the index ops, like
// PyTorch's, take no negative indices.
inline bool check_index_values(KernelContext& ctx, const char* op, const Tensor& index,
                               int64_t size) {
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t v = read_index(index, i);
    if (v < 0 || v >= size) {
      ctx.fail(Error::InvalidArgument, "%s: index %lld is out of range for a dim of size %lld",
               op, static_cast<long long>(v), static_cast<long long>(size));
      return false;
    }
  }
  return true;
}

}  // namespace ember::kernels::shape
