// Dense linear algebra in double precision on row-major matrices, for the
// portable linalg kernels: LU with partial pivoting, Cholesky, triangular
// solves, Householder QR (LAPACK's geqrf/orgqr conventions, so Q and R have
// LAPACK's signs), the Hermitian eigendecomposition and the SVD by Jacobi
// rotations, and the matrix exponential. Each works on S = double or
// std::complex<double> (explicitly instantiated for both). No allocation:
// callers pass scratch.
#pragma once

#include <complex>
#include <cstdint>

namespace ember::kernels::linalg {

using Complex = std::complex<double>;

// How a triangular solve reads A: as it is, transposed, or conjugate-transposed.
enum class Op { kNone, kTranspose, kAdjoint };

// LU of the m x n matrix `a` in place (L unit lower, U upper), choosing as
// pivot the first largest |a| of each column (LAPACK getrf; |re| + |im| for
// complex, as izamax). piv[k] is the row swapped with row k (0-based), for
// k < min(m, n). Returns 0, or k + 1 for the first exactly zero U[k][k] (the
// factorization completes anyway).
template <typename S>
int64_t lu_factor(S* a, int64_t m, int64_t n, int64_t* piv);

// Solves op(A) X = B for n x n A given as its LU and pivots; b is n x k,
// overwritten with X.
template <typename S>
void lu_solve(const S* lu, const int64_t* piv, int64_t n, S* b, int64_t k, Op op);

// Lower Cholesky factor of the Hermitian n x n `a` in place (its lower
// triangle is read, the upper set to 0). Returns 0, or k + 1 when the leading
// k + 1 minor is not positive definite.
template <typename S>
int64_t cholesky(S* a, int64_t n);

// Solves op(A) X = B (left) or X op(A) = B (right) for triangular n x n A;
// `unit` takes A's diagonal as ones. b is rows x cols, overwritten with X.
template <typename S>
void triangular_solve(const S* a, int64_t n, bool upper, Op op, bool unit, bool left, S* b,
                      int64_t rows, int64_t cols);

// Householder QR of the m x n `a` in place (LAPACK geqrf): R on and above the
// diagonal, reflector k's tail below it, with scale tau[k], k < min(m, n).
template <typename S>
void geqrf(S* a, int64_t m, int64_t n, S* tau);

// Applies the k reflectors stored in the m x n `a` (as geqrf leaves them) to
// the m x cols matrix `c` from the left: c = Q c, or Q^H c with `adjoint`.
template <typename S>
void apply_q(const S* a, int64_t m, int64_t n, const S* tau, int64_t k, S* c, int64_t cols,
             bool adjoint);

// Eigenvalues (ascending) and orthonormal eigenvectors (the columns of v, n x
// n) of the Hermitian n x n `a` (destroyed; the real part of its diagonal is
// read), by cyclic Jacobi rotations.
template <typename S>
void eigh(S* a, int64_t n, double* w, S* v);

// Thin SVD of the m x n `a` (destroyed) with m >= n: a = u diag(s) vh, u m x n
// with orthonormal columns, s descending, vh n x n; by one-sided Jacobi.
// Columns of u for zero singular values are completed to an orthonormal set.
template <typename S>
void svd_tall(S* a, int64_t m, int64_t n, S* u, double* s, S* vh);

// Fills the columns of the m x cols `q` (row-major, cols <= m) that are not
// yet orthonormal (any past the first k, and zero columns among those) with
// unit vectors orthogonal to the rest, so that all cols are orthonormal.
template <typename S>
void complete_basis(S* q, int64_t m, int64_t cols, int64_t k);

// exp(a) for the n x n `a` (scaling and squaring with a degree-13 Pade
// approximant, Higham 2005). out is n x n; scratch: 7 n^2 + n elements.
template <typename S>
void matrix_exp(const S* a, int64_t n, S* out, S* scratch);

}  // namespace ember::kernels::linalg
