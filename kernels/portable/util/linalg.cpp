#include "kernels/portable/util/linalg.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ember::kernels::linalg {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

inline double conj_of(double x) { return x; }
inline Complex conj_of(Complex x) { return std::conj(x); }
// LAPACK's cabs1 (izamax's pivot measure): |re| + |im|.
inline double abs1(double x) { return std::fabs(x); }
inline double abs1(Complex x) { return std::fabs(x.real()) + std::fabs(x.imag()); }
inline double abs2(double x) { return x * x; }
inline double abs2(Complex x) { return std::norm(x); }
inline double real_of(double x) { return x; }
inline double real_of(Complex x) { return x.real(); }

template <typename S>
S& at(S* a, int64_t cols, int64_t i, int64_t j) { return a[i * cols + j]; }
template <typename S>
S at(const S* a, int64_t cols, int64_t i, int64_t j) { return a[i * cols + j]; }

// c = a b for n x n matrices.
template <typename S>
void matmul(const S* a, const S* b, S* c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) c[i * n + j] = S(0);
    for (int64_t k = 0; k < n; ++k) {
      const S aik = a[i * n + k];
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += aik * b[k * n + j];
    }
  }
}

template <typename S>
void swap_rows(S* b, int64_t cols, int64_t i, int64_t j) {
  for (int64_t c = 0; c < cols; ++c) std::swap(at(b, cols, i, c), at(b, cols, j, c));
}

}  // namespace

template <typename S>
int64_t lu_factor(S* a, int64_t m, int64_t n, int64_t* piv) {
  int64_t info = 0;
  const int64_t steps = std::min(m, n);
  for (int64_t j = 0; j < steps; ++j) {
    int64_t p = j;
    double best = abs1(at(a, n, j, j));
    for (int64_t i = j + 1; i < m; ++i) {
      const double v = abs1(at(a, n, i, j));
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[j] = p;
    const S pivot = at(a, n, p, j);
    if (pivot != S(0)) {
      if (p != j) swap_rows(a, n, j, p);
      // LAPACK scales by the reciprocal unless the pivot is tiny.
      if (std::abs(pivot) >= std::numeric_limits<double>::min()) {
        const S r = S(1) / pivot;
        for (int64_t i = j + 1; i < m; ++i) at(a, n, i, j) *= r;
      } else {
        for (int64_t i = j + 1; i < m; ++i) at(a, n, i, j) /= pivot;
      }
    } else if (info == 0) {
      info = j + 1;
    }
    for (int64_t i = j + 1; i < m; ++i) {
      const S l = at(a, n, i, j);
      if (l == S(0)) continue;
      for (int64_t c = j + 1; c < n; ++c) at(a, n, i, c) -= l * at(a, n, j, c);
    }
  }
  return info;
}

template <typename S>
void lu_solve(const S* lu, const int64_t* piv, int64_t n, S* b, int64_t k, Op op) {
  if (op == Op::kNone) {
    for (int64_t i = 0; i < n; ++i) {
      if (piv[i] != i) swap_rows(b, k, i, piv[i]);
    }
    triangular_solve(lu, n, /*upper=*/false, Op::kNone, /*unit=*/true, true, b, n, k);
    triangular_solve(lu, n, /*upper=*/true, Op::kNone, false, true, b, n, k);
    return;
  }
  // op(A) = op(U) op(L) P^T.
  triangular_solve(lu, n, /*upper=*/true, op, false, true, b, n, k);
  triangular_solve(lu, n, /*upper=*/false, op, /*unit=*/true, true, b, n, k);
  for (int64_t i = n - 1; i >= 0; --i) {
    if (piv[i] != i) swap_rows(b, k, i, piv[i]);
  }
}

template <typename S>
int64_t cholesky(S* a, int64_t n) {
  int64_t status = 0;
  for (int64_t j = 0; j < n && status == 0; ++j) {
    // The diagonal's real part, as LAPACK's potrf reads it.
    double d = real_of(at(a, n, j, j));
    for (int64_t k = 0; k < j; ++k) d -= abs2(at(a, n, j, k));
    if (!(d > 0)) {
      status = j + 1;
      break;
    }
    const double l = std::sqrt(d);
    at(a, n, j, j) = S(l);
    for (int64_t i = j + 1; i < n; ++i) {
      S v = at(a, n, i, j);
      for (int64_t k = 0; k < j; ++k) v -= at(a, n, i, k) * conj_of(at(a, n, j, k));
      at(a, n, i, j) = v / l;
    }
  }
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t c = r + 1; c < n; ++c) at(a, n, r, c) = S(0);
  }
  return status;
}

