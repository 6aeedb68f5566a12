// f32 reduction microkernels for WebAssembly SIMD128 (neon.cpp's
// structure). f32x4.max returns NaN when either input is NaN, as FMAX does,
// so max needs no NaN bookkeeping.
#include <wasm_simd128.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-reduce/f32_reduce.h"
#include "kernels/optimized/simd/wasm_math.h"

namespace ember::kernels::optimized {
namespace {

using wasm::Acc4;
using wasm::accumulate4;
using wasm::load;
using wasm::splat;
using wasm::store;

float rsum(size_t n, const float* x) {
  size_t i;
  const Acc4 a = accumulate4(n, x, splat(0.0f), &i,
                             [](v128_t v, v128_t acc) { return wasm_f32x4_add(acc, v); });
  float tail = 0.0f;
  for (; i < n; ++i) tail += x[i];
  return wasm::hsum(wasm_f32x4_add(wasm_f32x4_add(a.a0, a.a1), wasm_f32x4_add(a.a2, a.a3))) +
         tail;
}

float rmax(size_t n, const float* x) {
  size_t i;
  const Acc4 a = accumulate4(n, x, splat(-INFINITY), &i,
                             [](v128_t v, v128_t acc) { return wasm_f32x4_max(acc, v); });
  float m = wasm::hmax(wasm_f32x4_max(wasm_f32x4_max(a.a0, a.a1), wasm_f32x4_max(a.a2, a.a3)));
  for (; i < n; ++i) {
    if (x[i] != x[i] || x[i] > m) m = x[i];
  }
  return m;
}

void vadd_acc(size_t n, const float* x, float* acc) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) store(acc + i, wasm_f32x4_add(load(acc + i), load(x + i)));
  for (; i < n; ++i) acc[i] += x[i];
}

void vmax_acc(size_t n, const float* x, float* acc) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) store(acc + i, wasm_f32x4_max(load(acc + i), load(x + i)));
  for (; i < n; ++i) {
    if (x[i] > acc[i] || x[i] != x[i]) acc[i] = x[i];
  }
}

// Columns in chunks of 16 (4 vectors, two sets for alternate rows so that
// two adds are in flight per vector, the second starting from f's
// identity), then a tail of up to 3 scalars.
template <typename F, typename S>
inline void column_accumulate(size_t rows, size_t n, const float* x, size_t stride, float* acc,
                              float identity, F f, S scalar) {
  size_t j = 0;
  for (; j + 4 <= n; j += 16) {
    const size_t vecs = (n - j) / 4 < 4 ? (n - j) / 4 : 4;
    v128_t a[4], b[4];
    for (size_t v = 0; v < vecs; ++v) {
      a[v] = load(acc + j + 4 * v);
      b[v] = splat(identity);
    }
    const float* xr = x + j;
    size_t r = 0;
    for (; r + 2 <= rows; r += 2, xr += 2 * stride) {
      for (size_t v = 0; v < vecs; ++v) {
        a[v] = f(a[v], load(xr + 4 * v));
        b[v] = f(b[v], load(xr + stride + 4 * v));
      }
    }
    if (r < rows) {
      for (size_t v = 0; v < vecs; ++v) a[v] = f(a[v], load(xr + 4 * v));
    }
    for (size_t v = 0; v < vecs; ++v) store(acc + j + 4 * v, f(b[v], a[v]));
    if (vecs < 4) {
      j += 4 * vecs;
      break;
    }
  }
  for (; j < n; ++j) {
    for (size_t r = 0; r < rows; ++r) acc[j] = scalar(acc[j], x[r * stride + j]);
  }
}

void cadd_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate(
      rows, n, x, stride, acc, 0.0f, [](v128_t a, v128_t v) { return wasm_f32x4_add(a, v); },
      [](float a, float v) { return a + v; });
}

void cmax_acc(size_t rows, size_t n, const float* x, size_t stride, float* acc) {
  column_accumulate(
      rows, n, x, stride, acc, -INFINITY, [](v128_t a, v128_t v) { return wasm_f32x4_max(a, v); },
      [](float a, float v) { return (v > a || v != v) ? v : a; });
}

}  // namespace

extern const F32ReduceConfig kF32ReduceWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, rsum, rmax, vadd_acc, vmax_acc, cadd_acc, cmax_acc,
};

}  // namespace ember::kernels::optimized
