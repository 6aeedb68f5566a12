// Matrix factorizations: Cholesky, QR (and geqrf, householder_product,
// ormqr), LU (factor, unpack, linalg_lu), the symmetric eigendecomposition and
// the SVD, over batches of float or double matrices, computed in double
// (util/linalg.h). QR and LU follow LAPACK's sign and pivot conventions, so
// they match torch's; eigh and svd vectors are unique only up to sign.
#include <cstring>

#include "kernels/portable/linalg_ops.h"
#include "kernels/portable/util/batch_util.h"
#include "kernels/portable/util/linalg.h"

namespace ember::kernels {
namespace {

using batch::Batch;

// --- Cholesky -------------------------------------------------------------------

void cholesky_impl(KernelContext& ctx, const char* op, const Tensor& self, bool upper,
                   bool check_errors, Tensor& l, Tensor* info) {
  Matrices a;
  if (!read_square(ctx, op, self, &a) || !check_linalg_out(ctx, op, self, l) ||
      !resize_output(ctx, l, self.sizes(), op)) {
    return;
  }
  if (info != nullptr && (!check_out_dtype(ctx, op, ScalarType::Int, *info) ||
                          !resize_output(ctx, *info, batch_sizes(self), op))) {
    return;
  }
  const int64_t n = a.rows;
  for_linalg_dtype(ctx, op, self, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(n * n));
    if (w == nullptr) return;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(self.const_data_ptr<T>() + b * n * n, n * n, w);
      const int64_t status = linalg::cholesky(w, n);
      if (upper) adjoint_square(w, n);  // U = L^H
      batch::store(w, n * n, l.mutable_data_ptr<T>() + b * n * n);
      if (info != nullptr) info->mutable_data_ptr<int32_t>()[b] = static_cast<int32_t>(status);
      if (status != 0 && check_errors) {
        ctx.fail(Error::InvalidArgument, "%s: the input is not positive-definite (the leading "
                 "minor of order %lld is not)", op, static_cast<long long>(status));
        return;
      }
    }
  });
}

void linalg_cholesky_ex_out(KernelContext& ctx, const Tensor& self, bool upper, bool check_errors,
                            Tensor& l, Tensor& info) {
  cholesky_impl(ctx, "linalg_cholesky_ex.L", self, upper, check_errors, l, &info);
}

void cholesky_out(KernelContext& ctx, const Tensor& self, bool upper, Tensor& out) {
  cholesky_impl(ctx, "cholesky.out", self, upper, true, out, nullptr);
}

// --- QR ----------------------------------------------------------------------------

void linalg_qr_out(KernelContext& ctx, const Tensor& A, StringView mode, Tensor& q, Tensor& r) {
  const char* op = "linalg_qr.out";
  const bool complete = mode.size() == 8 && std::memcmp(mode.data(), "complete", 8) == 0;
  const bool r_only = mode.size() == 1 && mode.data()[0] == 'r';
  const bool reduced = mode.size() == 7 && std::memcmp(mode.data(), "reduced", 7) == 0;
  EMBER_KERNEL_CHECK(ctx, complete || r_only || reduced,
                     "%s: mode must be 'reduced', 'complete' or 'r'", op);
  Matrices a;
  if (!read_matrices(ctx, op, A, &a) || !check_linalg_out(ctx, op, A, q) ||
      !check_linalg_out(ctx, op, A, r)) {
    return;
  }
  const int64_t m = a.rows, n = a.cols, k = m < n ? m : n;
  const int64_t qc = complete ? m : k;  // Q's columns
  const int64_t rr = complete ? m : k;  // R's rows
  const int64_t q_tail[2] = {m, qc}, r_tail[2] = {rr, n}, none[1] = {0};
  if (!(r_only ? resize_output(ctx, q, Span<const int64_t>(none, 1), op)
               : resize_with_batch(ctx, op, A, q, q_tail, 2)) ||
      !resize_with_batch(ctx, op, A, r, r_tail, 2)) {
    return;
  }
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(m * n + k + m * qc));
    if (w == nullptr) return;
    S* tau = w + m * n;
    S* qm = tau + k;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(A.const_data_ptr<T>() + b * m * n, m * n, w);
      linalg::geqrf(w, m, n, tau);
      T* rp = r.mutable_data_ptr<T>() + b * rr * n;
      for (int64_t i = 0; i < rr; ++i) {
        for (int64_t j = 0; j < n; ++j) rp[i * n + j] = static_cast<T>(j >= i ? w[i * n + j] : S(0));
      }
      if (r_only) continue;
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < qc; ++j) qm[i * qc + j] = i == j ? 1.0 : 0.0;
      }
      linalg::apply_q(w, m, n, tau, k, qm, qc, false);
      batch::store(qm, m * qc, q.mutable_data_ptr<T>() + b * m * qc);
    }
  });
}

