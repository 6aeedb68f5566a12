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

template <typename W>
float dot(const float* a, const float* b, size_t n) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes;
  V s0 = W::zero(), s1 = W::zero();
  size_t i = 0;
  for (; i + 2 * L <= n; i += 2 * L) {
    s0 = W::fmadd(W::loadu(a + i), W::loadu(b + i), s0);
    s1 = W::fmadd(W::loadu(a + i + L), W::loadu(b + i + L), s1);
  }
  if (i + L <= n) {
    s0 = W::fmadd(W::loadu(a + i), W::loadu(b + i), s0);
    i += L;
  }
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    s1 = W::fmadd(W::load_tail(mask, a + i), W::load_tail(mask, b + i), s1);
  }
  return W::hsum(W::add(s0, s1));
}

template <typename W>
void add_scaled(float* y, const float* x, float a, size_t n) {
  const typename W::V va = W::splat(a);
  size_t i = 0;
  for (; i + W::kLanes <= n; i += W::kLanes) {
    W::storeu(y + i, W::fmadd(W::loadu(x + i), va, W::loadu(y + i)));
  }
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    W::store_tail(y + i, mask, W::fmadd(W::load_tail(mask, x + i), va, W::load_tail(mask, y + i)));
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
