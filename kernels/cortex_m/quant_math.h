// The integer arithmetic every Cortex-M int8 kernel variant shares, so that
// scalar, DSP and Helium results are identical bit for bit.
//
// Requantization scales an int32 accumulator by a real multiplier given as
// a Q31 `multiplier` in [2^30, 2^31) (or 0) and a power-of-two `shift`
// (real = multiplier * 2^(shift - 31)), as TFLite Micro and CMSIS-NN store it:
//   x = acc << max(shift, 0)                          (wraps, as the ISA's shift)
//   y = (x * multiplier + 2^30) >> 31                 (Helium's VQRDMULH)
//   z = (y + 2^(r - 1)) >> r,  r = max(-shift, 0)     (Helium's VRSHL)
// Both roundings go half up (toward +inf), which is what the Helium
// instructions do; the scalar and DSP variants compute the same in 64 bits.
// python/ember/targets/cortex_m/quant.py chooses multiplier and shift.
#pragma once

#include <cstdint>

namespace ember::cortex_m {

inline int32_t requantize(int32_t acc, int32_t multiplier, int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(acc) << left);
  const int64_t product = static_cast<int64_t>(shifted) * multiplier;
  const int32_t high = static_cast<int32_t>((product + (int64_t{1} << 30)) >> 31);
  if (right == 0) return high;
  // (high + 2^(right - 1)) >> right without the overflow of the addition:
  // the rounding adds one when the last bit shifted out is set.
  return (high >> right) + ((high >> (right - 1)) & 1);
}

inline int8_t clamp_s8(int32_t value, int32_t low, int32_t high) {
  return static_cast<int8_t>(value < low ? low : value > high ? high : value);
}

// acc requantized, moved to the output zero point and clamped to the fused
// activation's range (relu / relu6 as int8 bounds).
inline int8_t requantize_s8(int32_t acc, int32_t multiplier, int32_t shift, int32_t zero_point,
                            int32_t low, int32_t high) {
  return clamp_s8(requantize(acc, multiplier, shift) + zero_point, low, high);
}

}  // namespace ember::cortex_m
