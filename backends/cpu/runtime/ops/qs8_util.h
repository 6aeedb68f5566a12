// What the CPU backend's int8 ops share: checked access to int8 and float
// constants, backend-owned byte buffers, and the static quantization of a
// layer's bias and requantization scales from its per-channel weight scales.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "backends/cpu/runtime/ops/op_util.h"

namespace ember::cpu {

// Backend-owned bytes, 64-byte aligned (packed weights, indirection zeros).
inline uint8_t* new_bytes(size_t n) {
  return reinterpret_cast<uint8_t*>(new_floats((n + sizeof(float) - 1) / sizeof(float)));
}
inline void delete_bytes(uint8_t* p) { delete_floats(reinterpret_cast<float*>(p)); }

inline bool is_int8(const ValueInfo& v) { return v.dtype == DataType::Int8; }

// Constant `v` when it holds `numel` elements of `dtype`, else null.
inline const void* typed_constant(const BuildContext& ctx, int64_t v, DataType dtype,
                                  size_t numel) {
  if (v < 0 || static_cast<uint64_t>(v) >= ctx.num_values) return nullptr;
  const ValueInfo& info = ctx.values[v];
  if (info.dtype != dtype || info.numel != numel) return nullptr;
  return ctx.constant(static_cast<uint32_t>(v));
}

// A statically quantized layer's per-channel numbers: the requantization
// multiplier in_scale * w_scale[c] / out_scale, and the float bias as int32
// at in_scale * w_scale[c] (rounded half to even, as the exporter's reference
// quantizes a bias), which the GEMM's accumulators start from.
struct Qs8Channels {
  float* scale = nullptr;
  int32_t* bias = nullptr;
  ~Qs8Channels() {
    delete_floats(scale);
    delete_floats(reinterpret_cast<float*>(bias));
  }
  // False when out of memory or a parameter is not a finite positive scale.
  bool fill(size_t n, float in_scale, const float* w_scale, const float* float_bias,
            float out_scale) {
    if (!(in_scale > 0.0f) || !std::isfinite(in_scale) || !(out_scale > 0.0f) ||
        !std::isfinite(out_scale)) {
      return false;
    }
    scale = new_floats(n);
    bias = reinterpret_cast<int32_t*>(new_floats(n));
    if (scale == nullptr || bias == nullptr) return false;
    for (size_t c = 0; c < n; ++c) {
      const double ws = w_scale[c];
      if (!(ws >= 0.0) || !std::isfinite(ws)) return false;
      scale[c] = static_cast<float>(double{in_scale} * ws / double{out_scale});
      const double step = double{in_scale} * ws;
      double q = float_bias != nullptr && step > 0.0 ? std::nearbyint(float_bias[c] / step) : 0.0;
      if (!(q == q)) q = 0.0;  // NaN bias
      q = q < -2147483648.0 ? -2147483648.0 : (q > 2147483647.0 ? 2147483647.0 : q);
      bias[c] = static_cast<int32_t>(q);
    }
    return true;
  }
};

// An int8 output's clamp within [-128, 127] (a fused relu: out_min = zero).
inline bool valid_int8_range(int32_t lo, int32_t hi, int32_t zero) {
  return lo >= -128 && hi <= 127 && lo <= hi && zero >= -128 && zero <= 127;
}

}  // namespace ember::cpu
