#include "kernels/portable/util/linalg.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ember::kernels::linalg {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

inline double& at(double* a, int64_t cols, int64_t i, int64_t j) { return a[i * cols + j]; }
inline double at(const double* a, int64_t cols, int64_t i, int64_t j) { return a[i * cols + j]; }

// c = a b for n x n matrices.
void matmul(const double* a, const double* b, double* c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) c[i * n + j] = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double aik = a[i * n + k];
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += aik * b[k * n + j];
    }
  }
}

}  // namespace

int64_t lu_factor(double* a, int64_t m, int64_t n, int64_t* piv) {
  int64_t info = 0;
  const int64_t steps = std::min(m, n);
  for (int64_t j = 0; j < steps; ++j) {
    int64_t p = j;
    double best = std::fabs(at(a, n, j, j));
    for (int64_t i = j + 1; i < m; ++i) {
      const double v = std::fabs(at(a, n, i, j));
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[j] = p;
    const double pivot = at(a, n, p, j);
    if (pivot != 0) {
      if (p != j) {
        for (int64_t l = 0; l < n; ++l) std::swap(at(a, n, j, l), at(a, n, p, l));
      }
      // LAPACK scales by the reciprocal unless the pivot is tiny.
      if (std::fabs(pivot) >= std::numeric_limits<double>::min()) {
        const double r = 1.0 / pivot;
        for (int64_t i = j + 1; i < m; ++i) at(a, n, i, j) *= r;
      } else {
        for (int64_t i = j + 1; i < m; ++i) at(a, n, i, j) /= pivot;
      }
    } else if (info == 0) {
      info = j + 1;
    }
    for (int64_t i = j + 1; i < m; ++i) {
      const double l = at(a, n, i, j);
      if (l == 0) continue;
      for (int64_t c = j + 1; c < n; ++c) at(a, n, i, c) -= l * at(a, n, j, c);
    }
  }
  return info;
}

void lu_solve(const double* lu, const int64_t* piv, int64_t n, double* b, int64_t k,
              bool transpose) {
  if (!transpose) {
    for (int64_t i = 0; i < n; ++i) {
      if (piv[i] != i) {
        for (int64_t c = 0; c < k; ++c) std::swap(at(b, k, i, c), at(b, k, piv[i], c));
      }
    }
    triangular_solve(lu, n, /*upper=*/false, false, /*unit=*/true, true, b, n, k);
    triangular_solve(lu, n, /*upper=*/true, false, false, true, b, n, k);
    return;
  }
  triangular_solve(lu, n, /*upper=*/true, /*transpose=*/true, false, true, b, n, k);
  triangular_solve(lu, n, /*upper=*/false, /*transpose=*/true, /*unit=*/true, true, b, n, k);
  for (int64_t i = n - 1; i >= 0; --i) {
    if (piv[i] != i) {
      for (int64_t c = 0; c < k; ++c) std::swap(at(b, k, i, c), at(b, k, piv[i], c));
    }
  }
}

int64_t cholesky(double* a, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    double d = at(a, n, j, j);
    for (int64_t k = 0; k < j; ++k) d -= at(a, n, j, k) * at(a, n, j, k);
    if (!(d > 0)) {
      for (int64_t r = 0; r < n; ++r) {
        for (int64_t c = r + 1; c < n; ++c) at(a, n, r, c) = 0;
      }
      return j + 1;
    }
    const double l = std::sqrt(d);
    at(a, n, j, j) = l;
    for (int64_t i = j + 1; i < n; ++i) {
      double v = at(a, n, i, j);
      for (int64_t k = 0; k < j; ++k) v -= at(a, n, i, k) * at(a, n, j, k);
      at(a, n, i, j) = v / l;
    }
  }
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t c = r + 1; c < n; ++c) at(a, n, r, c) = 0;
  }
  return 0;
}

