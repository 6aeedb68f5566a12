// int8 requantization and the float conversions with Helium, four lanes at
// a time. quantize rounds as the scalar code (nearbyint: half to even,
// VRINTN), maps NaN to the zero point and clamps in float before converting.
#include "kernels/cortex_m/helium_util.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void requantize_s8_helium(const int8_t* input, int32_t count, int32_t input_zero_point,
                          int32_t multiplier, int32_t shift, int32_t output_zero_point,
                          int8_t* output) {
  const int32x4_t mult = vdupq_n_s32(multiplier), sh = vdupq_n_s32(shift);
  for (int32_t i = 0; i < count; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(count - i));
    const int32x4_t x = vsubq_n_s32(vldrbq_z_s32(input + i, p), input_zero_point);
    vstrbq_p_s32(output + i, helium::requantize_s8(x, mult, sh, output_zero_point, -128, 127), p);
  }
}

void quantize_f32_s8_helium(const float* input, int32_t count, float inv_scale, int32_t zero_point,
                            int32_t qmin, int32_t qmax, int8_t* output) {
  const float32x4_t low = vdupq_n_f32(static_cast<float>(qmin));
  const float32x4_t high = vdupq_n_f32(static_cast<float>(qmax));
  const float32x4_t zp = vdupq_n_f32(static_cast<float>(zero_point));
  for (int32_t i = 0; i < count; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(count - i));
    float32x4_t v = vaddq_f32(vrndnq_f32(vmulq_n_f32(vldrwq_z_f32(input + i, p), inv_scale)), zp);
    v = vpselq_f32(v, zp, vcmpeqq_f32(v, v));  // NaN -> the zero point
    v = vminnmq_f32(vmaxnmq_f32(v, low), high);
    vstrbq_p_s32(output + i, vcvtq_s32_f32(v), p);
  }
}

void dequantize_s8_f32_helium(const int8_t* input, int32_t count, float scale, int32_t zero_point,
                              float* output) {
  const float zp = static_cast<float>(zero_point);
  for (int32_t i = 0; i < count; i += 4) {
    const mve_pred16_t p = vctp32q(static_cast<uint32_t>(count - i));
    const float32x4_t q = vcvtq_f32_s32(vldrbq_z_s32(input + i, p));
    vstrwq_p_f32(output + i, vmulq_n_f32(vsubq_n_f32(q, zp), scale), p);
  }
}

}  // namespace ember::cortex_m
