// The quantized GEMM's microkernels written once over a code width Q (avx2.cpp,
// avx512.cpp and neon.cpp define it). A panel of 16 rows is kParts = 16 /
// Q::kLanes vectors, a lane per row. A chunk holds 4 code bytes per row, so
// one load of 4 kLanes bytes gives kLanes rows' codes at 4 (Q8_0) or 8 (Q4_1)
// inputs; each input's codes come out with a shift and a mask and meet that
// input broadcast in one FMA. Q4_1's high nibbles are masked in place (16 q)
// and their sums scaled by 1/16 once per block, which saves a shift per pair
// and is exact.
//
// Q has a float width's members (zero, splat, add, mul, fmadd, storeu: a
// simd/*_math.h Vec) and:
//   using Codes;                                       kLanes rows' 4 code bytes
//   static Codes codes(const uint8_t* p);              4 kLanes bytes from p
//   template <int kI> static void nibbles(Codes, V* low, V* high16);
//                                                      byte kI's low nibble, 16 x high
//   template <int kI> static V signed_byte(Codes);     byte kI as a signed value
//   static V halfs(const uint8_t* p);                  kLanes fp16 values as floats
//   static constexpr bool kPrefetchAhead;              prefetch the blocks ahead
//
// Included only by those ISA files, after their simd header; everything here
// has internal linkage, so each file's copy is compiled with its own flags.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__)
#error "qgemm_body.h is for the SIMD variants (avx2, avx512, neon) only"
#endif

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/f32-qgemm/f32_qgemm.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kRows = kF32QPanelRows;
constexpr size_t kQ4Block = 20 * kRows;  // 16 scales, 16 minimums, 16 x 16 code bytes
constexpr size_t kQ8Block = 34 * kRows;  // 16 scales, 16 x 32 code bytes
// Blocks ahead that the GEMV prefetches: a decode step streams every weight
// once from memory, and the hardware prefetcher ramps up too slowly on the
// short runs of one task.
constexpr size_t kPrefetchBlocks = 8;

template <typename Q>
__attribute__((always_inline)) inline void prefetch_ahead(const uint8_t* at, size_t bytes) {
  if constexpr (Q::kPrefetchAhead) {
    const uint8_t* ahead = at + kPrefetchBlocks * bytes;
    for (size_t line = 0; line < bytes; line += 64) __builtin_prefetch(ahead + line, 0, 3);
  }
}

// How far ahead the integer GEMVs (on x's digits: avx512vnni.cpp, avx2.cpp)
// prefetch, into L2 where the float ones prefetch into L1: bound by memory,
// not by arithmetic, they need more lines in flight than L1's few miss
// buffers hold (SmolLM2's 4-bit decode on one Zen 4 core, huge pages: 8
// blocks ahead into L1, 179-191 tokens/s; 16 KiB ahead into L2, 209-218).
constexpr size_t kPrefetchL2Bytes = 16384;

__attribute__((always_inline)) inline void prefetch_l2_ahead(const uint8_t* at, size_t block) {
  const uint8_t* ahead = at + kPrefetchL2Bytes / block * block;
  for (size_t line = 0; line < block; line += 64) __builtin_prefetch(ahead + line, 0, 2);
}

// The codes of chunk c (4 inputs per row) for part p of a block's rows.
template <typename Q>
__attribute__((always_inline)) inline typename Q::Codes chunk(const uint8_t* codes, size_t c,
                                                              size_t p) {
  return Q::codes(codes + c * 4 * kRows + p * 4 * Q::kLanes);
}

// The sum of n partial sums.
template <typename Q, size_t N>
__attribute__((always_inline)) inline typename Q::V sum_of(const typename Q::V* s) {
  if constexpr (N == 1) {
    return s[0];
  } else {
    return Q::add(sum_of<Q, N / 2>(s), sum_of<Q, N - N / 2>(s + N / 2));
  }
}

