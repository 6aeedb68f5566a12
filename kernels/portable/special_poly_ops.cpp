// The orthogonal polynomials of torch.special: Chebyshev T, U, V, W (and
// shifted), Hermite H and He, Laguerre L, Legendre P, evaluated at x for the
// degree n (a tensor, truncated to an integer), by the three-term recurrences
// and closed forms PyTorch uses (aten/src/ATen/native/Math.h), in double.
#include <cmath>

#include "kernels/portable/util/elementwise_util.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels {
namespace {

// A degree whose recurrence would run this long is refused instead of hanging
// the method (torch would loop for it).
constexpr int64_t kMaxDegree = int64_t{1} << 24;

// Runs `next(k, p, q)` from the first two values up to degree n; stops early
// once the value is no longer finite (it stays so).
template <typename Next>
double recur(int64_t n, double p, double q, int64_t first_k, int64_t end_k, Next next) {
  double r = q;
  for (int64_t k = first_k; k < end_k; ++k) {
    r = next(k, p, q);
    p = q;
    q = r;
    if (!std::isfinite(r)) break;
  }
  return r;
}

double chebyshev_t(double x, int64_t n) {
  if (n < 0) return 0;
  if (std::fabs(x) == 1) return (x > 0 || n % 2 == 0) ? 1.0 : -1.0;
  if (n > 6 && std::fabs(x) < 1) return std::cos(n * std::acos(x));
  if (n == 0) return 1;
  if (n == 1) return x;
  return recur(n, 1, x, 2, n + 1, [x](int64_t, double p, double q) { return (x + x) * q - p; });
}

double chebyshev_u(double x, int64_t n) {
  if (n < 0) return 0;
  if (std::fabs(x) == 1) return (x > 0 || n % 2 == 0) ? n + 1.0 : -(n + 1.0);
  if (n > 8 && std::fabs(x) < 1) {
    const double t = std::acos(x);
    if (std::sin(t) != 0) return std::sin((n + 1) * t) / std::sin(t);
    return (n + 1) * std::cos((n + 1) * t) / x;
  }
  if (n == 0) return 1;
  if (n == 1) return x + x;
  return recur(n, 1, x + x, 2, n + 1,
               [x](int64_t, double p, double q) { return (x + x) * q - p; });
}

double chebyshev_v(double x, int64_t n) {
  if (n < 0) return 0;
  if (std::fabs(x) == 1) {
    if (x > 0) return 1;
    return n % 2 == 0 ? n + n + 1.0 : -(n + n + 1.0);
  }
  if (n > 8 && std::fabs(x) < 1) {
    const double t = std::acos(x);
    if (std::sin(t / 2) != 1) return std::cos((n + 0.5) * t) / std::cos(t / 2);
    return n % 2 == 0 ? n + n + 1.0 : -(n + n + 1.0);
  }
  if (n == 0) return 1;
  if (n == 1) return x + x - 1;
  return recur(n, 1, x + x - 1, 2, n + 1,
               [x](int64_t, double p, double q) { return (x + x) * q - p; });
}

double chebyshev_w(double x, int64_t n) {
  if (n < 0) return 0;
  if (std::fabs(x) == 1) {
    if (x > 0) return n + n + 1.0;
    return n % 2 == 0 ? 1.0 : -1.0;
  }
  if (n > 8 && std::fabs(x) < 1) {
    const double t = std::acos(x);
    if (std::cos(t / 2) != 1) return std::sin((n + 0.5) * t) / std::sin(t / 2);
    if (x > 0) return n + n + 1.0;
    return n % 2 == 0 ? 1.0 : -1.0;
  }
  if (n == 0) return 1;
  if (n == 1) return x + x + 1;
  return recur(n, 1, x + x + 1, 2, n + 1,
               [x](int64_t, double p, double q) { return (x + x) * q - p; });
}

// The shifted polynomials are the plain ones at 2x - 1, with their own edges.
double shifted_chebyshev_t(double x, int64_t n) {
  if (n < 0) return 0;
  if (x == 1) return 1;
  if (x == 0) return n % 2 == 0 ? 1.0 : -1.0;
  return chebyshev_t(x + x - 1, n);
}

double shifted_chebyshev_u(double x, int64_t n) {
  if (n < 0) return 0;
  if (x == 1) return n + 1.0;
  if (x == 0) return n % 2 == 0 ? n + 1.0 : -(n + 1.0);
  return chebyshev_u(x + x - 1, n);
}

double shifted_chebyshev_v(double x, int64_t n) {
  if (n < 0) return 0;
  if (x == 1) return 1;
  if (x == 0) return n % 2 == 0 ? n + n + 1.0 : -(n + n + 1.0);
  return chebyshev_v(x + x - 1, n);
}

double shifted_chebyshev_w(double x, int64_t n) {
  if (n < 0) return 0;
  if (x == 1) return n + n + 1.0;
  if (x == 0) return n % 2 == 0 ? 1.0 : -1.0;
  return chebyshev_w(x + x - 1, n);
}

double hermite_h(double x, int64_t n) {
  if (n < 0) return 0;
  if (n == 0) return 1;
  if (n == 1) return x + x;
  // k steps by 2 from 2 to 2n - 2: H_{j+1} = 2x H_j - 2j H_{j-1}.
  double p = 1, q = x + x, r = 0;
  for (int64_t k = 2; k < n + n; k += 2) {
    r = (x + x) * q - k * p;
    p = q;
    q = r;
    if (!std::isfinite(r)) break;
  }
  return r;
}

double hermite_he(double x, int64_t n) {
  if (n < 0) return 0;
  if (n == 0) return 1;
  if (n == 1) return x;
  return recur(n, 1, x, 1, n, [x](int64_t k, double p, double q) { return x * q - k * p; });
}

double laguerre_l(double x, int64_t n) {
  if (n < 0) return 0;
  if (std::fabs(x) == 0) return 1;
  if (n == 0) return 1;
  if (n == 1) return 1 - x;
  return recur(n, 1, 1 - x, 1, n, [x](int64_t k, double p, double q) {
    return (((k + k) + (1 - x)) * q - k * p) / (k + 1);
  });
}

double legendre_p(double x, int64_t n) {
  if (n < 0) return 0;
  if (std::fabs(x) == 1) return (x > 0 || n == 1 || n % 2 == 0) ? 1.0 : -1.0;
  if (n == 0) return 1;
  if (n == 1) return x;
  return recur(n, 1, x, 1, n, [x](int64_t k, double p, double q) {
    return ((k + k + 1) * x * q - k * p) / (k + 1);
  });
}

// out = f(x, n): both promoted to a float type (integers give Float), n
// truncated to an integer. torch has these for Float and Double only.
template <double (*f)(double, int64_t)>
void polynomial(KernelContext& ctx, const char* op, const Operand& x, const Operand& n,
                Tensor& out) {
  bool too_large = false;
  binary_op<kFloatTypes>(ctx, op, x, n, out, Promotion::kIntToFloat, [&too_large](auto tag) {
    using M = opmath_t<typename decltype(tag)::type>;
    return [&too_large](M xv, M nv) {
      const double degree = static_cast<double>(nv);
      if (degree != degree) return static_cast<M>(degree);
      if (degree > static_cast<double>(kMaxDegree)) {
        too_large = true;
        return M(0);
      }
      return static_cast<M>(f(static_cast<double>(xv), static_cast<int64_t>(degree)));
    };
  });
  if (too_large) {
    ctx.fail(Error::NotSupported, "%s: a degree above %lld", op,
             static_cast<long long>(kMaxDegree));
  }
}

#define EMBER_POLYNOMIAL(name, fn)                                                             \
  void name##_out(KernelContext& ctx, const Tensor& x, const Tensor& n, Tensor& out) {         \
    polynomial<fn>(ctx, #name ".out", x, n, out);                                              \
  }                                                                                            \
  void name##_x_scalar_out(KernelContext& ctx, Scalar x, const Tensor& n, Tensor& out) {       \
    polynomial<fn>(ctx, #name ".x_scalar_out", x, n, out);                                     \
  }                                                                                            \
  void name##_n_scalar_out(KernelContext& ctx, const Tensor& x, Scalar n, Tensor& out) {       \
    polynomial<fn>(ctx, #name ".n_scalar_out", x, n, out);                                     \
  }
EMBER_POLYNOMIAL(special_chebyshev_polynomial_t, chebyshev_t)
EMBER_POLYNOMIAL(special_chebyshev_polynomial_u, chebyshev_u)
EMBER_POLYNOMIAL(special_chebyshev_polynomial_v, chebyshev_v)
EMBER_POLYNOMIAL(special_chebyshev_polynomial_w, chebyshev_w)
EMBER_POLYNOMIAL(special_shifted_chebyshev_polynomial_t, shifted_chebyshev_t)
EMBER_POLYNOMIAL(special_shifted_chebyshev_polynomial_u, shifted_chebyshev_u)
EMBER_POLYNOMIAL(special_shifted_chebyshev_polynomial_v, shifted_chebyshev_v)
EMBER_POLYNOMIAL(special_shifted_chebyshev_polynomial_w, shifted_chebyshev_w)
EMBER_POLYNOMIAL(special_hermite_polynomial_h, hermite_h)
EMBER_POLYNOMIAL(special_hermite_polynomial_he, hermite_he)
EMBER_POLYNOMIAL(special_laguerre_polynomial_l, laguerre_l)
EMBER_POLYNOMIAL(special_legendre_polynomial_p, legendre_p)
#undef EMBER_POLYNOMIAL

// Any real x and n: integers and Bool promote to Float.
constexpr DtypeMask kPolynomialTypes = kRealTypes | kBoolTypes;

}  // namespace

EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_t.out",
                              special_chebyshev_polynomial_t_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_t.x_scalar_out",
                              special_chebyshev_polynomial_t_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_t.n_scalar_out",
                              special_chebyshev_polynomial_t_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_u.out",
                              special_chebyshev_polynomial_u_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_u.x_scalar_out",
                              special_chebyshev_polynomial_u_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_u.n_scalar_out",
                              special_chebyshev_polynomial_u_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_v.out",
                              special_chebyshev_polynomial_v_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_v.x_scalar_out",
                              special_chebyshev_polynomial_v_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_v.n_scalar_out",
                              special_chebyshev_polynomial_v_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_w.out",
                              special_chebyshev_polynomial_w_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_w.x_scalar_out",
                              special_chebyshev_polynomial_w_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_chebyshev_polynomial_w.n_scalar_out",
                              special_chebyshev_polynomial_w_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_t.out",
                              special_shifted_chebyshev_polynomial_t_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_t.x_scalar_out",
                              special_shifted_chebyshev_polynomial_t_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_t.n_scalar_out",
                              special_shifted_chebyshev_polynomial_t_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_u.out",
                              special_shifted_chebyshev_polynomial_u_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_u.x_scalar_out",
                              special_shifted_chebyshev_polynomial_u_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_u.n_scalar_out",
                              special_shifted_chebyshev_polynomial_u_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_v.out",
                              special_shifted_chebyshev_polynomial_v_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_v.x_scalar_out",
                              special_shifted_chebyshev_polynomial_v_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_v.n_scalar_out",
                              special_shifted_chebyshev_polynomial_v_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_w.out",
                              special_shifted_chebyshev_polynomial_w_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_w.x_scalar_out",
                              special_shifted_chebyshev_polynomial_w_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_shifted_chebyshev_polynomial_w.n_scalar_out",
                              special_shifted_chebyshev_polynomial_w_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_hermite_polynomial_h.out",
                              special_hermite_polynomial_h_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_hermite_polynomial_h.x_scalar_out",
                              special_hermite_polynomial_h_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_hermite_polynomial_h.n_scalar_out",
                              special_hermite_polynomial_h_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_hermite_polynomial_he.out",
                              special_hermite_polynomial_he_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_hermite_polynomial_he.x_scalar_out",
                              special_hermite_polynomial_he_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_hermite_polynomial_he.n_scalar_out",
                              special_hermite_polynomial_he_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_laguerre_polynomial_l.out",
                              special_laguerre_polynomial_l_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_laguerre_polynomial_l.x_scalar_out",
                              special_laguerre_polynomial_l_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_laguerre_polynomial_l.n_scalar_out",
                              special_laguerre_polynomial_l_n_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_legendre_polynomial_p.out",
                              special_legendre_polynomial_p_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_legendre_polynomial_p.x_scalar_out",
                              special_legendre_polynomial_p_x_scalar_out, kPolynomialTypes);
EMBER_REGISTER_STRIDED_KERNEL("aten::special_legendre_polynomial_p.n_scalar_out",
                              special_legendre_polynomial_p_n_scalar_out, kPolynomialTypes);

}  // namespace ember::kernels
