// Dense linear algebra in double precision on row-major matrices, for the
// portable linalg kernels: LU with partial pivoting, Cholesky, triangular
// solves, Householder QR (LAPACK's geqrf/orgqr conventions, so Q and R have
// LAPACK's signs), symmetric eigendecomposition and SVD by Jacobi rotations,
// and the matrix exponential. No allocation: callers pass scratch.
#pragma once

#include <cstdint>

namespace ember::kernels::linalg {

// LU of the m x n matrix `a` in place (L unit lower, U upper), choosing as
// pivot the first largest |a| of each column (LAPACK getrf). piv[k] is the row
// swapped with row k (0-based), for k < min(m, n). Returns 0, or k + 1 for
// the first exactly zero U[k][k] (the factorization completes anyway).
int64_t lu_factor(double* a, int64_t m, int64_t n, int64_t* piv);

// Solves A X = B (or A^T X = B with `transpose`) for n x n A given as its LU
// and pivots; b is n x k, overwritten with X.
void lu_solve(const double* lu, const int64_t* piv, int64_t n, double* b, int64_t k,
              bool transpose);

// Lower Cholesky factor of the symmetric n x n `a` in place (its lower triangle
// is read, the upper set to 0). Returns 0, or k + 1 when the leading k + 1
// minor is not positive definite.
int64_t cholesky(double* a, int64_t n);

// Solves op(A) X = B (left) or X op(A) = B (right) for triangular n x n A;
// op transposes with `transpose`; `unit` takes A's diagonal as ones. b is
// rows x cols, overwritten with X.
void triangular_solve(const double* a, int64_t n, bool upper, bool transpose, bool unit,
                      bool left, double* b, int64_t rows, int64_t cols);

// Householder QR of the m x n `a` in place (LAPACK geqrf): R on and above the
// diagonal, reflector k's tail below it, with scale tau[k], k < min(m, n).
void geqrf(double* a, int64_t m, int64_t n, double* tau);

// Applies the k reflectors stored in the m x n `a` (as geqrf leaves them) to
// the m x cols matrix `c` from the left: c = Q c, or Q^T c with `transpose`.
void apply_q(const double* a, int64_t m, int64_t n, const double* tau, int64_t k, double* c,
             int64_t cols, bool transpose);

// Eigenvalues (ascending) and orthonormal eigenvectors (the columns of v, n x
// n) of the symmetric n x n `a` (destroyed), by cyclic Jacobi rotations.
void eigh(double* a, int64_t n, double* w, double* v);

// Thin SVD of the m x n `a` (destroyed) with m >= n: a = u diag(s) vt, u m x n
// with orthonormal columns, s descending, vt n x n; by one-sided Jacobi.
// Columns of u for zero singular values are completed to an orthonormal set.
// scratch: n doubles.
void svd_tall(double* a, int64_t m, int64_t n, double* u, double* s, double* vt, double* scratch);

// Fills the columns of the m x cols `q` (row-major, cols <= m) that are not
// yet orthonormal (any past the first k, and zero columns among those) with
// unit vectors orthogonal to the rest, so that all cols are orthonormal.
void complete_basis(double* q, int64_t m, int64_t cols, int64_t k);

// exp(a) for the n x n `a` (scaling and squaring with a degree-13 Pade
// approximant, Higham 2005). out is n x n; scratch: 7 n^2 + n doubles.
void matrix_exp(const double* a, int64_t n, double* out, double* scratch);

}  // namespace ember::kernels::linalg
