// f32 layer-norm microkernels for AVX-512, compiled with ${EMBER_AVX512_FLAGS}
// for this file only: layernorm_body.h at 16 lanes, rows read in aligned
// 64-byte lines (avx512::for_each_block64) and stores kept within lines.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-layernorm/f32_layernorm.h"
#include "kernels/optimized/simd/avx512_math.h"
#include "kernels/optimized/f32-layernorm/layernorm_body.h"

namespace ember::kernels::optimized {

extern const F32LayerNormConfig kF32LayerNormAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, layernorm<avx512::Vec>,
    rmsnorm<avx512::Vec>,
};

}  // namespace ember::kernels::optimized
