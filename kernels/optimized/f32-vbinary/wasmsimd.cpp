// f32 binary microkernels for WebAssembly SIMD128: vbinary_body.h at 4
// lanes.
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/simd/wasm_math.h"
#include "kernels/optimized/f32-vbinary/vbinary_body.h"

namespace ember::kernels::optimized {
namespace {

using K = VBinaryKernels<wasm::Vec>;

}  // namespace

extern const F32VBinaryConfig kF32VBinaryWasmSimdConfig = {
    "wasmsimd",
    kCpuWasmSimd,
    EMBER_F32_VBINARY_OPS(K::vv),
    EMBER_F32_VBINARY_OPS(K::vs),
    EMBER_F32_VBINARY_OPS(K::rows),
};

}  // namespace ember::kernels::optimized
