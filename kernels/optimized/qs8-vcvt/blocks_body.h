// The walk over n values of the conversions that compute a fixed block at a
// time without masked loads (avx2.cpp, neon.cpp, wasmsimd.cpp): whole blocks
// in place, the partial one through zero-padded stack buffers, so nothing is
// read or written past the arrays. block(x, y) converts kBlock values.
//
// Included only by those ISA files; everything here has internal linkage (an
// unnamed namespace), so each file's copy is compiled with its own flags.
#pragma once

#include <cstddef>
#include <cstring>

namespace ember::kernels::optimized {
namespace {

template <size_t kBlock, typename In, typename Out, typename Block>
__attribute__((always_inline)) inline void in_blocks(size_t n, const In* x, Out* y,
                                                     Block block) {
  size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) block(x + i, y + i);
  if (i == n) return;
  In in[kBlock] = {};
  Out out[kBlock];
  std::memcpy(in, x + i, (n - i) * sizeof(In));
  block(in, out);
  std::memcpy(y + i, out, (n - i) * sizeof(Out));
}

}  // namespace
}  // namespace ember::kernels::optimized
