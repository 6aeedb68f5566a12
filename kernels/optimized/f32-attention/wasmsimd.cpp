// f32 attention for WebAssembly SIMD128 (built with -msimd128): rows_body.h's
// row operations at 4 lanes, and K^T packed through 4 x 4 transposes in
// registers.
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/simd/wasm_math.h"
#include "kernels/optimized/f32-attention/rows_body.h"

namespace ember::kernels::optimized {
namespace {

using W = wasm::Vec;

// dst[c * ld + r] = src[r * lds + c] for a 4 x 4 block.
void transpose4x4(const float* src, size_t lds, float* dst, size_t ld) {
  const v128_t r0 = wasm_v128_load(src), r1 = wasm_v128_load(src + lds);
  const v128_t r2 = wasm_v128_load(src + 2 * lds), r3 = wasm_v128_load(src + 3 * lds);
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);
  const v128_t t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
  const v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  wasm_v128_store(dst, wasm_i64x2_shuffle(t0, t2, 0, 2));
  wasm_v128_store(dst + ld, wasm_i64x2_shuffle(t0, t2, 1, 3));
  wasm_v128_store(dst + 2 * ld, wasm_i64x2_shuffle(t1, t3, 0, 2));
  wasm_v128_store(dst + 3 * ld, wasm_i64x2_shuffle(t1, t3, 1, 3));
}

}  // namespace

extern const F32AttentionConfig kF32AttentionWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, row_max<W>, exp_row<W>, scale_row<W>, pack_kt<4, transpose4x4>,
    scores<W>, accumulate<W>,
};

}  // namespace ember::kernels::optimized