template <typename S>
void triangular_solve(const S* a, int64_t n, bool upper, Op op, bool unit, bool left, S* b,
                      int64_t rows, int64_t cols) {
  // Element (i, j) of op(A).
  auto opa = [&](int64_t i, int64_t j) -> S {
    if (op == Op::kNone) return at(a, n, i, j);
    return op == Op::kTranspose ? at(a, n, j, i) : conj_of(at(a, n, j, i));
  };
  const bool lower = upper == (op != Op::kNone);  // op(A) is lower triangular
  if (left) {
    // op(A) X = B: X is n x cols.
    for (int64_t c = 0; c < cols; ++c) {
      if (lower) {
        for (int64_t i = 0; i < n; ++i) {
          S v = at(b, cols, i, c);
          for (int64_t j = 0; j < i; ++j) v -= opa(i, j) * at(b, cols, j, c);
          at(b, cols, i, c) = unit ? v : v / opa(i, i);
        }
      } else {
        for (int64_t i = n - 1; i >= 0; --i) {
          S v = at(b, cols, i, c);
          for (int64_t j = i + 1; j < n; ++j) v -= opa(i, j) * at(b, cols, j, c);
          at(b, cols, i, c) = unit ? v : v / opa(i, i);
        }
      }
    }
    return;
  }
  // X op(A) = B: row r of X solves op(A)^T x = b_r, op(A)^T upper when op(A) is lower.
  for (int64_t r = 0; r < rows; ++r) {
    S* x = b + r * cols;
    if (!lower) {
      for (int64_t i = 0; i < n; ++i) {
        S v = x[i];
        for (int64_t j = 0; j < i; ++j) v -= opa(j, i) * x[j];
        x[i] = unit ? v : v / opa(i, i);
      }
    } else {
      for (int64_t i = n - 1; i >= 0; --i) {
        S v = x[i];
        for (int64_t j = i + 1; j < n; ++j) v -= opa(j, i) * x[j];
        x[i] = unit ? v : v / opa(i, i);
      }
    }
  }
}

// LAPACK's larfg then larf with conj(tau): reflector k zeroes column k below
// the diagonal and is applied (as H^H) to the columns after it.
template <typename S>
void geqrf(S* a, int64_t m, int64_t n, S* tau) {
  const int64_t steps = std::min(m, n);
  for (int64_t k = 0; k < steps; ++k) {
    const S alpha = at(a, n, k, k);
    double xnorm = 0;
    for (int64_t i = k + 1; i < m; ++i) xnorm = std::hypot(xnorm, std::abs(at(a, n, i, k)));
    const double alphr = real_of(alpha);
    const double alphi = std::abs(alpha - S(alphr));
    if (xnorm == 0 && alphi == 0) {
      tau[k] = S(0);  // H = I
      continue;
    }
    const double beta = -std::copysign(std::hypot(std::abs(alpha), xnorm), alphr);
    tau[k] = (S(beta) - alpha) / beta;
    const S scale = S(1) / (alpha - S(beta));
    for (int64_t i = k + 1; i < m; ++i) at(a, n, i, k) *= scale;
    at(a, n, k, k) = S(beta);
    const S tau_h = conj_of(tau[k]);
    for (int64_t j = k + 1; j < n; ++j) {
      S w = at(a, n, k, j);  // v^H a_j, v = [1; a[k+1:, k]]
      for (int64_t i = k + 1; i < m; ++i) w += conj_of(at(a, n, i, k)) * at(a, n, i, j);
      w *= tau_h;
      at(a, n, k, j) -= w;
      for (int64_t i = k + 1; i < m; ++i) at(a, n, i, j) -= w * at(a, n, i, k);
    }
  }
}