void triangular_solve(const double* a, int64_t n, bool upper, bool transpose, bool unit,
                      bool left, double* b, int64_t rows, int64_t cols) {
  // A's element (i, j) of op(A).
  auto op = [&](int64_t i, int64_t j) { return transpose ? at(a, n, j, i) : at(a, n, i, j); };
  const bool lower = upper == transpose;  // op(A) is lower triangular
  if (left) {
    // op(A) X = B: X is n x cols.
    for (int64_t c = 0; c < cols; ++c) {
      if (lower) {
        for (int64_t i = 0; i < n; ++i) {
          double v = at(b, cols, i, c);
          for (int64_t j = 0; j < i; ++j) v -= op(i, j) * at(b, cols, j, c);
          at(b, cols, i, c) = unit ? v : v / op(i, i);
        }
      } else {
        for (int64_t i = n - 1; i >= 0; --i) {
          double v = at(b, cols, i, c);
          for (int64_t j = i + 1; j < n; ++j) v -= op(i, j) * at(b, cols, j, c);
          at(b, cols, i, c) = unit ? v : v / op(i, i);
        }
      }
    }
    return;
  }
  // X op(A) = B: row r of X solves op(A)^T x = b_r, op(A)^T lower when op(A) is upper.
  for (int64_t r = 0; r < rows; ++r) {
    double* x = b + r * cols;
    if (!lower) {
      for (int64_t i = 0; i < n; ++i) {
        double v = x[i];
        for (int64_t j = 0; j < i; ++j) v -= op(j, i) * x[j];
        x[i] = unit ? v : v / op(i, i);
      }
    } else {
      for (int64_t i = n - 1; i >= 0; --i) {
        double v = x[i];
        for (int64_t j = i + 1; j < n; ++j) v -= op(j, i) * x[j];
        x[i] = unit ? v : v / op(i, i);
      }
    }
  }
}

void geqrf(double* a, int64_t m, int64_t n, double* tau) {
  const int64_t steps = std::min(m, n);
  for (int64_t k = 0; k < steps; ++k) {
    const double alpha = at(a, n, k, k);
    double xnorm = 0;
    for (int64_t i = k + 1; i < m; ++i) xnorm = std::hypot(xnorm, at(a, n, i, k));
    if (xnorm == 0) {
      tau[k] = 0;  // H = I, as LAPACK's dlarfg
      continue;
    }
    const double beta = -std::copysign(std::hypot(alpha, xnorm), alpha);
    tau[k] = (beta - alpha) / beta;
    const double scale = 1.0 / (alpha - beta);
    for (int64_t i = k + 1; i < m; ++i) at(a, n, i, k) *= scale;
    at(a, n, k, k) = beta;
    // The rest of the columns: a -= tau v (v^T a), v = [1; a[k+1:, k]].
    for (int64_t j = k + 1; j < n; ++j) {
      double w = at(a, n, k, j);
      for (int64_t i = k + 1; i < m; ++i) w += at(a, n, i, k) * at(a, n, i, j);
      w *= tau[k];
      at(a, n, k, j) -= w;
      for (int64_t i = k + 1; i < m; ++i) at(a, n, i, j) -= w * at(a, n, i, k);
    }
  }
}

void apply_q(const double* a, int64_t m, int64_t n, const double* tau, int64_t k, double* c,
             int64_t cols, bool transpose) {
  // Q = H_0 H_1 ... H_{k-1}: Q c applies H_{k-1} first.
  for (int64_t step = 0; step < k; ++step) {
    const int64_t r = transpose ? step : k - 1 - step;
    if (tau[r] == 0) continue;
    for (int64_t j = 0; j < cols; ++j) {
      double w = at(c, cols, r, j);
      for (int64_t i = r + 1; i < m; ++i) w += at(a, n, i, r) * at(c, cols, i, j);
      w *= tau[r];
      at(c, cols, r, j) -= w;
      for (int64_t i = r + 1; i < m; ++i) at(c, cols, i, j) -= w * at(a, n, i, r);
    }
  }
}

void eigh(double* a, int64_t n, double* w, double* v) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) at(v, n, i, j) = i == j ? 1.0 : 0.0;
  }
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const double x = at(a, n, i, j) * at(a, n, i, j);
        total += x;
        if (i != j) off += x;
      }
    }
    if (!(off > kEps * kEps * total)) break;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        const double apq = at(a, n, p, q);
        if (apq == 0) continue;
        const double theta = (at(a, n, q, q) - at(a, n, p, p)) / (2 * apq);
        const double t = std::copysign(1.0, theta) / (std::fabs(theta) + std::hypot(theta, 1.0));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int64_t k = 0; k < n; ++k) {  // columns p, q
          const double akp = at(a, n, k, p), akq = at(a, n, k, q);
          at(a, n, k, p) = c * akp - s * akq;
          at(a, n, k, q) = s * akp + c * akq;
        }
        for (int64_t k = 0; k < n; ++k) {  // rows p, q
          const double apk = at(a, n, p, k), aqk = at(a, n, q, k);
          at(a, n, p, k) = c * apk - s * aqk;
          at(a, n, q, k) = s * apk + c * aqk;
        }
        for (int64_t k = 0; k < n; ++k) {
          const double vkp = at(v, n, k, p), vkq = at(v, n, k, q);
          at(v, n, k, p) = c * vkp - s * vkq;
          at(v, n, k, q) = s * vkp + c * vkq;
        }
      }
    }
  }
  for (int64_t i = 0; i < n; ++i) w[i] = at(a, n, i, i);
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