// Byte kI of a Q4_1 chunk for inputs xc[0..7]: low codes times xc[kI] into
// `low`, 16 x high codes times xc[4 + kI] into `high`.
template <typename Q, int kI>
__attribute__((always_inline)) inline void q4_step(typename Q::Codes v, const float* xc,
                                                   typename Q::V* low, typename Q::V* high) {
  typename Q::V ql, qh;
  Q::template nibbles<kI>(v, &ql, &qh);
  *low = Q::fmadd(ql, Q::splat(xc[kI]), *low);
  *high = Q::fmadd(qh, Q::splat(xc[4 + kI]), *high);
}

// The GEMVs take a block's chunks in order and every part of a chunk in turn,
// so that each input's broadcast serves all of them.
template <typename Q>
void gemv_q4_1(size_t nb, const float* x, const float* xsum, const uint8_t* panel, size_t,
               float* y) {
  using V = typename Q::V;
  constexpr size_t L = Q::kLanes, kParts = kRows / L;
  // One vector a panel (AVX-512) would leave one FMA chain a block: two sets
  // of partial sums overlap.
  constexpr size_t kSets = kParts == 1 ? 2 : 1;
  V acc[kParts];
  for (size_t p = 0; p < kParts; ++p) acc[p] = Q::zero();
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kQ4Block;
    prefetch_ahead<Q>(at, kQ4Block);
    const float* xb = x + b * 32;
    V low[kParts][kSets], high[kParts][kSets];
    for (size_t p = 0; p < kParts; ++p) {
      for (size_t s = 0; s < kSets; ++s) low[p][s] = high[p][s] = Q::zero();
    }
    for (size_t c = 0; c < 4; ++c) {
      for (size_t p = 0; p < kParts; ++p) {
        const typename Q::Codes v = chunk<Q>(at + 4 * kRows, c, p);
        V* l = &low[p][c % kSets];
        V* h = &high[p][c % kSets];
        q4_step<Q, 0>(v, xb + 8 * c, l, h);
        q4_step<Q, 1>(v, xb + 8 * c, l, h);
        q4_step<Q, 2>(v, xb + 8 * c, l, h);
        q4_step<Q, 3>(v, xb + 8 * c, l, h);
      }
    }
    const V sum = Q::splat(xsum[b]);
    for (size_t p = 0; p < kParts; ++p) {
      const V dot =
          Q::fmadd(sum_of<Q, kSets>(high[p]), Q::splat(1.0f / 16), sum_of<Q, kSets>(low[p]));
      acc[p] = Q::fmadd(Q::halfs(at + 2 * p * L), dot, acc[p]);
      acc[p] = Q::fmadd(Q::halfs(at + 2 * kRows + 2 * p * L), sum, acc[p]);
    }
  }
  for (size_t p = 0; p < kParts; ++p) Q::storeu(y + p * L, acc[p]);
}

template <typename Q>
void gemv_q8_0(size_t nb, const float* x, const float*, const uint8_t* panel, size_t, float* y) {
  using V = typename Q::V;
  constexpr size_t L = Q::kLanes, kParts = kRows / L;
  // Partial sums enough for the FMA chains to overlap (see gemv_q4_1).
  constexpr size_t kSets = kParts == 1 ? 4 : 2;
  V acc[kParts];
  for (size_t p = 0; p < kParts; ++p) acc[p] = Q::zero();
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kQ8Block;
    prefetch_ahead<Q>(at, kQ8Block);
    const float* xb = x + b * 32;
    V s[kParts][kSets];
    for (size_t p = 0; p < kParts; ++p) {
      for (size_t i = 0; i < kSets; ++i) s[p][i] = Q::zero();
    }
    for (size_t c = 0; c < 8; ++c) {
      const float* xc = xb + 4 * c;
      for (size_t p = 0; p < kParts; ++p) {
        const typename Q::Codes v = chunk<Q>(at + 2 * kRows, c, p);
        V& si = s[p][c % kSets];
        si = Q::fmadd(Q::template signed_byte<0>(v), Q::splat(xc[0]), si);
        si = Q::fmadd(Q::template signed_byte<1>(v), Q::splat(xc[1]), si);
        si = Q::fmadd(Q::template signed_byte<2>(v), Q::splat(xc[2]), si);
        si = Q::fmadd(Q::template signed_byte<3>(v), Q::splat(xc[3]), si);
      }
    }
    for (size_t p = 0; p < kParts; ++p) {
      acc[p] = Q::fmadd(Q::halfs(at + 2 * p * L), sum_of<Q, kSets>(s[p]), acc[p]);
    }
  }
  for (size_t p = 0; p < kParts; ++p) Q::storeu(y + p * L, acc[p]);
}

