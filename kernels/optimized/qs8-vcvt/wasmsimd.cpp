// int8 conversions for WebAssembly SIMD128 (neon.cpp's structure): 16 values
// per step, the per-token quantization in f64x2 vectors; a partial step goes
// through a zero-padded stack buffer. The clamp's low end is applied as
// pmax(lo, x) (`lo < x ? x : lo`), so NaN lands on it, as on x86 and NEON.
#include <wasm_simd128.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vcvt/qs8_vcvt.h"
#include "kernels/optimized/qs8-vcvt/blocks_body.h"

namespace ember::kernels::optimized {
namespace {

// Four i32x4 in range narrowed to 16 bytes, in order.
inline v128_t narrow(v128_t a, v128_t b, v128_t c, v128_t d) {
  return wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(a, b), wasm_i16x8_narrow_i32x4(c, d));
}

void quantize_block(const float* x, int8_t* y, const Qs8QuantizeParams* p) {
  const v128_t lo = wasm_f32x4_splat(static_cast<float>(p->min - p->zero));
  const v128_t hi = wasm_f32x4_splat(static_cast<float>(p->max - p->zero));
  const v128_t inv = wasm_f32x4_splat(p->inv_scale);
  const v128_t zero = wasm_i32x4_splat(p->zero);
  v128_t q[4];
  for (int v = 0; v < 4; ++v) {
    v128_t f = wasm_f32x4_pmax(lo, wasm_f32x4_mul(wasm_v128_load(x + 4 * v), inv));
    f = wasm_f32x4_pmin(f, hi);
    // Round half to even, then an exact conversion.
    q[v] = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f)), zero);
  }
  wasm_v128_store(y, narrow(q[0], q[1], q[2], q[3]));
}

void quantize(size_t n, const float* x, int8_t* y, const Qs8QuantizeParams* p) {
  in_blocks<16>(n, x, y, [&](const float* xb, int8_t* yb) { quantize_block(xb, yb, p); });
}

void quantize_double_block(const float* x, int8_t* y, double inv, double zero, double min,
                           double max) {
  const v128_t lo = wasm_f64x2_splat(min);
  const v128_t hi = wasm_f64x2_splat(max);
  const v128_t z = wasm_f64x2_splat(zero);
  const v128_t vinv = wasm_f64x2_splat(inv);
  v128_t q[4];
  for (int v = 0; v < 4; ++v) {
    const v128_t f = wasm_v128_load(x + 4 * v);
    v128_t d[2] = {wasm_f64x2_promote_low_f32x4(f),
                   wasm_f64x2_promote_low_f32x4(wasm_i64x2_shuffle(f, f, 1, 0))};
    v128_t r[2];
    for (int h = 0; h < 2; ++h) {
      // Multiply, then add: two roundings, as torch's mul and add.
      d[h] = wasm_f64x2_add(wasm_f64x2_mul(d[h], vinv), z);
      d[h] = wasm_f64x2_pmin(wasm_f64x2_pmax(lo, d[h]), hi);
      r[h] = wasm_i32x4_trunc_sat_f64x2_zero(wasm_f64x2_nearest(d[h]));  // half to even
    }
    q[v] = wasm_i64x2_shuffle(r[0], r[1], 0, 2);
  }
  wasm_v128_store(y, narrow(q[0], q[1], q[2], q[3]));
}

void quantize_double(size_t n, const float* x, int8_t* y, double inv_scale, int32_t zero,
                     int32_t min, int32_t max) {
  in_blocks<16>(n, x, y, [&](const float* xb, int8_t* yb) {
    quantize_double_block(xb, yb, inv_scale, zero, min, max);
  });
}

void dequantize_block(const int8_t* x, float* y, int32_t zero, float scale) {
  const v128_t b = wasm_v128_load(x);
  const v128_t lo = wasm_i16x8_extend_low_i8x16(b);
  const v128_t hi = wasm_i16x8_extend_high_i8x16(b);
  const v128_t z = wasm_i32x4_splat(zero);
  const v128_t s = wasm_f32x4_splat(scale);
  const v128_t v[4] = {wasm_i32x4_extend_low_i16x8(lo), wasm_i32x4_extend_high_i16x8(lo),
                       wasm_i32x4_extend_low_i16x8(hi), wasm_i32x4_extend_high_i16x8(hi)};
  for (int j = 0; j < 4; ++j) {
    wasm_v128_store(y + 4 * j, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(v[j], z)), s));
  }
}

void dequantize(size_t n, const int8_t* x, float* y, int32_t zero, float scale) {
  in_blocks<16>(n, x, y, [&](const int8_t* xb, float* yb) {
    dequantize_block(xb, yb, zero, scale);
  });
}

void minmax(size_t n, const float* x, float* min, float* max) {
  v128_t lo[2], hi[2];
  lo[0] = lo[1] = hi[0] = hi[1] = wasm_f32x4_splat(x[0]);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int v = 0; v < 2; ++v) {
      const v128_t xv = wasm_v128_load(x + i + 4 * v);
      lo[v] = wasm_f32x4_pmin(lo[v], xv);
      hi[v] = wasm_f32x4_pmax(hi[v], xv);
    }
  }
  float l[4], h[4];
  wasm_v128_store(l, wasm_f32x4_pmin(lo[0], lo[1]));
  wasm_v128_store(h, wasm_f32x4_pmax(hi[0], hi[1]));
  float a = l[0], b = h[0];
  for (int j = 1; j < 4; ++j) {
    a = l[j] < a ? l[j] : a;
    b = h[j] > b ? h[j] : b;
  }
  for (; i < n; ++i) {
    a = x[i] < a ? x[i] : a;
    b = x[i] > b ? x[i] : b;
  }
  *min = a;
  *max = b;
}

}  // namespace

extern const Qs8VcvtConfig kQs8VcvtWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, quantize, quantize_double, dequantize, minmax,
};

}  // namespace ember::kernels::optimized
