// f32 reduction microkernels for WebAssembly SIMD128 (built with -msimd128):
// reduce_body.h at 4 lanes.
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/wasm_math.h"
#include "kernels/optimized/f32-reduce/reduce_body.h"

namespace ember::kernels::optimized {

using W = wasm::Vec;

extern const F32ReduceConfig kF32ReduceWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, rsum<W>, rmax<W>, vadd_acc<W>, vmax_acc<W>, cadd_acc<W>, cmax_acc<W>,
};

}  // namespace ember::kernels::optimized
