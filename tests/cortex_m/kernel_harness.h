// What the Cortex-M kernel tester and bench share: a deterministic random
// stream, static buffers (no heap on the board), and the kernels' argument
// sets built from a shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/cortex_m/s8_kernels.h"

namespace ember::cortex_m::testing {

// xorshift64*: the same numbers on every board and build.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return static_cast<uint32_t>((state_ * 0x2545F4914F6CDD1Dull) >> 32);
  }
  // Uniform in [low, high].
  int32_t range(int32_t low, int32_t high) {
    return low + static_cast<int32_t>(next() % static_cast<uint32_t>(high - low + 1));
  }
  void fill(int8_t* data, size_t count, int32_t low = -128, int32_t high = 127) {
    for (size_t i = 0; i < count; ++i) data[i] = static_cast<int8_t>(range(low, high));
  }

 private:
  uint64_t state_;
};

// Static storage for one call's tensors (the largest case fits).
struct Buffers {
  static constexpr size_t kBytes = 96 * 1024;
  alignas(16) int8_t input[kBytes];
  alignas(16) int8_t input2[kBytes];
  alignas(16) int8_t weight[kBytes];
  alignas(16) int8_t scratch[16 * 1024];
  alignas(16) int8_t out[kBytes];
  alignas(16) int8_t expected[kBytes];
  alignas(16) int32_t bias[1024];
  alignas(16) int32_t multiplier[1024];
  alignas(16) int32_t shift[1024];
  alignas(16) float scale[1024];
  alignas(16) float float_bias[1024];
};

// Per-channel parameters as an exporter makes them: multipliers in
// [2^30, 2^31), shifts mostly in the usual range with the extremes mixed in.
inline void fill_requant(Random& rng, Buffers& b, int32_t channels) {
  for (int32_t c = 0; c < channels; ++c) {
    b.multiplier[c] = static_cast<int32_t>((1u << 30) + (rng.next() >> 2));
    const int32_t pick = rng.range(0, 15);
    b.shift[c] = pick == 0 ? -31 : pick == 1 ? 0 : pick == 2 ? 2 : rng.range(-12, -4);
    b.bias[c] = rng.range(-(1 << 20), 1 << 20);
    b.scale[c] = static_cast<float>(rng.range(1, 1000)) * 1e-5f;
    b.float_bias[c] = static_cast<float>(rng.range(-1000, 1000)) * 1e-3f;
  }
}

inline Requant requant_of(Random& rng, const Buffers& b) {
  const int32_t low = rng.range(-128, 0);
  return Requant{b.multiplier, b.shift, rng.range(-128, 127), low, rng.range(low, 127)};
}

inline ConvShape conv_shape(int32_t batches, int32_t in_h, int32_t in_w, int32_t in_c,
                            int32_t out_c, int32_t kernel_h, int32_t kernel_w, int32_t stride,
                            int32_t pad_h, int32_t pad_w, int32_t dilation, int32_t multiplier = 1) {
  ConvShape s{};
  s.batches = batches, s.in_h = in_h, s.in_w = in_w, s.in_c = in_c, s.out_c = out_c;
  s.kernel_h = kernel_h, s.kernel_w = kernel_w, s.stride_h = s.stride_w = stride;
  s.pad_h = pad_h, s.pad_w = pad_w, s.dilation_h = s.dilation_w = dilation;
  s.out_h = (in_h + 2 * pad_h - dilation * (kernel_h - 1) - 1) / stride + 1;
  s.out_w = (in_w + 2 * pad_w - dilation * (kernel_w - 1) - 1) / stride + 1;
  s.depth_multiplier = multiplier;
  return s;
}

inline size_t conv_out_bytes(const ConvShape& s) {
  return static_cast<size_t>(s.batches) * s.out_h * s.out_w * s.out_c;
}

inline PoolShape pool_shape(int32_t in_h, int32_t in_w, int32_t channels, int32_t kernel,
                            int32_t stride, int32_t pad, bool count_include_pad) {
  PoolShape s{};
  s.batches = 1, s.in_h = in_h, s.in_w = in_w, s.channels = channels;
  s.kernel_h = s.kernel_w = kernel, s.stride_h = s.stride_w = stride, s.pad_h = s.pad_w = pad;
  s.out_h = (in_h + 2 * pad - kernel) / stride + 1;
  s.out_w = (in_w + 2 * pad - kernel) / stride + 1;
  s.count_include_pad = count_include_pad;
  return s;
}

}  // namespace ember::cortex_m::testing
