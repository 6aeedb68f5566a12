#include "kernels/portable/util/special_math.h"

#include <cmath>
#include <limits>

namespace ember::kernels::special {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kEulerGamma = 0.57721566490153286061;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEps = 1.0e-17;

}  // namespace

// --- gamma family (Cephes, as PyTorch) -------------------------------------

double digamma(double x) {
  if (x == 0) return std::copysign(kInf, -x);
  if (x < 0) {
    if (x == std::trunc(x)) return kNaN;
    // The reflection, with tan(pi r) of the fractional part (more accurate
    // than tan(pi x) for |x| > 1).
    double q;
    const double r = std::modf(x, &q);
    return digamma(1 - x) - kPi / std::tan(kPi * r);
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + 2.25175258906672110764;
  static const double kA[] = {8.33333333333333333333E-2, -2.10927960927960927961E-2,
                              7.57575757575757575758E-3, -4.16666666666666666667E-3,
                              3.96825396825396825397E-3, -8.33333333333333333333E-3,
                              8.33333333333333333333E-2};
  double y = 0;
  if (x < 1.0e17) {
    const double z = 1.0 / (x * x);
    double p = 0;
    for (double a : kA) p = p * z + a;
    y = z * p;
  }
  return result + std::log(x) - (0.5 / x) - y;
}

double trigamma(double x) {
  double sign = 1;
  double result = 0;
  if (x < 0.5) {
    sign = -1;
    const double s = std::sin(kPi * x);
    result -= (kPi * kPi) / (s * s);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const double ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x;
  return sign * result;
}

double zeta(double x, double q) {
  static const double kA[] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0,
                              -1.8924375803183791606e9, 7.47242496e10,
                              -2.950130727918164224e12, 1.1646782814350067249e14,
                              -4.5979787224074726105e15, 1.8152105401943546773e17,
                              -7.1661652561756670113e18};
  const double machep = 1.11022302462515654042E-16;
  if (x == 1) return kInf;
  if (x < 1) return kNaN;
  if (q <= 0) {
    if (q == std::floor(q)) return kInf;
    if (x != std::floor(x)) return kNaN;
  }
  double s = std::pow(q, -x);
  double a = q;
  double b = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1;
    b = std::pow(a, -x);
    s += b;
    if (-machep * s < b && b < machep * s) return s;
  }
  const double w = a;
  s += b * w / (x - 1);
  s -= 0.5 * b;
  a = 1;
  double k = 0;
  for (double coefficient : kA) {
    a *= x + k;
    b /= w;
    double t = a * b / coefficient;
    s += t;
    t = std::fabs(t / s);
    if (t < machep) return s;
    k += 1;
    a *= x + k;
    b /= w;
    k += 1;
  }
  return s;
}

double polygamma(int64_t n, double x) {
  if (n == 0) return digamma(x);
  if (n == 1) return trigamma(x);
  const double sign = (n % 2) ? 1.0 : -1.0;
  return sign * std::exp(std::lgamma(static_cast<double>(n) + 1.0)) *
         zeta(static_cast<double>(n) + 1.0, x);
}

// --- incomplete gamma --------------------------------------------------------

namespace {

// exp(-x) x^a / Gamma(a), the prefactor of both expansions.
double gamma_prefactor(double a, double x) {
  return std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// P(a, x) by its series (converges fast for x < a + 1).
double igamma_series(double a, double x) {
  double ap = a;
  double term = 1.0 / a;
  double sum = term;
  for (int i = 0; i < 100000; ++i) {
    ap += 1;
    term *= x / ap;
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * kEps) break;
  }
  return sum * gamma_prefactor(a, x);
}

// Q(a, x) by its continued fraction, evaluated by Lentz's method (x >= a + 1).
double igammac_fraction(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1 - a;
  double c = 1 / tiny;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < kEps) break;
  }
  return gamma_prefactor(a, x) * h;
}

}  // namespace

