// Loops written once over a vector width W (avx2::Vec, avx512::Vec, neon::Vec,
// wasm::Vec from simd/*_math.h) that several kernel bodies share
// (f32-layernorm's, f32-reduce's). Included after the simd header by files
// compiled with its ISA flags; internal linkage (an unnamed namespace) as for
// the bodies.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "vec_loops.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include <cstddef>

namespace ember::kernels::optimized {
namespace {

// sum over i < n of f(x[i]) with f(v, acc) a vector function; masked-off
// lanes of the tail load as 0 and are zeroed again after f.
template <typename W, typename F>
inline float reduce_sum(size_t n, const float* x, F f) {
  using V = typename W::V;
  V a0 = W::zero(), a1 = a0, a2 = a0, a3 = a0;
  size_t i = W::for_each_block4(n, x, [&](V v0, V v1, V v2, V v3) {
    a0 = f(v0, a0);
    a1 = f(v1, a1);
    a2 = f(v2, a2);
    a3 = f(v3, a3);
  });
  for (; i + W::kLanes <= n; i += W::kLanes) a0 = f(W::loadu(x + i), a0);
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    a1 = W::add(a1, W::keep(mask, f(W::load_tail(mask, x + i), W::zero())));
  }
  return W::hsum(W::add(W::add(a0, a1), W::add(a2, a3)));
}

}  // namespace
}  // namespace ember::kernels::optimized
