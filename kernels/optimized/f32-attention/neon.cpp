// f32 attention for AArch64 Advanced SIMD (part of the base ISA: no extra
// flags): rows_body.h's row operations at 4 lanes, and K^T packed through 4 x 4
// transposes in registers.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-attention/f32_attention.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-attention/rows_body.h"

namespace ember::kernels::optimized {
namespace {

using W = neon::Vec;

// dst[c * ld + r] = src[r * lds + c] for a 4 x 4 block.
void transpose4x4(const float* src, size_t lds, float* dst, size_t ld) {
  const float32x4_t r0 = vld1q_f32(src), r1 = vld1q_f32(src + lds);
  const float32x4_t r2 = vld1q_f32(src + 2 * lds), r3 = vld1q_f32(src + 3 * lds);
  const float64x2_t t0 = vreinterpretq_f64_f32(vtrn1q_f32(r0, r1));
  const float64x2_t t1 = vreinterpretq_f64_f32(vtrn2q_f32(r0, r1));
  const float64x2_t t2 = vreinterpretq_f64_f32(vtrn1q_f32(r2, r3));
  const float64x2_t t3 = vreinterpretq_f64_f32(vtrn2q_f32(r2, r3));
  vst1q_f32(dst, vreinterpretq_f32_f64(vtrn1q_f64(t0, t2)));
  vst1q_f32(dst + ld, vreinterpretq_f32_f64(vtrn1q_f64(t1, t3)));
  vst1q_f32(dst + 2 * ld, vreinterpretq_f32_f64(vtrn2q_f64(t0, t2)));
  vst1q_f32(dst + 3 * ld, vreinterpretq_f32_f64(vtrn2q_f64(t1, t3)));
}

}  // namespace

extern const F32AttentionConfig kF32AttentionNeonConfig = {
    "neon", kCpuNeon, row_max<W>, exp_row<W>, scale_row<W>, pack_kt<4, transpose4x4>, scores<W>,
    accumulate<W>,
};

}  // namespace ember::kernels::optimized