void geqrf_out(KernelContext& ctx, const Tensor& self, Tensor& a_out, Tensor& tau_out) {
  const char* op = "geqrf.a";
  Matrices a;
  if (!read_matrices(ctx, op, self, &a) || !check_linalg_out(ctx, op, self, a_out) ||
      !check_linalg_out(ctx, op, self, tau_out) || !resize_output(ctx, a_out, self.sizes(), op)) {
    return;
  }
  const int64_t m = a.rows, n = a.cols, k = m < n ? m : n;
  const int64_t tail[1] = {k};
  if (!resize_with_batch(ctx, op, self, tau_out, tail, 1)) return;
  for_linalg_dtype(ctx, op, self, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(m * n + k));
    if (w == nullptr) return;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(self.const_data_ptr<T>() + b * m * n, m * n, w);
      linalg::geqrf(w, m, n, w + m * n);
      batch::store(w, m * n, a_out.mutable_data_ptr<T>() + b * m * n);
      batch::store(w + m * n, k, tau_out.mutable_data_ptr<T>() + b * k);
    }
  });
}

// Q's first n columns from the reflectors in input (m x n) and tau (k <= n).
void householder_product_out(KernelContext& ctx, const Tensor& input, const Tensor& tau,
                             Tensor& out) {
  const char* op = "linalg_householder_product.out";
  Matrices a;
  if (!read_matrices(ctx, op, input, &a) || !check_linalg_out(ctx, op, input, out) ||
      !check_linalg_out(ctx, op, input, tau)) {
    return;
  }
  const int64_t m = a.rows, n = a.cols;
  EMBER_KERNEL_CHECK(ctx, tau.dim() >= 1 && tau.size(-1) <= n && m >= n &&
                              tau.numel() == a.count * tau.size(-1),
                     "%s: expected input [..., m, n] with m >= n and tau [..., k <= n]", op);
  const int64_t k = tau.size(-1);
  if (!resize_output(ctx, out, input.sizes(), op)) return;
  for_linalg_dtype(ctx, op, input, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(2 * m * n + k));
    if (w == nullptr) return;
    S* q = w + m * n;
    S* t = q + m * n;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(input.const_data_ptr<T>() + b * m * n, m * n, w);
      batch::load(tau.const_data_ptr<T>() + b * k, k, t);
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) q[i * n + j] = i == j ? 1.0 : 0.0;
      }
      linalg::apply_q(w, m, n, t, k, q, n, false);
      batch::store(q, m * n, out.mutable_data_ptr<T>() + b * m * n);
    }
  });
}

