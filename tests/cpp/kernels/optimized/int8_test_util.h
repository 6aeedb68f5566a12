// Helpers the int8 kernel testers share: seeded random int8, int32 and float
// data, and the requantization references (PyTorch's rounding, in float as
// the kernels compute it and in double as the exact value).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace ember::kernels::optimized::testing {

inline std::vector<int8_t> random_int8(size_t n, uint32_t seed, int lo = -128, int hi = 127) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(dist(gen));
  return v;
}

inline std::vector<int32_t> random_int32(size_t n, uint32_t seed, int32_t lo, int32_t hi) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> dist(lo, hi);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

inline std::vector<float> random_float(size_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

// round_half_even(v) + zero, clamped to [lo, hi]: PyTorch's quantize step.
inline int32_t round_clamp(double v, int32_t zero, int32_t lo, int32_t hi) {
  const double r = std::nearbyint(v) + zero;
  return r < lo ? lo : (r > hi ? hi : static_cast<int32_t>(r));
}

// What the kernels compute for an exact int32 sum: float(acc) * scale in
// float, rounded half to even.
inline int32_t requant_float(int64_t acc, float scale, int32_t zero, int32_t lo, int32_t hi) {
  const float v = static_cast<float>(static_cast<int32_t>(acc)) * scale;
  return round_clamp(v, zero, lo, hi);
}

// The exact value's rounding (acc * scale in double): the kernels may differ
// from it by 1 where float rounding moves a value across a half.
inline int32_t requant_double(int64_t acc, float scale, int32_t zero, int32_t lo, int32_t hi) {
  return round_clamp(static_cast<double>(acc) * static_cast<double>(scale), zero, lo, hi);
}

}  // namespace ember::kernels::optimized::testing
