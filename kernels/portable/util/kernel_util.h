// Helpers every portable kernel uses: dim normalisation, output resizing and
// argument checks that fail the kernel with a message instead of crashing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {

// Maps a possibly negative dim into [0, rank); false when out of range.
// A 0-d tensor accepts dims -1 and 0, as PyTorch does.
inline bool normalize_dim(int64_t dim, int64_t rank, int64_t* out) {
  const int64_t r = rank == 0 ? 1 : rank;
  if (dim < -r || dim >= r) {
    return false;
  }
  *out = dim < 0 ? dim + r : dim;
  return true;
}

// Resizes `out` to `sizes`; fails the kernel (returning false) when the shape
// does not fit what was planned for it.
inline bool resize_output(KernelContext& ctx, Tensor& out, Span<const int64_t> sizes,
                          const char* op) {
  if (out.resize(sizes) != Error::Ok) {
    ctx.fail(Error::InvalidArgument, "%s: output cannot take the result shape (rank %zu, planned "
             "%zu bytes)", op, sizes.size(), out.capacity_bytes());
    return false;
  }
  return true;
}

inline bool resize_output(KernelContext& ctx, Tensor& out, Span<const SizesType> sizes,
                          const char* op) {
  int64_t buf[kTensorDimensionLimit];
  for (size_t i = 0; i < sizes.size(); ++i) buf[i] = sizes[i];
  return resize_output(ctx, out, Span<const int64_t>(buf, sizes.size()), op);
}

// Fails the kernel for a dtype it has no code for. The registry refuses such
// calls at load when the kernel's declared dtypes are right; this is the
// backstop for the rest (a dtype reached by promotion, an out's dtype).
inline void fail_dtype(KernelContext& ctx, const char* op, ScalarType type) {
  ctx.fail(Error::NotSupported, "%s: dtype %s is not supported", op, scalar_type_name(type));
}

// Fails unless every given tensor is in contiguous (default) dim order; for
// kernels that index memory row-major.
inline bool check_contiguous(KernelContext& ctx, const char* op, const Tensor& t) {
  if (!t.is_contiguous_dim_order()) {
    ctx.fail(Error::NotSupported, "%s: only the default (contiguous) dim order is supported", op);
    return false;
  }
  return true;
}

// `count` elements of scratch for this call (KernelContext::allocate_temp);
// fails the kernel and returns null when the method was given too little (a
// kernel that needs scratch registers a temp_bytes function, so it is sized).
template <typename T>
T* allocate_temp_array(KernelContext& ctx, const char* op, size_t count) {
  if (count == 0) count = 1;
  void* p = count > SIZE_MAX / sizeof(T) ? nullptr : ctx.allocate_temp(count * sizeof(T),
                                                                        alignof(T) < 16 ? 16 : alignof(T));
  if (p == nullptr) {
    ctx.fail(Error::MemoryAllocationFailed, "%s: no temp memory for %zu bytes of scratch", op,
             count * sizeof(T));
  }
  return static_cast<T*>(p);
}

inline bool same_dim_order(const Tensor& a, const Tensor& b) {
  if (a.dim() != b.dim()) {
    return a.is_contiguous_dim_order() && b.is_contiguous_dim_order();
  }
  for (int i = 0; i < a.dim(); ++i) {
    if (a.dim_order()[i] != b.dim_order()[i]) return false;
  }
  return true;
}

}  // namespace ember::kernels
