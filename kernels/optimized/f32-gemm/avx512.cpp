// f32 GEMM microkernels for AVX-512 (12x32 tile), compiled with the
// Skylake-server AVX-512 flags for this file only. As in avx2.cpp, nothing
// included here defines inline functions besides the intrinsics.
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::kernels::optimized {

// The AVX2 variant's GEMV (avx2.cpp): B streamed in memory order for m <= 4
// is bound by memory, not by the vector width, so it serves here as well.
void f32_gemv_avx2(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b,
                   size_t ldb, float* c, size_t ldc, const F32GemmEpilogue* epilogue);

namespace {

// 12 rows x 32 columns = 24 zmm accumulators, plus 2 for the B row and the
// broadcast A values: 28 of the 32 zmm registers. 24 independent FMA chains
// cover 2 FMA pipes x 4 cycles of latency (8 needed) three times over, and
// each B vector loaded serves 12 FMAs.
constexpr size_t kMr = 12;
constexpr size_t kNr = 32;

// Lanes [0, n) of a vector, n <= 16.
inline __mmask16 lanes(size_t n) { return static_cast<__mmask16>((1u << n) - 1u); }

// 16 values of self from `self` on through its column stride, the lanes of
// `mask` only (the others are never read).
inline __m512 load_self_vec(const float* self, ptrdiff_t col_stride, __mmask16 mask) {
  if (col_stride == 1) return _mm512_maskz_loadu_ps(mask, self);
  if (col_stride == 0) return _mm512_set1_ps(*self);
  const __m512i index = _mm512_mullo_epi32(
      _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      _mm512_set1_epi32(static_cast<int>(col_stride)));
  return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask, index, self, 4);
}

// A bias row (addmm's self as a linear or conv bias: one row, read
// contiguously, added once): the accumulators start from it, so the
// epilogue has nothing to add. Decided from the epilogue alone, so every K
// block of a problem agrees: the first starts from the bias, none adds it.
inline bool bias_in_accumulators(const F32GemmEpilogue* ep) {
  return ep->beta == 1.0f && ep->alpha == 1.0f && ep->self_row_stride == 0 &&
         ep->self_col_stride == 1;
}

// The accumulators' start: the bias columns [0, nr) (zero past nr) or zero.
template <size_t MR>
__attribute__((always_inline)) inline void start_accumulators(__m512* acc0, __m512* acc1,
                                                              size_t nr, bool from_bias,
                                                              const float* bias) {
  __m512 b0 = _mm512_setzero_ps(), b1 = _mm512_setzero_ps();
  if (from_bias) {
    b0 = _mm512_maskz_loadu_ps(nr >= 16 ? lanes(16) : lanes(nr), bias);
    if (nr > 16) b1 = _mm512_maskz_loadu_ps(nr >= 32 ? lanes(16) : lanes(nr - 16), bias + 16);
  }
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = b0;
    acc1[i] = b1;
  }
}

// What a tile's store does to each vector of sums, decided once per tile.
struct VecEpilogue {
  bool accumulate, scale, add_self, clamp;
  __m512 alpha, beta, low, high;
  const F32GemmEpilogue* ep;
};

__attribute__((always_inline)) inline VecEpilogue vec_epilogue(uint32_t flags,
                                                               const F32GemmEpilogue* ep) {
  const bool final_block = (flags & kF32GemmFinal) != 0;
  VecEpilogue e;
  e.accumulate = (flags & kF32GemmAccumulate) != 0;
  e.scale = final_block && ep->alpha != 1.0f;
  e.add_self = final_block && ep->beta != 0.0f && !bias_in_accumulators(ep);
  e.clamp = final_block &&
            (ep->clamp_min != -__builtin_inff() || ep->clamp_max != __builtin_inff());
  e.alpha = _mm512_set1_ps(e.scale ? ep->alpha : 1.0f);
  e.beta = _mm512_set1_ps(e.add_self ? ep->beta : 0.0f);
  e.low = _mm512_set1_ps(e.clamp ? ep->clamp_min : 0.0f);
  e.high = _mm512_set1_ps(e.clamp ? ep->clamp_max : 0.0f);
  e.ep = ep;
  return e;
}

// max(low, v) and min(high, v) return v, the second operand, when it is
// NaN: NaN passes through as torch.clamp lets it.
__attribute__((always_inline)) inline __m512 clamp(const VecEpilogue& e, __m512 v) {
  return _mm512_min_ps(e.high, _mm512_max_ps(e.low, v));
}

