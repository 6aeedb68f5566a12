// Checks for ops that read or write a value in place through strides (a
// transposed operand, a head split): every element addressed lies inside the
// value, and an output view never maps two elements to one place.
#pragma once

#include <cstdint>

#include "backends/cpu/runtime/ops/ops.h"

namespace ember::cpu {

// Copies the n entries of `v` into out; false unless `v` has exactly n.
inline bool read_longs(const flatbuffers::Vector<int64_t>* v, size_t n, int64_t* out) {
  if (v == nullptr || v->size() != n) return false;
  for (size_t i = 0; i < n; ++i) out[i] = v->Get(static_cast<flatbuffers::uoffset_t>(i));
  return true;
}

// Whether elements offset + sum i_d * strides[d] (0 <= i_d < sizes[d]) all lie
// in value `v`: strides non-negative and bounded, the last element inside.
inline bool view_in_bounds(const ValueInfo& v, int64_t offset, const int64_t* sizes,
                           const int64_t* strides, int n) {
  constexpr int64_t kLimit = int64_t{1} << 40;
  if (offset < 0 || offset > kLimit) return false;
  int64_t last = offset;
  for (int d = 0; d < n; ++d) {
    if (sizes[d] < 0 || sizes[d] > kLimit || strides[d] < 0 || strides[d] > kLimit) return false;
    if (sizes[d] == 0) return true;  // no element at all
    last += (sizes[d] - 1) * strides[d];
    if (last > kLimit) return false;
  }
  return last < static_cast<int64_t>(v.numel);
}

// Whether distinct indices address distinct elements: with dims of size > 1
// sorted by stride, each stride is at least the span of the dims below it.
inline bool view_non_overlapping(const int64_t* sizes, const int64_t* strides, int n) {
  int order[kMaxDims];
  int m = 0;
  for (int d = 0; d < n && m < kMaxDims; ++d) {
    if (sizes[d] > 1) order[m++] = d;
  }
  for (int i = 1; i < m; ++i) {  // insertion sort by stride: m <= kMaxDims
    for (int j = i; j > 0 && strides[order[j]] < strides[order[j - 1]]; --j) {
      const int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  }
  int64_t span = 1;
  for (int i = 0; i < m; ++i) {
    if (strides[order[i]] < span) return false;
    span = strides[order[i]] * sizes[order[i]];
  }
  return true;
}

// A MatMul operand, a plain float value read as [batch, rows, cols]:
// through `strides` from `offset` when given, else dense (one matrix for the
// whole batch, or one per batch); every element inside the value. Fills
// out_offset and out_strides[3]; false otherwise. The Vulkan backend's too.
inline bool matmul_operand(const ValueInfo& v, const flatbuffers::Vector<int64_t>* strides,
                           int64_t offset, int64_t batch, int64_t rows, int64_t cols,
                           int64_t* out_offset, int64_t* out_strides) {
  if (v.dtype != DataType::Float32 || v.layout != Layout::Plain) return false;
  if (strides != nullptr) {
    if (!read_longs(strides, 3, out_strides)) return false;
    *out_offset = offset;
  } else {
    const int64_t per_batch = rows * cols;
    if (per_batch <= 0 || static_cast<int64_t>(v.numel) % per_batch != 0) return false;
    const int64_t batches = static_cast<int64_t>(v.numel) / per_batch;
    if (batches != 1 && batches != batch) return false;
    out_strides[0] = batches == 1 ? 0 : per_batch;
    out_strides[1] = cols;
    out_strides[2] = 1;
    *out_offset = 0;
  }
  const int64_t sizes[3] = {batch, rows, cols};
  return view_in_bounds(v, *out_offset, sizes, out_strides, 3);
}

}  // namespace ember::cpu