template <typename Q, int kI>
__attribute__((always_inline)) inline void q4_unpack_step(typename Q::Codes v, typename Q::V d,
                                                          typename Q::V d16, typename Q::V m,
                                                          float* out, size_t nr) {
  typename Q::V ql, qh;
  Q::template nibbles<kI>(v, &ql, &qh);
  Q::storeu(out + kI * nr, Q::fmadd(ql, d, m));
  Q::storeu(out + (4 + kI) * nr, Q::fmadd(qh, d16, m));
}

// Whole panels only (r0 0, 16 rows): the driver sends the rest to scalar.
template <typename Q>
void unpack_q4_1(size_t nb, const uint8_t* blocks, size_t, size_t, size_t, size_t nr,
                 float* out) {
  constexpr size_t L = Q::kLanes, kParts = kRows / L;
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * kQ4Block;
    for (size_t p = 0; p < kParts; ++p) {
      const typename Q::V d = Q::halfs(at + 2 * p * L);
      const typename Q::V d16 = Q::mul(d, Q::splat(1.0f / 16));
      const typename Q::V m = Q::halfs(at + 2 * kRows + 2 * p * L);
      for (size_t c = 0; c < 4; ++c) {
        const typename Q::Codes v = chunk<Q>(at + 4 * kRows, c, p);
        float* o = out + (b * 32 + 8 * c) * nr + p * L;
        q4_unpack_step<Q, 0>(v, d, d16, m, o, nr);
        q4_unpack_step<Q, 1>(v, d, d16, m, o, nr);
        q4_unpack_step<Q, 2>(v, d, d16, m, o, nr);
        q4_unpack_step<Q, 3>(v, d, d16, m, o, nr);
      }
    }
  }
}

template <typename Q>
void unpack_q8_0(size_t nb, const uint8_t* blocks, size_t, size_t, size_t, size_t nr,
                 float* out) {
  constexpr size_t L = Q::kLanes, kParts = kRows / L;
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * kQ8Block;
    for (size_t p = 0; p < kParts; ++p) {
      const typename Q::V d = Q::halfs(at + 2 * p * L);
      for (size_t c = 0; c < 8; ++c) {
        const typename Q::Codes v = chunk<Q>(at + 2 * kRows, c, p);
        float* o = out + (b * 32 + 4 * c) * nr + p * L;
        Q::storeu(o, Q::mul(Q::template signed_byte<0>(v), d));
        Q::storeu(o + nr, Q::mul(Q::template signed_byte<1>(v), d));
        Q::storeu(o + 2 * nr, Q::mul(Q::template signed_byte<2>(v), d));
        Q::storeu(o + 3 * nr, Q::mul(Q::template signed_byte<3>(v), d));
      }
    }
  }
}

// The config of a width: its name and the CPU features it needs.
template <typename Q>
constexpr F32QGemmConfig qgemm_config(const char* name, uint32_t required_features) {
  return {name, required_features, gemv_q4_1<Q>, gemv_q8_0<Q>, unpack_q4_1<Q>, unpack_q8_0<Q>};
}

}  // namespace
}  // namespace ember::kernels::optimized
