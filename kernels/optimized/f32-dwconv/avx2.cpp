// f32 depthwise convolution for AVX2 + FMA: dwconv_body.h at 8 lanes
// (16-channel tiles, taps unrolled for 3x3 and 5x5, a masked channel tail).
// Compiled with -mavx2 -mfma for this file only.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-dwconv/dwconv_body.h"

namespace ember::kernels::optimized {

using W = avx2::Vec;

extern const F32DwconvConfig kF32DwconvAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, 2 * W::kLanes, dwconv<W, 9>, dwconv<W, 25>,
    dwconv<W, 0>,
};

}  // namespace ember::kernels::optimized