// Stores the lanes of `mask` of sums v to row i from column j (c points at them).
__attribute__((always_inline)) inline void store_vec(const VecEpilogue& e, __m512 v, float* c,
                                                     size_t i, size_t j, __mmask16 mask) {
  if (e.accumulate) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, c));
  if (e.scale) v = _mm512_mul_ps(e.alpha, v);
  if (e.add_self) {
    const float* self = e.ep->self + static_cast<ptrdiff_t>(i) * e.ep->self_row_stride +
                        static_cast<ptrdiff_t>(j) * e.ep->self_col_stride;
    v = _mm512_fmadd_ps(e.beta, load_self_vec(self, e.ep->self_col_stride, mask), v);
  }
  if (e.clamp) v = clamp(e, v);
  // A whole vector unmasked: a 64-byte aligned full-line store can then skip
  // reading the line first, which a masked store always does.
  if (mask == 0xFFFF) {
    _mm512_storeu_ps(c, v);
  } else {
    _mm512_mask_storeu_ps(c, mask, v);
  }
}

// Writes an MR x 32 tile of sums (nr columns of it; acc1 unread when nr <=
// 16) to C as `flags` say; the masks cover the N tail.
template <size_t MR>
__attribute__((always_inline)) inline void store_tile(const __m512* acc0, const __m512* acc1,
                                                      size_t nr, float* c, size_t c_stride,
                                                      uint32_t flags,
                                                      const F32GemmEpilogue* epilogue) {
  const VecEpilogue e = vec_epilogue(flags, epilogue);
  const __mmask16 mask0 = nr >= 16 ? lanes(16) : lanes(nr);
  const __mmask16 mask1 = nr >= 32 ? lanes(16) : (nr > 16 ? lanes(nr - 16) : 0);
  if (!e.accumulate && !e.scale && !e.add_self && mask0 == 0xFFFF) {
    // The usual tile, tested once rather than per vector: the last K block
    // of sums that already hold the bias, at least 16 columns, clamped or
    // not. Store by store, the tests cost as much as a short K's FMAs (1x1
    // convolutions with K = 16 to 32 ran at 60-75% of the FMA peak).
    auto store_rows = [&](auto clamped) {
      auto out = [&](__m512 v) {
        return decltype(clamped)::value ? clamp(e, v) : v;
      };
#pragma GCC unroll 12
      for (size_t i = 0; i < MR; ++i) {
        float* c_row = c + i * c_stride;
        _mm512_storeu_ps(c_row, out(acc0[i]));
        if (mask1 == 0xFFFF) {
          _mm512_storeu_ps(c_row + 16, out(acc1[i]));
        } else if (mask1 != 0) {
          _mm512_mask_storeu_ps(c_row + 16, mask1, out(acc1[i]));
        }
      }
    };
    if (e.clamp) {
      store_rows(std::true_type{});
    } else {
      store_rows(std::false_type{});
    }
    return;
  }
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    float* c_row = c + i * c_stride;
    store_vec(e, acc0[i], c_row, i, 0, mask0);
    if (mask1 != 0) store_vec(e, acc1[i], c_row + 16, i, 16, mask1);
  }
}

// NV for a panel of 17 to 24 columns: a zmm and a ymm per row. Where 512-bit
// FMAs issue as two 256-bit halves (Zen 4), the ymm costs half of a zmm, so
// such a tile (MobileNetV2's 24-channel projections) takes 3/4 of the time of
// two full vectors; elsewhere it costs the same.
constexpr size_t kHalfTail = 3;

// One k step of an MR-row tile: row i's A value times B's NV vectors at w.
// acc1 serves NV == 2, acch (columns 16..23) NV == kHalfTail.
template <size_t MR, size_t NV>
__attribute__((always_inline)) inline void k_step(const float* const* a_rows, size_t k,
                                                  const float* w, __m512* acc0, __m512* acc1,
                                                  __m256* acch) {
  const __m512 b0 = _mm512_loadu_ps(w);
  const __m512 b1 = NV == 2 ? _mm512_loadu_ps(w + 16) : b0;
  const __m256 bh = NV == kHalfTail ? _mm256_loadu_ps(w + 16) : _mm512_castps512_ps256(b0);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    const __m512 av = _mm512_set1_ps(a_rows[i][k]);
    acc0[i] = _mm512_fmadd_ps(av, b0, acc0[i]);
    if (NV == 2) acc1[i] = _mm512_fmadd_ps(av, b1, acc1[i]);
    if (NV == kHalfTail) acch[i] = _mm256_fmadd_ps(_mm512_castps512_ps256(av), bh, acch[i]);
  }
}

