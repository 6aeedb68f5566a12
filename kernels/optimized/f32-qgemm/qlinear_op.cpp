// ember::qlinear.out on the quantized GEMM: float x and well-formed blocks
// run f32_qgemm on the method's thread pool; anything else goes to the
// portable kernel, which reports the error in its own words.
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "kernels/portable/llm_ops.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::optimized {
namespace {

bool overlaps(const Tensor& x, const Tensor& y) {
  const auto* x0 = static_cast<const uint8_t*>(x.const_data_ptr());
  const auto* y0 = static_cast<const uint8_t*>(y.const_data_ptr());
  return x0 < y0 + y.nbytes() && y0 < x0 + x.nbytes();
}

void qlinear_out(KernelContext& ctx, const Tensor& x, const Tensor& blocks, int64_t bits,
                 Tensor& out) {
  const size_t block = portable::quant_block_bytes(bits);
  const bool fast = block != 0 && x.scalar_type() == ScalarType::Float &&
                    out.scalar_type() == ScalarType::Float && x.dim() >= 1 &&
                    x.is_contiguous_dim_order() && out.is_contiguous_dim_order() &&
                    blocks.scalar_type() == ScalarType::Byte && blocks.dim() == 3 &&
                    blocks.size(2) == static_cast<int64_t>(block) &&
                    blocks.is_contiguous_dim_order() &&
                    blocks.size(1) * 32 == x.size(x.dim() - 1) &&
                    x.size(x.dim() - 1) <= static_cast<int64_t>(kF32QGemmMaxK);
  if (!fast) {
    portable::qlinear_out(ctx, x, blocks, bits, out);
    return;
  }
  int64_t sizes[kTensorDimensionLimit];
  for (int d = 0; d + 1 < x.dim(); ++d) sizes[d] = x.size(d);
  sizes[x.dim() - 1] = blocks.size(0);
  if (out.resize(Span<const int64_t>(sizes, x.dim())) != Error::Ok || overlaps(x, out)) {
    portable::qlinear_out(ctx, x, blocks, bits, out);
    return;
  }
  F32QGemmProblem problem;
  problem.bits = static_cast<int>(bits);
  problem.k = static_cast<size_t>(x.size(x.dim() - 1));
  problem.m = problem.k > 0 ? static_cast<size_t>(x.numel()) / problem.k : 0;
  problem.n = static_cast<size_t>(blocks.size(0));
  problem.x = x.const_data_ptr<float>();
  problem.w = blocks.const_data_ptr<uint8_t>();
  problem.y = out.mutable_data_ptr<float>();
  f32_qgemm(f32_qgemm_config(), f32_gemm_config(), problem, ctx.thread_pool());
}

}  // namespace

EMBER_REGISTER_OPTIMIZED_KERNEL("ember::qlinear.out", qlinear_out, kAllTypes);

}  // namespace ember::kernels::optimized
