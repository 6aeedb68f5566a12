// f32 unary microkernels for WebAssembly SIMD128 (built with -msimd128):
// vunary_body.h at 4 lanes.
#include <wasm_simd128.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/wasm_math.h"
#include "kernels/optimized/f32-vunary/vunary_body.h"

namespace ember::kernels::optimized {

using W = wasm::Vec;

extern const F32VUnaryConfig kF32VUnaryWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd,
    {
        ukernel<W, ClampOp>, ukernel<W, ExpOp>, ukernel<W, SigmoidOp>, ukernel<W, TanhOp>,
        ukernel<W, GeluOp>, ukernel<W, GeluTanhOp>, ukernel<W, SiluOp>, ukernel<W, HardSwishOp>,
        ukernel<W, HardSigmoidOp>, ukernel<W, NegOp>, ukernel<W, SqrtOp>, ukernel<W, RsqrtOp>,
        ukernel<W, AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
