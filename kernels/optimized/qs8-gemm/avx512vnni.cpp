// int8 GEMM microkernels for AVX512-VNNI (12x32 tile, k-quads): vpdpbusd on
// 512-bit vectors, 64 multiply-adds per instruction. vpdpbusd multiplies
// unsigned by signed bytes, so A is gathered as u8 = s8 + 128 (once per row
// tile, by the driver) and the panel heads subtract 128 * colsum (a_shift).
// 12 rows x 2 vectors = 24 independent accumulator chains, 2 zmm for B and
// one for the broadcast row values: 27 of 32 registers; per k-quad 2 vector
// loads and 12 broadcast loads (load ports only) feed 24 vpdpbusd. Compiled
// with the AVX-512 flags plus -mavx512vnni for this file only.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-gemm/qs8_gemm.h"

#if !defined(__AVX512VNNI__) || !defined(__AVX512BW__)
#error "qs8-gemm/avx512vnni.cpp needs -mavx512vnni and the AVX-512 flags"
#endif

namespace ember::kernels::optimized {
namespace {

constexpr size_t kMr = 12;
constexpr size_t kNr = 32;
constexpr size_t kKr = 4;
constexpr int32_t kShift = 128;

inline __mmask16 lanes(size_t n) {
  return n >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << n) - 1u);
}

inline uint32_t load_u32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
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

// acc += the u8 x s8 products of a and b, in place. Inline assembly rather
// than _mm512_dpbusd_epi32: GCC 12 copies each accumulator into a scratch
// register and back around the intrinsic (and spills some to the stack),
// which cost up to half the tile's throughput.
__attribute__((always_inline)) inline void dpbusd(__m512i& acc, __m512i a, __m512i b) {
  asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
}
__attribute__((always_inline)) inline void dpbusd(__m256i& acc, __m256i a, __m256i b) {
  asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
}

// NV for a panel of 17 to 24 columns: a zmm and a ymm of sums per row. Where
// 512-bit vpdpbusd issues as two 256-bit halves (Zen 4), the ymm costs half,
// so such a tile (MobileNetV2's 24-channel projections) takes 3/4 of the time
// of two full vectors; elsewhere it costs the same.
constexpr size_t kHalfTail = 3;

// Sums per row: columns 0..15, 16..31 (NV == 2), 16..23 (NV == kHalfTail).
template <size_t MR>
struct Sums {
  __m512i acc0[MR], acc1[MR];
  __m256i acch[MR];
};

// sums of row i += row i's k-group at k times the NV vectors of B at w.
template <size_t MR, size_t NV>
__attribute__((always_inline)) inline void k_group(const uint8_t* const* rows, size_t k,
                                                   const int8_t* w, Sums<MR>& s) {
  const __m512i b0 = _mm512_loadu_si512(w);
  const __m512i b1 = NV == 2 ? _mm512_loadu_si512(w + 64) : b0;
  const __m256i bh = NV == kHalfTail ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 64))
                                     : _mm512_castsi512_si256(b0);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    const __m512i av = _mm512_set1_epi32(static_cast<int>(load_u32(rows[i] + k)));
    dpbusd(s.acc0[i], av, b0);
    if (NV == 2) dpbusd(s.acc1[i], av, b1);
    if (NV == kHalfTail) dpbusd(s.acch[i], _mm512_castsi512_si256(av), bh);
  }
}

// The sums += the products of all kp values of row i with the NV vectors of
// B (NV == 1 for panels of at most 16 columns: half the work); with
// kHalfTail, acc1 takes acch's sums at the end (lanes 8..15 undefined, masked
// off by the stores). The k-groups that also fetch a line of the driver's
// prefetch slice come first, in a loop of their own, so the rest run without
// the test.
template <size_t MR, size_t NV>
__attribute__((always_inline)) inline void accumulate(size_t kp, const uint8_t* a,
                                                      const int8_t* w,
                                                      const Qs8WeightPrefetch& prefetch,
                                                      Sums<MR>& s) {
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    if (NV == kHalfTail) s.acch[i] = _mm512_castsi512_si256(s.acc1[i]);
  }
  const uint8_t* rows[MR];
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) rows[i] = a + i * kp;
  size_t k = 0;
  for (const uint8_t* pf = prefetch.next; pf < prefetch.end && k < kp;
       pf += 64, k += kKr, w += kNr * kKr) {
    _mm_prefetch(reinterpret_cast<const char*>(pf), _MM_HINT_T1);
    k_group<MR, NV>(rows, k, w, s);
  }
  for (; k < kp; k += kKr, w += kNr * kKr) k_group<MR, NV>(rows, k, w, s);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    if (NV == kHalfTail) s.acc1[i] = _mm512_castsi256_si512(s.acch[i]);
  }
}

