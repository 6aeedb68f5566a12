// f32 depthwise convolution for WebAssembly SIMD128 (built with -msimd128):
// dwconv_body.h at 4 lanes, four vectors a tile, the taps in a loop (V8 spills
// an unrolled window: dwconv_body.h).
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/wasm_math.h"
#include "kernels/optimized/f32-dwconv/dwconv_body.h"

namespace ember::kernels::optimized {

using W = wasm::Vec;
constexpr size_t kVectors = 4;

extern const F32DwconvConfig kF32DwconvWasmSimdConfig = {
    "wasmsimd",
    kCpuWasmSimd,
    kVectors * W::kLanes,
    dwconv<W, 9, kVectors, false>,
    dwconv<W, 25, kVectors, false>,
    dwconv<W, 0, kVectors, false>,
};

}  // namespace ember::kernels::optimized
