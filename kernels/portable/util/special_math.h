// Special functions in double precision, for the portable kernels of
// torch.special and friends: the gamma family, incomplete gamma, Hurwitz zeta,
// the normal distribution, Bessel functions of integer order, the Airy
// function Ai. The kernels compute in double and round once, so float results
// are correctly rounded or within an ulp or two; the edge cases (poles, zeros,
// infinities, NaN) follow PyTorch's (aten/src/ATen/native/Math.h).
#pragma once

#include <cstdint>

namespace ember::kernels::special {

double digamma(double x);
double trigamma(double x);
double polygamma(int64_t n, double x);
double zeta(double x, double q);  // Hurwitz: sum over k >= 0 of (k + q)^-x
double igamma(double a, double x);   // regularized lower incomplete gamma P(a, x)
double igammac(double a, double x);  // regularized upper incomplete gamma Q(a, x)

double erfcx(double x);  // exp(x^2) erfc(x)
double ndtr(double x);   // the standard normal CDF
double log_ndtr(double x);
double ndtri(double p);  // its inverse

// Modified Bessel functions of the first kind, and scaled by exp(-|x|).
double bessel_i0(double x);
double bessel_i0e(double x);
double bessel_i1(double x);
double bessel_i1e(double x);
// Of the second kind (x > 0), and scaled by exp(x).
double bessel_k0(double x);
double bessel_k0e(double x);
double bessel_k1(double x);
double bessel_k1e(double x);
// Bessel functions of the first and second kind.
double bessel_j0(double x);
double bessel_j1(double x);
double bessel_y0(double x);
double bessel_y1(double x);
double airy_ai(double x);

}  // namespace ember::kernels::special
