// The walk over output pixels that every int8 depthwise variant runs
// (scalar.cpp, avx2_tiles.h, avx512_tiles.h, neon.cpp, wasmsimd.cpp): per
// pixel, its taps' input pointers made absolute (the indirection buffer's
// pointers are relative to input_offset; `zero`, a padding tap, is not) and
// handed to pixel(taps, in, output), which reads tap t's channels at in(t).
// With T != 0 the T pointers are translated once for all the pixel's
// channel tiles; T == 0 (a tap count known at run time only) translates as
// it reads.
//
// Everything here has internal linkage (an unnamed namespace), so each
// variant file's copy is compiled with its own flags.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::kernels::optimized {
namespace {

inline const int8_t* translate(const int8_t* p, size_t offset, const int8_t* zero) {
  return p != zero ? reinterpret_cast<const int8_t*>(reinterpret_cast<uintptr_t>(p) + offset)
                   : zero;
}

template <size_t T, typename Pixel>
__attribute__((always_inline)) inline void walk_pixels(size_t taps, size_t pixels,
                                                       const int8_t* const* input,
                                                       size_t input_stride, size_t input_offset,
                                                       const int8_t* zero, int8_t* output,
                                                       size_t output_stride, Pixel pixel) {
  for (size_t x = 0; x < pixels; ++x, input += input_stride, output += output_stride) {
    if constexpr (T != 0) {
      const int8_t* in[T];
#pragma GCC unroll 25
      for (size_t t = 0; t < T; ++t) in[t] = translate(input[t], input_offset, zero);
      pixel(T, [&](size_t t) { return in[t]; }, output);
    } else {
      pixel(taps, [&](size_t t) { return translate(input[t], input_offset, zero); }, output);
    }
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
