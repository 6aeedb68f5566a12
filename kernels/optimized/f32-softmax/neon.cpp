// f32 softmax microkernels for AArch64 Advanced SIMD (part of the base ISA: no
// extra flags): softmax_body.h at 4 lanes.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-softmax/softmax_body.h"

namespace ember::kernels::optimized {

using W = neon::Vec;

extern const F32SoftmaxConfig kF32SoftmaxNeonConfig = {
    "neon", kCpuNeon,
    rmax<W>, raddstoreexpminusmax<W>, raddexpminusmax<W>, vscale<W>, vsubsub<W>, vmax_acc<W>,
    vexpminus_acc<W>, vmul<W>, vsubsubv<W>,
};

}  // namespace ember::kernels::optimized
