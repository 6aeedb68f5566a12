// Winograd F(4x4, 3x3) and F(2x2, 3x3) transforms for AVX-512, compiled with
// ${EMBER_AVX512_FLAGS} for this file only: transforms.inc's algorithm
// (same matrices, same order: down the columns, then along the rows) written
// with intrinsics 16 channels wide. Each tile's patch is loaded straight
// from the input pixels and the results stored straight to the transformed
// buffer, both through the channel mask for a tail, so no channel block is
// copied through a staging array and no tail is a scalar loop.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-winograd/f32_winograd.h"
#include "kernels/optimized/simd/avx512_math.h"

namespace ember::kernels::optimized {
namespace {

using avx512::splat;
using avx512::tail_mask;

constexpr size_t kLanes = 16;

// F(4x4, 3x3): the matrices of transforms.inc.
struct F4x4 {
  static constexpr size_t kSide = 6;  // input patch side
  static constexpr size_t kOut = 4;   // outputs per tile side

  // o[i] = sum_j Bt[i][j] d[j].
  static void input_1d(const __m512 d[kSide], __m512 o[kSide]) {
    const __m512 four = splat(4.0f), five = splat(5.0f), two = splat(2.0f);
    o[0] = _mm512_fmadd_ps(four, d[0], _mm512_fnmadd_ps(five, d[2], d[4]));
    o[1] = _mm512_fnmadd_ps(four, _mm512_add_ps(d[1], d[2]), _mm512_add_ps(d[3], d[4]));
    o[2] = _mm512_fmadd_ps(four, _mm512_sub_ps(d[1], d[2]), _mm512_sub_ps(d[4], d[3]));
    const __m512 d42 = _mm512_sub_ps(d[4], d[2]), d31 = _mm512_sub_ps(d[3], d[1]);
    o[3] = _mm512_fmadd_ps(two, d31, d42);
    o[4] = _mm512_fnmadd_ps(two, d31, d42);
    o[5] = _mm512_fmadd_ps(four, d[1], _mm512_fnmadd_ps(five, d[3], d[5]));
  }

  // o[i] = sum_j At[i][j] m[j], i < 4.
  static void output_1d(const __m512 m[kSide], __m512 o[kOut]) {
    const __m512 s12 = _mm512_add_ps(m[1], m[2]), d12 = _mm512_sub_ps(m[1], m[2]);
    const __m512 s34 = _mm512_add_ps(m[3], m[4]), d34 = _mm512_sub_ps(m[3], m[4]);
    o[0] = _mm512_add_ps(_mm512_add_ps(m[0], s12), s34);
    o[1] = _mm512_fmadd_ps(splat(2.0f), d34, d12);
    o[2] = _mm512_fmadd_ps(splat(4.0f), s34, s12);
    o[3] = _mm512_fmadd_ps(splat(8.0f), d34, _mm512_add_ps(d12, m[5]));
  }
};

// F(2x2, 3x3): the matrices of transforms.inc.
struct F2x2 {
  static constexpr size_t kSide = 4;
  static constexpr size_t kOut = 2;

  static void input_1d(const __m512 d[kSide], __m512 o[kSide]) {
    o[0] = _mm512_sub_ps(d[0], d[2]);
    o[1] = _mm512_add_ps(d[1], d[2]);
    o[2] = _mm512_sub_ps(d[2], d[1]);
    o[3] = _mm512_sub_ps(d[1], d[3]);
  }

