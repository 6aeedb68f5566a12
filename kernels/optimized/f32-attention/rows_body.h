// The row operations of the f32 attention family (f32_attention.h) written once
// over a vector width W (avx2::Vec, avx512::Vec, neon::Vec, wasm::Vec from
// simd/*_math.h): avx2.cpp, avx512.cpp, neon.cpp and wasmsimd.cpp instantiate
// them, with a K^T pack through B x B transposes in registers (pack_kt below;
// avx512.cpp has its own, for its 16 x 16 transpose). Tails go through masked
// loads and stores, never touching memory past the end.
//
// Included only by those ISA files, after their simd header; everything here
// has internal linkage (an unnamed namespace), so each file's copy is
// compiled with its own flags and no copy can stand in for another at link.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "rows_body.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include <cstddef>

namespace ember::kernels::optimized {
namespace {

template <typename W>
float row_max(const float* x, size_t n) {
  // Started at x[0] (not -inf, as softmax's rmax is), each step max(v, acc):
  // vmaxps returns its second operand when either is NaN, so a NaN past x[0]
  // is passed over as the scalar variant's `x > m ? x : m` passes it over.
  // The tail's masked-off lanes load as x[0].
  using V = typename W::V;
  const V first = W::splat(x[0]);
  V a0 = first, a1 = first, a2 = first, a3 = first;
  size_t i = W::for_each_block4(n, x, [&](V v0, V v1, V v2, V v3) {
    a0 = W::max(v0, a0);
    a1 = W::max(v1, a1);
    a2 = W::max(v2, a2);
    a3 = W::max(v3, a3);
  });
  for (; i + W::kLanes <= n; i += W::kLanes) a0 = W::max(W::loadu(x + i), a0);
  if (i < n) a1 = W::max(W::load_tail_or(first, W::tail_mask(n - i), x + i), a1);
  return W::hmax(W::max(W::max(a0, a1), W::max(a2, a3)));
}

// exp(x) for x <= 0, as the scalar variant computes it (XNNPACK's rr2_p5:
// Cody-Waite reduction with two constants, degree-5 polynomial, 2^n built in
// the exponent bits); 0 below -87.34, where exp is a denormal or 0. Not
// simd/vec_math.h's exp_nonpositive, f32-vunary's degree-6 exp with other constants and
// another flush threshold: the attention variants agree on this one.
template <typename W>
typename W::V exp_rr2_p5(typename W::V x) {
  using V = typename W::V;
  const V magic = W::splat(0x1.8000FEp23f);
  V n = W::fmadd(x, W::splat(0x1.715476p+0f), magic);
  const V scale = W::pow2_from_biased(n);
  n = W::sub(n, magic);
  V t = W::fmadd(n, W::splat(-0x1.62E43p-1f), x);
  t = W::fmadd(n, W::splat(0x1.05C61p-29f), t);
  V p = W::fmadd(W::splat(0x1.0F9F9Cp-7f), t, W::splat(0x1.573A1Ap-5f));
  p = W::fmadd(p, t, W::splat(0x1.555A80p-3f));
  p = W::fmadd(p, t, W::splat(0x1.FFFDC6p-2f));
  p = W::fmadd(p, t, W::splat(0x1.FFFFF6p-1f));
  t = W::mul(t, scale);
  return W::zero_below(x, W::splat(-0x1.5D589Ep6f), W::fmadd(t, p, scale));
}

template <typename W>
float exp_row(float* x, size_t n, float max) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes;
  const V vmax = W::splat(max);
  V s0 = W::zero(), s1 = W::zero();
  size_t i = 0;
  // Two vectors per step: each exp is a chain of ~10 dependent operations.
  for (; i + 2 * L <= n; i += 2 * L) {
    const V e0 = exp_rr2_p5<W>(W::sub(W::loadu(x + i), vmax));
    const V e1 = exp_rr2_p5<W>(W::sub(W::loadu(x + i + L), vmax));
    W::storeu(x + i, e0);
    W::storeu(x + i + L, e1);
    s0 = W::add(s0, e0);
    s1 = W::add(s1, e1);
  }
  if (i + L <= n) {
    const V e = exp_rr2_p5<W>(W::sub(W::loadu(x + i), vmax));
    W::storeu(x + i, e);
    s0 = W::add(s0, e);
    i += L;
  }
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    // Zeroed past the tail, where exp(0 - max) would add to the sum.
    const V e = W::keep(mask, exp_rr2_p5<W>(W::sub(W::load_tail(mask, x + i), vmax)));
    W::store_tail(x + i, mask, e);
    s1 = W::add(s1, e);
  }
  return W::hsum(W::add(s0, s1));
}

