// Helpers for the DSP-extension variants (Armv7E-M, Armv8-M Mainline with
// DSP): four int8 values in a 32-bit word, split into two pairs of int16
// with SXTB16 so that SMLAD multiplies and adds two of them at once.
#pragma once

#include <arm_acle.h>

#include <cstdint>
#include <cstring>

namespace ember::cortex_m::dsp {

#define EMBER_CM_INLINE inline __attribute__((always_inline))

// Four int8 at `p` (any alignment: M-profile LDR takes unaligned addresses).
EMBER_CM_INLINE int32_t read4(const int8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

EMBER_CM_INLINE uint32_t ror8(int32_t v) {
  return (static_cast<uint32_t>(v) >> 8) | (static_cast<uint32_t>(v) << 24);
}

// Bytes 0 and 2, and bytes 1 and 3, each sign-extended to int16 pairs.
struct Pairs {
  int32_t even, odd;
};
EMBER_CM_INLINE Pairs split(int32_t v) {
  return {static_cast<int32_t>(__sxtb16(v)), static_cast<int32_t>(__sxtb16(static_cast<int32_t>(ror8(v))))};
}

// acc + the dot product of the four int8 of two words, split.
EMBER_CM_INLINE int32_t dot4(Pairs a, Pairs b, int32_t acc) {
  return __smlad(a.odd, b.odd, __smlad(a.even, b.even, acc));
}

}  // namespace ember::cortex_m::dsp
