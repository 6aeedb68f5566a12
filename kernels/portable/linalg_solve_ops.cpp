// Solves, inverses, determinants, the pseudo-inverse and the matrix
// exponential, over batches of float or double matrices (batch dims of the
// two operands broadcast), computed in double (util/linalg.h).
#include <cmath>
#include <limits>
#include <optional>

#include "kernels/portable/linalg_ops.h"
#include "kernels/portable/util/batch_util.h"
#include "kernels/portable/util/linalg.h"

namespace ember::kernels {
namespace {

using batch::Batch;
constexpr linalg::Op kNo = linalg::Op::kNone;
constexpr linalg::Op kAdj = linalg::Op::kAdjoint;

// A (..., n, n) and B (..., n, k) with broadcast batch dims; out (batch..., n, k).
struct Pair {
  Batch batch;
  int64_t n = 0, k = 0;
};

bool read_pair(KernelContext& ctx, const char* op, const Tensor& a, const Tensor& b, bool left,
               Pair* p) {
  Matrices ma, mb;
  if (!read_square(ctx, op, a, &ma) || !read_matrices(ctx, op, b, &mb)) return false;
  if (a.scalar_type() != b.scalar_type()) {
    ctx.fail(Error::InvalidArgument, "%s: the operands' dtypes differ", op);
    return false;
  }
  p->n = ma.rows;
  if ((left ? mb.rows : mb.cols) != p->n) {
    ctx.fail(Error::InvalidArgument, "%s: incompatible shapes (%lldx%lld and %lldx%lld)", op,
             static_cast<long long>(ma.rows), static_cast<long long>(ma.cols),
             static_cast<long long>(mb.rows), static_cast<long long>(mb.cols));
    return false;
  }
  p->k = left ? mb.cols : mb.rows;
  const Tensor* operands[2] = {&a, &b};
  const int dims[2] = {2, 2};
  if (!batch::broadcast_batch(operands, dims, 2, &p->batch)) {
    ctx.fail(Error::InvalidArgument, "%s: the batch dims do not broadcast", op);
    return false;
  }
  return true;
}

// The loop every batched solve shares: for each pair of the broadcast batch,
// A's n x n matrix into w and B's rows x cols into x (in the compute type S),
// then solve(w, x, scratch, a_offset) (scratch: `extra` more elements; false
// stops, the failure already reported), then x into out's pair.
template <typename Solve>
void solve_each_pair(KernelContext& ctx, const char* op, const Tensor& a, const Tensor& b,
                     const Batch& batch, int64_t n, int64_t rows, int64_t cols, int64_t extra,
                     Tensor& out, Solve&& solve) {
  for_linalg_dtype(ctx, op, a, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(n * n + rows * cols + extra));
    if (w == nullptr) return;
    S* x = w + n * n;
    for (int64_t i = 0; i < batch.count; ++i) {
      const int64_t ao = batch.offset(0, i);
      batch::load(a.const_data_ptr<T>() + ao * n * n, n * n, w);
      batch::load(b.const_data_ptr<T>() + batch.offset(1, i) * rows * cols, rows * cols, x);
      if (!solve(w, x, x + rows * cols, ao)) return;
      batch::store(x, rows * cols, out.mutable_data_ptr<T>() + i * rows * cols);
    }
  });
}

// Solves with A given as a triangular matrix, for left (A X = B) or right
// (X A = B) problems.
void triangular_impl(KernelContext& ctx, const char* op, const Tensor& a, const Tensor& b,
                     bool upper, linalg::Op mode, bool unit, bool left, Tensor& out) {
  Pair p;
  if (!read_pair(ctx, op, a, b, left, &p) || !check_linalg_out(ctx, op, a, out)) return;
  const int64_t n = p.n, k = p.k;
  const int64_t rows = left ? n : k, cols = left ? k : n;
  const int64_t tail[2] = {rows, cols};
  if (!batch::resize_batched(ctx, op, p.batch, out, tail, 2)) return;
  solve_each_pair(ctx, op, a, b, p.batch, n, rows, cols, 0, out,
                  [&](const auto* w, auto* x, auto*, int64_t) {
                    linalg::triangular_solve(w, n, upper, mode, unit, left, x, rows, cols);
                    return true;
                  });
}

