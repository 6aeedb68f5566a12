// int8 GEMM microkernels for AMX-INT8 (32x32 tile, K in steps of 64): the
// tile matrix unit (Sapphire Rapids and later Xeons) multiplies a 16x64 tile
// of A bytes by a 16x(16x4) tile of B bytes into a 16x16 tile of int32 sums,
// 16384 multiply-adds per tdpbssd: eight times what AVX512-VNNI's two
// vpdpbusd ports do in the same cycles.
//
// Eight tile registers: four accumulators (rows 0-15 / 16-31 x columns 0-15 /
// 16-31), two of A (the two row halves) and two of B (the two column halves),
// so each tile loaded feeds two products. tdpbssd multiplies signed by signed
// bytes: A is gathered as it is (S8, a_shift 0).
//
// The panel layout is the other variants' (w[kp / 4][32][4], k-quads of 32
// columns): a B tile is 16 consecutive k-quads, rows 128 bytes apart, and the
// second column half starts 64 bytes in. A tile reads 64 values of K a row,
// so K is padded to 64 a tap (kpad) rather than to the k-quad: the ops take
// this variant only where that costs little (qs8_gemm_config_for).
//
// The tile configuration is loaded on every call, shaped to the call's rows
// (a tile of fewer than 32 rows never reads past them: the driver's A may be
// the caller's workspace, which ends there), and released at the end, so that
// the thread holds no AMX state between calls and other code on the thread
// may configure the tiles as it likes. The sums leave through a 4 KiB buffer
// on the stack; the epilogue is the AVX512-VNNI variant's, on 16 columns at a
// time. Compiled with the AVX-512 flags plus -mamx-tile -mamx-int8 for this
// file only.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"
#include "kernels/optimized/simd/avx512_math.h"

// GCC names the AMX feature macros __AMX_TILE__ / __AMX_INT8__, clang
// __AMXTILE__ / __AMXINT8__ (make fuzz builds with clang).
#if !(defined(__AMX_TILE__) || defined(__AMXTILE__)) || \
    !(defined(__AMX_INT8__) || defined(__AMXINT8__)) || !defined(__AVX512BW__)
#error "qs8-gemm/amx.cpp needs -mamx-tile -mamx-int8 and the AVX-512 flags"
#endif

