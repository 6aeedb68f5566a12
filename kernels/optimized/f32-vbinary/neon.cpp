// f32 binary microkernels for AArch64 Advanced SIMD (baseline on AArch64, no
// extra flags): vbinary_body.h at 4 lanes.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-vbinary/vbinary_body.h"

namespace ember::kernels::optimized {
namespace {

using K = VBinaryKernels<neon::Vec>;

}  // namespace

extern const F32VBinaryConfig kF32VBinaryNeonConfig = {
    "neon",
    kCpuNeon,
    EMBER_F32_VBINARY_OPS(K::vv),
    EMBER_F32_VBINARY_OPS(K::vs),
    EMBER_F32_VBINARY_OPS(K::rows),
};

}  // namespace ember::kernels::optimized
