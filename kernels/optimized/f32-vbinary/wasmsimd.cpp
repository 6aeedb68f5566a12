// f32 binary microkernels for WebAssembly SIMD128: 16 floats per iteration,
// the tail one float at a time (neon.cpp's structure).
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/simd/wasm_math.h"

namespace ember::kernels::optimized {
namespace {

using wasm::clamp;
using wasm::load;
using wasm::splat;
using wasm::store;

template <F32BinaryOp Op>
inline v128_t apply(v128_t a, v128_t b) {
  if constexpr (Op == F32BinaryOp::Add) return wasm_f32x4_add(a, b);
  if constexpr (Op == F32BinaryOp::Sub) return wasm_f32x4_sub(a, b);
  if constexpr (Op == F32BinaryOp::Mul) return wasm_f32x4_mul(a, b);
  if constexpr (Op == F32BinaryOp::Div) return wasm_f32x4_div(a, b);
  if constexpr (Op == F32BinaryOp::RSub) return wasm_f32x4_sub(b, a);
  if constexpr (Op == F32BinaryOp::RDiv) return wasm_f32x4_div(b, a);
  // a > b ? a : b (b for equal zeros, as the other variants), NaN from
  // either through a + b: pmax(b, a) is `b < a ? a : b`, one maxps.
  if constexpr (Op == F32BinaryOp::Max || Op == F32BinaryOp::Min) {
    const v128_t pick = Op == F32BinaryOp::Max ? wasm_f32x4_pmax(b, a) : wasm_f32x4_pmin(b, a);
    const v128_t ordered = wasm_v128_and(wasm_f32x4_eq(a, a), wasm_f32x4_eq(b, b));
    return wasm_v128_bitselect(pick, wasm_f32x4_add(a, b), ordered);
  }
}

template <F32BinaryOp Op>
inline float apply1(float a, float b) {
  if constexpr (Op == F32BinaryOp::Add) return a + b;
  if constexpr (Op == F32BinaryOp::Sub) return a - b;
  if constexpr (Op == F32BinaryOp::Mul) return a * b;
  if constexpr (Op == F32BinaryOp::Div) return a / b;
  if constexpr (Op == F32BinaryOp::RSub) return b - a;
  if constexpr (Op == F32BinaryOp::RDiv) return b / a;
  if constexpr (Op == F32BinaryOp::Max) return a != a || b != b ? a + b : (a > b ? a : b);
  if constexpr (Op == F32BinaryOp::Min) return a != a || b != b ? a + b : (a < b ? a : b);
}

// b is a stream (kStream) or one number broadcast (b[0]).
template <F32BinaryOp Op, bool kStream>
inline void run(size_t n, const float* a, const float* b, float* y, float lo, float hi) {
  const v128_t vlo = splat(lo);
  const v128_t vhi = splat(hi);
  const v128_t bb = wasm_v128_load32_splat(b);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t v0 = apply<Op>(load(a + i), kStream ? load(b + i) : bb);
    const v128_t v1 = apply<Op>(load(a + i + 4), kStream ? load(b + i + 4) : bb);
    const v128_t v2 = apply<Op>(load(a + i + 8), kStream ? load(b + i + 8) : bb);
    const v128_t v3 = apply<Op>(load(a + i + 12), kStream ? load(b + i + 12) : bb);
    store(y + i, clamp(v0, vlo, vhi));
    store(y + i + 4, clamp(v1, vlo, vhi));
    store(y + i + 8, clamp(v2, vlo, vhi));
    store(y + i + 12, clamp(v3, vlo, vhi));
  }
  for (; i + 4 <= n; i += 4) {
    store(y + i, clamp(apply<Op>(load(a + i), kStream ? load(b + i) : bb), vlo, vhi));
  }
  for (; i < n; ++i) {
    const float v = apply1<Op>(a[i], kStream ? b[i] : b[0]);
    y[i] = v < lo ? lo : (v > hi ? hi : v);
  }
}

template <F32BinaryOp Op>
void vv(size_t n, const float* a, const float* b, float* y, const F32VBinaryParams* p) {
  run<Op, true>(n, a, b, y, p->min, p->max);
}

template <F32BinaryOp Op>
void vs(size_t n, const float* a, float b, float* y, const F32VBinaryParams* p) {
  run<Op, false>(n, a, &b, y, p->min, p->max);
}

template <F32BinaryOp Op>
void rows(size_t rows, size_t c, const float* a, const float* b, float* y,
          const F32VBinaryParams* p) {
  for (size_t r = 0; r < rows; ++r) run<Op, true>(c, a + r * c, b, y + r * c, p->min, p->max);
}

}  // namespace

extern const F32VBinaryConfig kF32VBinaryWasmSimdConfig = {
    "wasmsimd",
    kCpuWasmSimd,
    EMBER_F32_VBINARY_OPS(vv),
    EMBER_F32_VBINARY_OPS(vs),
    EMBER_F32_VBINARY_OPS(rows),
};

}  // namespace ember::kernels::optimized
