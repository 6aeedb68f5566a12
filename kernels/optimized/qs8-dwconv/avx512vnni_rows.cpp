// int8 depthwise convolution for AVX512-VNNI, reading the input directly:
// vpdpbusd over 4 taps at a time, for windows of at most 4 rows at stride 1
// along the row (3x3, the depthwise window of MobileNet-style networks,
// above all).
//
// The indirect variants widen every tap of every output pixel to int16 and
// interleave it with its neighbour, once per use: for 3x3 stride 1 each
// input byte is shuffled 9 times, and the shuffles (not the multiplies)
// bound them. Here, per output row and 32-channel tile, each input column's
// window rows are interleaved once into quads (4 bytes per channel: rows 0-3
// of the window, offset to u8 for vpdpbusd) in a scratch buffer on the
// stack; every output pixel then adds, per window column, 4 vpdpbusd of its
// quads against the packed weights (Qs8DwconvLayout::U8RowQuads), which a
// 3-column window keeps in registers. Padding reads a_zero, as the
// indirection buffer's zero row does. At stride 2 each column's quads serve
// 1.5 outputs instead of 3, and the interleaving costs what it saves
// (MobileNetV2's 112x112 stride-2 layer ran 20% slower): the driver leaves
// strided rows to the indirect variants.
//
// 256-bit vectors: with AVX-512's 32 registers the weights, sums and
// requantization constants of a tile all stay in registers, and on CPUs
// that split 512-bit operations in two, 256-bit ones lose nothing. Compiled
// with the AVX-512 flags plus -mavx512vnni for this file only.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-dwconv/qs8_dwconv.h"

#if !defined(__AVX512VNNI__) || !defined(__AVX512BW__) || !defined(__AVX512VL__)
#error "qs8-dwconv/avx512vnni_rows.cpp needs -mavx512vnni and the AVX-512 flags"
#endif

namespace ember::kernels::optimized {
namespace {

constexpr size_t kTile = 32;
constexpr size_t kRows = 4;
// Input columns the scratch buffer holds (4 vectors each: 32 KiB). It bounds
// the window's width ((kw - 1) * dil_w + 1), and a row is done in chunks of
// the output columns whose inputs fit.
constexpr size_t kColumns = 256;

// acc += the u8 x s8 products of a and b in 4-byte groups. Inline assembly
// for the reason qs8-gemm/avx512vnni.cpp gives.
__attribute__((always_inline)) inline void dpbusd(__m256i& acc, __m256i a, __m256i b) {
  asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
}

// The quads of one input column: per channel c of each 128-bit lane's 16,
// the bytes of rows 0-3 in vector c / 4 (the U8RowQuads order).
__attribute__((always_inline)) inline void interleave(__m256i r0, __m256i r1, __m256i r2,
                                                      __m256i r3, __m256i* q) {
  const __m256i lo01 = _mm256_unpacklo_epi8(r0, r1);
  const __m256i hi01 = _mm256_unpackhi_epi8(r0, r1);
  const __m256i lo23 = _mm256_unpacklo_epi8(r2, r3);
  const __m256i hi23 = _mm256_unpackhi_epi8(r2, r3);
  q[0] = _mm256_unpacklo_epi16(lo01, lo23);
  q[1] = _mm256_unpackhi_epi16(lo01, lo23);
  q[2] = _mm256_unpacklo_epi16(hi01, hi23);
  q[3] = _mm256_unpackhi_epi16(hi01, hi23);
}

struct Tile {
  __m256i head[4];
  __m256 scale[4];
  const __m256i* taps;  // per window column, 4 vectors
};

struct Requant {
  __m256 low, high;
  __m256i zero;
  explicit Requant(const Qs8RequantParams& p)
      : low(_mm256_set1_ps(static_cast<float>(p.min - p.zero))),
        high(_mm256_set1_ps(static_cast<float>(p.max - p.zero))),
        zero(_mm256_set1_epi32(p.zero)) {}
};

// Scale, clamp (integer bounds less the zero point), round half to even,
// add the zero point; the three packs (values in range: no saturation) put
// the bytes back in channel order.
__attribute__((always_inline)) inline __m256i requantize(const __m256i (&acc)[4],
                                                         const __m256 (&scale)[4],
                                                         const Requant& rq) {
  __m256i q[4];
#pragma GCC unroll 4
  for (size_t v = 0; v < 4; ++v) {
    __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[v]), scale[v]);
    f = _mm256_min_ps(_mm256_max_ps(f, rq.low), rq.high);
    q[v] = _mm256_add_epi32(_mm256_cvtps_epi32(f), rq.zero);
  }
  return _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
}