// K steps from k, one line of the next weights' slice fetched every E steps
// while both last. A fixed E (not the slice spread over the steps at run
// time, which needs more live registers than the 12-row tile has spare:
// 3% slower) keeps the loop as lean as one with no prefetch.
template <size_t E, size_t MR, size_t NV>
__attribute__((always_inline)) inline void prefetching_steps(
    const float* const* a_rows, size_t& k, size_t kc, const float*& w, const char*& pf,
    const char* pf_end, __m512* acc0, __m512* acc1, __m256* acch) {
  for (; pf < pf_end && k + E <= kc; k += E, pf += 64) {
    _mm_prefetch(pf, _MM_HINT_T1);
#pragma GCC unroll 4
    for (size_t step = 0; step < E; ++step, w += kNr) {
      k_step<MR, NV>(a_rows, k + step, w, acc0, acc1, acch);
    }
  }
}

// NV vectors of B per k: 2 (columns 0..31), kHalfTail (17..24), or 1 for a
// panel of at most 16 columns, which then costs half the FMAs.
template <size_t MR, size_t NV>
void tile(size_t nr, size_t kc, const float* a, size_t a_stride, const float* w, float* c,
          size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  const float* a_rows[MR];
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) a_rows[i] = a + i * a_stride;
  // Start C's lines on their way: they are read (K blocks after the first)
  // and written only after the k loop, and by then would be a miss each.
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    _mm_prefetch(reinterpret_cast<const char*>(c + i * c_stride), _MM_HINT_T0);
    if (NV == 2) _mm_prefetch(reinterpret_cast<const char*>(c + i * c_stride + 16), _MM_HINT_T0);
  }
  __m512 acc0[MR];
  __m512 acc1[MR];
  __m256 acch[MR];
  // NV == 1 sums even and odd k apart and adds acc1 into acc0 at the end:
  // the bias goes into acc0 only.
  const bool from_bias = (flags & kF32GemmAccumulate) == 0 && bias_in_accumulators(epilogue);
  start_accumulators<MR>(acc0, acc1, NV == 1 ? (nr < 16 ? nr : 16) : nr, from_bias,
                         epilogue->self);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    if (NV == 1) acc1[i] = _mm512_setzero_ps();
    if (NV == kHalfTail) acch[i] = _mm512_castps512_ps256(acc1[i]);
  }

  size_t k = 0;
  if (NV == 1) {
    // One vector per row leaves MR FMA chains: even k steps go to acc0, odd
    // ones to acc1, summed at the end, so that a few rows still hide the
    // FMA latency.
#pragma GCC unroll 2
    for (; k + 2 <= kc; k += 2) {
      const __m512 b0 = _mm512_loadu_ps(w);
      const __m512 b1 = _mm512_loadu_ps(w + kNr);
      w += 2 * kNr;
#pragma GCC unroll 12
      for (size_t i = 0; i < MR; ++i) {
        acc0[i] = _mm512_fmadd_ps(_mm512_set1_ps(a_rows[i][k]), b0, acc0[i]);
        acc1[i] = _mm512_fmadd_ps(_mm512_set1_ps(a_rows[i][k + 1]), b1, acc1[i]);
      }
    }
  }
  // The slice of the next weights to fetch, a line every 4 k steps where the
  // call has steps enough, else every 2 or every step. One line per step
  // asked DRAM for each slice at its full rate, and the tile waited on the
  // queue: BERT-base, whose weights all stream from DRAM, ran 10% slower.
  const char* pf = epilogue->prefetch;
  const char* const pf_end = epilogue->prefetch_end;
  if (pf < pf_end) {
    const size_t lines = static_cast<size_t>(pf_end - pf + 63) / 64;
    if (4 * lines <= kc - k) {
      prefetching_steps<4, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1, acch);
    } else if (2 * lines <= kc - k) {
      prefetching_steps<2, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1, acch);
    } else {
      prefetching_steps<1, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1, acch);
    }
  }
#pragma GCC unroll 2
  for (; k < kc; ++k, w += kNr) k_step<MR, NV>(a_rows, k, w, acc0, acc1, acch);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    if (NV == 1) acc0[i] = _mm512_add_ps(acc0[i], acc1[i]);
    if (NV == kHalfTail) acc1[i] = _mm512_castps256_ps512(acch[i]);  // lanes 8..15 masked off
  }

  store_tile<MR>(acc0, acc1, nr, c, c_stride, flags, epilogue);
}

