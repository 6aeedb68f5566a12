// The layer-norm and RMS-norm row kernels written once over a vector width W
// (avx2::Vec, avx512::Vec, neon::Vec, wasm::Vec from simd/*_math.h): each ISA
// file (avx2.cpp, avx512.cpp, neon.cpp, wasmsimd.cpp) instantiates them at its
// width. Sums keep four vector accumulators (4 x kLanes partial sums), which
// hides the add latency and keeps the rounding error of a 4096-wide row at
// about that of 4096 / (4 kLanes) additions.
//
// Included only by those ISA files, after their simd header, and everything
// here has internal linkage (an unnamed namespace): each file's copy is
// compiled with its own flags and no copy can stand in for another at link.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "layernorm_body.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include <cmath>
#include <cstddef>

#include "kernels/optimized/simd/vec_loops.h"

namespace ember::kernels::optimized {
namespace {

// The sums of d = x - mean and of d^2 over the row, two accumulators each.
template <typename W>
inline float reduce_sum2(size_t n, const float* x, typename W::V mean, float* d_sum) {
  using V = typename W::V;
  V s0 = W::zero(), s1 = s0, q0 = s0, q1 = s0;
  size_t i = W::for_each_block4(n, x, [&](V v0, V v1, V v2, V v3) {
    const V d0 = W::sub(v0, mean), d1 = W::sub(v1, mean);
    const V d2 = W::sub(v2, mean), d3 = W::sub(v3, mean);
    s0 = W::add(s0, W::add(d0, d2));
    s1 = W::add(s1, W::add(d1, d3));
    q0 = W::fmadd(d2, d2, W::fmadd(d0, d0, q0));
    q1 = W::fmadd(d3, d3, W::fmadd(d1, d1, q1));
  });
  for (; i + W::kLanes <= n; i += W::kLanes) {
    const V d = W::sub(W::loadu(x + i), mean);
    s0 = W::add(s0, d);
    q0 = W::fmadd(d, d, q0);
  }
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    const V d = W::keep(mask, W::sub(W::load_tail(mask, x + i), mean));
    s1 = W::add(s1, d);
    q1 = W::fmadd(d, d, q1);
  }
  *d_sum = W::hsum(W::add(s0, s1));
  return W::hsum(W::add(q0, q1));
}

// y = g(x, w, b) over the row, with w and b streamed when present.
template <typename W, bool kW, bool kB, typename G>
inline void write_row(size_t n, const float* x, const float* w, const float* b, float* y, G g) {
  using V = typename W::V;
  const V one = W::splat(1.0f), zero = W::zero();
  auto masked = [&](size_t i, typename W::Mask mask) {
    const V wv = kW ? W::load_tail(mask, w + i) : one;
    const V bv = kB ? W::load_tail(mask, b + i) : zero;
    W::store_tail(y + i, mask, g(W::load_tail(mask, x + i), wv, bv));
  };
  size_t i = 0;
  const size_t head = W::head(y);
  if (head != 0 && head < n) {
    masked(0, W::tail_mask(head));
    i = head;
  }
  for (; i + W::kLanes <= n; i += W::kLanes) {
    W::storeu(y + i, g(W::loadu(x + i), kW ? W::loadu(w + i) : one, kB ? W::loadu(b + i) : zero));
  }
  if (i < n) masked(i, W::tail_mask(n - i));
}

template <typename W, bool kW, bool kB>
void normalize(size_t n, const float* x, const float* w, const float* b, typename W::V mean,
               typename W::V rstd, float* y) {
  using V = typename W::V;
  write_row<W, kW, kB>(n, x, w, b, y, [&](V v, V wv, V bv) {
    const V d = W::mul(W::sub(v, mean), rstd);
    return kW ? W::fmadd(d, wv, bv) : W::add(d, bv);
  });
}

template <typename W>
void layernorm(size_t n, const float* x, const float* w, const float* b, float eps, float* y) {
  using V = typename W::V;
  const float inv_n = 1.0f / static_cast<float>(n);
  const float mean0 = reduce_sum<W>(n, x, [](V v, V acc) { return W::add(acc, v); }) * inv_n;
  // The second pass sums the deviations too: their mean is the rounding
  // error of the first pass's mean, which corrects it and the variance (the
  // corrected two-pass algorithm; Chan, Golub and LeVeque 1983).
  float d_sum = 0.0f;
  const float d2_sum = reduce_sum2<W>(n, x, W::splat(mean0), &d_sum);
  const float mean = mean0 + d_sum * inv_n;
  const float var = (d2_sum - d_sum * d_sum * inv_n) * inv_n;
  const V vmean = W::splat(mean);
  const V rstd = W::splat(1.0f / std::sqrt((var > 0.0f ? var : 0.0f) + eps));
  if (w != nullptr && b != nullptr) {
    normalize<W, true, true>(n, x, w, b, vmean, rstd, y);
  } else if (w != nullptr) {
    normalize<W, true, false>(n, x, w, b, vmean, rstd, y);
  } else if (b != nullptr) {
    normalize<W, false, true>(n, x, w, b, vmean, rstd, y);
  } else {
    normalize<W, false, false>(n, x, w, b, vmean, rstd, y);
  }
}

template <typename W>
void rmsnorm(size_t n, const float* x, const float* w, float eps, float* y) {
  using V = typename W::V;
  const float ms = reduce_sum<W>(n, x, [](V v, V acc) { return W::fmadd(v, v, acc); }) /
                   static_cast<float>(n);
  const V rstd = W::splat(1.0f / std::sqrt(ms + eps));
  auto g = [&](V v, V wv, V) { return W::mul(W::mul(v, rstd), wv); };
  if (w != nullptr) {
    write_row<W, true, false>(n, x, w, nullptr, y, g);
  } else {
    write_row<W, false, false>(n, x, w, nullptr, y, g);
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
