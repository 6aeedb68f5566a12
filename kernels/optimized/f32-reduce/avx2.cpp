// f32 reduction microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for
// this file only: reduce_body.h at 8 lanes.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-reduce/reduce_body.h"

namespace ember::kernels::optimized {

using W = avx2::Vec;

extern const F32ReduceConfig kF32ReduceAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm,
    rsum<W>, rmax<W>, vadd_acc<W>, vmax_acc<W>, cadd_acc<W>, cmax_acc<W>,
};

}  // namespace ember::kernels::optimized
