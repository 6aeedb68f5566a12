// int8 depthwise convolution for WebAssembly SIMD128: avx2_tiles.h's
// arithmetic at 128 bits. 16-channel tiles; two taps' inputs interleaved
// byte by byte and sign-extended make int16 pairs, which i32x4.dot_i16x8_s
// (pmaddwd on x86) sums against the packed weight pairs
// (Qs8DwconvLayout::S16Pairs) into int32 lanes, exactly.
#include <wasm_simd128.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-dwconv/pixels_body.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kTile = 16;

// One tile of 16 channels of one pixel, tap t's inputs at in(t).
template <size_t T, typename In>
__attribute__((always_inline)) inline void tile(size_t nt, In in, const uint8_t* w, int8_t* out,
                                                const Qs8RequantParams* params) {
  const int32_t* head = reinterpret_cast<const int32_t*>(w);
  const uint8_t* pairs = w + kTile * sizeof(int32_t);
  v128_t acc[4];
  for (size_t v = 0; v < 4; ++v) acc[v] = wasm_v128_load(head + 4 * v);
  for (size_t t = 0; t < nt; t += 2, pairs += 4 * kTile) {
    const v128_t x0 = wasm_v128_load(in(t));
    // An odd count's last pair: the padding tap's weight is zero, any input
    // will do, and this one is in bounds.
    const v128_t x1 = t + 1 < nt ? wasm_v128_load(in(t + 1)) : x0;
    const v128_t lo = wasm_i8x16_shuffle(x0, x1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22,
                                         7, 23);
    const v128_t hi = wasm_i8x16_shuffle(x0, x1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14,
                                         30, 15, 31);
    const v128_t x[4] = {wasm_i16x8_extend_low_i8x16(lo), wasm_i16x8_extend_high_i8x16(lo),
                         wasm_i16x8_extend_low_i8x16(hi), wasm_i16x8_extend_high_i8x16(hi)};
    for (size_t v = 0; v < 4; ++v) {
      acc[v] = wasm_i32x4_add(acc[v], wasm_i32x4_dot_i16x8(x[v], wasm_v128_load(pairs + 16 * v)));
    }
  }
  const float* scale = reinterpret_cast<const float*>(pairs);
  const v128_t low = wasm_f32x4_splat(static_cast<float>(params->min - params->zero));
  const v128_t high = wasm_f32x4_splat(static_cast<float>(params->max - params->zero));
  const v128_t zero = wasm_i32x4_splat(params->zero);
  v128_t q[4];
  for (size_t v = 0; v < 4; ++v) {
    // Scale, clamp (integer bounds less the zero point), round half to even,
    // add the zero point; the narrowings only narrow.
    v128_t f = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc[v]), wasm_v128_load(scale + 4 * v));
    f = wasm_f32x4_pmin(wasm_f32x4_pmax(f, low), high);
    q[v] = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(f)), zero);
  }
  wasm_v128_store(out, wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(q[0], q[1]),
                                               wasm_i16x8_narrow_i32x4(q[2], q[3])));
}

// One pixel's channels, tap t's input pixel at in(t).
template <size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const uint8_t* w, int8_t* out,
                                                 const Qs8RequantParams* params) {
  const size_t tile_bytes = 2 * kTile * sizeof(int32_t) + (nt + 1) / 2 * 4 * kTile;
  size_t c = 0;
  for (; c + kTile <= channels; c += kTile, w += tile_bytes) {
    tile<T>(nt, [&](size_t t) { return in(t) + c; }, w, out + c, params);
  }
  // The last, partial tile in plain C++: no vector load may read past the
  // input's channels.
  const int32_t* head = reinterpret_cast<const int32_t*>(w);
  const uint8_t* pairs = w + kTile * sizeof(int32_t);
  const float* scale = reinterpret_cast<const float*>(pairs + (nt + 1) / 2 * 4 * kTile);
  for (size_t j = 0; c + j < channels; ++j) {
    uint32_t acc = static_cast<uint32_t>(head[j]);
    for (size_t t = 0; t < nt; ++t) {
      int16_t wt;
      std::memcpy(&wt, pairs + ((t / 2) * kTile + j) * 4 + (t % 2) * 2, sizeof(wt));
      acc += static_cast<uint32_t>(in(t)[c + j] * wt);
    }
    out[c + j] = qs8_requantize(static_cast<int32_t>(acc), scale[j], *params);
  }
}

// T: the tap count, or 0 when it is known at run time only.
template <size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const int8_t* const* input,
            size_t input_stride, size_t input_offset, const int8_t* zero, const void* weights,
            int8_t* output, size_t output_stride, const Qs8RequantParams* params) {
  const uint8_t* w = static_cast<const uint8_t*>(weights);
  walk_pixels<T>(taps, pixels, input, input_stride, input_offset, zero, output, output_stride,
                 [&](size_t nt, auto in, int8_t* out) {
                   pixel<T>(nt, channels, in, w, out, params);
                 });
}

}  // namespace

extern const Qs8DwconvConfig kQs8DwconvWasmSimdConfig = {
    "wasmsimd", kCpuWasmSimd, kTile, Qs8DwconvLayout::S16Pairs,
    dwconv<9>, dwconv<25>, dwconv<0>,
};

}  // namespace ember::kernels::optimized