// Output pixels [x0, x1) of one row and tile from the scratch quads, whose
// column 0 is input column x0 - pad_w. KW: the window's width, or
// 0 when known at run time only.
template <size_t KW, bool FULL>
__attribute__((always_inline)) inline void pixels(const Qs8DwconvShape& s, const Tile& t,
                                                  const __m256i* scratch, size_t x0, size_t x1,
                                                  int8_t* out, __mmask32 mask,
                                                  const Requant& rq) {
  const size_t kw = KW != 0 ? KW : s.kw;
  __m256i w[KW != 0 ? KW * 4 : 1];
  if constexpr (KW != 0) {
#pragma GCC unroll 32
    for (size_t i = 0; i < KW * 4; ++i) w[i] = _mm256_loadu_si256(t.taps + i);
  }
  for (size_t x = x0; x < x1; ++x, out += s.channels) {
    __m256i acc[4] = {t.head[0], t.head[1], t.head[2], t.head[3]};
    const __m256i* col = scratch + (x - x0) * 4;
#pragma GCC unroll 8
    for (size_t kx = 0; kx < kw; ++kx, col += s.dil_w * 4) {
#pragma GCC unroll 4
      for (size_t v = 0; v < 4; ++v) {
        dpbusd(acc[v], _mm256_load_si256(col + v),
               KW != 0 ? w[kx * 4 + v] : _mm256_loadu_si256(t.taps + kx * 4 + v));
      }
    }
    const __m256i bytes = requantize(acc, t.scale, rq);
    if (FULL) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), bytes);
    } else {
      _mm256_mask_storeu_epi8(out, mask, bytes);
    }
  }
}

// Writes the quads of `count` input columns to `quads`: row k's bytes at
// in[k] and then every step[k] bytes (0 for a padding row: it reads the
// zero buffer each time). KH: the window's rows (3), or 0 for all 4 (the
// rows past the window read the zero buffer, against zero weights).
template <size_t KH, bool FULL>
__attribute__((always_inline)) inline void columns(const int8_t* const (&in)[kRows],
                                                   const size_t (&step)[kRows], size_t count,
                                                   __mmask32 mask, __m256i pad, __m256i* quads) {
  const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
  const int8_t* p[kRows] = {in[0], in[1], in[2], in[3]};
  for (size_t i = 0; i < count; ++i, quads += 4) {
    __m256i r[kRows];
#pragma GCC unroll 4
    for (size_t k = 0; k < kRows; ++k) {
      if (KH != 0 && k >= KH) {
        r[k] = pad;
        continue;
      }
      const __m256i b = FULL ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[k]))
                             : _mm256_maskz_loadu_epi8(mask, p[k]);
      r[k] = _mm256_xor_si256(b, flip);
      p[k] += step[k];
    }
    interleave(r[0], r[1], r[2], r[3], quads);
  }
}

