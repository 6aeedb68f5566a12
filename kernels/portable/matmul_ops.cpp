// Matrix products: mm, bmm, and their fused forms addmm and baddbmm
// (beta * self + alpha * product, with self broadcast to the result).
#include <optional>

#include "kernels/portable/matmul_ops.h"
#include "kernels/portable/util/elementwise_util.h"
#include "kernels/portable/util/kernel_util.h"
#include "kernels/portable/util/nn_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// c[n, p] = epilogue(i, j, sum_k a[i, k] * b[k, j]) for row-major a [n, k] and
// b [k, p]. Output is built kRows rows by a strip of columns at a time in
// accumulators on the stack: the inner loop runs over a contiguous row of b,
// each row of b is loaded once for kRows rows of a, and 16-bit types still
// sum in float.
constexpr int64_t kRows = 4;
constexpr int64_t kStrip = 256;

template <typename T, typename Epilogue>
void gemm(const T* a, const T* b, int64_t n, int64_t k, int64_t p, T* c, Epilogue epilogue) {
  using Acc = acc_t<T>;
  Acc acc[kRows][kStrip];
  for (int64_t i0 = 0; i0 < n; i0 += kRows) {
    const int64_t rows = n - i0 < kRows ? n - i0 : kRows;
    for (int64_t j0 = 0; j0 < p; j0 += kStrip) {
      const int64_t len = p - j0 < kStrip ? p - j0 : kStrip;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < len; ++j) acc[r][j] = 0;
      }
      for (int64_t kk = 0; kk < k; ++kk) {
        const T* b_row = b + kk * p + j0;
        for (int64_t r = 0; r < rows; ++r) {
          const Acc av = static_cast<Acc>(a[(i0 + r) * k + kk]);
          Acc* dst = acc[r];
          for (int64_t j = 0; j < len; ++j) {
            dst[j] = wrapping_add(dst[j], wrapping_mul(av, static_cast<Acc>(b_row[j])));
          }
        }
      }
      for (int64_t r = 0; r < rows; ++r) {
        T* c_row = c + (i0 + r) * p + j0;
        for (int64_t j = 0; j < len; ++j) c_row[j] = epilogue(i0 + r, j0 + j, acc[r][j]);
      }
    }
  }
}

// beta * self + alpha * product, where self is read through broadcast strides.
// beta == 0 ignores self entirely (NaNs in it included), as PyTorch documents.
template <typename T>
struct AddEpilogue {
  using Acc = acc_t<T>;
  const T* self;
  int64_t row_stride;
  int64_t col_stride;
  Acc alpha;
  Acc beta;
  T operator()(int64_t i, int64_t j, Acc sum) const {
    Acc r = wrapping_mul(alpha, sum);
    if (beta != Acc(0)) {
      const Acc c = static_cast<Acc>(self[i * row_stride + j * col_stride]);
      r = wrapping_add(r, wrapping_mul(beta, c));
    }
    return static_cast<T>(r);
  }
};

// beta and alpha as PyTorch reads them, Scalar::to<opmath_t> (checked by the
// caller): half coefficients stay float, an integer tensor truncates a float
// one (alpha=2.5 scales by 2) and wraps an int one to its dtype.
template <typename T>
acc_t<T> scalar_as(const Scalar& s) {
  return static_cast<acc_t<T>>(scalar_to_opmath<T>(s));
}

struct Problem {
  int64_t batch = 1;
  int64_t n = 0;
  int64_t k = 0;
  int64_t p = 0;
};

// Checks that a [.., n, k] and b [.., k, p] have rank `rank` (2 or 3) and
// matching batch and inner sizes, the same dtype as out, and resizes out.
bool check_operands(KernelContext& ctx, const char* op, const Tensor& a, const Tensor& b,
                    int rank, Tensor& out, Problem* pr) {
  if (a.dim() != rank || b.dim() != rank) {
    ctx.fail(Error::InvalidArgument, "%s: expected %d-D operands, got %d-D and %d-D", op, rank,
             a.dim(), b.dim());
    return false;
  }
  if (!nn::check_same_dtype(ctx, op, a, "self", b, "mat2") ||
      !nn::check_same_dtype(ctx, op, a, "self", out, "out") || !check_contiguous(ctx, op, a) ||
      !check_contiguous(ctx, op, b) || !check_contiguous(ctx, op, out)) {
    return false;
  }
  const int off = rank - 2;
  if (rank == 3 && a.size(0) != b.size(0)) {
    ctx.fail(Error::InvalidArgument, "%s: batch sizes differ (%lld and %lld)", op,
             static_cast<long long>(a.size(0)), static_cast<long long>(b.size(0)));
    return false;
  }
  if (a.size(off + 1) != b.size(off)) {
    ctx.fail(Error::InvalidArgument, "%s: shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
             op, static_cast<long long>(a.size(off)), static_cast<long long>(a.size(off + 1)),
             static_cast<long long>(b.size(off)), static_cast<long long>(b.size(off + 1)));
    return false;
  }
  pr->batch = rank == 3 ? a.size(0) : 1;
  pr->n = a.size(off);
  pr->k = a.size(off + 1);
  pr->p = b.size(off + 1);
  const int64_t sizes3[] = {pr->batch, pr->n, pr->p};
  return resize_output(ctx, out, Span<const int64_t>(sizes3 + (3 - rank), rank), op);
}

