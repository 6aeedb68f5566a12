// The f32 binary microkernels written once over a vector width W (avx2::Vec,
// neon::Vec, wasm::Vec from simd/*_math.h): 16 floats per iteration, the
// tail through W's lane masks, the clamp fused into every store.
// Memory-bound, so there is no AVX-512 variant (the family table in
// kernels/optimized/README.md says why).
//
// Included only by those ISA files, after their simd header; everything here
// has internal linkage (an unnamed namespace), so each file's copy is
// compiled with its own flags. An ISA file instantiates VBinaryKernels<W> in
// its config: EMBER_F32_VBINARY_OPS(K::vv) for K = VBinaryKernels<W>.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "vbinary_body.h is for the SIMD variants (avx2, neon, wasmsimd) only"
#endif

#include <cstddef>

#include "kernels/optimized/f32-vbinary/f32_vbinary.h"

namespace ember::kernels::optimized {
namespace {

template <typename W>
struct VBinaryKernels {
  using V = typename W::V;
  using Mask = decltype(W::tail_mask(0));
  static constexpr size_t L = W::kLanes;
  static constexpr size_t kUnroll = 16 / L;

  template <F32BinaryOp Op>
  __attribute__((always_inline)) static V apply(V a, V b) {
    if constexpr (Op == F32BinaryOp::Add) return W::add(a, b);
    if constexpr (Op == F32BinaryOp::Sub) return W::sub(a, b);
    if constexpr (Op == F32BinaryOp::Mul) return W::mul(a, b);
    if constexpr (Op == F32BinaryOp::Div) return W::div(a, b);
    if constexpr (Op == F32BinaryOp::RSub) return W::sub(b, a);
    if constexpr (Op == F32BinaryOp::RDiv) return W::div(b, a);
    // a > b ? a : b and a < b ? a : b, b for equal zeros (NEON's FMAX would
    // order -0 below +0); NaN from either through a + b.
    if constexpr (Op == F32BinaryOp::Max) {
      return W::select(W::unordered(a, b), W::add(a, b), W::where_ge(b, a, b, a));
    }
    if constexpr (Op == F32BinaryOp::Min) {
      return W::select(W::unordered(a, b), W::add(a, b), W::where_ge(a, b, b, a));
    }
  }

  // b as a stream, or as one number in every lane.
  struct StreamB {
    const float* b;
    V operator()(size_t i) const { return W::loadu(b + i); }
    V masked(size_t i, Mask m) const { return W::load_tail(m, b + i); }
  };
  struct NumberB {
    V b;
    V operator()(size_t) const { return b; }
    V masked(size_t, Mask) const { return b; }
  };

  // v clamped to [lo, hi]. max(lo, v) and min(hi, v) keep a NaN v (x86's
  // operand order, which wasm::Vec keeps; NEON's FMAX/FMIN return NaN from
  // either).
  __attribute__((always_inline)) static V clamped(V v, V lo, V hi) {
    return W::min(hi, W::max(lo, v));
  }

  // y[i] = clamp(a[i] op b[i]) for i < n.
  template <F32BinaryOp Op, typename LoadB>
  __attribute__((always_inline)) static void run(size_t n, const float* a, LoadB load_b,
                                                 float* y, V lo, V hi) {
    auto clamp = [&](V v) __attribute__((always_inline)) { return clamped(v, lo, hi); };
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      V v[kUnroll];
      for (size_t u = 0; u < kUnroll; ++u) {
        v[u] = apply<Op>(W::loadu(a + i + u * L), load_b(i + u * L));
      }
      for (size_t u = 0; u < kUnroll; ++u) W::storeu(y + i + u * L, clamp(v[u]));
    }
    for (; i + L <= n; i += L) W::storeu(y + i, clamp(apply<Op>(W::loadu(a + i), load_b(i))));
    if (i < n) {
      const Mask m = W::tail_mask(n - i);
      W::store_tail(y + i, m, clamp(apply<Op>(W::load_tail(m, a + i), load_b.masked(i, m))));
    }
  }

  template <F32BinaryOp Op>
  static void vv(size_t n, const float* a, const float* b, float* y, const F32VBinaryParams* p) {
    run<Op>(n, a, StreamB{b}, y, W::splat(p->min), W::splat(p->max));
  }

  template <F32BinaryOp Op>
  static void vs(size_t n, const float* a, float b, float* y, const F32VBinaryParams* p) {
    run<Op>(n, a, NumberB{W::splat(b)}, y, W::splat(p->min), W::splat(p->max));
  }

  template <F32BinaryOp Op>
  static void rows(size_t rows, size_t c, const float* a, const float* b, float* y,
                   const F32VBinaryParams* p) {
    const V lo = W::splat(p->min);
    const V hi = W::splat(p->max);
    if (c == L) {
      // One vector per row: b stays in a register.
      const V bv = W::loadu(b);
      for (size_t r = 0; r < rows; ++r) {
        W::storeu(y + r * L, clamped(apply<Op>(W::loadu(a + r * L), bv), lo, hi));
      }
      return;
    }
    for (size_t r = 0; r < rows; ++r) run<Op>(c, a + r * c, StreamB{b}, y + r * c, lo, hi);
  }
};

}  // namespace
}  // namespace ember::kernels::optimized
