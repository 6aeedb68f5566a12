// The discrete Fourier transform of one line of any length, in double
// precision: mixed-radix Cooley-Tukey over the length's factors (radix 4 and 2,
// then each odd prime as a direct DFT), and Bluestein's chirp-z transform when
// a prime factor is too large for a direct DFT. No allocation: the caller
// passes scratch of scratch_size(n) elements (from KernelContext::allocate_temp).
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>

namespace ember::kernels::fft {

using Complex = std::complex<double>;

// Complex elements of scratch that transform() needs for a line of length n.
size_t scratch_size(int64_t n);

// out[k] = sum_j in[j * in_stride] * exp(-+2 pi i j k / n) (minus sign forward,
// plus inverse), unnormalized. `out` holds n elements and must not overlap `in`.
void transform(const Complex* in, int64_t in_stride, Complex* out, int64_t n, bool inverse,
               Complex* scratch);

}  // namespace ember::kernels::fft
