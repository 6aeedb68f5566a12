// 16-bit floating point storage types: IEEE half and bfloat16. Arithmetic is
// done in float; these only convert, with round-to-nearest-even like PyTorch.
#pragma once

#include <cstdint>
#include <cstring>

namespace ember {

namespace detail {
inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}
}  // namespace detail

struct Half {
  uint16_t bits = 0;

  Half() = default;
  Half(float value) : bits(from_float(value)) {}  // NOLINT: implicit like c10::Half
  operator float() const { return to_float(bits); }  // NOLINT

  // The rounding trick of the FP16 library (also used by c10::Half): scaling
  // by powers of two makes the float unit round the mantissa for us.
  static uint16_t from_float(float f) {
    const float scale_to_inf = detail::bits_float(0x77800000u);   // 2^112
    const float scale_to_zero = detail::bits_float(0x08800000u);  // 2^-110
    float base = (f < 0 ? -f : f) * scale_to_inf * scale_to_zero;
    const uint32_t w = detail::float_bits(f);
    const uint32_t shl1_w = w + w;
    const uint32_t sign = w & 0x80000000u;
    uint32_t bias = shl1_w & 0xff000000u;
    if (bias < 0x71000000u) {
      bias = 0x71000000u;
    }
    base = detail::bits_float((bias >> 1) + 0x07800000u) + base;
    const uint32_t bits = detail::float_bits(base);
    const uint32_t exp_bits = (bits >> 13) & 0x00007c00u;
    const uint32_t mantissa_bits = bits & 0x00000fffu;
    const uint32_t nonsign = exp_bits + mantissa_bits;
    return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xff000000u ? 0x7e00u : nonsign));
  }

  static float to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) {
      return detail::bits_float(sign | 0x7f800000u | (mant << 13));
    }
    if (exp == 0) {
      if (mant == 0) {
        return detail::bits_float(sign);
      }
      // subnormal: value = mant * 2^-24
      const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
      return sign ? -v : v;
    }
    return detail::bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
  }
};

struct BFloat16 {
  uint16_t bits = 0;

  BFloat16() = default;
  BFloat16(float value) : bits(from_float(value)) {}  // NOLINT
  operator float() const { return detail::bits_float(static_cast<uint32_t>(bits) << 16); }  // NOLINT

  static uint16_t from_float(float f) {
    const uint32_t x = detail::float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
      return 0x7fc0;  // canonical NaN
    }
    const uint32_t rounding_bias = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>((x + rounding_bias) >> 16);
  }
};

}  // namespace ember
