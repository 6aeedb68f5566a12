// The line FFT (kernels/portable/util/fft.h) against a direct DFT in long
// double, for lengths that take every path: powers of two, mixed small radices,
// primes done directly, and primes and composites past the direct limit
// (Bluestein).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "kernels/portable/util/fft.h"

namespace ember::kernels {
namespace {

using fft::Complex;

std::vector<Complex> direct_dft(const std::vector<Complex>& x, bool inverse) {
  const int64_t n = static_cast<int64_t>(x.size());
  std::vector<Complex> out(x.size());
  const long double sign = inverse ? 1.0L : -1.0L;
  for (int64_t k = 0; k < n; ++k) {
    std::complex<long double> acc = 0;
    for (int64_t j = 0; j < n; ++j) {
      const long double angle = sign * 2.0L * static_cast<long double>(M_PI) *
                                static_cast<long double>((j * k) % n) / static_cast<long double>(n);
      acc += std::complex<long double>(x[j].real(), x[j].imag()) *
             std::complex<long double>(std::cos(angle), std::sin(angle));
    }
    out[k] = Complex(static_cast<double>(acc.real()), static_cast<double>(acc.imag()));
  }
  return out;
}

double max_error(const std::vector<Complex>& a, const std::vector<Complex>& b) {
  double scale = 1.0, error = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::abs(b[i]));
    error = std::max(error, std::abs(a[i] - b[i]));
  }
  return error / scale;
}

void check_length(int64_t n, bool inverse, int64_t stride) {
  std::mt19937 rng(static_cast<unsigned>(n * 7 + stride));
  std::normal_distribution<double> normal;
  std::vector<Complex> strided(static_cast<size_t>(n * stride));
  std::vector<Complex> x(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    x[j] = Complex(normal(rng), normal(rng));
    strided[j * stride] = x[j];
  }
  std::vector<Complex> scratch(fft::scratch_size(n) + 1);
  std::vector<Complex> out(static_cast<size_t>(n));
  fft::transform(strided.data(), stride, out.data(), n, inverse, scratch.data());
  EXPECT_LT(max_error(out, direct_dft(x, inverse)), 1e-12)
      << "length " << n << (inverse ? " inverse" : " forward") << " stride " << stride;
}

TEST(Fft, EveryLengthUpTo130) {
  for (int64_t n = 1; n <= 130; ++n) check_length(n, false, 1);
}

TEST(Fft, InverseAndStrided) {
  for (int64_t n : {2, 12, 61, 67, 100, 127}) {
    check_length(n, true, 1);
    check_length(n, false, 3);
  }
}

TEST(Fft, LongLinesEveryPath) {
  // 2^10; 2^2 3^2 5 7 (mixed radix); 1009 (prime, Bluestein); 2 * 521
  // (Bluestein for a composite with a large prime factor); 47 * 53.
  for (int64_t n : {1024, 1260, 1009, 1042, 2491}) check_length(n, n % 2 == 0, 1);
}

TEST(Fft, RoundTripIsIdentityTimesLength) {
  const int64_t n = 400;
  std::vector<Complex> x(n), y(n), z(n), scratch(fft::scratch_size(n));
  for (int64_t j = 0; j < n; ++j) x[j] = Complex(std::sin(0.3 * j), std::cos(0.7 * j));
  fft::transform(x.data(), 1, y.data(), n, false, scratch.data());
  fft::transform(y.data(), 1, z.data(), n, true, scratch.data());
  for (int64_t j = 0; j < n; ++j) EXPECT_NEAR(std::abs(z[j] / double(n) - x[j]), 0.0, 1e-13);
}

}  // namespace
}  // namespace ember::kernels
