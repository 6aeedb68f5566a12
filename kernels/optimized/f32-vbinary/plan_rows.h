// A walk over the rows of a broadcast plan (f32_vbinary.h's F32BinaryPlan):
// the current row's index in every outer dim (an odometer) and each
// operand's offset there. For the drivers that run the plans
// (f32-vbinary/vbinary.cpp, qs8-vbinary/vbinary.cpp); internal linkage, so
// a file compiled with other flags would get its own copy.
#pragma once

#include <cstddef>

#include "kernels/optimized/f32-vbinary/f32_vbinary.h"

namespace ember::kernels::optimized {
namespace {

struct PlanRows {
  const F32BinaryPlan& plan;
  size_t index[kF32BinaryMaxDims] = {};
  ptrdiff_t a_off = 0;
  ptrdiff_t b_off = 0;

  // At the row that flat element `at` falls in.
  PlanRows(const F32BinaryPlan& p, size_t at) : plan(p) {
    size_t row = at / plan.sizes[plan.dims - 1];
    for (int k = plan.dims - 2; k >= 0; --k) {
      index[k] = row % plan.sizes[k];
      row /= plan.sizes[k];
      a_off += static_cast<ptrdiff_t>(index[k]) * plan.a_strides[k];
      b_off += static_cast<ptrdiff_t>(index[k]) * plan.b_strides[k];
    }
  }

  // To the next row.
  void next() {
    for (int k = plan.dims - 2; k >= 0; --k) {
      a_off += plan.a_strides[k];
      b_off += plan.b_strides[k];
      if (++index[k] < plan.sizes[k]) return;
      a_off -= static_cast<ptrdiff_t>(plan.sizes[k]) * plan.a_strides[k];
      b_off -= static_cast<ptrdiff_t>(plan.sizes[k]) * plan.b_strides[k];
      index[k] = 0;
    }
  }

  // Past n rows of the next-outer dim, which must have more than n left.
  void skip_within_outer(size_t n) {
    const int k = plan.dims - 2;
    index[k] += n;
    a_off += static_cast<ptrdiff_t>(n) * plan.a_strides[k];
    b_off += static_cast<ptrdiff_t>(n) * plan.b_strides[k];
  }
};

}  // namespace
}  // namespace ember::kernels::optimized