// Strides that read `self` broadcast to `sizes` (right-aligned, size-1 dims repeat).
bool broadcast_strides(KernelContext& ctx, const char* op, const Tensor& self,
                       const int64_t* sizes, int rank, int64_t* strides) {
  if (self.dim() > rank) {
    ctx.fail(Error::InvalidArgument, "%s: self of rank %d cannot broadcast to rank %d", op,
             self.dim(), rank);
    return false;
  }
  const int lead = rank - self.dim();
  for (int d = 0; d < rank; ++d) {
    const int sd = d - lead;
    if (sd < 0 || self.size(sd) == 1) {
      strides[d] = 0;
    } else if (self.size(sd) == sizes[d]) {
      strides[d] = self.stride(sd);
    } else {
      ctx.fail(Error::InvalidArgument, "%s: self dim %d of size %lld does not broadcast to %lld",
               op, sd, static_cast<long long>(self.size(sd)), static_cast<long long>(sizes[d]));
      return false;
    }
  }
  return true;
}

template <typename T>
void run_plain(const Problem& pr, const Tensor& a, const Tensor& b, Tensor& out) {
  const T* pa = a.const_data_ptr<T>();
  const T* pb = b.const_data_ptr<T>();
  T* pc = out.mutable_data_ptr<T>();
  for (int64_t bi = 0; bi < pr.batch; ++bi) {
    gemm(pa + bi * pr.n * pr.k, pb + bi * pr.k * pr.p, pr.n, pr.k, pr.p, pc + bi * pr.n * pr.p,
         [](int64_t, int64_t, acc_t<T> s) { return static_cast<T>(s); });
  }
}

template <typename T>
void run_add(const Problem& pr, const Tensor& self, const int64_t* self_strides, const Tensor& a,
             const Tensor& b, const Scalar& beta, const Scalar& alpha, Tensor& out) {
  const T* pa = a.const_data_ptr<T>();
  const T* pb = b.const_data_ptr<T>();
  T* pc = out.mutable_data_ptr<T>();
  for (int64_t bi = 0; bi < pr.batch; ++bi) {
    const AddEpilogue<T> epi{self.const_data_ptr<T>() + bi * self_strides[0], self_strides[1],
                             self_strides[2], scalar_as<T>(alpha), scalar_as<T>(beta)};
    gemm(pa + bi * pr.n * pr.k, pb + bi * pr.k * pr.p, pr.n, pr.k, pr.p, pc + bi * pr.n * pr.p,
         epi);
  }
}

void product(KernelContext& ctx, const char* op, int rank, const Tensor& a, const Tensor& b,
             Tensor& out) {
  Problem pr;
  if (!check_operands(ctx, op, a, b, rank, out, &pr)) return;
  switch_dtype<kRealTypes | kComplexTypes>(ctx, op, a.scalar_type(), [&](auto tag) {
    run_plain<typename decltype(tag)::type>(pr, a, b, out);
  });
}

void add_product(KernelContext& ctx, const char* op, int rank, const Tensor& self,
                 const Tensor& a, const Tensor& b, const Scalar& beta, const Scalar& alpha,
                 Tensor& out) {
  Problem pr;
  // self is read through its own strides, so any dim order will do.
  if (!nn::check_same_dtype(ctx, op, self, "self", a, "mat1") ||
      !check_operands(ctx, op, a, b, rank, out, &pr)) {
    return;
  }
  const int64_t sizes[] = {pr.batch, pr.n, pr.p};
  int64_t strides[3] = {0, 0, 0};
  // A 2-D problem is a batch of one; self then has no batch dim to broadcast.
  if (!broadcast_strides(ctx, op, self, sizes + (3 - rank), rank, strides + (3 - rank))) return;
  switch_dtype<kRealTypes | kComplexTypes>(ctx, op, a.scalar_type(), [&](auto tag) {
    using CTYPE = typename decltype(tag)::type;
    EMBER_KERNEL_CHECK(ctx,
                       scalar_fits_type<opmath_t<CTYPE>>(beta) &&
                           scalar_fits_type<opmath_t<CTYPE>>(alpha),
                       "%s: beta or alpha cannot be converted to type %s without overflow", op,
                       scalar_type_name(dtype_of_v<opmath_t<CTYPE>>));
    run_add<CTYPE>(pr, self, strides, a, b, beta, alpha, out);
  });
}

}  // namespace

namespace portable {

void mm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat2, Tensor& out) {
  product(ctx, "mm.out", 2, self, mat2, out);
}

void bmm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat2, Tensor& out) {
  product(ctx, "bmm.out", 3, self, mat2, out);
}

void addmm_out(KernelContext& ctx, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
               Scalar beta, Scalar alpha, Tensor& out) {
  add_product(ctx, "addmm.out", 2, self, mat1, mat2, beta, alpha, out);
}

void baddbmm_out(KernelContext& ctx, const Tensor& self, const Tensor& batch1,
                 const Tensor& batch2, Scalar beta, Scalar alpha, Tensor& out) {
  add_product(ctx, "baddbmm.out", 3, self, batch1, batch2, beta, alpha, out);
}

}  // namespace portable

EMBER_REGISTER_KERNEL("aten::mm.out", portable::mm_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::bmm.out", portable::bmm_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::addmm.out", portable::addmm_out, kRealTypes | kComplexTypes);
EMBER_REGISTER_KERNEL("aten::baddbmm.out", portable::baddbmm_out, kRealTypes | kComplexTypes);

}  // namespace ember::kernels
