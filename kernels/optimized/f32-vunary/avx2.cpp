// f32 unary microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for this
// file only: vunary_body.h at 8 lanes.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-vunary/vunary_body.h"

namespace ember::kernels::optimized {

using W = avx2::Vec;

extern const F32VUnaryConfig kF32VUnaryAvx2Config = {
    "avx2",
    kCpuAvx2 | kCpuFma | kCpuOsYmm,
    {
        ukernel<W, ClampOp>, ukernel<W, ExpOp>, ukernel<W, SigmoidOp>, ukernel<W, TanhOp>,
        ukernel<W, GeluOp>, ukernel<W, GeluTanhOp>, ukernel<W, SiluOp>, ukernel<W, HardSwishOp>,
        ukernel<W, HardSigmoidOp>, ukernel<W, NegOp>, ukernel<W, SqrtOp>, ukernel<W, RsqrtOp>,
        ukernel<W, AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
