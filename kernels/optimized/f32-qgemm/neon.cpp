// NEON microkernels of the quantized GEMM (AArch64: Advanced SIMD is
// baseline): qgemm_body.h at 4 lanes, a panel of 16 rows as four vectors.
#include <arm_neon.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-qgemm/qgemm_body.h"

namespace ember::kernels::optimized {
namespace {

struct Q : neon::Vec {
  using Codes = uint32x4_t;
  static constexpr bool kPrefetchAhead = false;
  static Codes codes(const uint8_t* p) { return vreinterpretq_u32_u8(vld1q_u8(p)); }
  static V halfs(const uint8_t* p) {
    uint16_t bits[4];
    __builtin_memcpy(bits, p, 8);
    return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(bits)));
  }
  // The shifts take immediates in 1..32: kI == 0 (no shift) still names one.
  template <int kI>
  static void nibbles(Codes v, V* low, V* high16) {
    const uint32x4_t t = kI == 0 ? v : vshrq_n_u32(v, kI == 0 ? 1 : 8 * kI);
    *low = vcvtq_f32_u32(vandq_u32(t, vdupq_n_u32(0x0F)));
    *high16 = vcvtq_f32_u32(vandq_u32(t, vdupq_n_u32(0xF0)));
  }
  template <int kI>
  static V signed_byte(Codes v) {
    const int32x4_t s = vreinterpretq_s32_u32(v);
    const int32x4_t t = kI == 3 ? s : vshlq_n_s32(s, kI == 3 ? 0 : 24 - 8 * kI);
    return vcvtq_f32_s32(vshrq_n_s32(t, 24));
  }
};

}  // namespace

extern const F32QGemmConfig kF32QGemmNeonConfig = qgemm_config<Q>("neon", kCpuNeon);

}  // namespace ember::kernels::optimized
