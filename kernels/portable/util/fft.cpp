#include "kernels/portable/util/fft.h"

#include <cmath>

namespace ember::kernels::fft {
namespace {

// Prime factors up to this are transformed directly (p^2 work per group of p
// outputs); a larger one sends the whole line through Bluestein.
constexpr int64_t kMaxDirectRadix = 61;
// A length has at most 63 factors (2^63 > any int64 length).
constexpr int kMaxFactors = 64;

struct Factors {
  int64_t radix[kMaxFactors];  // radix[i] * stride_after[i] = the length at level i
  int64_t rest[kMaxFactors];   // the length left after level i
  int count = 0;
  bool direct = true;  // false when some prime factor exceeds kMaxDirectRadix
};

// Radix 4 first (fewest levels), then 2, then odd primes in increasing order.
Factors factorize(int64_t n) {
  Factors f;
  int64_t left = n;
  int64_t p = 4;
  while (left > 1) {
    while (left % p != 0) {
      p = p == 4 ? 2 : p == 2 ? 3 : p + 2;
      if (p * p > left) p = left;  // what is left is prime
    }
    if (p > kMaxDirectRadix) f.direct = false;
    left /= p;
    f.radix[f.count] = p;
    f.rest[f.count] = left;
    ++f.count;
  }
  return f;
}

// exp(sign * 2 pi i k / n) for k < n, computed per element so that every
// twiddle is as exact as cos/sin make it (no recurrence drift).
void fill_twiddles(Complex* twiddles, int64_t n, double sign) {
  const double step = sign * 2.0 * M_PI / static_cast<double>(n);
  for (int64_t k = 0; k < n; ++k) {
    const double angle = step * static_cast<double>(k);
    twiddles[k] = Complex(std::cos(angle), std::sin(angle));
  }
}

// Combines `radix` transforms of length m (at out + q*m) into one of length
// radix*m, where exp(sign 2 pi i / (radix m)) is twiddles[stride] (twiddles
// span the full length n = stride * radix * m).
void butterfly(Complex* out, int64_t stride, int64_t radix, int64_t m, const Complex* twiddles,
               int64_t n) {
  if (radix == 2) {
    for (int64_t u = 0; u < m; ++u) {
      const Complex t = out[u + m] * twiddles[u * stride];
      out[u + m] = out[u] - t;
      out[u] += t;
    }
    return;
  }
  Complex group[kMaxDirectRadix];
  for (int64_t u = 0; u < m; ++u) {
    for (int64_t q = 0; q < radix; ++q) group[q] = out[u + q * m];
    for (int64_t q1 = 0; q1 < radix; ++q1) {
      const int64_t k = u + q1 * m;
      // Twiddle index stride * q * k mod n, stepped without overflow.
      const int64_t step = (stride * k) % n;
      int64_t index = 0;
      Complex acc = group[0];
      for (int64_t q = 1; q < radix; ++q) {
        index += step;
        if (index >= n) index -= n;
        acc += group[q] * twiddles[index];
      }
      out[k] = acc;
    }
  }
}

// Decimation in time: the radix[level] interleaved sub-sequences of `in`
// (element stride in_stride * stride) are transformed into consecutive blocks
// of out, then combined.
void mixed_radix(Complex* out, const Complex* in, int64_t in_stride, int64_t stride,
                 const Factors& f, int level, const Complex* twiddles, int64_t n) {
  const int64_t radix = f.radix[level];
  const int64_t m = f.rest[level];
  if (m == 1) {
    for (int64_t q = 0; q < radix; ++q) out[q] = in[q * stride * in_stride];
  } else {
    for (int64_t q = 0; q < radix; ++q) {
      mixed_radix(out + q * m, in + q * stride * in_stride, in_stride, stride * radix, f,
                  level + 1, twiddles, n);
    }
  }
  butterfly(out, stride, radix, m, twiddles, n);
}

int64_t bluestein_length(int64_t n) {
  int64_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  return m;
}

// Bluestein: with jk = (j^2 + k^2 - (k - j)^2) / 2, the DFT is a convolution
// of x_j c_j with conj(c) (c_j = exp(sign pi i j^2 / n)), done by FFTs of a
// power-of-two length m >= 2n - 1.
void bluestein(const Complex* in, int64_t in_stride, Complex* out, int64_t n, double sign,
               Complex* scratch) {
  const int64_t m = bluestein_length(n);
  Complex* chirp = scratch;    // n
  Complex* a = chirp + n;      // m
  Complex* b = a + m;          // m
  Complex* work = b + m;       // m
  Complex* twiddles = work + m;  // m
  for (int64_t j = 0; j < n; ++j) {
    // j^2 mod 2n keeps the angle small, so it stays exact for long lines.
    const int64_t j2 = static_cast<int64_t>((static_cast<unsigned __int128>(j) * j) %
                                            static_cast<unsigned __int128>(2 * n));
    const double angle = sign * M_PI * static_cast<double>(j2) / static_cast<double>(n);
    chirp[j] = Complex(std::cos(angle), std::sin(angle));
  }
  for (int64_t j = 0; j < m; ++j) {
    a[j] = j < n ? in[j * in_stride] * chirp[j] : Complex(0.0, 0.0);
    b[j] = Complex(0.0, 0.0);
  }
  b[0] = std::conj(chirp[0]);
  for (int64_t j = 1; j < n; ++j) b[j] = b[m - j] = std::conj(chirp[j]);

  const Factors f = factorize(m);
  fill_twiddles(twiddles, m, -1.0);
  mixed_radix(work, a, 1, 1, f, 0, twiddles, m);  // work = FFT(a)
  mixed_radix(a, b, 1, 1, f, 0, twiddles, m);     // a = FFT(b)
  for (int64_t j = 0; j < m; ++j) b[j] = work[j] * a[j];
  fill_twiddles(twiddles, m, 1.0);
  mixed_radix(work, b, 1, 1, f, 0, twiddles, m);  // work = m * (x c) * conj(c)
  const double scale = 1.0 / static_cast<double>(m);
  for (int64_t k = 0; k < n; ++k) out[k] = work[k] * chirp[k] * scale;
}

}  // namespace

size_t scratch_size(int64_t n) {
  if (n <= 1) return 0;
  if (factorize(n).direct) return static_cast<size_t>(n);
  const int64_t m = bluestein_length(n);
  return static_cast<size_t>(n + 4 * m);
}

void transform(const Complex* in, int64_t in_stride, Complex* out, int64_t n, bool inverse,
               Complex* scratch) {
  if (n <= 0) return;
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  const double sign = inverse ? 1.0 : -1.0;
  const Factors f = factorize(n);
  if (!f.direct) {
    bluestein(in, in_stride, out, n, sign, scratch);
    return;
  }
  fill_twiddles(scratch, n, sign);
  mixed_radix(out, in, in_stride, 1, f, 0, scratch, n);
}

}  // namespace ember::kernels::fft