  static void output_1d(const __m512 m[kSide], __m512 o[kOut]) {
    o[0] = _mm512_add_ps(_mm512_add_ps(m[0], m[1]), m[2]);
    o[1] = _mm512_sub_ps(_mm512_sub_ps(m[1], m[2]), m[3]);
  }
};

// Tile t's image and tile row and column.
struct TilePos {
  size_t n, ty, tx;
};

template <size_t kOut>
TilePos tile_pos(const F32WinogradShape& s, size_t t) {
  const size_t rows = (s.out_h + kOut - 1) / kOut, cols = (s.out_w + kOut - 1) / kOut;
  return {t / (rows * cols), t / cols % rows, t % cols};
}

template <typename T>
void input_transform(const F32WinogradShape& s, const float* input, float* v, size_t tiles,
                     size_t begin, size_t end) {
  constexpr size_t kSide = T::kSide, kOut = T::kOut;
  for (size_t t = begin; t < end; ++t) {
    const TilePos tp = tile_pos<kOut>(s, t);
    // The patch's pixels, null in the padding. Unsigned: a row or column
    // left of or above the image wraps round and fails the bounds test.
    const float* px[kSide * kSide];
    for (size_t a = 0; a < kSide; ++a) {
      const size_t iy = tp.ty * kOut + a - s.pad_h;
      for (size_t b = 0; b < kSide; ++b) {
        const size_t ix = tp.tx * kOut + b - s.pad_w;
        px[a * kSide + b] = iy < s.height && ix < s.width
                                ? input + ((tp.n * s.height + iy) * s.width + ix) * s.in_c
                                : nullptr;
      }
    }
    float* dst = v + t * s.in_c;
    const size_t point_stride = tiles * s.in_c;
    for (size_t c0 = 0; c0 < s.in_c; c0 += kLanes) {
      const __mmask16 mask = tail_mask(s.in_c - c0 < kLanes ? s.in_c - c0 : kLanes);
      // Down each column b: tmp[i][b] = sum_a Bt[i][a] d[a][b].
      __m512 tmp[kSide][kSide];
#pragma GCC unroll 6
      for (size_t b = 0; b < kSide; ++b) {
        __m512 d[kSide], o[kSide];
#pragma GCC unroll 6
        for (size_t a = 0; a < kSide; ++a) {
          const float* p = px[a * kSide + b];
          d[a] = p != nullptr ? _mm512_maskz_loadu_ps(mask, p + c0) : _mm512_setzero_ps();
        }
        T::input_1d(d, o);
#pragma GCC unroll 6
        for (size_t i = 0; i < kSide; ++i) tmp[i][b] = o[i];
      }
      // Along each row i: point i * 6 + j.
#pragma GCC unroll 6
      for (size_t i = 0; i < kSide; ++i) {
        __m512 o[kSide];
        T::input_1d(tmp[i], o);
#pragma GCC unroll 6
        for (size_t j = 0; j < kSide; ++j) {
          _mm512_mask_storeu_ps(dst + (i * kSide + j) * point_stride + c0, mask, o[j]);
        }
      }
    }
  }
}

template <typename T>
void output_transform(const F32WinogradShape& s, const float* m, const float* bias,
                      float clamp_min, float clamp_max, float* output, size_t tiles,
                      size_t begin, size_t end) {
  constexpr size_t kSide = T::kSide, kOut = T::kOut;
  const __m512 low = splat(clamp_min), high = splat(clamp_max);
  const size_t point_stride = tiles * s.out_c;
  for (size_t t = begin; t < end; ++t) {
    const TilePos tp = tile_pos<kOut>(s, t);
    const size_t rows = s.out_h - tp.ty * kOut < kOut ? s.out_h - tp.ty * kOut : kOut;
    const size_t cols = s.out_w - tp.tx * kOut < kOut ? s.out_w - tp.tx * kOut : kOut;
    const float* src = m + t * s.out_c;
    float* out = output + ((tp.n * s.out_h + tp.ty * kOut) * s.out_w + tp.tx * kOut) * s.out_c;
    for (size_t c0 = 0; c0 < s.out_c; c0 += kLanes) {
      const __mmask16 mask = tail_mask(s.out_c - c0 < kLanes ? s.out_c - c0 : kLanes);
      // Down each column b: tmp[y][b] = sum_a At[y][a] m[a][b].
      __m512 tmp[kOut][kSide];
#pragma GCC unroll 6
      for (size_t b = 0; b < kSide; ++b) {
        __m512 mm[kSide], o[kOut];
#pragma GCC unroll 6
        for (size_t a = 0; a < kSide; ++a) {
          mm[a] = _mm512_maskz_loadu_ps(mask, src + (a * kSide + b) * point_stride + c0);
        }
        T::output_1d(mm, o);
#pragma GCC unroll 4
        for (size_t y = 0; y < kOut; ++y) tmp[y][b] = o[y];
      }
      const __m512 b_lanes =
          bias != nullptr ? _mm512_maskz_loadu_ps(mask, bias + c0) : _mm512_setzero_ps();
      // Along each row y, the outputs inside the image; max(low, v) and
      // min(high, v) return v when it is NaN, which passes through.
      for (size_t y = 0; y < rows; ++y) {
        __m512 o[kOut];
        T::output_1d(tmp[y], o);
        float* row = out + y * s.out_w * s.out_c + c0;
#pragma GCC unroll 4
        for (size_t x = 0; x < kOut; ++x) {
          if (x >= cols) break;
          const __m512 r = _mm512_min_ps(high, _mm512_max_ps(low, _mm512_add_ps(o[x], b_lanes)));
          _mm512_mask_storeu_ps(row + x * s.out_c, mask, r);
        }
      }
    }
  }
}

}  // namespace

extern const F32WinogradConfig kF32WinogradAvx512Config = {
    "avx512",           kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    input_transform<F4x4>, output_transform<F4x4>,
    input_transform<F2x2>, output_transform<F2x2>,
};

}  // namespace ember::kernels::optimized
