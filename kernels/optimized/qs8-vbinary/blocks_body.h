// The walk over n values of the variants that compute 16 at a time without
// masked loads (avx2.cpp, neon.cpp, wasmsimd.cpp): whole blocks in place, the
// partial one through zero-padded stack buffers, a repeated b as one block.
// Block(params) holds what a call prepares once; block(a, b, y) computes 16
// outputs from 16 bytes of a and of b.
//
// Included only by those ISA files; everything here has internal linkage (an
// unnamed namespace), so each file's copy is compiled with its own flags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kBlock = 16;

// b_step: kBlock when b advances with a, 0 when it is one repeated block.
template <typename Block>
void run_blocks(size_t n, const int8_t* a, const int8_t* b, size_t b_step, int8_t* y,
                const Qs8BinaryParams* p) {
  const Block block(p);
  size_t i = 0;
  for (; i + kBlock <= n; i += kBlock, b += b_step) block(a + i, b, y + i);
  if (i == n) return;
  int8_t ta[kBlock] = {}, tb[kBlock] = {}, ty[kBlock];
  std::memcpy(ta, a + i, n - i);
  std::memcpy(tb, b, b_step != 0 ? n - i : kBlock);
  block(ta, tb, ty);
  std::memcpy(y + i, ty, n - i);
}

template <typename Block>
void vv_blocks(size_t n, const int8_t* a, const int8_t* b, int8_t* y, const Qs8BinaryParams* p) {
  run_blocks<Block>(n, a, b, kBlock, y, p);
}

template <typename Block>
void vs_blocks(size_t n, const int8_t* a, int8_t b, int8_t* y, const Qs8BinaryParams* p) {
  int8_t repeated[kBlock];
  std::memset(repeated, b, kBlock);
  run_blocks<Block>(n, a, repeated, 0, y, p);
}

}  // namespace
}  // namespace ember::kernels::optimized
