// f32 unary microkernels for AArch64 Advanced SIMD (part of the base ISA: no
// extra flags): vunary_body.h at 4 lanes.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-vunary/vunary_body.h"

namespace ember::kernels::optimized {

using W = neon::Vec;

extern const F32VUnaryConfig kF32VUnaryNeonConfig = {
    "neon", kCpuNeon,
    {
        ukernel<W, ClampOp>, ukernel<W, ExpOp>, ukernel<W, SigmoidOp>, ukernel<W, TanhOp>,
        ukernel<W, GeluOp>, ukernel<W, GeluTanhOp>, ukernel<W, SiluOp>, ukernel<W, HardSwishOp>,
        ukernel<W, HardSigmoidOp>, ukernel<W, NegOp>, ukernel<W, SqrtOp>, ukernel<W, RsqrtOp>,
        ukernel<W, AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