template <typename S>
void apply_q(const S* a, int64_t m, int64_t n, const S* tau, int64_t k, S* c, int64_t cols,
             bool adjoint) {
  // Q = H_0 H_1 ... H_{k-1}, H_r = I - tau_r v v^H: Q c applies H_{k-1} first,
  // Q^H c applies H_0^H first.
  for (int64_t step = 0; step < k; ++step) {
    const int64_t r = adjoint ? step : k - 1 - step;
    const S t = adjoint ? conj_of(tau[r]) : tau[r];
    if (t == S(0)) continue;
    for (int64_t j = 0; j < cols; ++j) {
      S w = at(c, cols, r, j);
      for (int64_t i = r + 1; i < m; ++i) w += conj_of(at(a, n, i, r)) * at(c, cols, i, j);
      w *= t;
      at(c, cols, r, j) -= w;
      for (int64_t i = r + 1; i < m; ++i) at(c, cols, i, j) -= w * at(a, n, i, r);
    }
  }
}

// A rotation of the pair (p, q) that zeroes a Hermitian matrix's a[p][q]:
// with a[p][q] = r e^{i phi}, W = diag(e^{i phi}, 1) R, R the real Jacobi
// rotation of [[a_pp, r], [r, a_qq]]; the matrix becomes W^H A W, V becomes V W.
template <typename S>
void eigh(S* a, int64_t n, double* w, S* v) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) at(v, n, i, j) = S(i == j ? 1.0 : 0.0);
    // A Hermitian matrix's diagonal is real: LAPACK (and so torch) reads only
    // its real part, and an imaginary one would break the rotations' algebra.
    at(a, n, i, i) = S(real_of(at(a, n, i, i)));
  }
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const double x = abs2(at(a, n, i, j));
        total += x;
        if (i != j) off += x;
      }
    }
    if (!(off > kEps * kEps * total)) break;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        const S apq = at(a, n, p, q);
        const double r = std::abs(apq);
        if (r == 0) continue;
        const S ph = apq / r;
        const double theta = (real_of(at(a, n, q, q)) - real_of(at(a, n, p, p))) / (2 * r);
        const double t = std::copysign(1.0, theta) / (std::fabs(theta) + std::hypot(theta, 1.0));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        const S wpp = ph * c, wpq = ph * s;  // W = [[wpp, wpq], [-s, c]]
        for (int64_t k = 0; k < n; ++k) {  // A W
          const S akp = at(a, n, k, p), akq = at(a, n, k, q);
          at(a, n, k, p) = wpp * akp - s * akq;
          at(a, n, k, q) = wpq * akp + c * akq;
        }
        for (int64_t k = 0; k < n; ++k) {  // W^H (A W)
          const S apk = at(a, n, p, k), aqk = at(a, n, q, k);
          at(a, n, p, k) = conj_of(wpp) * apk - s * aqk;
          at(a, n, q, k) = conj_of(wpq) * apk + c * aqk;
        }
        for (int64_t k = 0; k < n; ++k) {  // V W
          const S vkp = at(v, n, k, p), vkq = at(v, n, k, q);
          at(v, n, k, p) = wpp * vkp - s * vkq;
          at(v, n, k, q) = wpq * vkp + c * vkq;
        }
      }
    }
  }
  for (int64_t i = 0; i < n; ++i) w[i] = real_of(at(a, n, i, i));
  // Ascending, by selection (n is small), moving the vectors along.
  for (int64_t i = 0; i < n; ++i) {
    int64_t best = i;
    for (int64_t j = i + 1; j < n; ++j) {
      if (w[j] < w[best]) best = j;
    }
    if (best == i) continue;
    std::swap(w[i], w[best]);
    for (int64_t k = 0; k < n; ++k) std::swap(at(v, n, k, i), at(v, n, k, best));
  }
}