// ormqr: op(Q) C (left) or C op(Q), Q from the reflectors of self and tau.
void ormqr_out(KernelContext& ctx, const Tensor& self, const Tensor& tau, const Tensor& other,
               bool left, bool transpose, Tensor& out) {
  const char* op = "ormqr.out";
  Matrices a, c;
  if (!read_matrices(ctx, op, self, &a) || !read_matrices(ctx, op, other, &c) ||
      !check_linalg_out(ctx, op, self, out) || !check_linalg_out(ctx, op, self, tau) ||
      !check_linalg_out(ctx, op, self, other)) {
    return;
  }
  const int64_t m = a.rows, n = a.cols, k = tau.dim() >= 1 ? tau.size(-1) : 0;
  const int64_t rows = c.rows, cols = c.cols;
  EMBER_KERNEL_CHECK(ctx, a.count == c.count && k <= n && (left ? rows == m : cols == m),
                     "%s: the reflectors, tau and the other matrix do not agree", op);
  if (!resize_output(ctx, out, other.sizes(), op)) return;
  for_linalg_dtype(ctx, op, self, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(m * n + k + 2 * rows * cols));
    if (w == nullptr) return;
    S* t = w + m * n;
    S* x = t + k;
    S* xt = x + rows * cols;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(self.const_data_ptr<T>() + b * m * n, m * n, w);
      batch::load(tau.const_data_ptr<T>() + b * k, k, t);
      batch::load(other.const_data_ptr<T>() + b * rows * cols, rows * cols, x);
      if (left) {
        linalg::apply_q(w, m, n, t, k, x, cols, transpose);
      } else {
        // C op(Q) = (op(Q)^H C^H)^H.
        for (int64_t i = 0; i < rows; ++i) {
          for (int64_t j = 0; j < cols; ++j) xt[j * rows + i] = conj_if(x[i * cols + j]);
        }
        linalg::apply_q(w, m, n, t, k, xt, rows, !transpose);
        for (int64_t i = 0; i < rows; ++i) {
          for (int64_t j = 0; j < cols; ++j) x[i * cols + j] = conj_if(xt[j * rows + i]);
        }
      }
      batch::store(x, rows * cols, out.mutable_data_ptr<T>() + b * rows * cols);
    }
  });
}

// --- LU ------------------------------------------------------------------------------

void lu_factor_ex_out(KernelContext& ctx, const Tensor& A, bool pivot, bool check_errors,
                      Tensor& lu, Tensor& pivots, Tensor& info) {
  const char* op = "linalg_lu_factor_ex.out";
  EMBER_KERNEL_CHECK(ctx, pivot, "%s: LU without pivoting is not supported on the CPU", op);
  Matrices a;
  if (!read_matrices(ctx, op, A, &a) || !check_linalg_out(ctx, op, A, lu) ||
      !check_out_dtype(ctx, op, ScalarType::Int, pivots) ||
      !check_out_dtype(ctx, op, ScalarType::Int, info) || !resize_output(ctx, lu, A.sizes(), op) ||
      !resize_output(ctx, info, batch_sizes(A), op)) {
    return;
  }
  const int64_t m = a.rows, n = a.cols, k = m < n ? m : n;
  const int64_t tail[1] = {k};
  if (!resize_with_batch(ctx, op, A, pivots, tail, 1)) return;
  int64_t* piv = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(k));
  if (piv == nullptr) return;
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(m * n));
    if (w == nullptr) return;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(A.const_data_ptr<T>() + b * m * n, m * n, w);
      const int64_t status = linalg::lu_factor(w, m, n, piv);
      batch::store(w, m * n, lu.mutable_data_ptr<T>() + b * m * n);
      for (int64_t i = 0; i < k; ++i) {
        pivots.mutable_data_ptr<int32_t>()[b * k + i] = static_cast<int32_t>(piv[i] + 1);
      }
      info.mutable_data_ptr<int32_t>()[b] = static_cast<int32_t>(status);
      if (status != 0 && check_errors) {
        ctx.fail(Error::InvalidArgument, "%s: U[%lld, %lld] is zero: the matrix is singular", op,
                 static_cast<long long>(status), static_cast<long long>(status));
        return;
      }
    }
  });
}

