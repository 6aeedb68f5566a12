// f32 depthwise convolution for WebAssembly SIMD128 (built with -msimd128):
// dwconv_body.h at 4 lanes.
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/wasm_math.h"
#include "kernels/optimized/f32-dwconv/dwconv_body.h"

namespace ember::kernels::optimized {

using W = wasm::Vec;

extern const F32DwconvConfig kF32DwconvWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, 2 * W::kLanes, dwconv<W, 9>, dwconv<W, 25>, dwconv<W, 0>,
};

}  // namespace ember::kernels::optimized
