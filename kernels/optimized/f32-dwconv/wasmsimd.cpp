// f32 depthwise convolution for WebAssembly SIMD128 (neon.cpp's structure):
// 8-channel tiles (two vector accumulators), taps unrolled for 3x3 and 5x5,
// a scalar channel tail; multiplies and adds unfused.
#include <wasm_simd128.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-dwconv/f32_dwconv.h"
#include "kernels/optimized/simd/wasm_math.h"

namespace ember::kernels::optimized {
namespace {

using wasm::clamp;
using wasm::load;
using wasm::madd;
using wasm::splat;
using wasm::store;

constexpr size_t kTile = 8;

inline const float* translate(const float* p, size_t offset, const float* zero) {
  return p != zero ? reinterpret_cast<const float*>(reinterpret_cast<uintptr_t>(p) + offset)
                   : zero;
}

template <size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const float* w, float* out, v128_t low,
                                                 v128_t high, float low_s, float high_s) {
  const size_t stride = (nt + 1) * kTile;
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += stride) {
    v128_t acc0 = load(w);
    v128_t acc1 = load(w + 4);
    for (size_t t = 0; t < nt; ++t) {
      const float* i0 = in(t) + c;
      const float* w0 = w + kTile + t * kTile;
      acc0 = madd(load(i0), load(w0), acc0);
      acc1 = madd(load(i0 + 4), load(w0 + 4), acc1);
    }
    store(out + c, clamp(acc0, low, high));
    store(out + c + 4, clamp(acc1, low, high));
  }
  if (c == channels) return;
  size_t lane = 0;
  if (channels - c >= 4) {
    v128_t acc = load(w);
    for (size_t t = 0; t < nt; ++t) acc = madd(load(in(t) + c), load(w + kTile + t * kTile), acc);
    store(out + c, clamp(acc, low, high));
    c += 4;
    lane = 4;
  }
  for (; c < channels; ++c, ++lane) {
    float acc = w[lane];
    for (size_t t = 0; t < nt; ++t) acc += in(t)[c] * w[kTile + t * kTile + lane];
    if (acc < low_s) acc = low_s;
    if (acc > high_s) acc = high_s;
    out[c] = acc;
  }
}

template <size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const float* const* input,
            size_t input_stride, size_t input_offset, const float* zero, const float* weights,
            float* output, size_t output_stride, const F32DwconvParams* params) {
  const v128_t low = splat(params->min);
  const v128_t high = splat(params->max);
  for (size_t x = 0; x < pixels; ++x, input += input_stride, output += output_stride) {
    if constexpr (T != 0) {
      const float* in[T];
      for (size_t t = 0; t < T; ++t) in[t] = translate(input[t], input_offset, zero);
      pixel<T>(T, channels, [&](size_t t) { return in[t]; }, weights, output, low, high,
               params->min, params->max);
    } else {
      pixel<0>(taps, channels,
               [&](size_t t) { return translate(input[t], input_offset, zero); }, weights,
               output, low, high, params->min, params->max);
    }
  }
}

}  // namespace

extern const F32DwconvConfig kF32DwconvWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, kTile, dwconv<9>, dwconv<25>, dwconv<0>,
};

}  // namespace ember::kernels::optimized
