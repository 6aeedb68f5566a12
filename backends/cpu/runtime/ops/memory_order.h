// How a value's logical dims lie in memory: the order of its dims from
// outermost to innermost, and the stride of each logical dim, for either
// layout. Ops that read values of any layout (elementwise, softmax, reduce)
// work in this memory order.
#pragma once

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

}  // namespace ember::cpu
