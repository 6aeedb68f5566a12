// f32 reduction microkernels for AVX-512, compiled with ${EMBER_AVX512_FLAGS}
// for this file only: reduce_body.h at 16 lanes.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/avx512_math.h"
#include "kernels/optimized/f32-reduce/reduce_body.h"

namespace ember::kernels::optimized {

using W = avx512::Vec;

extern const F32ReduceConfig kF32ReduceAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    rsum<W>, rmax<W>, vadd_acc<W>, vmax_acc<W>, cadd_acc<W>, cmax_acc<W>,
};

}  // namespace ember::kernels::optimized
