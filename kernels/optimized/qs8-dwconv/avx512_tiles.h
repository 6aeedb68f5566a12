// The int8 depthwise convolution of the AVX-512 variants (avx512.cpp:
// vpmaddwd and an add; avx512vnni.cpp: vpdpwssd), 32-channel tiles: two
// taps' 32 input bytes interleaved (vpunpck[lh]bw, per 128-bit lane) and
// sign-extended to int16 pairs, multiplied and summed against the packed
// weight pairs into two vectors of 16 int32 sums, channels [0-7, 16-23] and
// [8-15, 24-31] (Qs8DwconvLayout::S16PairsLanes packs the weights, bias and
// scales in that order); the narrowed bytes are put back in channel order
// before the store. A partial tile is loaded and stored under a mask.
//
// Functions in a header, as qs8-gemm/avx2_tiles.h has them: the #error keeps
// other files out, and the unnamed namespace gives each variant file its own
// copy.
#pragma once

#if !defined(__AVX512BW__) || !defined(__AVX512VL__)
#error "qs8-dwconv/avx512_tiles.h is for files compiled with the AVX-512 flags only"
#endif

#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/qs8-dwconv/pixels_body.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"

namespace ember::kernels::optimized::qs8_dwconv_avx512 {
namespace {

constexpr size_t kTile = 32;

// The requantization's constants as vectors, made once per call rather than
// once per tile: the float bounds less the zero point, and the zero point.
struct Requant {
  __m512 low, high;
  __m512i zero;
  __m512i order;  // the dwords of the packed bytes in channel order (tile)
  explicit Requant(const Qs8RequantParams& p)
      : low(_mm512_set1_ps(static_cast<float>(p.min - p.zero))),
        high(_mm512_set1_ps(static_cast<float>(p.max - p.zero))),
        zero(_mm512_set1_epi32(p.zero)),
        order(_mm512_setr_epi32(0, 4, 1, 5, 8, 12, 9, 13, 0, 0, 0, 0, 0, 0, 0, 0)) {}
};

// One tile of one pixel: the channels of `mask` (all 32, or a tail), tap t's
// at in(t). Dot::add(acc, x, w) adds the int16 pair products of x and w.
template <typename Dot, size_t T, typename In>
__attribute__((always_inline)) inline void tile(size_t nt, In in, const uint8_t* w, int8_t* out,
                                                __mmask32 mask, const Requant& rq) {
  const int32_t* head = reinterpret_cast<const int32_t*>(w);
  const uint8_t* pairs = w + kTile * sizeof(int32_t);
  const bool full = mask == 0xFFFFFFFFu;
  __m512i acc0 = _mm512_loadu_si512(head);
  __m512i acc1 = _mm512_loadu_si512(head + 16);
  size_t t = 0;
#pragma GCC unroll 13
  for (; t < nt; t += 2, pairs += 4 * kTile) {
    // A full tile's plain loads (a masked load costs an extra uop each).
    const __m256i x0 = full ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in(t)))
                            : _mm256_maskz_loadu_epi8(mask, in(t));
    // An odd count's last pair: the padding tap's weight is zero.
    const __m256i x1 =
        t + 1 >= nt ? x0
        : full      ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in(t + 1)))
                    : _mm256_maskz_loadu_epi8(mask, in(t + 1));
    const __m512i lo = _mm512_cvtepi8_epi16(_mm256_unpacklo_epi8(x0, x1));
    const __m512i hi = _mm512_cvtepi8_epi16(_mm256_unpackhi_epi8(x0, x1));
    acc0 = Dot::add(acc0, lo, _mm512_loadu_si512(pairs));
    acc1 = Dot::add(acc1, hi, _mm512_loadu_si512(pairs + 64));
  }
  const float* scale = reinterpret_cast<const float*>(pairs);
  const __m512 low = rq.low, high = rq.high;
  const __m512i zero = rq.zero;
  // Scale, clamp (integer bounds less the zero point), round half to even,
  // add the zero point, narrow (in range already).
  __m512 f0 = _mm512_mul_ps(_mm512_cvtepi32_ps(acc0), _mm512_loadu_ps(scale));
  __m512 f1 = _mm512_mul_ps(_mm512_cvtepi32_ps(acc1), _mm512_loadu_ps(scale + 16));
  f0 = _mm512_min_ps(_mm512_max_ps(f0, low), high);
  f1 = _mm512_min_ps(_mm512_max_ps(f1, low), high);
  const __m512i q0 = _mm512_add_epi32(_mm512_cvtps_epi32(f0), zero);
  const __m512i q1 = _mm512_add_epi32(_mm512_cvtps_epi32(f1), zero);
  // q0 holds channels [0-7, 16-23], q1 [8-15, 24-31]. Two in-lane packs (no
  // saturation: the values are in range) leave each 128-bit lane's first
  // two dwords as 4 channels of q0 then 4 of q1 (lane 0: 0-3, 8-11; lane 1:
  // 4-7, 12-15; ...); one dword permute puts the 32 bytes in order.
  const __m512i words = _mm512_packs_epi32(q0, q1);
  const __m256i bytes = _mm512_castsi512_si256(
      _mm512_permutexvar_epi32(rq.order, _mm512_packs_epi16(words, words)));
  if (mask == 0xFFFFFFFFu) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), bytes);
  } else {
    _mm256_mask_storeu_epi8(out, mask, bytes);
  }
}

template <typename Dot, size_t T, typename In>
__attribute__((always_inline)) inline void pixel(size_t nt, size_t channels, In in,
                                                 const uint8_t* w, int8_t* out,
                                                 const Requant& rq) {
  const size_t tile_bytes = 2 * kTile * sizeof(int32_t) + (nt + 1) / 2 * 4 * kTile;
  for (size_t c = 0; c < channels; c += kTile, w += tile_bytes) {
    const size_t n = channels - c;
    const __mmask32 mask = n >= kTile ? 0xFFFFFFFFu : (1u << n) - 1u;
    tile<Dot, T>(nt, [&](size_t t) { return in(t) + c; }, w, out + c, mask, rq);
  }
}

// T: the tap count, or 0 when it is known at run time only.
template <typename Dot, size_t T>
void dwconv(size_t taps, size_t channels, size_t pixels, const int8_t* const* input,
            size_t input_stride, size_t input_offset, const int8_t* zero, const void* weights,
            int8_t* output, size_t output_stride, const Qs8RequantParams* params) {
  const uint8_t* w = static_cast<const uint8_t*>(weights);
  const Requant rq(*params);
  walk_pixels<T>(taps, pixels, input, input_stride, input_offset, zero, output, output_stride,
                 [&](size_t nt, auto in, int8_t* out) {
                   pixel<Dot, T>(nt, channels, in, w, out, rq);
                 });
}

}  // namespace
}  // namespace ember::kernels::optimized::qs8_dwconv_avx512
