// f32 layer-norm microkernels for WebAssembly SIMD128 (neon.cpp's
// algorithm, multiplies and adds unfused): four vector accumulators per sum,
// tails one float at a time.
#include <wasm_simd128.h>

#include <cmath>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/simd/wasm_math.h"

namespace ember::kernels::optimized {
namespace {

using wasm::hsum;
using wasm::load;
using wasm::madd;
using wasm::splat;
using wasm::store;

// The sum over i < n of f(x[i], acc) with vector and scalar forms of f.
template <typename F, typename F1>
inline float reduce_sum(size_t n, const float* x, F f, F1 f1) {
  size_t i;
  const wasm::Acc4 a = wasm::accumulate4(n, x, splat(0.0f), &i, f);
  float tail = 0.0f;
  for (; i < n; ++i) tail = f1(x[i], tail);
  return hsum(wasm_f32x4_add(wasm_f32x4_add(a.a0, a.a1), wasm_f32x4_add(a.a2, a.a3))) + tail;
}

void layernorm(size_t n, const float* x, const float* w, const float* b, float eps, float* y) {
  const float inv_n = 1.0f / static_cast<float>(n);
  const float mean0 =
      reduce_sum(
          n, x, [](v128_t v, v128_t acc) { return wasm_f32x4_add(acc, v); },
          [](float v, float acc) { return acc + v; }) *
      inv_n;
  // Deviations from the first mean, summed too: they correct it (see avx2.cpp).
  const v128_t vmean0 = splat(mean0);
  v128_t s0 = splat(0.0f), q0 = s0, s1 = s0, q1 = s0;
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const v128_t d0 = wasm_f32x4_sub(load(x + k), vmean0);
    const v128_t d1 = wasm_f32x4_sub(load(x + k + 4), vmean0);
    s0 = wasm_f32x4_add(s0, d0);
    s1 = wasm_f32x4_add(s1, d1);
    q0 = madd(d0, d0, q0);
    q1 = madd(d1, d1, q1);
  }
  float d_tail = 0.0f, q_tail = 0.0f;
  for (; k < n; ++k) {
    const float d = x[k] - mean0;
    d_tail += d;
    q_tail += d * d;
  }
  const float d_sum = hsum(wasm_f32x4_add(s0, s1)) + d_tail;
  const float d2_sum = hsum(wasm_f32x4_add(q0, q1)) + q_tail;
  const float mean = mean0 + d_sum * inv_n;
  const float var = (d2_sum - d_sum * d_sum * inv_n) * inv_n;
  const v128_t vmean = splat(mean);
  const float rstd = 1.0f / std::sqrt((var > 0.0f ? var : 0.0f) + eps);
  const v128_t vrstd = splat(rstd);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    v128_t d = wasm_f32x4_mul(wasm_f32x4_sub(load(x + i), vmean), vrstd);
    if (w != nullptr) d = wasm_f32x4_mul(d, load(w + i));
    if (b != nullptr) d = wasm_f32x4_add(d, load(b + i));
    store(y + i, d);
  }
  for (; i < n; ++i) {
    float v = (x[i] - mean) * rstd;
    if (w != nullptr) v *= w[i];
    if (b != nullptr) v += b[i];
    y[i] = v;
  }
}

void rmsnorm(size_t n, const float* x, const float* w, float eps, float* y) {
  const float ms = reduce_sum(
                       n, x, [](v128_t v, v128_t acc) { return madd(v, v, acc); },
                       [](float v, float acc) { return acc + v * v; }) /
                   static_cast<float>(n);
  const float rstd = 1.0f / std::sqrt(ms + eps);
  const v128_t vrstd = splat(rstd);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    v128_t v = wasm_f32x4_mul(load(x + i), vrstd);
    if (w != nullptr) v = wasm_f32x4_mul(v, load(w + i));
    store(y + i, v);
  }
  for (; i < n; ++i) {
    const float v = x[i] * rstd;
    y[i] = w != nullptr ? v * w[i] : v;
  }
}

}  // namespace

extern const F32LayerNormConfig kF32LayerNormWasmSimdConfig = {"wasmsimd", kCpuWasmSimd,
                                                               layernorm, rmsnorm};

}  // namespace ember::kernels::optimized
