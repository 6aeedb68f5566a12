// How a value's logical dims lie in memory: the order of its dims from
// outermost to innermost, and the stride of each logical dim, for either
// layout. Ops that read values of any layout (elementwise, softmax, reduce)
// work in this memory order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/cpu/runtime/delegate.h"

namespace ember::cpu {

// order[p] = the logical dim stored at memory position p (0 outermost).
inline void memory_order(const ValueInfo& v, int* order) {
  if (v.layout == Layout::NHWC) {  // channels last: [N, C, H, W] as N, H, W, C; [N, C, L] as N, L, C
    order[0] = 0;
    for (int p = 1; p + 1 < v.dim; ++p) order[p] = p + 1;
    order[v.dim - 1] = 1;
    return;
  }
  for (int d = 0; d < v.dim; ++d) order[d] = d;
}

// strides[d] = elements between neighbours along logical dim d.
inline void logical_strides(const ValueInfo& v, int64_t* strides) {
  int order[kMaxDims];
  memory_order(v, order);
  int64_t stride = 1;
  for (int p = v.dim - 1; p >= 0; --p) {
    strides[order[p]] = stride;
    stride *= v.sizes[order[p]];
  }
}

// v's strides along out's dims in out's memory order (0 where v repeats), or
// false when v does not broadcast to out (elementwise ops, CPU and Vulkan).
inline bool broadcast_strides(const ValueInfo& v, const ValueInfo& out, const int* out_order,
                              ptrdiff_t* strides) {
  if (v.dim > out.dim) return false;
  int64_t own[kMaxDims];
  logical_strides(v, own);
  const int lead = out.dim - v.dim;
  for (int p = 0; p < out.dim; ++p) {
    const int d = out_order[p];
    const int vd = d - lead;
    const int32_t size = vd >= 0 ? v.sizes[vd] : 1;
    if (size != 1 && size != out.sizes[d]) return false;
    strides[p] = size == 1 ? 0 : static_cast<ptrdiff_t>(own[vd]);
  }
  return true;
}

}  // namespace ember::cpu