void solve_triangular_out(KernelContext& ctx, const Tensor& self, const Tensor& B, bool upper,
                          bool left, bool unitriangular, Tensor& out) {
  triangular_impl(ctx, "linalg_solve_triangular.out", self, B, upper, linalg::Op::kNone,
                  unitriangular, left, out);
}

// triangular_solve(b, A): also returns a copy of A (its "cloned coefficient").
void triangular_solve_out(KernelContext& ctx, const Tensor& self, const Tensor& A, bool upper,
                          bool transpose, bool unitriangular, Tensor& x, Tensor& m) {
  const char* op = "triangular_solve.X";
  // transpose means A^T, not A^H, for complex A too (LAPACK's 'T').
  triangular_impl(ctx, op, A, self, upper, transpose ? linalg::Op::kTranspose : linalg::Op::kNone,
                  unitriangular, true, x);
  if (ctx.failed() || !check_linalg_out(ctx, op, A, m)) return;
  // The coefficient broadcast to the solution's batch.
  Pair p;
  if (!read_pair(ctx, op, A, self, true, &p)) return;
  const int64_t tail[2] = {p.n, p.n};
  if (!batch::resize_batched(ctx, op, p.batch, m, tail, 2)) return;
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t i = 0; i < p.batch.count; ++i) {
      const T* src = A.const_data_ptr<T>() + p.batch.offset(0, i) * p.n * p.n;
      T* dst = m.mutable_data_ptr<T>() + i * p.n * p.n;
      for (int64_t e = 0; e < p.n * p.n; ++e) dst[e] = src[e];
    }
  });
}

// cholesky_solve(b, L): A X = B with A = L L^T (or U^T U).
void cholesky_solve_out(KernelContext& ctx, const Tensor& self, const Tensor& input2, bool upper,
                        Tensor& out) {
  const char* op = "cholesky_solve.out";
  Pair p;
  if (!read_pair(ctx, op, input2, self, true, &p) || !check_linalg_out(ctx, op, self, out)) return;
  const int64_t n = p.n, k = p.k;
  const int64_t tail[2] = {n, k};
  if (!batch::resize_batched(ctx, op, p.batch, out, tail, 2)) return;
  solve_each_pair(ctx, op, input2, self, p.batch, n, n, k, 0, out,
                  [&](const auto* w, auto* x, auto*, int64_t) {
                    // L L^H X = B: L Y = B, then L^H X = Y (U^H U X = B for upper).
                    linalg::triangular_solve(w, n, upper, upper ? kAdj : kNo, false, true, x, n, k);
                    linalg::triangular_solve(w, n, upper, upper ? kNo : kAdj, false, true, x, n, k);
                    return true;
                  });
}

// cholesky_inverse(L) = (L L^T)^-1 (or (U^T U)^-1).
void cholesky_inverse_out(KernelContext& ctx, const Tensor& self, bool upper, Tensor& out) {
  const char* op = "cholesky_inverse.out";
  Matrices a;
  if (!read_square(ctx, op, self, &a) || !check_linalg_out(ctx, op, self, out) ||
      !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  const int64_t n = a.rows;
  for_linalg_dtype(ctx, op, self, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(2 * n * n));
    if (w == nullptr) return;
    S* x = w + n * n;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(self.const_data_ptr<T>() + b * n * n, n * n, w);
      for (int64_t i = 0; i < n * n; ++i) x[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
      linalg::triangular_solve(w, n, upper, upper ? kAdj : kNo, false, true, x, n, n);
      linalg::triangular_solve(w, n, upper, upper ? kNo : kAdj, false, true, x, n, n);
      batch::store(x, n * n, out.mutable_data_ptr<T>() + b * n * n);
    }
  });
}

// --- LU-based: lu_solve, solve, inverse, det, slogdet ---------------------------------

bool load_pivots(KernelContext& ctx, const char* op, const Tensor& pivots, int64_t offset,
                 int64_t n, int64_t* piv) {
  const int32_t* p = pivots.const_data_ptr<int32_t>() + offset;
  for (int64_t i = 0; i < n; ++i) {
    if (p[i] < 1 || p[i] > n) {
      ctx.fail(Error::InvalidArgument, "%s: pivot %d is out of range [1, %lld]", op, p[i],
               static_cast<long long>(n));
      return false;
    }
    piv[i] = p[i] - 1;
  }
  return true;
}

