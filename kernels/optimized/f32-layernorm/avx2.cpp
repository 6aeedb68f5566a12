// f32 layer-norm microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for
// this file only: layernorm_body.h at 8 lanes.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-layernorm/layernorm_body.h"

namespace ember::kernels::optimized {

extern const F32LayerNormConfig kF32LayerNormAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, layernorm<avx2::Vec>, rmsnorm<avx2::Vec>,
};

}  // namespace ember::kernels::optimized