double igamma(double a, double x) {
  if (x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? 1.0 : kNaN;
  if (x == 0) return 0.0;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : 0.0;
  if (std::isinf(x)) return 1.0;
  if (std::isnan(a) || std::isnan(x)) return kNaN;
  return x < a + 1 ? igamma_series(a, x) : 1.0 - igammac_fraction(a, x);
}

double igammac(double a, double x) {
  if (x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? 0.0 : kNaN;
  if (x == 0) return 1.0;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : 1.0;
  if (std::isinf(x)) return 0.0;
  if (std::isnan(a) || std::isnan(x)) return kNaN;
  return x < a + 1 ? 1.0 - igamma_series(a, x) : igammac_fraction(a, x);
}

// --- the normal distribution -------------------------------------------------

double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x < -26.7) return kInf;
    return 2 * std::exp(x * x) - erfcx(-x);
  }
  if (x < 26) return std::exp(x * x) * std::erfc(x);
  // The asymptotic series; its next term is below 1e-13 relative here.
  const double r = 1 / (x * x);
  const double series =
      1 - r * (0.5 - r * (0.75 - r * (1.875 - r * (6.5625 - r * 29.53125))));
  return series / (x * std::sqrt(kPi));
}

double ndtr(double x) { return 0.5 * std::erfc(-x * 0.70710678118654752440); }

double log_ndtr(double x) {
  const double t = x * 0.70710678118654752440;
  if (x < -1.0) return std::log(erfcx(-t) / 2) - t * t;
  return std::log1p(-std::erfc(t) / 2);
}

