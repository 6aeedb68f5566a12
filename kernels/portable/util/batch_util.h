// Batches of matrices for the linalg kernels: the leading dims of (..., m, n)
// operands, broadcast together, and a float <-> double staging of one matrix
// at a time (the kernels compute in double, util/linalg.h).
#pragma once

#include <cstdint>

#include "kernels/portable/util/kernel_util.h"
#include "runtime/core/tensor.h"

namespace ember::kernels::batch {

// The broadcast batch shape of some operands' leading dims, and each
// operand's matrix offset (in matrices) for a batch index.
struct Batch {
  int64_t sizes[kTensorDimensionLimit] = {};
  int rank = 0;
  int64_t count = 1;
  // strides[k][d]: operand k's stride (in matrices) along batch dim d.
  int64_t strides[3][kTensorDimensionLimit] = {};

  int64_t offset(int k, int64_t b) const {
    int64_t o = 0;
    for (int d = rank - 1; d >= 0; --d) {
      o += (b % sizes[d]) * strides[k][d];
      b /= sizes[d];
    }
    return o;
  }
};

// `operands` have at least `matrix_dims` dims each (2 for matrices, 1 for
// vectors); false when their leading dims do not broadcast.
inline bool broadcast_batch(const Tensor* const* operands, const int* matrix_dims, int count,
                            Batch* b) {
  b->rank = 0;
  for (int k = 0; k < count; ++k) {
    const int r = operands[k]->dim() - matrix_dims[k];
    if (r < 0) return false;
    if (r > b->rank) b->rank = r;
  }
  for (int d = 0; d < b->rank; ++d) b->sizes[d] = 1;
  for (int k = 0; k < count; ++k) {
    const Tensor& t = *operands[k];
    const int r = t.dim() - matrix_dims[k];
    const int lead = b->rank - r;
    for (int d = 0; d < r; ++d) {
      const int64_t s = t.size(d);
      int64_t& m = b->sizes[lead + d];
      if (s != 1 && m != 1 && s != m) return false;
      if (s != 1) m = s;
    }
  }
  b->count = 1;
  for (int d = 0; d < b->rank; ++d) b->count *= b->sizes[d];
  for (int k = 0; k < count; ++k) {
    const Tensor& t = *operands[k];
    const int r = t.dim() - matrix_dims[k];
    const int lead = b->rank - r;
    int64_t stride = 1;
    for (int d = b->rank - 1; d >= 0; --d) {
      const bool has = d >= lead && t.size(d - lead) != 1;
      b->strides[k][d] = has ? stride : 0;
      if (d >= lead) stride *= t.size(d - lead);
    }
  }
  return true;
}

// The batch shape followed by the given trailing sizes.
inline bool resize_batched(KernelContext& ctx, const char* op, const Batch& b, Tensor& out,
                           const int64_t* tail, int tail_rank) {
  int64_t sizes[kTensorDimensionLimit];
  if (b.rank + tail_rank > kTensorDimensionLimit) {
    ctx.fail(Error::InvalidArgument, "%s: too many dims", op);
    return false;
  }
  for (int d = 0; d < b.rank; ++d) sizes[d] = b.sizes[d];
  for (int d = 0; d < tail_rank; ++d) sizes[b.rank + d] = tail[d];
  return resize_output(ctx, out, Span<const int64_t>(sizes, b.rank + tail_rank), op);
}

// T's elements as S (double, or std::complex<double> for the complex types) and back.
template <typename T, typename S>
void load(const T* src, int64_t count, S* dst) {
  for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<S>(src[i]);
}

template <typename S, typename T>
void store(const S* src, int64_t count, T* dst) {
  for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<T>(src[i]);
}

}  // namespace ember::kernels::batch