template <size_t MR, size_t NV>
void qs8_tile(size_t nr, size_t kp, const uint8_t* a, const void* panel, int8_t* c,
              size_t c_stride, const Qs8RequantParams* params) {
  const Panel p(panel, kp);
  Sums<MR> s;
  const __m512i h0 = _mm512_loadu_si512(p.head);
  const __m512i h1 = _mm512_loadu_si512(p.head + 16);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    s.acc0[i] = h0;
    s.acc1[i] = h1;
  }
  accumulate<MR, NV>(kp, a, p.w, params->prefetch, s);

  const __m512 scale[2] = {_mm512_loadu_ps(p.tail), _mm512_loadu_ps(p.tail + 16)};
  const __m512 low = _mm512_set1_ps(static_cast<float>(params->min - params->zero));
  const __m512 high = _mm512_set1_ps(static_cast<float>(params->max - params->zero));
  const __m512i zero = _mm512_set1_epi32(params->zero);
  const __mmask16 mask[2] = {lanes(nr), lanes(nr > 16 ? nr - 16 : 0)};
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
#pragma GCC unroll 2
    for (size_t v = 0; v < (NV == 1 ? 1 : 2); ++v) {
      // Scale, clamp (bounds less the zero point: integers, so clamping
      // before rounding is the same), round half to even (vcvtps2dq in the
      // default mode), add the zero point, narrow (vpmovdb: the values are in
      // [-128, 127] already).
      __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(v == 0 ? s.acc0[i] : s.acc1[i]), scale[v]);
      f = _mm512_min_ps(_mm512_max_ps(f, low), high);
      const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(f), zero);
      _mm_mask_storeu_epi8(c + i * c_stride + v * 16, mask[v], _mm512_cvtepi32_epi8(q));
    }
  }
}

template <size_t MR, size_t NV>
void qd8_tile(size_t nr, size_t kp, const uint8_t* a, const void* panel, float* c,
              size_t c_stride, const int32_t* row_zero, const float* row_scale,
              const Qd8F32Params* params) {
  const Panel p(panel, kp);
  Sums<MR> s;
  const __m512i cs0 = _mm512_loadu_si512(p.head);
  const __m512i cs1 = _mm512_loadu_si512(p.head + 16);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    // The zero point's share, -(zero + 128) * colsum, modulo 2^32.
    const __m512i nz = _mm512_set1_epi32(-(row_zero[i] + kShift));
    s.acc0[i] = _mm512_mullo_epi32(cs0, nz);
    s.acc1[i] = NV != 1 ? _mm512_mullo_epi32(cs1, nz) : s.acc0[i];
  }
  accumulate<MR, NV>(kp, a, p.w, params->prefetch, s);

  const __m512 ws[2] = {_mm512_loadu_ps(p.tail), _mm512_loadu_ps(p.tail + 16)};
  const __m512 bs[2] = {_mm512_loadu_ps(p.tail + kNr), _mm512_loadu_ps(p.tail + kNr + 16)};
  const __m512 low = _mm512_set1_ps(params->min);
  const __m512 high = _mm512_set1_ps(params->max);
  const __mmask16 mask[2] = {lanes(nr), lanes(nr > 16 ? nr - 16 : 0)};
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    const __m512 rs = _mm512_set1_ps(row_scale[i]);
#pragma GCC unroll 2
    for (size_t v = 0; v < (NV == 1 ? 1 : 2); ++v) {
      __m512 f = _mm512_fmadd_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(v == 0 ? s.acc0[i] : s.acc1[i]), rs), ws[v], bs[v]);
      f = _mm512_min_ps(_mm512_max_ps(f, low), high);
      float* dst = c + i * c_stride + v * 16;
      if (mask[v] == 0xFFFF) {
        _mm512_storeu_ps(dst, f);
      } else {
        _mm512_mask_storeu_ps(dst, mask[v], f);
      }
    }
  }
}