namespace ember::kernels::optimized {
namespace {

constexpr size_t kMr = 32;
constexpr size_t kNr = 32;
constexpr size_t kKr = 4;
constexpr size_t kKStep = 64;  // A tile bytes a row: K consumed per tdpbssd
constexpr size_t kHalf = 16;   // rows (and int32 columns) of one tile

// The 64-byte operand of ldtilecfg (palette 1).
struct alignas(64) TileConfig {
  uint8_t palette = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

// Tile numbers: accumulators C[row half][column half], A per row half, B per
// column half. Macros: the intrinsics paste the number into the instruction.
#define kC00 0
#define kC01 1
#define kC10 2
#define kC11 3
#define kA0 4
#define kA1 5
#define kB0 6
#define kB1 7

inline void set_tile(TileConfig& cfg, int tile, size_t rows, size_t bytes_per_row) {
  cfg.rows[tile] = static_cast<uint8_t>(rows);
  cfg.colsb[tile] = static_cast<uint16_t>(bytes_per_row);
}

// The configuration for m0 + m1 rows (m1 == 0: one row half) and one or two
// column halves.
inline void load_config(size_t m0, size_t m1, bool two_halves) {
  TileConfig cfg;
  set_tile(cfg, kA0, m0, kKStep);
  set_tile(cfg, kB0, kKStep / kKr, kHalf * kKr);
  set_tile(cfg, kC00, m0, kHalf * sizeof(int32_t));
  if (two_halves) {
    set_tile(cfg, kB1, kKStep / kKr, kHalf * kKr);
    set_tile(cfg, kC01, m0, kHalf * sizeof(int32_t));
  }
  if (m1 > 0) {
    set_tile(cfg, kA1, m1, kKStep);
    set_tile(cfg, kC10, m1, kHalf * sizeof(int32_t));
    if (two_halves) set_tile(cfg, kC11, m1, kHalf * sizeof(int32_t));
  }
  _tile_loadconfig(&cfg);
}

struct Panel {
  const int32_t* head;
  const int8_t* w;
  const float* tail;
  Panel(const void* panel, size_t kp)
      : head(static_cast<const int32_t*>(panel)),
        w(static_cast<const int8_t*>(panel) + kNr * sizeof(int32_t)),
        tail(reinterpret_cast<const float*>(w + kp * kNr)) {}
};

// The exact sums of the tile (without the panel head), row i's columns at
// sums[i][0..32): the products over all kp values, the tiles stored and
// released. TWO_ROW_HALVES: more than 16 rows; TWO_COLUMN_HALVES: more than
// 16 columns.
template <bool TWO_ROW_HALVES, bool TWO_COLUMN_HALVES>
void tile_sums(size_t mr, size_t kp, const int8_t* a, const int8_t* w,
               const Qs8WeightPrefetch& prefetch, int32_t (*sums)[kNr]) {
  const size_t m0 = TWO_ROW_HALVES ? kHalf : mr;
  const size_t m1 = TWO_ROW_HALVES ? mr - kHalf : 0;
  load_config(m0, m1, TWO_COLUMN_HALVES);
  _tile_zero(kC00);
  if (TWO_COLUMN_HALVES) _tile_zero(kC01);
  if (TWO_ROW_HALVES) _tile_zero(kC10);
  if (TWO_ROW_HALVES && TWO_COLUMN_HALVES) _tile_zero(kC11);
  const int8_t* a1 = a + kHalf * kp;
  const uint8_t* pf = prefetch.next;
  constexpr size_t kBRowBytes = kNr * kKr;
  for (size_t k = 0; k < kp; k += kKStep, w += kKStep * kNr) {
    // The driver's slice, 16 lines a step (one per k-quad, as the VNNI
    // variant fetches).
    for (int l = 0; l < 16 && pf < prefetch.end; ++l, pf += 64) {
      _mm_prefetch(reinterpret_cast<const char*>(pf), _MM_HINT_T1);
    }
    _tile_loadd(kA0, a + k, kp);
    _tile_loadd(kB0, w, kBRowBytes);
    _tile_dpbssd(kC00, kA0, kB0);
    if (TWO_COLUMN_HALVES) {
      _tile_loadd(kB1, w + kHalf * kKr, kBRowBytes);
      _tile_dpbssd(kC01, kA0, kB1);
    }
    if (TWO_ROW_HALVES) {
      _tile_loadd(kA1, a1 + k, kp);
      _tile_dpbssd(kC10, kA1, kB0);
      if (TWO_COLUMN_HALVES) _tile_dpbssd(kC11, kA1, kB1);
    }
  }
  constexpr size_t kStride = kNr * sizeof(int32_t);
  _tile_stored(kC00, &sums[0][0], kStride);
  if (TWO_COLUMN_HALVES) _tile_stored(kC01, &sums[0][kHalf], kStride);
  if (TWO_ROW_HALVES) _tile_stored(kC10, &sums[kHalf][0], kStride);
  if (TWO_ROW_HALVES && TWO_COLUMN_HALVES) _tile_stored(kC11, &sums[kHalf][kHalf], kStride);
  _tile_release();
}

void compute_sums(size_t mr, size_t nr, size_t kp, const int8_t* a, const int8_t* w,
                  const Qs8WeightPrefetch& prefetch, int32_t (*sums)[kNr]) {
  if (mr > kHalf) {
    if (nr > kHalf) return tile_sums<true, true>(mr, kp, a, w, prefetch, sums);
    return tile_sums<true, false>(mr, kp, a, w, prefetch, sums);
  }
  if (nr > kHalf) return tile_sums<false, true>(mr, kp, a, w, prefetch, sums);
  return tile_sums<false, false>(mr, kp, a, w, prefetch, sums);
}

void qs8_gemm_32x32(size_t mr, size_t nr, size_t kp, const void* a, const void* panel,
                    int8_t* c, size_t c_stride, const Qs8RequantParams* params) {
  const Panel p(panel, kp);
  alignas(64) int32_t sums[kMr][kNr];
  compute_sums(mr, nr, kp, static_cast<const int8_t*>(a), p.w, params->prefetch, sums);

  const __m512 low = _mm512_set1_ps(static_cast<float>(params->min - params->zero));
  const __m512 high = _mm512_set1_ps(static_cast<float>(params->max - params->zero));
  const __m512i zero = _mm512_set1_epi32(params->zero);
  const size_t halves = nr > kHalf ? 2 : 1;
  for (size_t v = 0; v < halves; ++v) {
    const __m512i head = _mm512_loadu_si512(p.head + v * kHalf);
    const __m512 scale = _mm512_loadu_ps(p.tail + v * kHalf);
    const __mmask16 mask = avx512::tail_mask(nr - v * kHalf < kHalf ? nr - v * kHalf : kHalf);
    for (size_t i = 0; i < mr; ++i) {
      // As the VNNI variant: scale, clamp (the bounds less the zero point),
      // round half to even, add the zero point, narrow.
      const __m512i acc = _mm512_add_epi32(_mm512_load_si512(&sums[i][v * kHalf]), head);
      __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), scale);
      f = _mm512_min_ps(_mm512_max_ps(f, low), high);
      const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(f), zero);
      _mm_mask_storeu_epi8(c + i * c_stride + v * kHalf, mask, _mm512_cvtepi32_epi8(q));
    }
  }
}