// X for op(A) X = B (left; x is n x k) or X op(A) = B (x is k x n), in place
// in x, with A's LU factors in w and piv; op(A) is A^H when adjoint. xt is
// n x k of scratch for the right-hand case:  X op(A) = B  <=>  op(A)^H X^H = B^H.
template <typename S>
void lu_solve_side(const S* w, const int64_t* piv, int64_t n, int64_t k, bool left, bool adjoint,
                   S* x, S* xt) {
  if (left) {
    linalg::lu_solve(w, piv, n, x, k, adjoint ? kAdj : kNo);
    return;
  }
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t c = 0; c < n; ++c) xt[c * k + r] = conj_if(x[r * n + c]);
  }
  linalg::lu_solve(w, piv, n, xt, k, adjoint ? kNo : kAdj);
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t c = 0; c < n; ++c) x[r * n + c] = conj_if(xt[c * k + r]);
  }
}

// X for LU X = B (left) or X LU = B; adjoint solves with LU^T.
void lu_solve_impl(KernelContext& ctx, const char* op, const Tensor& lu, const Tensor& pivots,
                   const Tensor& b, bool left, bool adjoint, Tensor& out) {
  Pair p;
  if (!read_pair(ctx, op, lu, b, left, &p) || !check_linalg_out(ctx, op, lu, out)) return;
  EMBER_KERNEL_CHECK(ctx, pivots.scalar_type() == ScalarType::Int && pivots.dim() >= 1 &&
                              pivots.size(-1) == p.n && check_contiguous(ctx, op, pivots),
                     "%s: pivots must be Int [..., n]", op);
  const int64_t n = p.n, k = p.k;
  const int64_t rows = left ? n : k, cols = left ? k : n;
  const int64_t tail[2] = {rows, cols};
  if (!batch::resize_batched(ctx, op, p.batch, out, tail, 2)) return;
  int64_t* piv = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(n));
  if (piv == nullptr) return;
  solve_each_pair(ctx, op, lu, b, p.batch, n, rows, cols, n * k, out,
                  [&](const auto* w, auto* x, auto* xt, int64_t ao) {
                    if (!load_pivots(ctx, op, pivots, ao * n, n, piv)) return false;
                    lu_solve_side(w, piv, n, k, left, adjoint, x, xt);
                    return true;
                  });
}

void linalg_lu_solve_out(KernelContext& ctx, const Tensor& lu, const Tensor& pivots,
                         const Tensor& b, bool left, bool adjoint, Tensor& out) {
  lu_solve_impl(ctx, "linalg_lu_solve.out", lu, pivots, b, left, adjoint, out);
}

void lu_solve_out(KernelContext& ctx, const Tensor& self, const Tensor& lu, const Tensor& pivots,
                  Tensor& out) {
  lu_solve_impl(ctx, "lu_solve.out", lu, pivots, self, true, false, out);
}

// LU, pivots and info of every matrix of A (for solve, inverse and det).
template <typename T, typename S>
bool factor_batch(KernelContext& ctx, const char* op, const Tensor& A, int64_t n, S* w,
                  int64_t* piv, Tensor* lu, Tensor* pivots, int64_t b, int64_t* info) {
  batch::load(A.const_data_ptr<T>() + b * n * n, n * n, w);
  *info = linalg::lu_factor(w, n, n, piv);
  if (lu != nullptr) batch::store(w, n * n, lu->mutable_data_ptr<T>() + b * n * n);
  if (pivots != nullptr) {
    for (int64_t i = 0; i < n; ++i) {
      pivots->mutable_data_ptr<int32_t>()[b * n + i] = static_cast<int32_t>(piv[i] + 1);
    }
  }
  (void)ctx;
  (void)op;
  return true;
}

bool prepare_lu_outs(KernelContext& ctx, const char* op, const Tensor& A, Tensor& lu,
                     Tensor& pivots, Matrices* a) {
  if (!read_square(ctx, op, A, a) || !check_linalg_out(ctx, op, A, lu) ||
      !check_out_dtype(ctx, op, ScalarType::Int, pivots) || !resize_output(ctx, lu, A.sizes(), op)) {
    return false;
  }
  const int64_t tail[1] = {a->rows};
  return resize_with_batch(ctx, op, A, pivots, tail, 1);
}

