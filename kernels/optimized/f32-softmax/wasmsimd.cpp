// f32 softmax microkernels for WebAssembly SIMD128 (neon.cpp's structure).
// The exp is f32-vunary's exp for x <= 0 and tails go through a padded
// 4-float buffer (both simd/wasm_math.h). Maxima use pmax, one maxps on x86
// (f32x4.max is several instructions there): it may drop a NaN, which the
// exp-sum then carries into the row anyway, as the header allows.
#include <wasm_simd128.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-softmax/f32_softmax.h"
#include "kernels/optimized/simd/wasm_math.h"

namespace ember::kernels::optimized {
namespace {

using wasm::Acc4;
using wasm::accumulate4;
using wasm::exp_nonpositive;
using wasm::hsum;
using wasm::load;
using wasm::load_tail;
using wasm::splat;
using wasm::store;
using wasm::store_tail;

// pmax(acc, v) = acc < v ? v : acc.
inline v128_t vmax(v128_t acc, v128_t v) { return wasm_f32x4_pmax(acc, v); }

float rmax(size_t n, const float* x) {
  size_t i;
  Acc4 m = accumulate4(n, x, splat(-INFINITY), &i, vmax);
  if (i < n) m.a1 = vmax(m.a1, load_tail(x + i, n - i, -INFINITY));
  const v128_t v = vmax(vmax(m.a0, m.a1), vmax(m.a2, m.a3));
  const v128_t h = vmax(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  return wasm_f32x4_extract_lane(vmax(h, wasm_i32x4_shuffle(h, h, 1, 0, 3, 2)), 0);
}

template <bool kStore>
float addexpminusmax(size_t n, const float* x, float max, float* y) {
  const v128_t vmx = splat(max);
  v128_t acc0 = splat(0.0f), acc1 = acc0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t e0 = exp_nonpositive(wasm_f32x4_sub(load(x + i), vmx));
    const v128_t e1 = exp_nonpositive(wasm_f32x4_sub(load(x + i + 4), vmx));
    if (kStore) {
      store(y + i, e0);
      store(y + i + 4, e1);
    }
    acc0 = wasm_f32x4_add(acc0, e0);
    acc1 = wasm_f32x4_add(acc1, e1);
  }
  for (; i + 4 <= n; i += 4) {
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(load(x + i), vmx));
    if (kStore) store(y + i, e);
    acc0 = wasm_f32x4_add(acc0, e);
  }
  if (i < n) {
    // Padding with -inf makes the unused lanes exp(-inf) = 0.
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(load_tail(x + i, n - i, -INFINITY), vmx));
    if (kStore) store_tail(y + i, n - i, e);
    acc1 = wasm_f32x4_add(acc1, e);
  }
  return hsum(wasm_f32x4_add(acc0, acc1));
}

float raddstoreexpminusmax(size_t n, const float* x, float max, float* y) {
  return addexpminusmax<true>(n, x, max, y);
}

float raddexpminusmax(size_t n, const float* x, float max) {
  return addexpminusmax<false>(n, x, max, nullptr);
}

// y[i..i+4) = f(load, i): full vectors, then a padded tail.
struct FullLoad {
  v128_t operator()(const float* p) const { return load(p); }
};
struct TailLoad {
  size_t r;
  v128_t operator()(const float* p) const { return load_tail(p, r, 0.0f); }
};

template <typename F>
inline void map(size_t n, float* y, F f) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t v0 = f(FullLoad{}, i);
    const v128_t v1 = f(FullLoad{}, i + 4);
    store(y + i, v0);
    store(y + i + 4, v1);
  }
  for (; i + 4 <= n; i += 4) store(y + i, f(FullLoad{}, i));
  if (i < n) store_tail(y + i, n - i, f(TailLoad{n - i}, i));
}

void vscale(size_t n, const float* x, float s, float* y) {
  const v128_t vs = splat(s);
  map(n, y, [&](auto ld, size_t i) { return wasm_f32x4_mul(ld(x + i), vs); });
}

void vsubsub(size_t n, const float* x, float a, float b, float* y) {
  const v128_t va = splat(a), vb = splat(b);
  map(n, y, [&](auto ld, size_t i) { return wasm_f32x4_sub(wasm_f32x4_sub(ld(x + i), va), vb); });
}

void vmax_acc(size_t n, const float* x, float* m) {
  map(n, m, [&](auto ld, size_t i) { return vmax(ld(m + i), ld(x + i)); });
}

void vexpminus_acc(size_t n, const float* x, const float* m, float* y, float* s) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(load(x + i), load(m + i)));
    store(y + i, e);
    store(s + i, wasm_f32x4_add(load(s + i), e));
  }
  if (i < n) {
    const size_t r = n - i;
    const v128_t e =
        exp_nonpositive(wasm_f32x4_sub(load_tail(x + i, r, 0.0f), load_tail(m + i, r, 0.0f)));
    store_tail(y + i, r, e);
    store_tail(s + i, r, wasm_f32x4_add(load_tail(s + i, r, 0.0f), e));
  }
}

void vmul(size_t n, const float* x, const float* r, float* y) {
  map(n, y, [&](auto ld, size_t i) { return wasm_f32x4_mul(ld(x + i), ld(r + i)); });
}

void vsubsubv(size_t n, const float* x, const float* a, const float* b, float* y) {
  map(n, y, [&](auto ld, size_t i) {
    return wasm_f32x4_sub(wasm_f32x4_sub(ld(x + i), ld(a + i)), ld(b + i));
  });
}

}  // namespace

extern const F32SoftmaxConfig kF32SoftmaxWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, rmax, raddstoreexpminusmax, raddexpminusmax, vscale,
    vsubsub, vmax_acc, vexpminus_acc, vmul, vsubsubv,
};

}  // namespace ember::kernels::optimized