template <typename S>
void complete_basis(S* q, int64_t m, int64_t cols, int64_t k) {
  auto norm_of = [&](int64_t col) {
    double norm = 0;
    for (int64_t i = 0; i < m; ++i) norm += abs2(at(q, cols, i, col));
    return norm;
  };
  for (int64_t col = 0; col < cols; ++col) {
    if (col < k && norm_of(col) > 0.25) continue;  // an orthonormal column already
    // The first unit vector that keeps enough of itself once the columns set
    // so far are projected out (twice, for orthogonality to rounding).
    double norm = 0;
    for (int64_t e = 0; e < m; ++e) {
      for (int64_t i = 0; i < m; ++i) at(q, cols, i, col) = S(i == e ? 1.0 : 0.0);
      for (int pass = 0; pass < 2; ++pass) {
        for (int64_t other = 0; other < cols; ++other) {
          if (other == col || (other > col && other >= k)) continue;  // not set yet
          if (other > col && norm_of(other) < 0.25) continue;         // a zero column
          S dot = S(0);
          for (int64_t i = 0; i < m; ++i) {
            dot += conj_of(at(q, cols, i, other)) * at(q, cols, i, col);
          }
          for (int64_t i = 0; i < m; ++i) at(q, cols, i, col) -= dot * at(q, cols, i, other);
        }
      }
      norm = norm_of(col);
      if (norm > 0.25) break;
    }
    const double r = 1 / std::sqrt(norm);
    for (int64_t i = 0; i < m; ++i) at(q, cols, i, col) *= r;
  }
}

// One-sided Jacobi: rotate column pairs of u = a until they are orthogonal,
// applying the same rotations to v; then s = the columns' norms.
template <typename S>
void svd_tall(S* a, int64_t m, int64_t n, S* u, double* s, S* vh) {
  S* v = vh;  // n x n, conjugate-transposed at the end
  for (int64_t i = 0; i < m * n; ++i) u[i] = a[i];
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) at(v, n, i, j) = S(i == j ? 1.0 : 0.0);
  }
  for (int sweep = 0; sweep < 80; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        double alpha = 0, beta = 0;
        S gamma = S(0);
        for (int64_t i = 0; i < m; ++i) {
          const S up = at(u, n, i, p), uq = at(u, n, i, q);
          alpha += abs2(up);
          beta += abs2(uq);
          gamma += conj_of(up) * uq;
        }
        const double g = std::abs(gamma);
        if (g == 0 || g <= kEps * std::sqrt(alpha * beta)) continue;
        rotated = true;
        // Column q turned by conj(gamma)'s phase makes the pair's product real.
        const S ph = conj_of(gamma / g);
        const double zeta = (beta - alpha) / (2 * g);
        const double t = std::copysign(1.0, zeta) / (std::fabs(zeta) + std::hypot(1.0, zeta));
        const double c = 1 / std::sqrt(1 + t * t), sn = c * t;
        for (int64_t i = 0; i < m; ++i) {
          const S up = at(u, n, i, p), uq = at(u, n, i, q) * ph;
          at(u, n, i, p) = c * up - sn * uq;
          at(u, n, i, q) = sn * up + c * uq;
        }
        for (int64_t i = 0; i < n; ++i) {
          const S vp = at(v, n, i, p), vq = at(v, n, i, q) * ph;
          at(v, n, i, p) = c * vp - sn * vq;
          at(v, n, i, q) = sn * vp + c * vq;
        }
      }
    }
    if (!rotated) break;
  }
  for (int64_t j = 0; j < n; ++j) {
    double norm = 0;
    for (int64_t i = 0; i < m; ++i) norm += abs2(at(u, n, i, j));
    s[j] = std::sqrt(norm);
  }
  // Descending singular values, columns of u and v along.
  for (int64_t i = 0; i < n; ++i) {
    int64_t best = i;
    for (int64_t j = i + 1; j < n; ++j) {
      if (s[j] > s[best]) best = j;
    }
    if (best == i) continue;
    std::swap(s[i], s[best]);
    for (int64_t k = 0; k < m; ++k) std::swap(at(u, n, k, i), at(u, n, k, best));
    for (int64_t k = 0; k < n; ++k) std::swap(at(v, n, k, i), at(v, n, k, best));
  }
  const double tiny = (n > 0 ? s[0] : 0.0) * kEps * static_cast<double>(m);
  bool any_zero = false;
  for (int64_t j = 0; j < n; ++j) {
    const bool zero = !(s[j] > tiny && s[j] > 0);
    any_zero = any_zero || zero;
    const double r = zero ? 0 : 1 / s[j];
    for (int64_t i = 0; i < m; ++i) at(u, n, i, j) *= r;
  }
  // Zero singular values leave zero columns in u: complete them.
  if (any_zero) complete_basis(u, m, n, n);
  // vh = v^H, in place.
  for (int64_t i = 0; i < n; ++i) {
    at(v, n, i, i) = conj_of(at(v, n, i, i));
    for (int64_t j = i + 1; j < n; ++j) {
      const S x = at(v, n, i, j);
      at(v, n, i, j) = conj_of(at(v, n, j, i));
      at(v, n, j, i) = conj_of(x);
    }
  }
}