namespace {

// Acklam's rational approximation (relative error 1.2e-9) of the lower half,
// then one Halley step on ndtr, which makes it accurate to double rounding.
double ndtri_lower(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                             -2.759285104469687e+02, 1.383577518672690e+02,
                             -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                             -1.556989798598866e+02, 6.680131188771972e+01,
                             -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                             -2.400758277161838e+00, -2.549732539343734e+00,
                             4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                             2.445134137142996e+00, 3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const double e = ndtr(x) - p;
  const double u = e * std::sqrt(2 * kPi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

}  // namespace

double ndtri(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return kNaN;
  if (p == 0) return -kInf;
  if (p == 1) return kInf;
  // 1 - p is exact for p >= 0.5, so the upper half is the mirror of the lower.
  return p > 0.5 ? -ndtri_lower(1 - p) : ndtri_lower(p);
}

// --- modified Bessel functions -----------------------------------------------

namespace {

// I_nu(x) * exp(-x) for x > 30 (nu = 0 or 1) by the asymptotic expansion,
// whose smallest term there is far below double rounding.
double bessel_i_scaled_asymptotic(double nu, double x) {
  const double mu = 4 * nu * nu;
  double term = 1;
  double sum = 1;
  for (int k = 1; k < 60; ++k) {
    const double next = -term * (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * x);
    if (std::fabs(next) >= std::fabs(term)) break;
    term = next;
    sum += term;
    if (std::fabs(term) < kEps * std::fabs(sum)) break;
  }
  return sum / std::sqrt(2 * kPi * x);
}

// The power series of I0 and I1 at |x| <= 30 (positive terms: no cancellation).
double bessel_i0_series(double x) {
  const double q = x * x / 4;
  double term = 1, sum = 1;
  for (int k = 1; k < 500; ++k) {
    term *= q / (static_cast<double>(k) * k);
    sum += term;
    if (term < kEps * sum) break;
  }
  return sum;
}

double bessel_i1_series(double x) {
  const double q = x * x / 4;
  double term = 1, sum = 1;
  for (int k = 1; k < 500; ++k) {
    term *= q / (static_cast<double>(k) * (k + 1));
    sum += term;
    if (term < kEps * sum) break;
  }
  return sum * x / 2;
}

// K_nu(x) * exp(x) = integral over t > 0 of exp(-x (cosh t - 1)) cosh(nu t):
// the trapezoid rule converges exponentially fast for this analytic, rapidly
// decaying integrand; the step shrinks as the integrand narrows for large x.
double bessel_k_scaled(double nu, double x) {
  const double h = std::fmin(0.2, 0.5 / std::sqrt(x));
  double sum = 0.5;  // the t = 0 term, halved
  for (int k = 1; k < 100000; ++k) {
    const double t = k * h;
    const double s = std::sinh(t / 2);
    const double exponent = -2 * x * s * s;
    if (exponent + nu * t < -45) break;
    sum += std::exp(exponent) * std::cosh(nu * t);
  }
  return h * sum;
}

}  // namespace

double bessel_i0e(double x) {
  const double ax = std::fabs(x);
  if (std::isnan(x)) return x;
  if (ax <= 30) return std::exp(-ax) * bessel_i0_series(ax);
  return bessel_i_scaled_asymptotic(0, ax);
}

double bessel_i0(double x) {
  const double ax = std::fabs(x);
  if (ax <= 30 || std::isnan(x)) return std::isnan(x) ? x : bessel_i0_series(ax);
  if (ax > 720) return kInf;
  return std::exp(ax) * bessel_i_scaled_asymptotic(0, ax);
}

double bessel_i1e(double x) {
  const double ax = std::fabs(x);
  if (std::isnan(x)) return x;
  const double v = ax <= 30 ? std::exp(-ax) * bessel_i1_series(ax)
                            : bessel_i_scaled_asymptotic(1, ax);
  return x < 0 ? -v : v;
}

double bessel_i1(double x) {
  const double ax = std::fabs(x);
  if (std::isnan(x)) return x;
  double v;
  if (ax <= 30) v = bessel_i1_series(ax);
  else if (ax > 720) v = kInf;
  else v = std::exp(ax) * bessel_i_scaled_asymptotic(1, ax);
  return x < 0 ? -v : v;
}

double bessel_k0e(double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return kInf;
  if (std::isinf(x)) return 0;
  return bessel_k_scaled(0, x);
}

double bessel_k1e(double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return kInf;
  if (std::isinf(x)) return 0;
  return bessel_k_scaled(1, x);
}

double bessel_k0(double x) {
  if (x > 745) return 0;
  return std::exp(-x) * bessel_k0e(x);
}

double bessel_k1(double x) {
  if (x > 745) return 0;
  return std::exp(-x) * bessel_k1e(x);
}

// --- Bessel functions of the first and second kind ---------------------------

namespace {

// The power series, at |x| < 12 (where cancellation costs at most 4 digits).
// Returns J_n and, through `y_part`, the series part of Y_n.
double bessel_j_series(int n, double x, double* y_part) {
  const double q = x * x / 4;
  double term = n == 0 ? 1.0 : x / 2;  // (x/2)^n / n!
  double j = term;
  double harmonic_k = 0;       // H_k
  double harmonic_kn = n == 0 ? 0.0 : 1.0;  // H_{k+n}
  double y = n == 0 ? 0.0 : term * (harmonic_k + harmonic_kn);
  for (int k = 1; k < 200; ++k) {
    term *= -q / (static_cast<double>(k) * (k + n));
    harmonic_k += 1.0 / k;
    harmonic_kn += 1.0 / (k + n);
    j += term;
    y += term * (harmonic_k + harmonic_kn);
    if (std::fabs(term) < kEps * std::fabs(j) && k > 2) break;
  }
  *y_part = y;
  return j;
}

// Hankel's expansion for x >= 12: J and Y of order n from P, Q and the phase.
void bessel_jy_asymptotic(int n, double x, double* j, double* y) {
  const double mu = 4.0 * n * n;
  double term = 1, p = 1, q = 0;
  for (int k = 1; k < 60; ++k) {
    const double next = term * (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * x);
    if (std::fabs(next) >= std::fabs(term) && k > 2) break;
    term = next;
    // The signs of P and Q run + - + - over even and over odd k.
    const double signed_term = (k / 2) % 2 == 0 ? term : -term;
    if (k % 2 == 0) p += signed_term;
    else q += signed_term;
    if (std::fabs(term) < kEps) break;
  }
  // cos and sin of x - (n/2 + 1/4) pi from those of x, without subtracting
  // from a large x.
  const double c = std::cos(x), s = std::sin(x);
  const double r = 0.70710678118654752440;
  const double cos_chi = n == 0 ? r * (c + s) : r * (s - c);
  const double sin_chi = n == 0 ? r * (s - c) : -r * (c + s);
  const double scale = std::sqrt(2 / (kPi * x));
  *j = scale * (p * cos_chi - q * sin_chi);
  *y = scale * (p * sin_chi + q * cos_chi);
}

double bessel_j(int n, double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return 0;
  const double ax = std::fabs(x);
  double j, y;
  if (ax < 12) {
    j = bessel_j_series(n, ax, &y);
  } else {
    bessel_jy_asymptotic(n, ax, &j, &y);
  }
  return (n == 1 && x < 0) ? -j : j;
}

double bessel_y(int n, double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  if (x == 0) return -kInf;
  if (std::isinf(x)) return 0;
  double j, y;
  if (x < 12) {
    double series;
    j = bessel_j_series(n, x, &series);
    const double log_part = (2 / kPi) * (std::log(x / 2) + kEulerGamma) * j;
    // series = sum of (psi(k + 1) + psi(k + n + 1) + 2 gamma) * term_k.
    return log_part - (n == 1 ? 2 / (kPi * x) : 0.0) - series / kPi;
  }
  bessel_jy_asymptotic(n, x, &j, &y);
  return y;
}

}  // namespace

double bessel_j0(double x) { return bessel_j(0, x); }
double bessel_j1(double x) { return bessel_j(1, x); }
double bessel_y0(double x) { return bessel_y(0, x); }
double bessel_y1(double x) { return bessel_y(1, x); }

// --- Airy Ai -----------------------------------------------------------------

double airy_ai(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return x > 0 ? 0.0 : kNaN;
  if (x > 3) {
    // Ai(x) = sqrt(x / 3) K_{1/3}(zeta) / pi, zeta = 2/3 x^{3/2}.
    const double zeta = 2.0 / 3.0 * x * std::sqrt(x);
    if (zeta > 745) return 0;
    return std::sqrt(x / 3) / kPi * std::exp(-zeta) * bessel_k_scaled(1.0 / 3.0, zeta);
  }
  if (x >= -8) {
    // Ai = c1 f - c2 g, the Maclaurin series.
    const double c1 = 0.355028053887817239260, c2 = 0.258819403792806798405;
    const double x3 = x * x * x;
    double f_term = 1, f = 1, g_term = x, g = x;
    for (int k = 1; k < 200; ++k) {
      f_term *= x3 / ((3.0 * k - 1) * (3.0 * k));
      g_term *= x3 / ((3.0 * k) * (3.0 * k + 1));
      f += f_term;
      g += g_term;
      if (std::fabs(f_term) + std::fabs(g_term) < kEps * (std::fabs(f) + std::fabs(g))) break;
    }
    return c1 * f - c2 * g;
  }
  // The oscillating asymptotic expansion for x < -8.
  const double z = -x;
  const double zeta = 2.0 / 3.0 * z * std::sqrt(z);
  double u = 1, p = 1, q = 0;
  for (int k = 1; k < 60; ++k) {
    const double next = u * (6.0 * k - 1) * (6.0 * k - 3) * (6.0 * k - 5) /
                        (216.0 * k * (2.0 * k - 1) * zeta);
    if (std::fabs(next) >= std::fabs(u)) break;
    u = next;
    const double signed_u = (k / 2) % 2 == 0 ? u : -u;
    if (k % 2 == 0) p += signed_u;
    else q += signed_u;
    if (u < kEps) break;
  }
  const double phase = zeta + kPi / 4;
  return (std::sin(phase) * p - std::cos(phase) * q) / (std::sqrt(kPi) * std::sqrt(std::sqrt(z)));
}

}  // namespace ember::kernels::special