// P, L and U from a packed LU (m x n) and 1-based pivots: A = P L U.
template <typename T>
void unpack_one(const T* lu, const int32_t* piv, int64_t m, int64_t n, bool data, bool pivots,
                T* p, T* l, T* u, int64_t* perm) {
  const int64_t k = m < n ? m : n;
  if (data) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < k; ++j) {
        l[i * k + j] = i == j ? T(1) : (i > j ? lu[i * n + j] : T(0));
      }
    }
    for (int64_t i = 0; i < k; ++i) {
      for (int64_t j = 0; j < n; ++j) u[i * n + j] = j >= i ? lu[i * n + j] : T(0);
    }
  }
  if (pivots) {
    for (int64_t i = 0; i < m; ++i) perm[i] = i;
    for (int64_t i = 0; i < k; ++i) {
      const int64_t j = static_cast<int64_t>(piv[i]) - 1;
      const int64_t tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
    }
    // Row i of P^T A is row perm[i] of A, so P[perm[i]][i] = 1.
    for (int64_t i = 0; i < m * m; ++i) p[i] = T(0);
    for (int64_t i = 0; i < m; ++i) p[perm[i] * m + i] = T(1);
  }
}

bool check_pivots(KernelContext& ctx, const char* op, const Tensor& pivots, int64_t count,
                  int64_t k, int64_t m) {
  if (pivots.scalar_type() != ScalarType::Int || pivots.numel() != count * k) {
    ctx.fail(Error::InvalidArgument, "%s: pivots must be Int, %lld per matrix", op,
             static_cast<long long>(k));
    return false;
  }
  const int32_t* p = pivots.const_data_ptr<int32_t>();
  for (int64_t i = 0; i < pivots.numel(); ++i) {
    if (p[i] < 1 || p[i] > m) {
      ctx.fail(Error::InvalidArgument, "%s: pivot %d is out of range [1, %lld]", op, p[i],
               static_cast<long long>(m));
      return false;
    }
  }
  return true;
}

void lu_unpack_out(KernelContext& ctx, const Tensor& lu, const Tensor& pivots, bool unpack_data,
                   bool unpack_pivots, Tensor& p, Tensor& l, Tensor& u) {
  const char* op = "lu_unpack.out";
  Matrices a;
  if (!read_matrices(ctx, op, lu, &a) || !check_linalg_out(ctx, op, lu, p) ||
      !check_linalg_out(ctx, op, lu, l) || !check_linalg_out(ctx, op, lu, u)) {
    return;
  }
  const int64_t m = a.rows, n = a.cols, k = m < n ? m : n;
  if (!check_pivots(ctx, op, pivots, a.count, k, m)) return;
  const int64_t p_tail[2] = {m, m}, l_tail[2] = {m, k}, u_tail[2] = {k, n}, none[1] = {0};
  const bool ok = (unpack_pivots ? resize_with_batch(ctx, op, lu, p, p_tail, 2)
                                 : resize_output(ctx, p, Span<const int64_t>(none, 1), op)) &&
                  (unpack_data ? resize_with_batch(ctx, op, lu, l, l_tail, 2) &&
                                     resize_with_batch(ctx, op, lu, u, u_tail, 2)
                               : resize_output(ctx, l, Span<const int64_t>(none, 1), op) &&
                                     resize_output(ctx, u, Span<const int64_t>(none, 1), op));
  if (!ok) return;
  int64_t* perm = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(m));
  if (perm == nullptr) return;
  for_linalg_dtype(ctx, op, lu, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (int64_t b = 0; b < a.count; ++b) {
      unpack_one<T>(lu.const_data_ptr<T>() + b * m * n, pivots.const_data_ptr<int32_t>() + b * k,
                    m, n, unpack_data, unpack_pivots, p.mutable_data_ptr<T>() + b * m * m,
                    l.mutable_data_ptr<T>() + b * m * k, u.mutable_data_ptr<T>() + b * k * n,
                    perm);
    }
  });
}