// Factors every matrix of A in turn (writing lu and pivots) and calls
// fn(tag, b, w, piv, info) with matrix b's factors: det and slogdet read
// them off the diagonal.
template <typename Fn>
void for_each_lu(KernelContext& ctx, const char* op, const Tensor& A, const Matrices& a,
                 Tensor& lu, Tensor& pivots, Fn&& fn) {
  const int64_t n = a.rows;
  int64_t* piv = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(n));
  if (piv == nullptr) return;
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(n * n));
    if (w == nullptr) return;
    for (int64_t b = 0; b < a.count; ++b) {
      int64_t info;
      factor_batch<T>(ctx, op, A, n, w, piv, &lu, &pivots, b, &info);
      fn(tag, b, static_cast<const S*>(w), static_cast<const int64_t*>(piv), info);
    }
  });
}

void linalg_det_out(KernelContext& ctx, const Tensor& A, Tensor& result, Tensor& lu,
                    Tensor& pivots) {
  const char* op = "_linalg_det.result";
  Matrices a;
  if (!prepare_lu_outs(ctx, op, A, lu, pivots, &a) || !check_linalg_out(ctx, op, A, result) ||
      !resize_output(ctx, result, batch_sizes(A), op)) {
    return;
  }
  const int64_t n = a.rows;
  for_each_lu(ctx, op, A, a, lu, pivots,
              [&](auto tag, int64_t b, const auto* w, const int64_t* piv, int64_t) {
                using T = typename decltype(tag)::type;
                using S = linalg_scalar_t<T>;
                S det = S(1);
                for (int64_t i = 0; i < n; ++i) det *= (piv[i] != i ? S(-1) : S(1)) * w[i * n + i];
                result.mutable_data_ptr<T>()[b] = static_cast<T>(det);
              });
}

void linalg_slogdet_out(KernelContext& ctx, const Tensor& A, Tensor& sign, Tensor& logabsdet,
                        Tensor& lu, Tensor& pivots) {
  const char* op = "_linalg_slogdet.sign";
  Matrices a;
  if (!prepare_lu_outs(ctx, op, A, lu, pivots, &a) || !check_linalg_out(ctx, op, A, sign) ||
      !check_linalg_real_out(ctx, op, A, logabsdet) ||
      !resize_output(ctx, sign, batch_sizes(A), op) ||
      !resize_output(ctx, logabsdet, batch_sizes(A), op)) {
    return;
  }
  const int64_t n = a.rows;
  for_each_lu(ctx, op, A, a, lu, pivots,
              [&](auto tag, int64_t b, const auto* w, const int64_t* piv, int64_t info) {
                using T = typename decltype(tag)::type;
                using S = linalg_scalar_t<T>;
                // sign = det / |det| (a unit complex number for complex A).
                S s = S(1);
                double log_abs = 0;
                for (int64_t i = 0; i < n; ++i) {
                  const S d = w[i * n + i];
                  if (piv[i] != i) s = -s;
                  const double magnitude = std::abs(d);
                  if (magnitude != 0) s *= d / magnitude;
                  log_abs += std::log(magnitude);
                }
                if (info != 0) s = S(0);  // a zero pivot: det 0, log -inf
                sign.mutable_data_ptr<T>()[b] = static_cast<T>(s);
                logabsdet.mutable_data_ptr<linalg_real_t<T>>()[b] =
                    static_cast<linalg_real_t<T>>(log_abs);
              });
}

void linalg_inv_ex_out(KernelContext& ctx, const Tensor& A, bool check_errors, Tensor& inverse,
                       Tensor& info) {
  const char* op = "linalg_inv_ex.inverse";
  Matrices a;
  if (!read_square(ctx, op, A, &a) || !check_linalg_out(ctx, op, A, inverse) ||
      !check_out_dtype(ctx, op, ScalarType::Int, info) ||
      !resize_output(ctx, inverse, A.sizes(), op) ||
      !resize_output(ctx, info, batch_sizes(A), op)) {
    return;
  }
  const int64_t n = a.rows;
  int64_t* piv = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(n));
  if (piv == nullptr) return;
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(2 * n * n));
    if (w == nullptr) return;
    S* x = w + n * n;
    for (int64_t b = 0; b < a.count; ++b) {
      int64_t status;
      factor_batch<T>(ctx, op, A, n, w, piv, nullptr, nullptr, b, &status);
      info.mutable_data_ptr<int32_t>()[b] = static_cast<int32_t>(status);
      if (status != 0 && check_errors) {
        ctx.fail(Error::InvalidArgument, "%s: the matrix is singular (U[%lld, %lld] is zero)", op,
                 static_cast<long long>(status), static_cast<long long>(status));
        return;
      }
      for (int64_t i = 0; i < n * n; ++i) x[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
      linalg::lu_solve(w, piv, n, x, n, kNo);
      batch::store(x, n * n, inverse.mutable_data_ptr<T>() + b * n * n);
    }
  });
}

