// The f32 reduction microkernels written once over a vector width W (avx2::Vec,
// avx512::Vec, neon::Vec, wasm::Vec from simd/*_math.h): each ISA file
// (avx2.cpp, avx512.cpp, neon.cpp, wasmsimd.cpp) instantiates them at its
// width. Row reductions keep four vector accumulators (add and max have 3- or
// 4-cycle latencies and two ports); tails go through masked loads and stores.
//
// Included only by those ISA files, after their simd header; everything here
// has internal linkage (an unnamed namespace), so each file's copy is
// compiled with its own flags and no copy can stand in for another at link.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "reduce_body.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include <cmath>
#include <cstddef>

#include "kernels/optimized/f32-reduce/f32_reduce.h"
#include "kernels/optimized/simd/vec_loops.h"

namespace ember::kernels::optimized {
namespace {

template <typename W>
float rsum(size_t n, const float* x) {
  return reduce_sum<W>(n, x, [](typename W::V v, typename W::V acc) { return W::add(acc, v); });
}

template <typename W>
float rmax(size_t n, const float* x) {
  // vmaxps drops a NaN in its first operand, so NaNs are tracked apart and
  // win at the end (softmax's rmax, which does not track them, need not).
  using V = typename W::V;
  using Mask = typename W::Mask;
  V m0 = W::splat(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
  Mask nan = W::no_lanes();
  size_t i = W::for_each_block4(n, x, [&](V v0, V v1, V v2, V v3) {
    m0 = W::max(m0, v0);
    m1 = W::max(m1, v1);
    m2 = W::max(m2, v2);
    m3 = W::max(m3, v3);
    nan = W::either(nan, W::either(W::unordered(v0, v1), W::unordered(v2, v3)));
  });
  for (; i + W::kLanes <= n; i += W::kLanes) {
    const V v = W::loadu(x + i);
    m0 = W::max(m0, v);
    nan = W::either(nan, W::unordered(v, v));
  }
  if (i < n) {
    // Masked-off lanes load as -inf.
    const V v = W::load_tail_or(W::splat(-INFINITY), W::tail_mask(n - i), x + i);
    m1 = W::max(m1, v);
    nan = W::either(nan, W::unordered(v, v));
  }
  if (W::any(nan)) return NAN;
  return W::hmax(W::max(W::max(m0, m1), W::max(m2, m3)));
}

// acc = f(x, acc) over n, two vectors per iteration, the tail masked.
template <typename W, typename F>
inline void accumulate(size_t n, const float* x, float* acc, F f) {
  constexpr size_t L = W::kLanes;
  size_t i = 0;
  for (; i + 2 * L <= n; i += 2 * L) {
    const typename W::V r0 = f(W::loadu(x + i), W::loadu(acc + i));
    const typename W::V r1 = f(W::loadu(x + i + L), W::loadu(acc + i + L));
    W::storeu(acc + i, r0);
    W::storeu(acc + i + L, r1);
  }
  for (; i + L <= n; i += L) W::storeu(acc + i, f(W::loadu(x + i), W::loadu(acc + i)));
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    W::store_tail(acc + i, mask, f(W::load_tail(mask, x + i), W::load_tail(mask, acc + i)));
  }
}

template <typename W>
typename W::V add(typename W::V v, typename W::V a) {
  return W::add(a, v);
}

// max(v, a) keeps a NaN accumulator (its second operand); a NaN v is
// selected in.
template <typename W>
typename W::V max_keeping_nan(typename W::V v, typename W::V a) {
  return W::select(W::unordered(v, v), v, W::max(v, a));
}

template <typename W>
void vadd_acc(size_t n, const float* x, float* acc) {
  accumulate<W>(n, x, acc, add<W>);
}

template <typename W>
void vmax_acc(size_t n, const float* x, float* acc) {
  accumulate<W>(n, x, acc, max_keeping_nan<W>);
}

// Columns in chunks of four vectors (two sets of accumulators for alternate
// rows, so that two operations are in flight per register, the second set
// starting from f's identity), the chunk's last vector masked.
template <typename W, typename F>
inline void column_accumulate(size_t rows, size_t n, const float* x, size_t stride, float* acc,
                              float identity, F f) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes, kChunk = 4 * L;
  for (size_t j = 0; j < n; j += kChunk) {
    const size_t w = n - j < kChunk ? n - j : kChunk;
    const size_t vecs = (w + L - 1) / L;
    const typename W::Mask last = W::tail_mask(w - (vecs - 1) * L);
    auto load = [&](size_t v, const float* p) {
      return v + 1 < vecs ? W::loadu(p) : W::load_tail(last, p);
    };
    V a[4], b[4];
#pragma GCC unroll 4
    for (size_t v = 0; v < 4; ++v) {
      if (v >= vecs) break;
      a[v] = load(v, acc + j + L * v);
      b[v] = W::splat(identity);
    }
    const float* xr = x + j;
    size_t r = 0;
    if (w == kChunk) {
      for (; r + 2 <= rows; r += 2, xr += 2 * stride) {
#pragma GCC unroll 4
        for (size_t v = 0; v < 4; ++v) {
          a[v] = f(W::loadu(xr + L * v), a[v]);
          b[v] = f(W::loadu(xr + stride + L * v), b[v]);
        }
      }
    }
    for (; r < rows; ++r, xr += stride) {
#pragma GCC unroll 4
      for (size_t v = 0; v < 4; ++v) {
        if (v >= vecs) break;
        a[v] = f(load(v, xr + L * v), a[v]);
      }
    }
#pragma GCC unroll 4
    for (size_t v = 0; v < 4; ++v) {
      if (v >= vecs) break;
      const V sum = f(b[v], a[v]);
      if (v + 1 < vecs) {
        W::storeu(acc + j + L * v, sum);
      } else {
        W::store_tail(acc + j + L * v, last, sum);
      }
    }
  }
}

template <typename W>
void cadd_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate<W>(rows, n, x, stride, acc, 0.0f, add<W>);
}

template <typename W>
void cmax_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate<W>(rows, n, x, stride, acc, -INFINITY, max_keeping_nan<W>);
}

}  // namespace
}  // namespace ember::kernels::optimized
