// f32 binary microkernels for AVX2 (+ FMA, required with it by the config):
// vbinary_body.h at 8 lanes, compiled with -mavx2 -mfma for this file only.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-vbinary/vbinary_body.h"

namespace ember::kernels::optimized {
namespace {

using K = VBinaryKernels<avx2::Vec>;

}  // namespace

extern const F32VBinaryConfig kF32VBinaryAvx2Config = {
    "avx2",
    kCpuAvx2 | kCpuFma | kCpuOsYmm,
    EMBER_F32_VBINARY_OPS(K::vv),
    EMBER_F32_VBINARY_OPS(K::vs),
    EMBER_F32_VBINARY_OPS(K::rows),
};

}  // namespace ember::kernels::optimized
