// f32 softmax microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for this
// file only: softmax_body.h at 8 lanes.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-softmax/softmax_body.h"

namespace ember::kernels::optimized {

using W = avx2::Vec;

extern const F32SoftmaxConfig kF32SoftmaxAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm,
    rmax<W>, raddstoreexpminusmax<W>, raddexpminusmax<W>, vscale<W>, vsubsub<W>, vmax_acc<W>,
    vexpminus_acc<W>, vmul<W>, vsubsubv<W>,
};

}  // namespace ember::kernels::optimized
