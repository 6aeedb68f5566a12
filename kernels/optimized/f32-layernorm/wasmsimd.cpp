// f32 layer-norm microkernels for WebAssembly SIMD128 (built with -msimd128):
// layernorm_body.h at 4 lanes.
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/simd/wasm_math.h"
#include "kernels/optimized/f32-layernorm/layernorm_body.h"

namespace ember::kernels::optimized {

using W = wasm::Vec;

extern const F32LayerNormConfig kF32LayerNormWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, layernorm<W>, rmsnorm<W>,
};

}  // namespace ember::kernels::optimized