template <typename S>
void matrix_exp(const S* a, int64_t n, S* out, S* scratch) {
  static const double b[] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
                             1187353796428800.0,  129060195264000.0,   10559470521600.0,
                             670442572800.0,      33522128640.0,       1323241920.0,
                             40840800.0,          960960.0,            16380.0,
                             182.0,               1.0};
  const int64_t nn = n * n;
  S* x = scratch;
  S* a2 = x + nn;
  S* a4 = a2 + nn;
  S* a6 = a4 + nn;
  S* u = a6 + nn;
  S* v = u + nn;
  S* t = v + nn;
  int64_t* piv = reinterpret_cast<int64_t*>(t + nn);
  double norm = 0;
  for (int64_t j = 0; j < n; ++j) {
    double col = 0;
    for (int64_t i = 0; i < n; ++i) col += std::abs(a[i * n + j]);
    norm = std::max(norm, col);
  }
  int squarings = 0;
  if (norm > 5.371920351148152) {
    squarings = static_cast<int>(std::ceil(std::log2(norm / 5.371920351148152)));
  }
  const double scale = std::ldexp(1.0, -squarings);
  for (int64_t i = 0; i < nn; ++i) x[i] = a[i] * scale;
  matmul(x, x, a2, n);
  matmul(a2, a2, a4, n);
  matmul(a4, a2, a6, n);
  for (int64_t i = 0; i < nn; ++i) t[i] = b[13] * a6[i] + b[11] * a4[i] + b[9] * a2[i];
  matmul(a6, t, u, n);
  for (int64_t i = 0; i < nn; ++i) {
    u[i] += b[7] * a6[i] + b[5] * a4[i] + b[3] * a2[i];
    if (i % (n + 1) == 0) u[i] += b[1];
  }
  matmul(x, u, t, n);  // t = U
  for (int64_t i = 0; i < nn; ++i) u[i] = b[12] * a6[i] + b[10] * a4[i] + b[8] * a2[i];
  matmul(a6, u, v, n);
  for (int64_t i = 0; i < nn; ++i) {
    v[i] += b[6] * a6[i] + b[4] * a4[i] + b[2] * a2[i];
    if (i % (n + 1) == 0) v[i] += b[0];
  }
  // (V - U) X = (V + U).
  for (int64_t i = 0; i < nn; ++i) {
    const S vi = v[i], ui = t[i];
    v[i] = vi - ui;
    out[i] = vi + ui;
  }
  lu_factor(v, n, n, piv);
  lu_solve(v, piv, n, out, n, Op::kNone);
  for (int s = 0; s < squarings; ++s) {
    matmul(out, out, t, n);
    for (int64_t i = 0; i < nn; ++i) out[i] = t[i];
  }
}

#define EMBER_LINALG_INSTANTIATE(S)                                                        \
  template int64_t lu_factor<S>(S*, int64_t, int64_t, int64_t*);                          \
  template void lu_solve<S>(const S*, const int64_t*, int64_t, S*, int64_t, Op);          \
  template int64_t cholesky<S>(S*, int64_t);                                              \
  template void triangular_solve<S>(const S*, int64_t, bool, Op, bool, bool, S*, int64_t, \
                                    int64_t);                                             \
  template void geqrf<S>(S*, int64_t, int64_t, S*);                                       \
  template void apply_q<S>(const S*, int64_t, int64_t, const S*, int64_t, S*, int64_t,    \
                           bool);                                                         \
  template void eigh<S>(S*, int64_t, double*, S*);                                        \
  template void svd_tall<S>(S*, int64_t, int64_t, S*, double*, S*);                      \
  template void complete_basis<S>(S*, int64_t, int64_t, int64_t);                         \
  template void matrix_exp<S>(const S*, int64_t, S*, S*);
EMBER_LINALG_INSTANTIATE(double)
EMBER_LINALG_INSTANTIATE(Complex)
#undef EMBER_LINALG_INSTANTIATE

}  // namespace ember::kernels::linalg