template <size_t KH, size_t KW, bool FULL>
void tile_rows(const Qs8DwconvShape& s, const uint8_t* w, const int8_t* const (&rows)[kRows],
               const int8_t* zero, size_t c, int8_t* out_row, __mmask32 mask,
               const Requant& rq) {
  // The padding's bytes as the quads hold inputs (offset to u8): every
  // interleave of this vector is itself.
  const __m256i pad =
      _mm256_set1_epi8(static_cast<char>(static_cast<uint8_t>(zero[0]) ^ 0x80u));
  const size_t span = (s.kw - 1) * s.dil_w + 1;
  const size_t chunk = kColumns - span + 1;  // output columns per chunk
  alignas(32) __m256i scratch[kColumns * 4];

  Tile t;
  const int32_t* head = reinterpret_cast<const int32_t*>(w);
  t.taps = reinterpret_cast<const __m256i*>(w + kTile * sizeof(int32_t));
  const float* scale = reinterpret_cast<const float*>(t.taps + s.kw * 4);
  for (size_t v = 0; v < 4; ++v) {
    t.head[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(head + 8 * v));
    t.scale[v] = _mm256_loadu_ps(scale + 8 * v);
  }
  size_t step[kRows];
  for (size_t k = 0; k < kRows; ++k) step[k] = rows[k] != nullptr ? s.channels : 0;
  for (size_t x0 = 0; x0 < s.out_w; x0 += chunk) {
    const size_t x1 = x0 + chunk < s.out_w ? x0 + chunk : s.out_w;
    const size_t count = x1 - 1 - x0 + span;
    // Input columns [ix0, ix0 + count): padding, then the row, then padding.
    const ptrdiff_t ix0 = static_cast<ptrdiff_t>(x0) - static_cast<ptrdiff_t>(s.pad_w);
    const ptrdiff_t in_w = static_cast<ptrdiff_t>(s.in_w);
    const ptrdiff_t end = ix0 + static_cast<ptrdiff_t>(count);
    const ptrdiff_t lo = ix0 < 0 ? 0 : (ix0 < in_w ? ix0 : in_w);
    const ptrdiff_t hi = end < lo ? lo : (end < in_w ? end : in_w);
    __m256i* q = scratch;
    for (ptrdiff_t i = ix0; i < lo && i < end; ++i, q += 4) q[0] = q[1] = q[2] = q[3] = pad;
    const int8_t* in[kRows];
    for (size_t k = 0; k < kRows; ++k) {
      in[k] = rows[k] != nullptr ? rows[k] + static_cast<size_t>(lo) * s.channels + c : zero + c;
    }
    columns<KH, FULL>(in, step, static_cast<size_t>(hi - lo), mask, pad, q);
    q += (hi - lo) * 4;
    for (ptrdiff_t i = hi > ix0 ? hi : ix0; i < end; ++i, q += 4) {
      q[0] = q[1] = q[2] = q[3] = pad;
    }
    pixels<KW, FULL>(s, t, scratch, x0, x1, out_row + x0 * s.channels + c, mask, rq);
  }
}

template <size_t KH, size_t KW>
void dwconv_rows(const Qs8DwconvShape& s, const void* weights, const int8_t* input,
                 const int8_t* zero, size_t row_begin, size_t row_end, int8_t* output,
                 const Qs8RequantParams* params) {
  const Requant rq(*params);
  const size_t tile_bytes = 2 * kTile * sizeof(int32_t) + s.kw * 4 * kTile;
  for (size_t row = row_begin; row < row_end; ++row) {
    const size_t n = row / s.out_h;
    const size_t oy = row % s.out_h;
    // The window's input rows (null: padding, or past the window's rows).
    const int8_t* rows[kRows] = {nullptr, nullptr, nullptr, nullptr};
    for (size_t ky = 0; ky < s.kh; ++ky) {
      const size_t iy = oy * s.stride_h + ky * s.dil_h - s.pad_h;  // wraps when in the padding
      if (iy < s.in_h) rows[ky] = input + (n * s.in_h + iy) * s.in_w * s.channels;
    }
    int8_t* out_row = output + row * s.out_w * s.channels;
    const uint8_t* w = static_cast<const uint8_t*>(weights);
    size_t c = 0;
    for (; c + kTile <= s.channels; c += kTile, w += tile_bytes) {
      tile_rows<KH, KW, true>(s, w, rows, zero, c, out_row, 0xFFFFFFFFu, rq);
    }
    if (c < s.channels) {
      const __mmask32 mask = (1u << (s.channels - c)) - 1u;
      tile_rows<KH, KW, false>(s, w, rows, zero, c, out_row, mask, rq);
    }
  }
}

void dwconv_direct(const Qs8DwconvShape& s, const void* weights, const int8_t* input,
                   const int8_t* zero, size_t row_begin, size_t row_end, int8_t* output,
                   const Qs8RequantParams* params) {
  if (s.kh == 3 && s.kw == 3) {
    dwconv_rows<3, 3>(s, weights, input, zero, row_begin, row_end, output, params);
  } else {
    dwconv_rows<0, 0>(s, weights, input, zero, row_begin, row_end, output, params);
  }
}

}  // namespace

extern const Qs8DwconvConfig kQs8DwconvAvx512VnniRowsConfig = {
    "avx512vnni-rows",
    kCpuAvx512Vnni | kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    kTile,
    Qs8DwconvLayout::U8RowQuads,
    nullptr,
    nullptr,
    nullptr,
    dwconv_direct,
    kRows,
    kColumns,
};

}  // namespace ember::kernels::optimized
