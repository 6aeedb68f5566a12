// Helpers shared by the neural-network, matmul and reduction kernels: argument
// checks, reduction identities, and iteration over the elements that a
// reduction folds into each output element.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "kernels/portable/util/dtype_rules.h"
#include "kernels/portable/util/kernel_util.h"

namespace ember::kernels::nn {

// ---------------------------------------------------------------------------
// Reduction identities (the element rules themselves are in dtype_rules.h)

// Lowest and highest values of T in its accumulation type (infinities for floats).
template <typename T>
inline acc_t<T> lowest_value() {
  if constexpr (is_float_v<T>) {
    return -std::numeric_limits<acc_t<T>>::infinity();
  } else {
    return static_cast<acc_t<T>>(std::numeric_limits<T>::lowest());
  }
}
template <typename T>
inline acc_t<T> highest_value() {
  if constexpr (is_float_v<T>) {
    return std::numeric_limits<acc_t<T>>::infinity();
  } else {
    return static_cast<acc_t<T>>(std::numeric_limits<T>::max());
  }
}

// ---------------------------------------------------------------------------
// Argument checks; each fails the kernel with a message naming `op`.

inline bool check_same_dtype(KernelContext& ctx, const char* op, const Tensor& a,
                             const char* a_name, const Tensor& b, const char* b_name) {
  if (a.scalar_type() != b.scalar_type()) {
    ctx.fail(Error::InvalidArgument, "%s: %s has dtype %s but %s has dtype %s", op, a_name,
             scalar_type_name(a.scalar_type()), b_name, scalar_type_name(b.scalar_type()));
    return false;
  }
  return true;
}

// An explicit `dtype=` argument must name a valid type and agree with `out`.
inline bool check_dtype_arg(KernelContext& ctx, const char* op, std::optional<int64_t> dtype,
                            const Tensor& out) {
  if (!dtype.has_value()) {
    return true;
  }
  if (*dtype < 0 || *dtype > 127 || !is_valid_scalar_type(static_cast<int>(*dtype))) {
    ctx.fail(Error::InvalidArgument, "%s: dtype %lld is not a scalar type", op,
             static_cast<long long>(*dtype));
    return false;
  }
  const ScalarType want = static_cast<ScalarType>(*dtype);
  if (want != out.scalar_type()) {
    ctx.fail(Error::InvalidArgument, "%s: expected out to have dtype %s but it has %s", op,
             scalar_type_name(want), scalar_type_name(out.scalar_type()));
    return false;
  }
  return true;
}

// Expands an int[N] argument given with 1 or N items (PyTorch repeats a single
// one); `fallback` is used when the list is empty and fallback is non-null.
inline bool expand_int_list(KernelContext& ctx, const char* op, const char* name, IntArrayRef v,
                            int n, const int64_t* fallback, int64_t* out) {
  if (v.empty() && fallback != nullptr) {
    for (int i = 0; i < n; ++i) out[i] = fallback[i];
    return true;
  }
  if (v.size() != 1 && v.size() != static_cast<size_t>(n)) {
    ctx.fail(Error::InvalidArgument, "%s: %s must have 1 or %d values, got %zu", op, name, n,
             v.size());
    return false;
  }
  for (int i = 0; i < n; ++i) out[i] = v[v.size() == 1 ? 0 : i];
  return true;
}

inline bool all_at_least(const int64_t* v, int n, int64_t lo) {
  for (int i = 0; i < n; ++i) {
    if (v[i] < lo) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Reductions

// Bit d set: dim d is reduced. A rank-0 tensor has no dims; reducing it (over
// dim 0 or -1, as PyTorch allows) yields its single element.
using DimMask = uint32_t;

// Builds the mask of `dims`; an empty list reduces every dim when
// `empty_means_all` (sum, mean, amax) and none otherwise (any.dims, all.dims).
// Repeated dims are an error, as in PyTorch.
inline bool make_dim_mask(KernelContext& ctx, const char* op, int rank,
                          std::optional<IntArrayRef> dims, bool empty_means_all, DimMask* mask) {
  const DimMask all = rank == 0 ? 0 : static_cast<DimMask>((uint64_t{1} << rank) - 1);
  if (!dims.has_value() || (dims->empty() && empty_means_all)) {
    *mask = all;
    return true;
  }
  DimMask m = 0;
  for (int64_t d : *dims) {
    int64_t nd = 0;
    if (!normalize_dim(d, rank, &nd)) {
      ctx.fail(Error::InvalidArgument, "%s: dim %lld is out of range for a tensor of rank %d",
               op, static_cast<long long>(d), rank);
      return false;
    }
    if (rank == 0) continue;
    if (m & (DimMask{1} << nd)) {
      ctx.fail(Error::InvalidArgument, "%s: dim %lld appears more than once", op,
               static_cast<long long>(nd));
      return false;
    }
    m |= DimMask{1} << nd;
  }
  *mask = m;
  return true;
}

inline bool make_dim_mask(KernelContext& ctx, const char* op, int rank, int64_t dim,
                          DimMask* mask) {
  const int64_t one[] = {dim};
  return make_dim_mask(ctx, op, rank, IntArrayRef(one, 1), false, mask);
}

// The shape of a reduction's result; returns its rank.
inline int reduced_sizes(const Tensor& in, DimMask mask, bool keepdim, int64_t* sizes) {
  int rank = 0;
  for (int d = 0; d < in.dim(); ++d) {
    if (mask & (DimMask{1} << d)) {
      if (keepdim) sizes[rank++] = 1;
    } else {
      sizes[rank++] = in.size(d);
    }
  }
  return rank;
}

// Splits a tensor's dims into kept ("outer") and reduced ("inner") groups and
// walks them: outer indices enumerate the result in row-major order, inner
// offsets enumerate the input elements folded into one result, in the input's
// row-major order (so "first occurrence" rules of argmax hold). Size-1 dims
// are dropped and neighbouring dims that are contiguous in memory are merged,
// so a reduction over the trailing dims becomes one flat loop.
class ReducePlan {
 public:
  ReducePlan(const Tensor& in, DimMask mask) {
    for (int d = 0; d < in.dim(); ++d) {
      const bool reduced = (mask & (DimMask{1} << d)) != 0;
      const int64_t size = in.size(d);
      (reduced ? inner_numel_ : outer_numel_) *= size;
      if (size == 1) continue;
      if (reduced) {
        push(inner_sizes_, inner_strides_, &n_inner_, size, in.stride(d));
      } else {
        push(outer_sizes_, outer_strides_, &n_outer_, size, in.stride(d));
      }
    }
  }

  int64_t outer_numel() const { return outer_numel_; }
  int64_t inner_numel() const { return inner_numel_; }

  // Input offset of the first element that result `index` folds.
  int64_t base_offset(int64_t index) const {
    int64_t off = 0;
    for (int d = n_outer_ - 1; d >= 0; --d) {
      off += (index % outer_sizes_[d]) * outer_strides_[d];
      index /= outer_sizes_[d];
    }
    return off;
  }

  // Calls f(offset) for every input element folded into the result at `base`.
  template <typename F>
  void for_each(int64_t base, F&& f) const {
    for_each_run(base, [&f](int64_t off, int64_t stride, int64_t n) {
      for (int64_t i = 0; i < n; ++i) f(off + i * stride);
    });
  }

  // Calls f(offset, stride, count) for each run of input elements, in order,
  // that the result at `base` folds: elements offset + i * stride, i < count.
  template <typename F>
  void for_each_run(int64_t base, F&& f) const {
    if (inner_numel_ == 0) return;
    if (n_inner_ == 0) {
      f(base, int64_t{1}, int64_t{1});
      return;
    }
    const int last = n_inner_ - 1;
    const int64_t n_last = inner_sizes_[last];
    const int64_t s_last = inner_strides_[last];
    int64_t idx[kTensorDimensionLimit] = {};
    int64_t off = base;
    while (true) {
      f(off, s_last, n_last);
      int d = last - 1;
      for (; d >= 0; --d) {
        off += inner_strides_[d];
        if (++idx[d] < inner_sizes_[d]) break;
        off -= inner_strides_[d] * inner_sizes_[d];
        idx[d] = 0;
      }
      if (d < 0) return;
    }
  }

 private:
  static void push(int64_t* sizes, int64_t* strides, int* n, int64_t size, int64_t stride) {
    if (*n > 0 && strides[*n - 1] == stride * size) {
      sizes[*n - 1] *= size;
      strides[*n - 1] = stride;
      return;
    }
    sizes[*n] = size;
    strides[*n] = stride;
    ++*n;
  }

  int n_outer_ = 0;
  int n_inner_ = 0;
  int64_t outer_numel_ = 1;
  int64_t inner_numel_ = 1;
  int64_t outer_sizes_[kTensorDimensionLimit] = {};
  int64_t outer_strides_[kTensorDimensionLimit] = {};
  int64_t inner_sizes_[kTensorDimensionLimit] = {};
  int64_t inner_strides_[kTensorDimensionLimit] = {};
};

// Validates `out` for a reduction of `in` over `mask` and resizes it to the
// result shape; the output must be contiguous, the input may have any dim order.
inline bool prepare_reduction_output(KernelContext& ctx, const char* op, const Tensor& in,
                                     DimMask mask, bool keepdim, Tensor& out) {
  if (!check_contiguous(ctx, op, out)) return false;
  int64_t sizes[kTensorDimensionLimit];
  const int rank = reduced_sizes(in, mask, keepdim, sizes);
  return resize_output(ctx, out, Span<const int64_t>(sizes, rank), op);
}

// Fails when some reduced dim is empty, for reductions without an identity
// (amax, argmax, max.dim).
inline bool check_nonempty_reduction(KernelContext& ctx, const char* op, const Tensor& in,
                                     DimMask mask) {
  for (int d = 0; d < in.dim(); ++d) {
    if ((mask & (DimMask{1} << d)) && in.size(d) == 0) {
      ctx.fail(Error::InvalidArgument, "%s: cannot reduce over dim %d of size 0", op, d);
      return false;
    }
  }
  return true;
}

// A tensor seen as [outer, size of `dim`, inner] (contiguous), for ops along one dim.
struct DimSplit {
  int64_t outer = 1;
  int64_t size = 1;
  int64_t inner = 1;
};

inline DimSplit split_at_dim(const Tensor& t, int64_t dim) {
  DimSplit s;
  for (int d = 0; d < t.dim(); ++d) {
    if (d < dim) s.outer *= t.size(d);
    else if (d == dim) s.size = t.size(d);
    else s.inner *= t.size(d);
  }
  return s;
}

}  // namespace ember::kernels::nn