// Calls the tile instance for mr <= 12 rows: one instance per count, so that
// the sums stay in registers.
#define EMBER_QS8_ROW_CASES(call, NV) \
  switch (mr) {                       \
    case 12: return call(12, NV);     \
    case 11: return call(11, NV);     \
    case 10: return call(10, NV);     \
    case 9: return call(9, NV);       \
    case 8: return call(8, NV);       \
    case 7: return call(7, NV);       \
    case 6: return call(6, NV);       \
    case 5: return call(5, NV);       \
    case 4: return call(4, NV);       \
    case 3: return call(3, NV);       \
    case 2: return call(2, NV);       \
    default: return call(1, NV);      \
  }

void qs8_gemm_12x32(size_t mr, size_t nr, size_t kp, const void* a, const void* panel,
                    int8_t* c, size_t c_stride, const Qs8RequantParams* params) {
  const uint8_t* as = static_cast<const uint8_t*>(a);
#define EMBER_CALL(R, NV) qs8_tile<R, NV>(nr, kp, as, panel, c, c_stride, params)
  if (nr <= 16) EMBER_QS8_ROW_CASES(EMBER_CALL, 1)
  if (nr <= 24) EMBER_QS8_ROW_CASES(EMBER_CALL, kHalfTail)
  EMBER_QS8_ROW_CASES(EMBER_CALL, 2)
#undef EMBER_CALL
}

void qd8_gemm_12x32(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, float* c,
                    size_t c_stride, const int32_t* row_zero, const float* row_scale,
                    const Qd8F32Params* params) {
  const uint8_t* as = static_cast<const uint8_t*>(a);
#define EMBER_CALL(R, NV) \
  qd8_tile<R, NV>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params)
  if (nr <= 16) EMBER_QS8_ROW_CASES(EMBER_CALL, 1)
  if (nr <= 24) EMBER_QS8_ROW_CASES(EMBER_CALL, kHalfTail)
  EMBER_QS8_ROW_CASES(EMBER_CALL, 2)
#undef EMBER_CALL
}

#undef EMBER_QS8_ROW_CASES

// The gather into u8 (value ^ 0x80 = value + 128): a 64-byte xor per block
// of a tap and one masked one for its tail, where the portable loops move 8
// or 16 bytes at a time (up to 13% of MobileNetV2 int8's time went there).
// The masked-off lanes load as zero: past kc the tail writes 0x80s.
void pack_a_u8(size_t mr, size_t kc, size_t kcp, size_t ks, const int8_t* const* rows,
               size_t tap_stride, size_t row_stride, size_t a_offset, const int8_t* zero,
               void* out) {
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  const size_t blocks = kc / 64 * 64;
  const size_t rest = kcp - blocks;  // <= 64: kcp rounds kc up to kKr
  const __mmask64 load_mask = kc == blocks ? 0 : ~0ull >> (64 - (kc - blocks));
  uint8_t* dst = static_cast<uint8_t*>(out);
  for (size_t i = 0; i < mr; ++i) {
    for (size_t p = 0; p < ks; ++p, dst += kcp) {
      const int8_t* src = rows[p * tap_stride + i * row_stride];
      if (src != zero) {
        src = reinterpret_cast<const int8_t*>(reinterpret_cast<uintptr_t>(src) + a_offset);
      }
      size_t q = 0;
      for (; q < blocks; q += 64) {
        const __m512i v = _mm512_loadu_si512(src + q);
        _mm512_storeu_si512(dst + q, _mm512_xor_si512(v, flip));
      }
      if (rest == 0) continue;
      const __m512i v = _mm512_xor_si512(_mm512_maskz_loadu_epi8(load_mask, src + q), flip);
      _mm512_mask_storeu_epi8(dst + q, ~0ull >> (64 - rest), v);
    }
  }
}

}  // namespace

extern const Qs8GemmConfig kQs8GemmAvx512VnniConfig = {
    "avx512vnni",
    kCpuAvx512Vnni | kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    kMr, kNr, kKr, Qs8AFormat::U8, kShift, qs8_gemm_12x32, qd8_gemm_12x32, pack_a_u8,
};

}  // namespace ember::kernels::optimized
