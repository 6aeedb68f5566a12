// Helpers for the Helium (MVE) variants: the requantization of four int32
// lanes as quant_math.h defines it, and predicated loads for loop tails.
#pragma once

#include <arm_mve.h>

#include <cstdint>

namespace ember::cortex_m::helium {

#define EMBER_CM_INLINE inline __attribute__((always_inline))

// quant_math.h's requantize, lane by lane: VQRDMULH is (2ab + 2^31) >> 32
// (= (ab + 2^30) >> 31), VRSHL by a negative amount a right shift that
// rounds half up.
EMBER_CM_INLINE int32x4_t requantize(int32x4_t acc, int32x4_t multiplier, int32x4_t shift) {
  const int32x4_t zero = vdupq_n_s32(0);
  const int32x4_t shifted = vshlq_s32(acc, vmaxq_s32(shift, zero));
  return vrshlq_s32(vqrdmulhq_s32(shifted, multiplier), vminq_s32(shift, zero));
}

// requantize, + zero point, clamped to [low, high].
EMBER_CM_INLINE int32x4_t requantize_s8(int32x4_t acc, int32x4_t multiplier, int32x4_t shift,
                                        int32_t zero_point, int32_t low, int32_t high) {
  const int32x4_t value = vaddq_n_s32(requantize(acc, multiplier, shift), zero_point);
  return vminq_s32(vmaxq_s32(value, vdupq_n_s32(low)), vdupq_n_s32(high));
}

}  // namespace ember::cortex_m::helium
