// AVX-512 microkernels of the quantized GEMM: qgemm_body.h at 16 lanes
// (avx512_codes.h).
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "kernels/optimized/f32-qgemm/avx512_codes.h"

namespace ember::kernels::optimized {

extern const F32QGemmConfig kF32QGemmAvx512Config = qgemm_config<Q>(
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm);

}  // namespace ember::kernels::optimized