// torch.linalg.solve: B is a batch of vectors when it is 1-D, or when it has
// one dim less than A and A's batch shape.
bool vector_rhs(const Tensor& a, const Tensor& b) {
  if (b.dim() == 1) return true;
  if (b.dim() != a.dim() - 1) return false;
  for (int d = 0; d < b.dim(); ++d) {
    if (b.size(d) != a.size(d)) return false;
  }
  return true;
}

void linalg_solve_ex_out(KernelContext& ctx, const Tensor& A, const Tensor& B, bool left,
                         bool check_errors, Tensor& result, Tensor& lu, Tensor& pivots,
                         Tensor& info) {
  const char* op = "_linalg_solve_ex.result";
  Matrices a;
  if (!prepare_lu_outs(ctx, op, A, lu, pivots, &a) ||
      !check_out_dtype(ctx, op, ScalarType::Int, info) ||
      !resize_output(ctx, info, batch_sizes(A), op) || !check_linalg_out(ctx, op, A, result) ||
      !check_contiguous(ctx, op, B)) {
    return;
  }
  EMBER_KERNEL_CHECK(ctx, B.scalar_type() == A.scalar_type(), "%s: the operands' dtypes differ",
                     op);
  const int64_t n = a.rows;
  const bool vector = vector_rhs(A, B);
  // The right-hand side as a batch of n x k (left) or k x n matrices.
  const Tensor* operands[2] = {&A, &B};
  const int dims[2] = {2, vector ? 1 : 2};
  Batch batch;
  EMBER_KERNEL_CHECK(ctx, batch::broadcast_batch(operands, dims, 2, &batch),
                     "%s: the batch dims do not broadcast", op);
  const int64_t k = vector ? 1 : (left ? B.size(-1) : B.size(-2));
  EMBER_KERNEL_CHECK(ctx, vector ? B.size(-1) == n : (left ? B.size(-2) : B.size(-1)) == n,
                     "%s: incompatible shapes", op);
  const int64_t rows = left ? n : k, cols = left ? k : n;
  if (vector) {
    const int64_t tail[1] = {n};
    if (!batch::resize_batched(ctx, op, batch, result, tail, 1)) return;
  } else {
    const int64_t tail[2] = {rows, cols};
    if (!batch::resize_batched(ctx, op, batch, result, tail, 2)) return;
  }
  int64_t* piv = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(n));
  if (piv == nullptr) return;
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(n * n + 2 * n * k));
    if (w == nullptr) return;
    S* x = w + n * n;
    S* xt = x + n * k;
    for (int64_t b = 0; b < a.count; ++b) {
      int64_t status;
      factor_batch<T>(ctx, op, A, n, w, piv, &lu, &pivots, b, &status);
      info.mutable_data_ptr<int32_t>()[b] = static_cast<int32_t>(status);
      if (status != 0 && check_errors) {
        ctx.fail(Error::InvalidArgument, "%s: the matrix is singular (U[%lld, %lld] is zero)", op,
                 static_cast<long long>(status), static_cast<long long>(status));
        return;
      }
    }
    for (int64_t i = 0; i < batch.count; ++i) {
      const int64_t ao = batch.offset(0, i);
      batch::load(lu.const_data_ptr<T>() + ao * n * n, n * n, w);
      const int32_t* p32 = pivots.const_data_ptr<int32_t>() + ao * n;
      for (int64_t r = 0; r < n; ++r) piv[r] = p32[r] - 1;
      batch::load(B.const_data_ptr<T>() + batch.offset(1, i) * rows * cols, rows * cols, x);
      lu_solve_side(w, piv, n, k, left, /*adjoint=*/false, x, xt);
      batch::store(x, rows * cols, result.mutable_data_ptr<T>() + i * rows * cols);
    }
  });
}