void complete_basis(double* q, int64_t m, int64_t cols, int64_t k) {
  auto norm_of = [&](int64_t col) {
    double norm = 0;
    for (int64_t i = 0; i < m; ++i) norm += at(q, cols, i, col) * at(q, cols, i, col);
    return norm;
  };
  for (int64_t col = 0; col < cols; ++col) {
    if (col < k && norm_of(col) > 0.25) continue;  // an orthonormal column already
    // The first unit vector that keeps enough of itself once the columns set
    // so far are projected out (twice, for orthogonality to rounding).
    double norm = 0;
    for (int64_t e = 0; e < m; ++e) {
      for (int64_t i = 0; i < m; ++i) at(q, cols, i, col) = i == e ? 1.0 : 0.0;
      for (int pass = 0; pass < 2; ++pass) {
        for (int64_t other = 0; other < cols; ++other) {
          if (other == col || (other > col && other >= k)) continue;  // not set yet
          if (other > col && norm_of(other) < 0.25) continue;         // a zero column
          double dot = 0;
          for (int64_t i = 0; i < m; ++i) dot += at(q, cols, i, other) * at(q, cols, i, col);
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

void svd_tall(double* a, int64_t m, int64_t n, double* u, double* s, double* vt, double* scratch) {
  // u = a (m x n), v = I (n x n, kept in vt and transposed at the end).
  double* v = vt;
  for (int64_t i = 0; i < m * n; ++i) u[i] = a[i];
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) at(v, n, i, j) = i == j ? 1.0 : 0.0;
  }
  for (int sweep = 0; sweep < 80; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int64_t i = 0; i < m; ++i) {
          const double up = at(u, n, i, p), uq = at(u, n, i, q);
          alpha += up * up;
          beta += uq * uq;
          gamma += up * uq;
        }
        if (gamma == 0 || std::fabs(gamma) <= kEps * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = std::copysign(1.0, zeta) / (std::fabs(zeta) + std::hypot(1.0, zeta));
        const double c = 1 / std::sqrt(1 + t * t), sn = c * t;
        for (int64_t i = 0; i < m; ++i) {
          const double up = at(u, n, i, p), uq = at(u, n, i, q);
          at(u, n, i, p) = c * up - sn * uq;
          at(u, n, i, q) = sn * up + c * uq;
        }
        for (int64_t i = 0; i < n; ++i) {
          const double vp = at(v, n, i, p), vq = at(v, n, i, q);
          at(v, n, i, p) = c * vp - sn * vq;
          at(v, n, i, q) = sn * vp + c * vq;
        }
      }
    }
    if (!rotated) break;
  }
  for (int64_t j = 0; j < n; ++j) {
    double norm = 0;
    for (int64_t i = 0; i < m; ++i) norm += at(u, n, i, j) * at(u, n, i, j);
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
  const double tiny = s[0] * kEps * static_cast<double>(m);
  for (int64_t j = 0; j < n; ++j) {
    const double r = s[j] > tiny && s[j] > 0 ? 1 / s[j] : 0;
    for (int64_t i = 0; i < m; ++i) at(u, n, i, j) *= r;
  }
  // Zero singular values leave zero columns in u: complete them.
  bool any_zero = false;
  for (int64_t j = 0; j < n; ++j) any_zero = any_zero || !(s[j] > tiny && s[j] > 0);
  if (any_zero) complete_basis(u, m, n, n);
  (void)scratch;
  // vt = v^T, in place.
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j) std::swap(at(v, n, i, j), at(v, n, j, i));
  }
}

void matrix_exp(const double* a, int64_t n, double* out, double* scratch) {
  static const double b[] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
                             1187353796428800.0,  129060195264000.0,   10559470521600.0,
                             670442572800.0,      33522128640.0,       1323241920.0,
                             40840800.0,          960960.0,            16380.0,
                             182.0,               1.0};
  const int64_t nn = n * n;
  double* x = scratch;
  double* a2 = x + nn;
  double* a4 = a2 + nn;
  double* a6 = a4 + nn;
  double* u = a6 + nn;
  double* v = u + nn;
  double* t = v + nn;
  int64_t* piv = reinterpret_cast<int64_t*>(t + nn);
  double norm = 0;
  for (int64_t j = 0; j < n; ++j) {
    double col = 0;
    for (int64_t i = 0; i < n; ++i) col += std::fabs(a[i * n + j]);
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
    const double vi = v[i], ui = t[i];
    v[i] = vi - ui;
    out[i] = vi + ui;
  }
  lu_factor(v, n, n, piv);
  lu_solve(v, piv, n, out, n, false);
  for (int s = 0; s < squarings; ++s) {
    matmul(out, out, t, n);
    for (int64_t i = 0; i < nn; ++i) out[i] = t[i];
  }
}

}  // namespace ember::kernels::linalg
