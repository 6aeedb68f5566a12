// f32 unary microkernels for AVX-512, compiled with ${EMBER_AVX512_FLAGS} for
// this file only: vunary_body.h at 16 lanes for the polynomial ops, at 8
// (avx2::Vec) for the rest. Those are a few instructions per element (clamp,
// neg, abs, the hard functions: their speed is the cache's) or sqrt and
// rsqrt (a 512-bit sqrt or divide yields no more lanes per cycle than a
// 256-bit one); their 512-bit loop measured slower on data in L2 (up to
// 25%) and no faster from memory, its gain in L1 (~30%) on sizes too small
// to matter.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/simd/avx512_math.h"
#include "kernels/optimized/f32-vunary/vunary_body.h"

namespace ember::kernels::optimized {

using Zmm = avx512::Vec;
using Ymm = avx2::Vec;

extern const F32VUnaryConfig kF32VUnaryAvx512Config = {
    "avx512",
    kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    {
        ukernel<Ymm, ClampOp>,     ukernel<Zmm, ExpOp>,         ukernel<Zmm, SigmoidOp>,
        ukernel<Zmm, TanhOp>,      ukernel<Zmm, GeluOp>,        ukernel<Zmm, GeluTanhOp>,
        ukernel<Zmm, SiluOp>,      ukernel<Ymm, HardSwishOp>,   ukernel<Ymm, HardSigmoidOp>,
        ukernel<Ymm, NegOp>,       ukernel<Ymm, SqrtOp>,        ukernel<Ymm, RsqrtOp>,
        ukernel<Ymm, AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