// --- pinv, matrix_exp ------------------------------------------------------------------

// pinv = V diag(1 / s) U^H over the singular values above
// max(atol, rtol * s_max); with neither given, rtol = eps * max(m, n) of the
// dtype. hermitian uses the eigendecomposition (|eigenvalues| as s).
template <typename T, typename S>
void pinv_one(const T* src, int64_t m, int64_t n, double atol, double rtol, bool hermitian,
              S* w, double* s, T* dst) {
  const int64_t p = m > n ? m : n, q = m > n ? n : m;
  S* a = w;
  S* u = a + p * q;
  S* vh = u + p * q;
  if (hermitian) {
    // A = V diag(l) V^H; pinv = V diag(1/l) V^H over |l| above the cutoff.
    for (int64_t i = 0; i < n * n; ++i) a[i] = static_cast<S>(src[i]);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = i + 1; j < n; ++j) a[i * n + j] = conj_if(a[j * n + i]);
    }
    linalg::eigh(a, n, s, u);
    double largest = 0;
    for (int64_t i = 0; i < n; ++i) largest = std::fmax(largest, std::fabs(s[i]));
    const double cutoff = std::fmax(atol, rtol * largest);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        S v = S(0);
        for (int64_t l = 0; l < n; ++l) {
          if (std::fabs(s[l]) > cutoff) v += u[i * n + l] * conj_if(u[j * n + l]) / s[l];
        }
        dst[i * n + j] = static_cast<T>(v);
      }
    }
    return;
  }
  const bool flip = m < n;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      if (flip) a[j * q + i] = conj_if(static_cast<S>(src[i * n + j]));
      else a[i * q + j] = static_cast<S>(src[i * n + j]);
    }
  }
  // a (p x q) = u s vh; pinv(a) = vh^H diag(1/s) u^H (q x p).
  linalg::svd_tall(a, p, q, u, s, vh);
  const double cutoff = std::fmax(atol, rtol * (q > 0 ? s[0] : 0.0));
  for (int64_t i = 0; i < q; ++i) {
    for (int64_t j = 0; j < p; ++j) {
      S v = S(0);
      for (int64_t l = 0; l < q; ++l) {
        if (s[l] > cutoff) v += conj_if(vh[l * q + i]) * conj_if(u[j * q + l]) / s[l];
      }
      // pinv(A) is n x m: for A itself (no flip) it is this q x p matrix;
      // for A^H it is its conjugate transpose.
      if (flip) dst[j * q + i] = static_cast<T>(conj_if(v));
      else dst[i * p + j] = static_cast<T>(v);
    }
  }
}

void pinv_impl(KernelContext& ctx, const char* op, const Tensor& self, std::optional<double> atol,
               std::optional<double> rtol, bool hermitian, Tensor& out) {
  Matrices a;
  if (!read_matrices(ctx, op, self, &a) || !check_linalg_out(ctx, op, self, out)) return;
  const int64_t m = a.rows, n = a.cols;
  EMBER_KERNEL_CHECK(ctx, !hermitian || m == n, "%s: hermitian needs square matrices", op);
  const int64_t tail[2] = {n, m};
  if (!resize_with_batch(ctx, op, self, out, tail, 2)) return;
  const int64_t p = m > n ? m : n, q = m > n ? n : m;
  for_linalg_dtype(ctx, op, self, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(2 * p * q + q * q));
    double* s = allocate_temp_array<double>(ctx, op, static_cast<size_t>(q));
    if (w == nullptr || s == nullptr) return;
    const double eps = static_cast<double>(std::numeric_limits<linalg_real_t<T>>::epsilon());
    const double at = atol.value_or(0.0);
    const double rt = rtol.has_value() ? *rtol
                      : (atol.has_value() && *atol > 0) ? 0.0
                                                         : eps * static_cast<double>(p);
    for (int64_t b = 0; b < a.count; ++b) {
      pinv_one<T, S>(self.const_data_ptr<T>() + b * m * n, m, n, at, rt, hermitian, w, s,
                     out.mutable_data_ptr<T>() + b * m * n);
    }
  });
}

