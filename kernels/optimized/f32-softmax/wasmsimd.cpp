// f32 softmax microkernels for WebAssembly SIMD128 (built with -msimd128):
// softmax_body.h at 4 lanes.
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/wasm_math.h"
#include "kernels/optimized/f32-softmax/softmax_body.h"

namespace ember::kernels::optimized {

using W = wasm::Vec;

extern const F32SoftmaxConfig kF32SoftmaxWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd,
    rmax<W>, raddstoreexpminusmax<W>, raddexpminusmax<W>, vscale<W>, vsubsub<W>, vmax_acc<W>,
    vexpminus_acc<W>, vmul<W>, vsubsubv<W>,
};

}  // namespace ember::kernels::optimized
