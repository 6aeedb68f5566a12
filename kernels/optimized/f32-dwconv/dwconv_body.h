// The f32 depthwise convolution pixel by pixel, written once over a vector
// width W (avx2::Vec, avx512::Vec, neon::Vec, wasm::Vec from simd/*_math.h):
// channel tiles of two vectors (kTile = 2 W::kLanes) with the weights loaded
// per pixel, the last partial tile as one full vector and one masked. avx2.cpp,
// neon.cpp and wasmsimd.cpp run every window through it; avx512.cpp the windows
// other than 3x3 and 5x5.
//
// Included only by those ISA files, after their simd header; everything here
// has internal linkage (an unnamed namespace), so each file's copy is
// compiled with its own flags and no copy can stand in for another at link.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "dwconv_body.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-dwconv/f32_dwconv.h"

namespace ember::kernels::optimized {
namespace {

inline const float* translate(const float* p, size_t offset, const float* zero) {
  return p != zero ? reinterpret_cast<const float*>(reinterpret_cast<uintptr_t>(p) + offset)
                   : zero;
}

// max(low, v) then min(high, v): each returns v, the second operand, when v
// is NaN, which passes through as torch.clamp lets it.
template <typename W>
inline typename W::V clamp(typename W::V v, typename W::V low, typename W::V high) {
  return W::min(high, W::max(low, v));
}

// One pixel's channels. `in(t)` gives tap t's input pointer (translated).
template <typename W, size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const float* w, float* out,
                                                 typename W::V low, typename W::V high) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes, kTile = 2 * L;
  const size_t stride = (nt + 1) * kTile;  // floats per packed channel tile
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += stride) {
    V acc0 = W::loadu(w);
    V acc1 = W::loadu(w + L);
    // Two chains per vector (even and odd taps) halve the dependent FMA
    // latency a pixel waits on when there are few channel tiles.
    V acc2 = W::zero();
    V acc3 = W::zero();
    size_t t = 0;
#pragma GCC unroll 25
    for (; t + 2 <= nt; t += 2) {
      const float* i0 = in(t) + c;
      const float* i1 = in(t + 1) + c;
      const float* w0 = w + kTile + t * kTile;
      acc0 = W::fmadd(W::loadu(i0), W::loadu(w0), acc0);
      acc1 = W::fmadd(W::loadu(i0 + L), W::loadu(w0 + L), acc1);
      acc2 = W::fmadd(W::loadu(i1), W::loadu(w0 + kTile), acc2);
      acc3 = W::fmadd(W::loadu(i1 + L), W::loadu(w0 + kTile + L), acc3);
    }
    if (t < nt) {
      const float* i0 = in(t) + c;
      const float* w0 = w + kTile + t * kTile;
      acc0 = W::fmadd(W::loadu(i0), W::loadu(w0), acc0);
      acc1 = W::fmadd(W::loadu(i0 + L), W::loadu(w0 + L), acc1);
    }
    W::storeu(out + c, clamp<W>(W::add(acc0, acc2), low, high));
    W::storeu(out + c + L, clamp<W>(W::add(acc1, acc3), low, high));
  }
  if (c == channels) return;
  // The last, partial tile: a one-vector half with lanes [0, L) of the
  // packed tile, then up to L - 1 channels masked (the input is not read
  // past `channels`; the packed weights are padded).
  size_t lane = 0;
  if (channels - c >= L) {
    V acc = W::loadu(w);
#pragma GCC unroll 25
    for (size_t t = 0; t < nt; ++t) {
      acc = W::fmadd(W::loadu(in(t) + c), W::loadu(w + kTile + t * kTile), acc);
    }
    W::storeu(out + c, clamp<W>(acc, low, high));
    c += L;
    lane = L;
  }
  const size_t rem = channels - c;
  if (rem == 0) return;
  const typename W::Mask mask = W::tail_mask(rem);
  V acc = W::loadu(w + lane);
#pragma GCC unroll 25
  for (size_t t = 0; t < nt; ++t) {
    acc = W::fmadd(W::load_tail(mask, in(t) + c), W::loadu(w + kTile + t * kTile + lane), acc);
  }
  W::store_tail(out + c, mask, clamp<W>(acc, low, high));
}

// T: the tap count, or 0 when it is known at run time only.
template <typename W, size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const float* const* input,
            size_t input_stride, size_t input_offset, const float* zero, const float* weights,
            float* output, size_t output_stride, const F32DwconvParams* params) {
  const typename W::V low = W::splat(params->min);
  const typename W::V high = W::splat(params->max);
  for (size_t x = 0; x < pixels; ++x, input += input_stride, output += output_stride) {
    if constexpr (T != 0) {
      // The pixel's T pointers, translated once for all its channel tiles.
      const float* in[T];
#pragma GCC unroll 25
      for (size_t t = 0; t < T; ++t) in[t] = translate(input[t], input_offset, zero);
      pixel<W, T>(T, channels, [&](size_t t) { return in[t]; }, weights, output, low, high);
    } else {
      pixel<W, 0>(taps, channels,
                  [&](size_t t) { return translate(input[t], input_offset, zero); }, weights,
                  output, low, high);
    }
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
