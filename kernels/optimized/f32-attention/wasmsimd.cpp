// f32 attention row operations for WebAssembly SIMD128 (neon.cpp's
// structure). The exp is the scalar and AVX2 variants' algorithm (XNNPACK's
// rr2_p5), four lanes at a time, multiplies and adds unfused.
#include <wasm_simd128.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/simd/wasm_math.h"

namespace ember::kernels::optimized {
namespace {

using wasm::Acc4;
using wasm::accumulate4;
using wasm::hsum;
using wasm::load;
using wasm::load_tail;
using wasm::madd;
using wasm::splat;
using wasm::store;
using wasm::store_tail;

// pmax(acc, v) = acc < v ? v : acc: the scalar variant's `x > m ? x : m`.
inline v128_t vmax(v128_t acc, v128_t v) { return wasm_f32x4_pmax(acc, v); }

float row_max(const float* x, size_t n) {
  // Started at x[0] and finished by a scalar tail, as the scalar variant does.
  size_t i;
  const Acc4 a = accumulate4(n, x, splat(x[0]), &i, vmax);
  const v128_t v = vmax(vmax(a.a0, a.a1), vmax(a.a2, a.a3));
  const v128_t h = vmax(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  float m = wasm_f32x4_extract_lane(vmax(h, wasm_i32x4_shuffle(h, h, 1, 0, 3, 2)), 0);
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

// exp(x) for x <= 0: Cody-Waite reduction with two constants, degree-5
// polynomial, 2^n built in the exponent bits; 0 below -87.34 (and for -inf).
v128_t exp_nonpositive(v128_t x) {
  const v128_t magic = splat(0x1.8000FEp23f);
  v128_t n = madd(x, splat(0x1.715476p+0f), magic);
  const v128_t scale = wasm_i32x4_shl(n, 23);
  n = wasm_f32x4_sub(n, magic);
  v128_t t = madd(n, splat(-0x1.62E43p-1f), x);
  t = madd(n, splat(0x1.05C61p-29f), t);
  v128_t p = madd(splat(0x1.0F9F9Cp-7f), t, splat(0x1.573A1Ap-5f));
  p = madd(p, t, splat(0x1.555A80p-3f));
  p = madd(p, t, splat(0x1.FFFDC6p-2f));
  p = madd(p, t, splat(0x1.FFFFF6p-1f));
  t = wasm_f32x4_mul(t, scale);
  const v128_t f = madd(t, p, scale);
  const v128_t underflow = wasm_f32x4_lt(x, splat(-0x1.5D589Ep6f));
  return wasm_v128_andnot(f, underflow);
}

float exp_row(float* x, size_t n, float max) {
  const v128_t vmx = splat(max);
  v128_t s0 = splat(0.0f), s1 = s0;
  size_t i = 0;
  // Two vectors per step: each exp is a chain of ~10 dependent operations.
  for (; i + 8 <= n; i += 8) {
    const v128_t e0 = exp_nonpositive(wasm_f32x4_sub(load(x + i), vmx));
    const v128_t e1 = exp_nonpositive(wasm_f32x4_sub(load(x + i + 4), vmx));
    store(x + i, e0);
    store(x + i + 4, e1);
    s0 = wasm_f32x4_add(s0, e0);
    s1 = wasm_f32x4_add(s1, e1);
  }
  for (; i + 4 <= n; i += 4) {
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(load(x + i), vmx));
    store(x + i, e);
    s0 = wasm_f32x4_add(s0, e);
  }
  if (i < n) {
    // The tail padded with -inf, whose exp is 0.
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(load_tail(x + i, n - i, -INFINITY), vmx));
    store_tail(x + i, n - i, e);
    s1 = wasm_f32x4_add(s1, e);
  }
  return hsum(wasm_f32x4_add(s0, s1));
}

void scale_row(float* x, size_t n, float s) {
  const v128_t vs = splat(s);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) store(x + i, wasm_f32x4_mul(load(x + i), vs));
  for (; i < n; ++i) x[i] *= s;
}

// dst[c * ld + r] = src[r * lds + c] for a 4 x 4 block.
void transpose4x4(const float* src, size_t lds, float* dst, size_t ld) {
  const v128_t r0 = load(src), r1 = load(src + lds);
  const v128_t r2 = load(src + 2 * lds), r3 = load(src + 3 * lds);
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);
  const v128_t t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
  const v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  store(dst, wasm_i64x2_shuffle(t0, t2, 0, 2));
  store(dst + ld, wasm_i64x2_shuffle(t0, t2, 1, 3));
  store(dst + 2 * ld, wasm_i64x2_shuffle(t1, t3, 0, 2));
  store(dst + 3 * ld, wasm_i64x2_shuffle(t1, t3, 1, 3));
}

void pack_kt(size_t n, size_t d, const float* k, size_t ldk, size_t nr, float* packed) {
  for (size_t j0 = 0; j0 < n; j0 += nr) {
    const size_t cols = n - j0 < nr ? n - j0 : nr;
    float* panel = packed + j0 * d;  // panel j0 / nr starts at (j0 / nr) * d * nr
    size_t c = 0;
    // Four keys at a time, four dims at a time, through registers.
    if (nr % 4 == 0) {
      for (; c + 4 <= cols; c += 4) {
        const float* src = k + (j0 + c) * ldk;
        size_t p = 0;
        for (; p + 4 <= d; p += 4) transpose4x4(src + p, ldk, panel + p * nr + c, nr);
        for (; p < d; ++p) {
          for (size_t cc = 0; cc < 4; ++cc) panel[p * nr + c + cc] = src[cc * ldk + p];
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

float dot(const float* a, const float* b, size_t n) {
  v128_t s0 = splat(0.0f), s1 = s0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    s0 = madd(load(a + i), load(b + i), s0);
    s1 = madd(load(a + i + 4), load(b + i + 4), s1);
  }
  if (i + 4 <= n) {
    s0 = madd(load(a + i), load(b + i), s0);
    i += 4;
  }
  float tail = 0.0f;
  for (; i < n; ++i) tail += a[i] * b[i];
  return hsum(wasm_f32x4_add(s0, s1)) + tail;
}

void add_scaled(float* y, const float* x, float a, size_t n) {
  const v128_t va = splat(a);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) store(y + i, madd(load(x + i), va, load(y + i)));
  for (; i < n; ++i) y[i] += a * x[i];
}

}  // namespace

extern const F32AttentionConfig kF32AttentionWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, row_max, exp_row, scale_row, pack_kt, dot, add_scaled,
};

}  // namespace ember::kernels::optimized