void linalg_lu_out(KernelContext& ctx, const Tensor& A, bool pivot, Tensor& p, Tensor& l,
                   Tensor& u) {
  const char* op = "linalg_lu.out";
  EMBER_KERNEL_CHECK(ctx, pivot, "%s: LU without pivoting is not supported on the CPU", op);
  Matrices a;
  if (!read_matrices(ctx, op, A, &a) || !check_linalg_out(ctx, op, A, p) ||
      !check_linalg_out(ctx, op, A, l) || !check_linalg_out(ctx, op, A, u)) {
    return;
  }
  const int64_t m = a.rows, n = a.cols, k = m < n ? m : n;
  const int64_t p_tail[2] = {m, m}, l_tail[2] = {m, k}, u_tail[2] = {k, n};
  if (!resize_with_batch(ctx, op, A, p, p_tail, 2) || !resize_with_batch(ctx, op, A, l, l_tail, 2) ||
      !resize_with_batch(ctx, op, A, u, u_tail, 2)) {
    return;
  }
  int64_t* piv = allocate_temp_array<int64_t>(ctx, op, static_cast<size_t>(k + m));
  int32_t* piv32 = allocate_temp_array<int32_t>(ctx, op, static_cast<size_t>(k));
  if (piv == nullptr || piv32 == nullptr) return;
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(m * n));
    T* packed = allocate_temp_array<T>(ctx, op, static_cast<size_t>(m * n));
    if (w == nullptr || packed == nullptr) return;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(A.const_data_ptr<T>() + b * m * n, m * n, w);
      linalg::lu_factor(w, m, n, piv);
      batch::store(w, m * n, packed);
      for (int64_t i = 0; i < k; ++i) piv32[i] = static_cast<int32_t>(piv[i] + 1);
      unpack_one<T>(packed, piv32, m, n, true, true, p.mutable_data_ptr<T>() + b * m * m,
                    l.mutable_data_ptr<T>() + b * m * k, u.mutable_data_ptr<T>() + b * k * n,
                    piv + k);
    }
  });
}

// --- eigh, svd -------------------------------------------------------------------------

void linalg_eigh_out(KernelContext& ctx, const Tensor& A, StringView uplo, bool compute_v,
                     Tensor& eigenvalues, Tensor& eigenvectors) {
  const char* op = "_linalg_eigh.eigenvalues";
  const bool upper = uplo.size() == 1 && (uplo.data()[0] == 'U' || uplo.data()[0] == 'u');
  Matrices a;
  if (!read_square(ctx, op, A, &a) || !check_linalg_real_out(ctx, op, A, eigenvalues) ||
      !check_linalg_out(ctx, op, A, eigenvectors)) {
    return;
  }
  const int64_t n = a.rows;
  const int64_t tail[1] = {n}, none[1] = {0};
  if (!resize_with_batch(ctx, op, A, eigenvalues, tail, 1) ||
      !(compute_v ? resize_output(ctx, eigenvectors, A.sizes(), op)
                  : resize_output(ctx, eigenvectors, Span<const int64_t>(none, 1), op))) {
    return;
  }
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(2 * n * n + n));
    if (w == nullptr) return;
    S* v = w + n * n;
    double* values = allocate_temp_array<double>(ctx, op, static_cast<size_t>(n));
    if (values == nullptr) return;
    for (int64_t b = 0; b < a.count; ++b) {
      batch::load(A.const_data_ptr<T>() + b * n * n, n * n, w);
      // Only the named triangle is read.
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = i + 1; j < n; ++j) {
          if (upper) w[j * n + i] = conj_if(w[i * n + j]);
          else w[i * n + j] = conj_if(w[j * n + i]);
        }
      }
      linalg::eigh(w, n, values, v);
      batch::store(values, n, eigenvalues.mutable_data_ptr<linalg_real_t<T>>() + b * n);
      if (compute_v) batch::store(v, n * n, eigenvectors.mutable_data_ptr<T>() + b * n * n);
    }
  });
}

