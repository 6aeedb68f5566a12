// The portable matrix-product kernels, callable directly: optimized kernels
// (kernels/optimized) hand them every dtype and layout they do not speed up.
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::portable {

// aten::mm.out: out = self @ mat2 for 2-D self [n, k] and mat2 [k, p].
void mm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat2, Tensor& out);
// aten::bmm.out: the same for 3-D operands with equal batch sizes.
void bmm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat2, Tensor& out);
// aten::addmm.out: out = beta * self + alpha * (mat1 @ mat2), self broadcast
// to [n, p]; beta == 0 ignores self, NaNs included.
void addmm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
               Scalar beta, Scalar alpha, Tensor& out);
// aten::baddbmm.out: addmm over a batch; self broadcast to [batch, n, p].
void baddbmm_out(KernelContext& ctx, const Tensor& self, const Tensor& batch1,
                 const Tensor& batch2, Scalar beta, Scalar alpha, Tensor& out);

}  // namespace ember::kernels::portable
