// Pooling with Helium: max over 16 channels per VMAX, average summing four
// channels per vector of int32 lanes (the division per element, as the
// scalar code rounds it). Channel tails are predicated.
#include "kernels/cortex_m/helium_util.h"
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/s8-pool/pool.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void max_pool2d_s8_helium(const PoolShape& s, const int8_t* input, int8_t* output) {
  const int8x16_t low = vdupq_n_s8(static_cast<int8_t>(s.activation_min));
  const int8x16_t high = vdupq_n_s8(static_cast<int8_t>(s.activation_max));
  for_each_window(s, input, output, [&](const PoolWindow& w, const int8_t* image, int8_t* out) {
    for (int32_t c = 0; c < s.channels; c += 16) {
      const mve_pred16_t p = vctp8q(static_cast<uint32_t>(s.channels - c));
      int8x16_t best = vdupq_n_s8(-128);
      for (int32_t y = w.y0; y < w.y1; ++y) {
        for (int32_t x = w.x0; x < w.x1; ++x) {
          best = vmaxq_s8(best, vldrbq_z_s8(at(s, image, y, x, c), p));
        }
      }
      vstrbq_p_s8(out + c, vminq_s8(vmaxq_s8(best, low), high), p);
    }
  });
}

void avg_pool2d_s8_helium(const PoolShape& s, const int8_t* input, int8_t* output) {
  for_each_window(s, input, output, [&](const PoolWindow& w, const int8_t* image, int8_t* out) {
    const int32_t pads = w.count - (w.y1 - w.y0) * (w.x1 - w.x0);
    for (int32_t c = 0; c < s.channels; c += 4) {
      const mve_pred16_t p = vctp32q(static_cast<uint32_t>(s.channels - c));
      int32x4_t sum = vdupq_n_s32(pads * s.zero_point);
      for (int32_t y = w.y0; y < w.y1; ++y) {
        for (int32_t x = w.x0; x < w.x1; ++x) {
          sum = vaddq_s32(sum, vldrbq_z_s32(at(s, image, y, x, c), p));
        }
      }
      int32_t sums[4];
      vst1q_s32(sums, sum);
      const int32_t lanes = s.channels - c < 4 ? s.channels - c : 4;
      for (int32_t i = 0; i < lanes; ++i) {
        out[c + i] = clamp_s8(rounded_average(sums[i], w.count), s.activation_min,
                              s.activation_max);
      }
    }
  });
}

}  // namespace ember::cortex_m