void linalg_svd_out(KernelContext& ctx, const Tensor& A, bool full_matrices, bool compute_uv,
                    std::optional<StringView> driver, Tensor& u, Tensor& s, Tensor& vh) {
  const char* op = "_linalg_svd.U";
  (void)driver;  // a CUDA option
  Matrices a;
  if (!read_matrices(ctx, op, A, &a) || !check_linalg_out(ctx, op, A, u) ||
      !check_linalg_real_out(ctx, op, A, s) || !check_linalg_out(ctx, op, A, vh)) {
    return;
  }
  const int64_t m = a.rows, n = a.cols, k = m < n ? m : n;
  const int64_t uc = full_matrices ? m : k, vr = full_matrices ? n : k;
  const int64_t s_tail[1] = {k}, u_tail[2] = {m, uc}, v_tail[2] = {vr, n}, none[1] = {0};
  if (!resize_with_batch(ctx, op, A, s, s_tail, 1) ||
      !(compute_uv ? resize_with_batch(ctx, op, A, u, u_tail, 2) &&
                         resize_with_batch(ctx, op, A, vh, v_tail, 2)
                   : resize_output(ctx, u, Span<const int64_t>(none, 1), op) &&
                         resize_output(ctx, vh, Span<const int64_t>(none, 1), op))) {
    return;
  }
  // The tall problem: A itself (m >= n) or A^H; p x q with p >= q.
  const bool flip = m < n;
  const int64_t p = flip ? n : m, q = flip ? m : n;
  const int64_t thin_size = full_matrices ? p * p : p * q;
  for_linalg_dtype(ctx, op, A, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using S = linalg_scalar_t<T>;
    S* w = allocate_temp_array<S>(ctx, op, static_cast<size_t>(p * q + thin_size + q * q));
    if (w == nullptr) return;
    S* thin = w + p * q;       // p x q (widened to p x p for full matrices)
    S* vt = thin + thin_size;  // q x q
    double* values = allocate_temp_array<double>(ctx, op, static_cast<size_t>(q));
    if (values == nullptr) return;
    for (int64_t b = 0; b < a.count; ++b) {
      const T* src = A.const_data_ptr<T>() + b * m * n;
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          if (flip) w[j * q + i] = conj_if(static_cast<S>(src[i * n + j]));
          else w[i * q + j] = static_cast<S>(src[i * n + j]);
        }
      }
      linalg::svd_tall(w, p, q, thin, values, vt);
      batch::store(values, k, s.mutable_data_ptr<linalg_real_t<T>>() + b * k);
      if (!compute_uv) continue;
      // The full factor is the thin one widened to p x p and completed.
      const bool widen = full_matrices && p > q;
      const int64_t ld = widen ? p : q;
      if (widen) {
        for (int64_t i = p - 1; i >= 0; --i) {
          for (int64_t j = p - 1; j >= 0; --j) thin[i * p + j] = j < q ? thin[i * q + j] : 0.0;
        }
        linalg::complete_basis(thin, p, p, q);
      }
      // A = U S Vh; for the flipped problem A^H = U' S Vh', so U = Vh'^H and
      // Vh = U'^H.
      T* up = u.mutable_data_ptr<T>() + b * m * uc;
      T* vp = vh.mutable_data_ptr<T>() + b * vr * n;
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < uc; ++j) {
          up[i * uc + j] = static_cast<T>(flip ? conj_if(vt[j * q + i]) : thin[i * ld + j]);
        }
      }
      for (int64_t i = 0; i < vr; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          vp[i * n + j] = static_cast<T>(flip ? conj_if(thin[j * ld + i]) : vt[i * q + j]);
        }
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_LINALG_KERNEL("aten::linalg_cholesky_ex.L", linalg_cholesky_ex_out);
EMBER_REGISTER_LINALG_KERNEL("aten::cholesky.out", cholesky_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_qr.out", linalg_qr_out);
EMBER_REGISTER_LINALG_KERNEL("aten::geqrf.a", geqrf_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_householder_product.out", householder_product_out);
EMBER_REGISTER_LINALG_KERNEL("aten::ormqr.out", ormqr_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_lu_factor_ex.out", lu_factor_ex_out);
EMBER_REGISTER_LINALG_KERNEL("aten::lu_unpack.out", lu_unpack_out);
EMBER_REGISTER_LINALG_KERNEL("aten::linalg_lu.out", linalg_lu_out);
EMBER_REGISTER_LINALG_KERNEL("aten::_linalg_eigh.eigenvalues", linalg_eigh_out);
EMBER_REGISTER_LINALG_KERNEL("aten::_linalg_svd.U", linalg_svd_out);

}  // namespace ember::kernels
