// f32 reduction microkernels for AArch64 Advanced SIMD (part of the base ISA:
// no extra flags): reduce_body.h at 4 lanes.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-reduce/reduce_body.h"

namespace ember::kernels::optimized {

using W = neon::Vec;

extern const F32ReduceConfig kF32ReduceNeonConfig = {
    "neon", kCpuNeon, rsum<W>, rmax<W>, vadd_acc<W>, vmax_acc<W>, cadd_acc<W>, cmax_acc<W>,
};

}  // namespace ember::kernels::optimized
