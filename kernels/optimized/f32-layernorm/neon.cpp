// f32 layer-norm microkernels for AArch64 Advanced SIMD (part of the base ISA:
// no extra flags): layernorm_body.h at 4 lanes.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-layernorm/layernorm_body.h"

namespace ember::kernels::optimized {

using W = neon::Vec;

extern const F32LayerNormConfig kF32LayerNormNeonConfig = {
    "neon", kCpuNeon, layernorm<W>, rmsnorm<W>,
};

}  // namespace ember::kernels::optimized
