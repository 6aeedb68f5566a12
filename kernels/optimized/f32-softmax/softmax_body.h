// The f32 softmax microkernels written once over a vector width W (avx2::Vec,
// avx512::Vec, neon::Vec, wasm::Vec from simd/*_math.h): each ISA file
// (avx2.cpp, avx512.cpp, neon.cpp, wasmsimd.cpp) instantiates them at its
// width. The exp is f32-vunary's exp for x <= 0 (vec_math.h's exp_nonpositive),
// the same operations at every width. Tails go through masked loads and stores.
//
// Included only by those ISA files, after their simd header; everything here
// has internal linkage (an unnamed namespace), so each file's copy is
// compiled with its own flags and no copy can stand in for another at link.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "softmax_body.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include <cmath>
#include <cstddef>

#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/simd/vec_math.h"

namespace ember::kernels::optimized {
namespace {

template <typename W>
float rmax(size_t n, const float* x) {
  using V = typename W::V;
  V m0 = W::splat(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
  size_t i = W::for_each_block4(n, x, [&](V v0, V v1, V v2, V v3) {
    m0 = W::max(m0, v0);
    m1 = W::max(m1, v1);
    m2 = W::max(m2, v2);
    m3 = W::max(m3, v3);
  });
  for (; i + W::kLanes <= n; i += W::kLanes) m0 = W::max(m0, W::loadu(x + i));
  if (i < n) {
    // Masked-off lanes load as -inf.
    m1 = W::max(m1, W::load_tail_or(W::splat(-INFINITY), W::tail_mask(n - i), x + i));
  }
  return W::hmax(W::max(W::max(m0, m1), W::max(m2, m3)));
}

template <typename W, bool kStore>
float addexpminusmax(size_t n, const float* x, float max, float* y) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes;
  const V vmax = W::splat(max);
  V acc0 = W::zero(), acc1 = acc0;
  size_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    const V e0 = exp_nonpositive<W>(W::sub(W::loadu(x + i), vmax));
    const V e1 = exp_nonpositive<W>(W::sub(W::loadu(x + i + L), vmax));
    const V e2 = exp_nonpositive<W>(W::sub(W::loadu(x + i + 2 * L), vmax));
    const V e3 = exp_nonpositive<W>(W::sub(W::loadu(x + i + 3 * L), vmax));
    if (kStore) {
      W::storeu(y + i, e0);
      W::storeu(y + i + L, e1);
      W::storeu(y + i + 2 * L, e2);
      W::storeu(y + i + 3 * L, e3);
    }
    acc0 = W::add(acc0, W::add(e0, e2));
    acc1 = W::add(acc1, W::add(e1, e3));
  }
  for (; i + L <= n; i += L) {
    const V e = exp_nonpositive<W>(W::sub(W::loadu(x + i), vmax));
    if (kStore) W::storeu(y + i, e);
    acc0 = W::add(acc0, e);
  }
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    // Zeroed past the tail, so that exp(0 - max) there adds nothing.
    const V e = W::keep(mask, exp_nonpositive<W>(W::sub(W::load_tail(mask, x + i), vmax)));
    if (kStore) W::store_tail(y + i, mask, e);
    acc1 = W::add(acc1, e);
  }
  return W::hsum(W::add(acc0, acc1));
}

template <typename W>
float raddstoreexpminusmax(size_t n, const float* x, float max, float* y) {
  return addexpminusmax<W, true>(n, x, max, y);
}

template <typename W>
float raddexpminusmax(size_t n, const float* x, float max) {
  return addexpminusmax<W, false>(n, x, max, nullptr);
}

// Loads a full vector, or the first lanes of one (the rest read as 0).
template <typename W>
struct FullLoad {
  typename W::V operator()(const float* p) const { return W::loadu(p); }
};
template <typename W>
struct MaskedLoad {
  typename W::Mask mask;
  typename W::V operator()(const float* p) const { return W::load_tail(mask, p); }
};

// y[i, i + kLanes) = f(load, i) for i < n: a masked head up to where stores
// stay within cache lines (W::head: split 64-byte stores cost rows in L2;
// each element's result is the same whichever vector it falls in), full
// vectors, then one masked tail.
template <typename W, typename F>
inline void map(size_t n, float* y, F f) {
  constexpr size_t L = W::kLanes;
  size_t i = 0;
  const size_t head = W::head(y);
  if (n >= 4 * L && head != 0) {
    const typename W::Mask mask = W::tail_mask(head);
    W::store_tail(y, mask, f(MaskedLoad<W>{mask}, 0));
    i = head;
  }
  for (; i + 2 * L <= n; i += 2 * L) {
    const typename W::V v0 = f(FullLoad<W>{}, i);
    const typename W::V v1 = f(FullLoad<W>{}, i + L);
    W::storeu(y + i, v0);
    W::storeu(y + i + L, v1);
  }
  for (; i + L <= n; i += L) W::storeu(y + i, f(FullLoad<W>{}, i));
  if (i < n) {
    const typename W::Mask mask = W::tail_mask(n - i);
    W::store_tail(y + i, mask, f(MaskedLoad<W>{mask}, i));
  }
}

template <typename W>
void vscale(size_t n, const float* x, float s, float* y) {
  const typename W::V vs = W::splat(s);
  map<W>(n, y, [&](auto ld, size_t i) { return W::mul(ld(x + i), vs); });
}

template <typename W>
void vsubsub(size_t n, const float* x, float a, float b, float* y) {
  const typename W::V va = W::splat(a), vb = W::splat(b);
  map<W>(n, y, [&](auto ld, size_t i) { return W::sub(W::sub(ld(x + i), va), vb); });
}

template <typename W>
void vmax_acc(size_t n, const float* x, float* m) {
  map<W>(n, m, [&](auto ld, size_t i) { return W::max(ld(m + i), ld(x + i)); });
}

template <typename W>
void vexpminus_acc(size_t n, const float* x, const float* m, float* y, float* s) {
  size_t i = 0;
  for (; i + W::kLanes <= n; i += W::kLanes) {
    const typename W::V e = exp_nonpositive<W>(W::sub(W::loadu(x + i), W::loadu(m + i)));
    W::storeu(y + i, e);
    W::storeu(s + i, W::add(W::loadu(s + i), e));
  }
  if (i < n) {
    const typename W::Mask k = W::tail_mask(n - i);
    const typename W::V e =
        exp_nonpositive<W>(W::sub(W::load_tail(k, x + i), W::load_tail(k, m + i)));
    W::store_tail(y + i, k, e);
    W::store_tail(s + i, k, W::add(W::load_tail(k, s + i), e));
  }
}

template <typename W>
void vmul(size_t n, const float* x, const float* r, float* y) {
  map<W>(n, y, [&](auto ld, size_t i) { return W::mul(ld(x + i), ld(r + i)); });
}

template <typename W>
void vsubsubv(size_t n, const float* x, const float* a, const float* b, float* y) {
  map<W>(n, y, [&](auto ld, size_t i) { return W::sub(W::sub(ld(x + i), ld(a + i)), ld(b + i)); });
}

}  // namespace
}  // namespace ember::kernels::optimized
