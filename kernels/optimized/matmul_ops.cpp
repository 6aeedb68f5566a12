// Optimized matrix products: aten::mm/bmm/addmm/baddbmm on Float tensors in
// contiguous layout run the f32 GEMM family; every other dtype, layout or
// malformed call goes to the portable kernel, which stays the reference and
// reports errors with its own messages.
#include <cstdint>

#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/portable/matmul_ops.h"
#include "kernels/portable/util/dtype_rules.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::optimized {
namespace {

// Whether a [.., n, k] and b [.., k, p] (rank 2 or 3) and out are Float,
// contiguous and shaped for a product; fills the problem's sizes and
// resizes out. False: leave the call to the portable kernel.
bool prepare_product(const Tensor& a, const Tensor& b, int rank, Tensor& out,
                     F32GemmProblem* pr) {
  if (a.scalar_type() != ScalarType::Float || b.scalar_type() != ScalarType::Float ||
      out.scalar_type() != ScalarType::Float || a.dim() != rank || b.dim() != rank ||
      !a.is_contiguous_dim_order() || !b.is_contiguous_dim_order() ||
      !out.is_contiguous_dim_order()) {
    return false;
  }
  const int off = rank - 2;
  if ((rank == 3 && a.size(0) != b.size(0)) || a.size(off + 1) != b.size(off)) return false;
  const int64_t batch = rank == 3 ? a.size(0) : 1;
  const int64_t n = a.size(off);
  const int64_t k = a.size(off + 1);
  const int64_t p = b.size(off + 1);
  const int64_t sizes[] = {batch, n, p};
  if (out.resize(Span<const int64_t>(sizes + (3 - rank), rank)) != Error::Ok) return false;
  pr->batch = static_cast<size_t>(batch);
  pr->m = static_cast<size_t>(n);
  pr->k = static_cast<size_t>(k);
  pr->n = static_cast<size_t>(p);
  pr->a = a.const_data_ptr<float>();
  pr->lda = pr->k;
  pr->a_batch_stride = pr->m * pr->k;
  pr->b = b.const_data_ptr<float>();
  pr->ldb = pr->n;
  pr->b_batch_stride = pr->k * pr->n;
  pr->c = out.mutable_data_ptr<float>();
  pr->ldc = pr->n;
  pr->c_batch_stride = pr->m * pr->n;
  return true;
}

bool overlaps(const Tensor& x, const Tensor& y) {
  const auto* x0 = static_cast<const uint8_t*>(x.const_data_ptr());
  const auto* y0 = static_cast<const uint8_t*>(y.const_data_ptr());
  return x0 < y0 + y.nbytes() && y0 < x0 + x.nbytes();
}

// Reads self broadcast to [batch, m, n] (right-aligned, size-1 dims
// repeating) through its own strides, so any dim order will do. False when
// self is not Float or does not broadcast (portable reports it), or when out
// overlaps it: the GEMM writes partial sums into out before it reads self.
bool prepare_self(const Tensor& self, int rank, const Tensor& out, float beta,
                  F32GemmProblem* pr) {
  if (self.scalar_type() != ScalarType::Float || self.dim() > rank) return false;
  const int64_t sizes[3] = {static_cast<int64_t>(pr->batch), static_cast<int64_t>(pr->m),
                            static_cast<int64_t>(pr->n)};
  ptrdiff_t strides[3] = {0, 0, 0};
  const int lead = 3 - self.dim();
  for (int d = 3 - rank; d < 3; ++d) {
    const int sd = d - lead;
    if (sd < 0 || self.size(sd) == 1) continue;
    if (self.size(sd) != sizes[d]) return false;
    strides[d] = static_cast<ptrdiff_t>(self.stride(sd));
  }
  pr->beta = beta;
  if (beta == 0.0f) return true;  // self is never read, NaNs included
  if (overlaps(self, out)) return false;
  pr->self = self.const_data_ptr<float>();
  pr->self_batch_stride = strides[0];
  pr->self_row_stride = strides[1];
  pr->self_col_stride = strides[2];
  return true;
}

void run(KernelContext& ctx, const F32GemmProblem& pr) {
  f32_gemm(f32_gemm_config(), pr, &ctx);
}

void mm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat2, Tensor& out) {
  F32GemmProblem pr;
  if (!prepare_product(self, mat2, 2, out, &pr)) return portable::mm_out(ctx, self, mat2, out);
  run(ctx, pr);
}

void bmm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat2, Tensor& out) {
  F32GemmProblem pr;
  if (!prepare_product(self, mat2, 3, out, &pr)) return portable::bmm_out(ctx, self, mat2, out);
  run(ctx, pr);
}

void add_product(KernelContext& ctx, int rank, const Tensor& self, const Tensor& a,
                 const Tensor& b, Scalar beta, Scalar alpha, Tensor& out,
                 void (*fallback)(KernelContext&, const Tensor&, const Tensor&, const Tensor&,
                                  Scalar, Scalar, Tensor&)) {
  F32GemmProblem pr;
  // Float coefficients, as the portable kernel converts them for float; one
  // that overflows float is the portable kernel's error to report.
  if (!scalar_fits_type<float>(beta) || !scalar_fits_type<float>(alpha) ||
      !prepare_product(a, b, rank, out, &pr) ||
      !prepare_self(self, rank, out, static_cast<float>(beta.to_double()), &pr)) {
    return fallback(ctx, self, a, b, beta, alpha, out);
  }
  pr.alpha = static_cast<float>(alpha.to_double());
  run(ctx, pr);
}

void addmm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
               Scalar beta, Scalar alpha, Tensor& out) {
  add_product(ctx, 2, self, mat1, mat2, beta, alpha, out, portable::addmm_out);
}

void baddbmm_out(KernelContext& ctx, const Tensor& self, const Tensor& batch1,
                 const Tensor& batch2, Scalar beta, Scalar alpha, Tensor& out) {
  add_product(ctx, 3, self, batch1, batch2, beta, alpha, out, portable::baddbmm_out);
}

}  // namespace

// The same dtypes as the portable kernels: the ones not sped up here reach
// them through the fallback, so a program loads the same either way.
EMBER_REGISTER_OPTIMIZED_KERNEL("aten::mm.out", mm_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_OPTIMIZED_KERNEL("aten::bmm.out", bmm_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_OPTIMIZED_KERNEL("aten::addmm.out", addmm_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_OPTIMIZED_KERNEL("aten::baddbmm.out", baddbmm_out, kRealTypes | kComplexTypes);

}  // namespace ember::kernels::optimized
