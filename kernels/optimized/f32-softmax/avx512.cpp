// f32 softmax microkernels for AVX-512, compiled with ${EMBER_AVX512_FLAGS}
// for this file only: softmax_body.h at 16 lanes.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/avx512_math.h"
#include "kernels/optimized/f32-softmax/softmax_body.h"

namespace ember::kernels::optimized {

using W = avx512::Vec;

extern const F32SoftmaxConfig kF32SoftmaxAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    rmax<W>, raddstoreexpminusmax<W>, raddexpminusmax<W>, vscale<W>, vsubsub<W>, vmax_acc<W>,
    vexpminus_acc<W>, vmul<W>, vsubsubv<W>,
};

}  // namespace ember::kernels::optimized