template <typename W>
void scale_row(float* x, size_t n, float s) {
  const typename W::V vs = W::splat(s);
  size_t i = 0;
  for (; i + W::kLanes <= n; i += W::kLanes) W::storeu(x + i, W::mul(W::loadu(x + i), vs));
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    W::store_tail(x + i, mask, W::mul(W::load_tail(mask, x + i), vs));
  }
}

// Queries a step of scores() and accumulate() serves: 4 queries by 2 keys
// (or 2 keys' value rows) of independent FMA chains, within AVX2's 16
// registers. The steps are templates over the query and key counts so that
// their sums stay in registers (a runtime count would put them on the stack).
constexpr size_t kRowQueries = 4;

// The scores of G queries against K consecutive keys.
template <typename W, size_t G, size_t K>
__attribute__((always_inline)) inline void scores_step(const float* const* q, const float* key,
                                                        size_t d, float scale, float* out,
                                                        size_t ld) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes;
  V s[G][K];
  for (size_t g = 0; g < G; ++g) {
    for (size_t k = 0; k < K; ++k) s[g][k] = W::zero();
  }
  size_t i = 0;
  for (; i + L <= d; i += L) {
    for (size_t k = 0; k < K; ++k) {
      const V kv = W::loadu(key + k * d + i);
      for (size_t g = 0; g < G; ++g) s[g][k] = W::fmadd(W::loadu(q[g] + i), kv, s[g][k]);
    }
  }
  if (i < d) {
    const typename W::Mask tail = W::tail_mask(d - i);
    for (size_t k = 0; k < K; ++k) {
      const V kv = W::load_tail(tail, key + k * d + i);
      for (size_t g = 0; g < G; ++g) {
        s[g][k] = W::fmadd(W::load_tail(tail, q[g] + i), kv, s[g][k]);
      }
    }
  }
  for (size_t g = 0; g < G; ++g) {
    for (size_t k = 0; k < K; ++k) out[g * ld + k] = W::hsum(s[g][k]) * scale;
  }
}

// Rows ahead that scores() and accumulate() prefetch: a decode step's KV
// cache comes from memory (the weights streamed since the last step evicted
// it), in runs too short for the hardware prefetcher to ramp up.
constexpr size_t kRowsAhead = 8;

__attribute__((always_inline)) inline void prefetch_row(const float* row, size_t n) {
  for (size_t i = 0; i < n; i += 16) __builtin_prefetch(row + i, 0, 3);
}

template <typename W, size_t G>
void scores_queries(const float* const* q, const float* keys, size_t len, size_t d, float scale,
                    float* out, size_t ld) {
  size_t t = 0;
  for (; t + 2 <= len; t += 2) {
    if (t + kRowsAhead + 2 <= len) prefetch_row(keys + (t + kRowsAhead) * d, 2 * d);
    scores_step<W, G, 2>(q, keys + t * d, d, scale, out + t, ld);
  }
  if (t < len) scores_step<W, G, 1>(q, keys + t * d, d, scale, out + t, ld);
}

// out[g * ld + t] = scale * (q[g] . keys[t]) for g < nq, t < len (keys: len
// rows of d floats): the scores of a chunk of keys in one call.
template <typename W>
void scores(size_t nq, const float* const* q, const float* keys, size_t len, size_t d,
            float scale, float* out, size_t ld) {
  for (size_t g0 = 0; g0 < nq; g0 += kRowQueries) {
    float* o = out + g0 * ld;
    switch (nq - g0 < kRowQueries ? nq - g0 : kRowQueries) {
      case 1: scores_queries<W, 1>(q + g0, keys, len, d, scale, o, ld); break;
      case 2: scores_queries<W, 2>(q + g0, keys, len, d, scale, o, ld); break;
      case 3: scores_queries<W, 3>(q + g0, keys, len, d, scale, o, ld); break;
      default: scores_queries<W, 4>(q + g0, keys, len, d, scale, o, ld); break;
    }
  }
}