// Calls F<MR>() for the row count mr <= 12 of a tile: one instance per count,
// so that every tile's accumulators stay in registers.
#define EMBER_GEMM_ROW_CASES(call) \
  switch (mr) {                    \
    case 12: return call(12);      \
    case 11: return call(11);      \
    case 10: return call(10);      \
    case 9: return call(9);        \
    case 8: return call(8);        \
    case 7: return call(7);        \
    case 6: return call(6);        \
    case 5: return call(5);        \
    case 4: return call(4);        \
    case 3: return call(3);        \
    case 2: return call(2);        \
    default: return call(1);       \
  }

void ukernel_12x32(size_t mr, size_t nr, size_t kc, const float* a, size_t a_stride,
                   const float* w, float* c, size_t c_stride, uint32_t flags,
                   const F32GemmEpilogue* epilogue) {
  if (nr <= 16) {
#define EMBER_CALL(R) tile<R, 1>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue)
    EMBER_GEMM_ROW_CASES(EMBER_CALL)
#undef EMBER_CALL
  }
  if (nr <= 24) {
#define EMBER_CALL(R) tile<R, kHalfTail>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue)
    EMBER_GEMM_ROW_CASES(EMBER_CALL)
#undef EMBER_CALL
  }
#define EMBER_CALL(R) tile<R, 2>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue)
  EMBER_GEMM_ROW_CASES(EMBER_CALL)
#undef EMBER_CALL
}

// Indirect tile: as tile<MR, NV>, A's rows read through ks pointers each (one
// per tap), kc floats per pointer, the sums written once (no K blocks).
template <size_t MR, size_t NV>
void itile(size_t nr, size_t kc, size_t ks, const float* const* a, size_t mr_stride,
           size_t a_offset, const float* zero, const float* w, float* c, size_t c_stride,
           const F32GemmEpilogue* epilogue) {
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    _mm_prefetch(reinterpret_cast<const char*>(c + i * c_stride), _MM_HINT_T0);
    if (NV == 2) _mm_prefetch(reinterpret_cast<const char*>(c + i * c_stride + 16), _MM_HINT_T0);
  }
  __m512 acc0[MR];
  __m512 acc1[MR];
  start_accumulators<MR>(acc0, acc1, nr, bias_in_accumulators(epilogue), epilogue->self);
  const char* pf = epilogue->prefetch;
  const char* const pf_end = epilogue->prefetch_end;
  for (size_t p = 0; p < ks; ++p) {
    const float* a_rows[MR];
#pragma GCC unroll 12
    for (size_t i = 0; i < MR; ++i) {
      const float* ptr = a[i];
      a_rows[i] = ptr != zero ? reinterpret_cast<const float*>(
                                    reinterpret_cast<uintptr_t>(ptr) + a_offset)
                              : zero;
    }
    a += mr_stride;
    size_t k = 0;
    // The slice of the next weights (see tile): one line per k step. Spaced
    // out as tile spaces them, ResNet-18 ran 3% slower.
    for (; pf < pf_end && k < kc; ++k, pf += 64, w += kNr) {
      _mm_prefetch(pf, _MM_HINT_T1);
      k_step<MR, NV>(a_rows, k, w, acc0, acc1, nullptr);
    }
#pragma GCC unroll 2
    for (; k < kc; ++k, w += kNr) k_step<MR, NV>(a_rows, k, w, acc0, acc1, nullptr);
  }
  store_tile<MR>(acc0, acc1, nr, c, c_stride, kF32GemmFinal, epilogue);
}

void igemm_12x32(size_t mr, size_t nr, size_t kc, size_t ks, const float* const* a,
                 size_t mr_stride, size_t a_offset, const float* zero, const float* w, float* c,
                 size_t c_stride, const F32GemmEpilogue* epilogue) {
  if (nr <= 16) {
#define EMBER_CALL(R) \
  itile<R, 1>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue)
    EMBER_GEMM_ROW_CASES(EMBER_CALL)
#undef EMBER_CALL
  }
#define EMBER_CALL(R) \
  itile<R, 2>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue)
  EMBER_GEMM_ROW_CASES(EMBER_CALL)
#undef EMBER_CALL
}

#undef EMBER_GEMM_ROW_CASES

}  // namespace

// kc = 256 makes a packed micro-panel 256 * 32 * 4 = 32 KiB, two thirds of a
// 48 KiB L1D; nc = 128 (4 panels) keeps the packed B block at the driver's
// 128 KiB bound, well inside a 2 MiB L2.
extern const F32GemmConfig kF32GemmAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm, ukernel_12x32, kMr, kNr,
    /*kc=*/256, /*nc=*/128, f32_gemv_avx2, igemm_12x32,
};

}  // namespace ember::kernels::optimized