std::optional<double> scalar_of(KernelContext& ctx, const char* op, const Tensor* t) {
  if (t == nullptr) return std::nullopt;
  if (t->numel() != 1) {
    ctx.fail(Error::NotSupported, "%s: only one atol/rtol for the whole batch is supported", op);
    return std::nullopt;
  }
  const LoadFn<double> load = get_load_fn<double>(t->scalar_type());
  return load ? std::optional<double>(load(t->const_data_ptr(), 0)) : std::nullopt;
}

void pinv_tensor_out(KernelContext& ctx, const Tensor& self, const Tensor* atol,
                     const Tensor* rtol, bool hermitian, Tensor& out) {
  const char* op = "linalg_pinv.atol_rtol_tensor_out";
  const std::optional<double> a = scalar_of(ctx, op, atol), r = scalar_of(ctx, op, rtol);
  if (ctx.failed()) return;
  pinv_impl(ctx, op, self, a, r, hermitian, out);
}

void pinv_float_out(KernelContext& ctx, const Tensor& self, std::optional<double> atol,
                    std::optional<double> rtol, bool hermitian, Tensor& out) {
  pinv_impl(ctx, "linalg_pinv.atol_rtol_float_out", self, atol, rtol, hermitian, out);
}

void matrix_exp_out(KernelContext& ctx, const Tensor& self, Tensor& out) {
  const char* op = "linalg_matrix_exp.out";
  Matrices a;
  if (!read_square(ctx, op, self, &a) || !check_linalg_out(ctx, op, self, out) ||
      !resize_output(ctx, out, self.sizes(), op)) {
    return;
  }
  const int64_t n = a.rows;
  for_linalg_dtype(ctx, op, self, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(9 * n * n + n));
    if (w == nullptr) return;
    S* x = w + n * n;
    S* scratch = x + n * n;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(self.const_data_ptr<T>() + b * n * n, n * n, w);
      linalg::matrix_exp(w, n, x, scratch);
      batch::store(x, n * n, out.mutable_data_ptr<T>() + b * n * n);
    }
  });
}

// The error check torch.linalg's ops export next to their _ex forms: a
// non-zero info fails the method as torch raises (singular matrix, not
// positive-definite), naming the user-facing op.
void linalg_check_errors(KernelContext& ctx, const Tensor& info, StringView api_name,
                         bool is_matrix) {
  (void)is_matrix;
  EMBER_KERNEL_CHECK(ctx, info.scalar_type() == ScalarType::Int, "_linalg_check_errors: info "
                     "must be Int");
  const int32_t* p = info.const_data_ptr<int32_t>();
  for (int64_t i = 0; i < info.numel(); ++i) {
    if (p[i] > 0) {
      ctx.fail(Error::InvalidArgument, "%.*s: the factorization could not be completed "
               "(info %d for matrix %lld): the input is singular, or not positive-definite",
               static_cast<int>(api_name.size()), api_name.data(), p[i],
               static_cast<long long>(i));
      return;
    }
    if (p[i] < 0) {
      ctx.fail(Error::InvalidArgument, "%.*s: argument %d has an illegal value",
               static_cast<int>(api_name.size()), api_name.data(), -p[i]);
      return;
    }
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::_linalg_check_errors", linalg_check_errors, kIntTypes);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_solve_triangular.out", solve_triangular_out);
EMBER_REGISTER_LINALG_KERNEL("aten::triangular_solve.X", triangular_solve_out);
EMBER_REGISTER_LINALG_KERNEL("aten::cholesky_solve.out", cholesky_solve_out);
EMBER_REGISTER_LINALG_KERNEL("aten::cholesky_inverse.out", cholesky_inverse_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_lu_solve.out", linalg_lu_solve_out);
EMBER_REGISTER_LINALG_KERNEL("aten::lu_solve.out", lu_solve_out);
EMBER_REGISTER_LINALG_KERNEL("aten::_linalg_det.result", linalg_det_out);
EMBER_REGISTER_LINALG_KERNEL("aten::_linalg_slogdet.sign", linalg_slogdet_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_inv_ex.inverse", linalg_inv_ex_out);
EMBER_REGISTER_LINALG_KERNEL("aten::_linalg_solve_ex.result", linalg_solve_ex_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_pinv.atol_rtol_tensor_out", pinv_tensor_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_pinv.atol_rtol_float_out", pinv_float_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_matrix_exp.out", matrix_exp_out);

}  // namespace ember::kernels