void qd8_gemm_32x32(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, float* c,
                    size_t c_stride, const int32_t* row_zero, const float* row_scale,
                    const Qd8F32Params* params) {
  const Panel p(panel, kp);
  alignas(64) int32_t sums[kMr][kNr];
  compute_sums(mr, nr, kp, static_cast<const int8_t*>(a), p.w, params->prefetch, sums);

  const float* w_scale = p.tail;
  const float* bias = p.tail + kNr;
  const __m512 low = _mm512_set1_ps(params->min);
  const __m512 high = _mm512_set1_ps(params->max);
  const size_t halves = nr > kHalf ? 2 : 1;
  for (size_t v = 0; v < halves; ++v) {
    const __m512i colsum = _mm512_loadu_si512(p.head + v * kHalf);
    const __m512 ws = _mm512_loadu_ps(w_scale + v * kHalf);
    const __m512 bs = _mm512_loadu_ps(bias + v * kHalf);
    const __mmask16 mask = avx512::tail_mask(nr - v * kHalf < kHalf ? nr - v * kHalf : kHalf);
    for (size_t i = 0; i < mr; ++i) {
      // The zero point's share, -zero * colsum, modulo 2^32 (exact whenever
      // the whole sum fits in int32).
      const __m512i zero_share = _mm512_mullo_epi32(colsum, _mm512_set1_epi32(-row_zero[i]));
      const __m512i acc = _mm512_add_epi32(_mm512_load_si512(&sums[i][v * kHalf]), zero_share);
      const __m512 rs = _mm512_set1_ps(row_scale[i]);
      __m512 f = _mm512_fmadd_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(acc), rs), ws, bs);
      f = _mm512_min_ps(_mm512_max_ps(f, low), high);
      float* dst = c + i * c_stride + v * kHalf;
      if (mask == 0xFFFF) {
        _mm512_storeu_ps(dst, f);
      } else {
        _mm512_mask_storeu_ps(dst, mask, f);
      }
    }
  }
}

// The gather: the bytes as they are, a 64-byte copy per block of a tap and
// one masked copy for its tail (zeros past kc up to the 64-value padding).
void pack_a_s8(size_t mr, size_t kc, size_t kcp, size_t ks, const int8_t* const* rows,
               size_t tap_stride, size_t row_stride, size_t a_offset, const int8_t* zero,
               void* out) {
  const size_t blocks = kc / 64 * 64;
  const size_t rest = kcp - blocks;  // 0 or 64: kcp rounds kc up to kKStep
  const __mmask64 load_mask = kc == blocks ? 0 : ~0ull >> (64 - (kc - blocks));
  int8_t* dst = static_cast<int8_t*>(out);
  for (size_t i = 0; i < mr; ++i) {
    for (size_t p = 0; p < ks; ++p, dst += kcp) {
      const int8_t* src = rows[p * tap_stride + i * row_stride];
      if (src != zero) {
        src = reinterpret_cast<const int8_t*>(reinterpret_cast<uintptr_t>(src) + a_offset);
      }
      size_t q = 0;
      for (; q < blocks; q += 64) _mm512_storeu_si512(dst + q, _mm512_loadu_si512(src + q));
      if (rest != 0) _mm512_storeu_si512(dst + q, _mm512_maskz_loadu_epi8(load_mask, src + q));
    }
  }
}

#undef kC00
#undef kC01
#undef kC10
#undef kC11
#undef kA0
#undef kA1
#undef kB0
#undef kB1

}  // namespace

extern const Qs8GemmConfig kQs8GemmAmxConfig = {
    "amx",
    kCpuAmxInt8 | kCpuAvx512Vnni | kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    kMr, kNr, kKr, Qs8AFormat::S8, 0, qs8_gemm_32x32, qd8_gemm_32x32, pack_a_s8, kKStep,
};

}  // namespace ember::kernels::optimized
