// f32 depthwise convolution for AArch64 Advanced SIMD (part of the base ISA: no
// extra flags): dwconv_body.h at 4 lanes.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-dwconv/dwconv_body.h"

namespace ember::kernels::optimized {

using W = neon::Vec;

extern const F32DwconvConfig kF32DwconvNeonConfig = {
    "neon", kCpuNeon, 2 * W::kLanes, dwconv<W, 9>, dwconv<W, 25>, dwconv<W, 0>,
};

}  // namespace ember::kernels::optimized
