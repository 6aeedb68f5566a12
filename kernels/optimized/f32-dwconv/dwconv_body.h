// The f32 depthwise convolution pixel by pixel, written once over a vector
// width W (avx2::Vec, avx512::Vec, neon::Vec, wasm::Vec from simd/*_math.h):
// channel tiles of NV vectors (kTile = NV W::kLanes) with the weights loaded
// per pixel, the last partial tile as full vectors and one masked. avx2.cpp,
// neon.cpp and wasmsimd.cpp run every window through it; avx512.cpp the windows
// other than 3x3 and 5x5.
//
// Two schedules of a tile's window. Compiled to machine code (UnrollTaps):
// two vectors, the window unrolled, taps in pairs on two chains per vector.
// For WebAssembly, taps in a loop, four vectors a step: V8 hoists every load
// of an unrolled window to its top (36 for a 3x3 tile) and spills most of
// them to the stack, 1.4-1.9x slower on MobileNetV2's layers
// (ember_vecmath_bench --only dwconv under Node); the wider step pays the
// tap's pointer for more channels.
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

// NV vectors of channels from c, the taps in a loop: weights from w (the
// bias, then tap t at w + (t + 1) tile), `tile` floats per tap in the pack.
template <typename W, size_t NV, typename In>
__attribute__((always_inline)) inline void vectors_tap_loop(size_t nt, size_t c, In in,
                                                            const float* w, size_t tile,
                                                            float* out, typename W::V low,
                                                            typename W::V high) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes;
  V acc[NV];
  for (size_t v = 0; v < NV; ++v) acc[v] = W::loadu(w + v * L);
#pragma GCC unroll 1
  for (size_t t = 0; t < nt; ++t) {
    const float* i0 = in(t) + c;
    const float* w0 = w + (t + 1) * tile;
    for (size_t v = 0; v < NV; ++v) {
      acc[v] = W::fmadd(W::loadu(i0 + v * L), W::loadu(w0 + v * L), acc[v]);
    }
  }
  for (size_t v = 0; v < NV; ++v) W::storeu(out + c + v * L, clamp<W>(acc[v], low, high));
}

// Two vectors of channels from c, the window unrolled: taps in pairs, on
// two chains per vector (even and odd taps), which halves the dependent FMA
// latency a pixel waits on when there are few channel tiles.
template <typename W, typename In>
__attribute__((always_inline)) inline void two_vectors_tap_pairs(size_t nt, size_t c, In in,
                                                                 const float* w, float* out,
                                                                 typename W::V low,
                                                                 typename W::V high) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes, kTile = 2 * L;
  V acc0 = W::loadu(w);
  V acc1 = W::loadu(w + L);
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

// One pixel's channels. `in(t)` gives tap t's input pointer (translated).
template <typename W, size_t T, size_t NV, bool UnrollTaps, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const float* w, float* out,
                                                 typename W::V low, typename W::V high) {
  static_assert(!UnrollTaps || NV == 2, "the unrolled window is written for two vectors");
  using V = typename W::V;
  constexpr size_t L = W::kLanes, kTile = NV * L;
  const size_t stride = (nt + 1) * kTile;  // floats per packed channel tile
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += stride) {
    if constexpr (UnrollTaps) {
      two_vectors_tap_pairs<W>(nt, c, in, w, out, low, high);
    } else {
      vectors_tap_loop<W, NV>(nt, c, in, w, kTile, out, low, high);
    }
  }
  if (c == channels) return;
  // The last, partial tile: full vectors with lanes [lane, lane + L) of the
  // packed tile, then up to L - 1 channels masked (the input is not read
  // past `channels`; the packed weights are padded).
  size_t lane = 0;
  for (; channels - c >= L; c += L, lane += L) {
    if constexpr (UnrollTaps) {
      V acc = W::loadu(w + lane);
#pragma GCC unroll 25
      for (size_t t = 0; t < nt; ++t) {
        acc = W::fmadd(W::loadu(in(t) + c), W::loadu(w + kTile + t * kTile + lane), acc);
      }
      W::storeu(out + c, clamp<W>(acc, low, high));
    } else {
      vectors_tap_loop<W, 1>(nt, c, in, w + lane, kTile, out, low, high);
    }
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

// T: the tap count, or 0 when it is known at run time only; NV and
// UnrollTaps: the schedule (top of the file), NV W::kLanes the config's
// channel_tile.
template <typename W, size_t T, size_t NV = 2, bool UnrollTaps = true>
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
      pixel<W, T, NV, UnrollTaps>(
          T, channels, [&](size_t t) { return in[t]; }, weights, output, low, high);
    } else {
      pixel<W, 0, NV, UnrollTaps>(
          taps, channels, [&](size_t t) { return translate(input[t], input_offset, zero); },
          weights, output, low, high);
    }
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