// One vector (lanes `mask`, at i) of G outputs through every key of the
// chunk, in registers: even and odd keys in separate sums, which overlap.
template <typename W, size_t G>
void accumulate_queries(float* const* y, const float* values, size_t len, size_t dv,
                        const float* p, size_t ld) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes;
  for (size_t i = 0; i < dv; i += L) {
    const typename W::Mask mask = W::tail_mask(dv - i < L ? dv - i : L);
    V even[G], odd[G];
    for (size_t g = 0; g < G; ++g) {
      even[g] = W::load_tail(mask, y[g] + i);
      odd[g] = W::zero();
    }
    size_t t = 0;
    for (; t + 2 <= len; t += 2) {
      if (i == 0 && t + kRowsAhead + 2 <= len) prefetch_row(values + (t + kRowsAhead) * dv, 2 * dv);
      const V v0 = W::load_tail(mask, values + t * dv + i);
      const V v1 = W::load_tail(mask, values + (t + 1) * dv + i);
      for (size_t g = 0; g < G; ++g) {
        even[g] = W::fmadd(v0, W::splat(p[g * ld + t]), even[g]);
        odd[g] = W::fmadd(v1, W::splat(p[g * ld + t + 1]), odd[g]);
      }
    }
    if (t < len) {
      const V v0 = W::load_tail(mask, values + t * dv + i);
      for (size_t g = 0; g < G; ++g) even[g] = W::fmadd(v0, W::splat(p[g * ld + t]), even[g]);
    }
    for (size_t g = 0; g < G; ++g) W::store_tail(y[g] + i, mask, W::add(even[g], odd[g]));
  }
}

// y[g][i] += sum over t < len of p[g * ld + t] * values[t * dv + i], for
// g < nq, i < dv: a chunk of value rows into the outputs in one call.
template <typename W>
void accumulate(size_t nq, float* const* y, const float* values, size_t len, size_t dv,
                const float* p, size_t ld) {
  for (size_t g0 = 0; g0 < nq; g0 += kRowQueries) {
    const float* pg = p + g0 * ld;
    switch (nq - g0 < kRowQueries ? nq - g0 : kRowQueries) {
      case 1: accumulate_queries<W, 1>(y + g0, values, len, dv, pg, ld); break;
      case 2: accumulate_queries<W, 2>(y + g0, values, len, dv, pg, ld); break;
      case 3: accumulate_queries<W, 3>(y + g0, values, len, dv, pg, ld); break;
      default: accumulate_queries<W, 4>(y + g0, values, len, dv, pg, ld); break;
    }
  }
}

// K^T into panels of nr keys (panel j0 / nr starts at (j0 / nr) * d * nr; for
// each dim p, the panel's nr keys, zero past n). B keys by B dims at a time go
// through Transpose (dst[c * ld + r] = src[r * lds + c] for a B x B block, in
// registers), the rest one value at a time.
template <size_t B, void (*Transpose)(const float*, size_t, float*, size_t)>
void pack_kt(size_t n, size_t d, const float* k, size_t ldk, size_t nr, float* packed) {
  for (size_t j0 = 0; j0 < n; j0 += nr) {
    const size_t cols = n - j0 < nr ? n - j0 : nr;
    float* panel = packed + j0 * d;
    size_t c = 0;
    if (nr % B == 0) {
      for (; c + B <= cols; c += B) {
        const float* src = k + (j0 + c) * ldk;
        size_t p = 0;
        for (; p + B <= d; p += B) Transpose(src + p, ldk, panel + p * nr + c, nr);
        for (; p < d; ++p) {
          for (size_t cc = 0; cc < B; ++cc) panel[p * nr + c + cc] = src[cc * ldk + p];
        }
      }
    }
    for (; c < cols; ++c) {
      const float* src = k + (j0 + c) * ldk;
      for (size_t p = 0; p < d; ++p) panel[p * nr + c] = src[p];
    }
    for (; c < nr; ++c) {
      for (size_t p = 0; p < d; ++p) panel[p * nr + c] = 0.0f;
    }
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
