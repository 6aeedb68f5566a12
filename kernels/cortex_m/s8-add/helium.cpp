// Elementwise add with Helium: four int32 lanes per step (widening byte
// loads, VQRDMULH / VRSHL requantization, a narrowing byte store).
#include "kernels/cortex_m/helium_util.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void add_s8_helium(const AddParams& p, const int8_t* a, const int8_t* b, int8_t* out,
                   int32_t count) {
  const int32x4_t a_mult = vdupq_n_s32(p.a_multiplier), a_shift = vdupq_n_s32(p.a_shift);
  const int32x4_t b_mult = vdupq_n_s32(p.b_multiplier), b_shift = vdupq_n_s32(p.b_shift);
  const int32x4_t o_mult = vdupq_n_s32(p.output_multiplier), o_shift = vdupq_n_s32(p.output_shift);
  const int32x4_t left = vdupq_n_s32(p.left_shift);
  for (int32_t i = 0; i < count; i += 4) {
    const mve_pred16_t pred = vctp32q(static_cast<uint32_t>(count - i));
    const int32x4_t va = vsubq_n_s32(vldrbq_z_s32(a + i, pred), p.a_zero_point);
    const int32x4_t vb = vsubq_n_s32(vldrbq_z_s32(b + i, pred), p.b_zero_point);
    const int32x4_t sa = helium::requantize(vshlq_s32(va, left), a_mult, a_shift);
    const int32x4_t sb = helium::requantize(vshlq_s32(vb, left), b_mult, b_shift);
    const int32x4_t sum = helium::requantize_s8(vaddq_s32(sa, sb), o_mult, o_shift,
                                                p.output_zero_point, p.activation_min,
                                                p.activation_max);
    vstrbq_p_s32(out + i, sum, pred);
  }
}

}  // namespace ember::cortex_m
