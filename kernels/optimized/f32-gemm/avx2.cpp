// f32 GEMM microkernel for AVX2 + FMA (6x16 tile), compiled with -mavx2 -mfma
// for this file only. Includes nothing that defines inline functions besides
// the intrinsics, so no AVX2 code leaks into functions other files share.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::kernels::optimized {
namespace {

// 6 rows x 16 columns = 12 ymm accumulators, plus 2 for the B row and 1 for
// the broadcast A value: 15 of the 16 ymm registers. 12 independent FMA
// chains cover Zen 3's 2 FMA pipes x 4 cycles of latency (8 needed).
constexpr size_t kMr = 6;
constexpr size_t kNr = 16;

// 8 values of self from `self` on, through its column stride.
inline __m256 load_self_vec(const float* self, ptrdiff_t col_stride) {
  if (col_stride == 1) return _mm256_loadu_ps(self);
  if (col_stride == 0) return _mm256_broadcast_ss(self);
  alignas(32) float row[8];
  for (size_t j = 0; j < 8; ++j) row[j] = self[static_cast<ptrdiff_t>(j) * col_stride];
  return _mm256_load_ps(row);
}

// A bias row (addmm's self as a linear or conv bias: one row, read
// contiguously, added once): the accumulators start from it, so the
// epilogue has nothing to add. Decided from the epilogue alone, so every K
// block of a problem agrees: the first starts from the bias, none adds it.
inline bool bias_in_accumulators(const F32GemmEpilogue* ep) {
  return ep->beta == 1.0f && ep->alpha == 1.0f && ep->self_row_stride == 0 &&
         ep->self_col_stride == 1;
}

// Lanes [0, n) of 8 columns from p (n <= 8), zero past them.
inline __m256 load_columns(const float* p, size_t n) {
  if (n >= 8) return _mm256_loadu_ps(p);
  const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                                          _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  return _mm256_maskload_ps(p, mask);
}

// The accumulators' start: the bias columns [0, nr) (zero past nr) or zero.
template <size_t MR>
__attribute__((always_inline)) inline void start_accumulators(__m256* acc0, __m256* acc1,
                                                              size_t nr, bool from_bias,
                                                              const float* bias) {
  __m256 b0 = _mm256_setzero_ps(), b1 = _mm256_setzero_ps();
  if (from_bias) {
    b0 = load_columns(bias, nr);
    if (nr > 8) b1 = load_columns(bias + 8, nr - 8);
  }
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = b0;
    acc1[i] = b1;
  }
}

// What a tile's store does to each vector of sums, decided once per tile.
struct VecEpilogue {
  bool accumulate, scale, add_self, clamp;
  __m256 alpha, beta, low, high;
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
  e.alpha = _mm256_set1_ps(e.scale ? ep->alpha : 1.0f);
  e.beta = _mm256_set1_ps(e.add_self ? ep->beta : 0.0f);
  e.low = _mm256_set1_ps(e.clamp ? ep->clamp_min : 0.0f);
  e.high = _mm256_set1_ps(e.clamp ? ep->clamp_max : 0.0f);
  e.ep = ep;
  return e;
}

// Stores sums v to row i's 8 columns from column j (c points at them).
__attribute__((always_inline)) inline void store_vec(const VecEpilogue& e, __m256 v, float* c,
                                                     size_t i, size_t j) {
  if (e.accumulate) v = _mm256_add_ps(v, _mm256_loadu_ps(c));
  if (e.scale) v = _mm256_mul_ps(e.alpha, v);
  if (e.add_self) {
    const float* self = e.ep->self + static_cast<ptrdiff_t>(i) * e.ep->self_row_stride +
                        static_cast<ptrdiff_t>(j) * e.ep->self_col_stride;
    v = _mm256_fmadd_ps(e.beta, load_self_vec(self, e.ep->self_col_stride), v);
  }
  // max(low, v) and min(high, v) return v, the second operand, when it is
  // NaN: NaN passes through as torch.clamp lets it.
  if (e.clamp) v = _mm256_min_ps(e.high, _mm256_max_ps(e.low, v));
  _mm256_storeu_ps(c, v);
}

// Writes a whole MR x 16 tile of sums to C as `flags` say (the hot case,
// kept apart: written row by row as here it runs ~8% faster on short K).
template <size_t MR>
__attribute__((always_inline)) inline void store_full_tile(const __m256* acc0,
                                                           const __m256* acc1, float* c,
                                                           size_t c_stride, uint32_t flags,
                                                           const F32GemmEpilogue* epilogue) {
  const VecEpilogue e = vec_epilogue(flags, epilogue);
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) {
    float* c_row = c + i * c_stride;
    __m256 v0 = acc0[i];
    __m256 v1 = acc1[i];
    if (e.accumulate) {
      v0 = _mm256_add_ps(v0, _mm256_loadu_ps(c_row));
      v1 = _mm256_add_ps(v1, _mm256_loadu_ps(c_row + 8));
    }
    if (e.scale) {
      v0 = _mm256_mul_ps(e.alpha, v0);
      v1 = _mm256_mul_ps(e.alpha, v1);
    }
    if (e.add_self) {
      const float* self = epilogue->self + static_cast<ptrdiff_t>(i) * epilogue->self_row_stride;
      const ptrdiff_t stride = epilogue->self_col_stride;
      v0 = _mm256_fmadd_ps(e.beta, load_self_vec(self, stride), v0);
      v1 = _mm256_fmadd_ps(e.beta, load_self_vec(self + 8 * stride, stride), v1);
    }
    if (e.clamp) {
      v0 = _mm256_min_ps(e.high, _mm256_max_ps(e.low, v0));
      v1 = _mm256_min_ps(e.high, _mm256_max_ps(e.low, v1));
    }
    _mm256_storeu_ps(c_row, v0);
    _mm256_storeu_ps(c_row + 8, v1);
  }
}

// Writes an MR x 16 tile of sums (nr columns of it; acc1 unread when nr <= 8)
// to C as `flags` say: whole vectors of 8 columns in registers, the last
// partial one, if any, through memory to the plain epilogue.
template <size_t MR>
__attribute__((always_inline)) inline void store_tile(const __m256* acc0, const __m256* acc1,
                                                      size_t nr, float* c, size_t c_stride,
                                                      uint32_t flags,
                                                      const F32GemmEpilogue* epilogue) {
  if (nr == kNr) return store_full_tile<MR>(acc0, acc1, c, c_stride, flags, epilogue);
  const VecEpilogue e = vec_epilogue(flags, epilogue);
  const size_t full = nr / 8;
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) {
    float* c_row = c + i * c_stride;
    if (full > 0) store_vec(e, acc0[i], c_row, i, 0);
    if (full > 1) store_vec(e, acc1[i], c_row + 8, i, 8);
  }
  const size_t rest = nr - full * 8;
  if (rest == 0) return;
  // Element by element, not through a pointer chosen at run time: that
  // would force the accumulators out of registers for the whole k loop.
  alignas(32) float sums[MR][8];
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) _mm256_store_ps(sums[i], full == 0 ? acc0[i] : acc1[i]);
  F32GemmEpilogue tail = *epilogue;
  if (tail.self != nullptr) tail.self += static_cast<ptrdiff_t>(full * 8) * tail.self_col_stride;
  if (bias_in_accumulators(epilogue)) tail.beta = 0.0f;  // the sums hold the bias already
  f32_gemm_store_tile(MR, rest, &sums[0][0], 8, c + full * 8, c_stride, flags, &tail);
}

// One k step of an MR-row tile: row i's A value times B's NV vectors at w.
template <size_t MR, size_t NV>
__attribute__((always_inline)) inline void k_step(const float* const* a_rows, size_t k,
                                                  const float* w, __m256* acc0, __m256* acc1) {
  const __m256 b0 = _mm256_loadu_ps(w);
  const __m256 b1 = NV == 2 ? _mm256_loadu_ps(w + 8) : b0;
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) {
    const __m256 av = _mm256_broadcast_ss(a_rows[i] + k);
    acc0[i] = _mm256_fmadd_ps(av, b0, acc0[i]);
    if (NV == 2) acc1[i] = _mm256_fmadd_ps(av, b1, acc1[i]);
  }
}

// K steps from k, one line of the next weights' slice fetched every E steps
// while both last (see the AVX-512 variant's).
template <size_t E, size_t MR, size_t NV>
__attribute__((always_inline)) inline void prefetching_steps(
    const float* const* a_rows, size_t& k, size_t kc, const float*& w, const char*& pf,
    const char* pf_end, __m256* acc0, __m256* acc1) {
  for (; pf < pf_end && k + E <= kc; k += E, pf += 64) {
    _mm_prefetch(pf, _MM_HINT_T1);
#pragma GCC unroll 4
    for (size_t step = 0; step < E; ++step, w += kNr) k_step<MR, NV>(a_rows, k + step, w, acc0, acc1);
  }
}

// NV vectors of B per k: 2 (columns 0..15), or 1 for a panel of at most 8
// columns, which then costs half the FMAs.
template <size_t MR, size_t NV>
void tile(size_t nr, size_t kc, const float* a, size_t a_stride, const float* w, float* c,
          size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  const float* a_rows[MR];
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) a_rows[i] = a + i * a_stride;
  // Start C's lines on their way: they are read (K blocks after the first)
  // and written only after the k loop, and by then would be a miss each.
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) {
    _mm_prefetch(reinterpret_cast<const char*>(c + i * c_stride), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(c + i * c_stride + kNr - 1), _MM_HINT_T0);
  }
  __m256 acc0[MR];
  __m256 acc1[MR];
  // NV == 1 sums even and odd k apart and adds acc1 into acc0 at the end:
  // the bias goes into acc0 only.
  const bool from_bias = (flags & kF32GemmAccumulate) == 0 && bias_in_accumulators(epilogue);
  start_accumulators<MR>(acc0, acc1, NV == 2 ? nr : (nr < 8 ? nr : 8), from_bias,
                         epilogue->self);
  if (NV == 1) {
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; ++i) acc1[i] = _mm256_setzero_ps();
  }

  // Per k: 2 loads of B, MR broadcasts of A, 2*MR FMAs. Zen 3 issues the
  // broadcasts on its load ports, so they do not compete with the FMAs.
  size_t k = 0;
  if (NV == 1) {
    // One vector per row leaves MR FMA chains, fewer than the 8 that hide
    // the FMA latency: even k steps go to acc0, odd ones to acc1, summed at
    // the end (an N tail of 8 of N = 24 then runs at full rate, not 3/4).
#pragma GCC unroll 2
    for (; k + 2 <= kc; k += 2) {
      const __m256 b0 = _mm256_loadu_ps(w);
      const __m256 b1 = _mm256_loadu_ps(w + kNr);
      w += 2 * kNr;
#pragma GCC unroll 6
      for (size_t i = 0; i < MR; ++i) {
        acc0[i] = _mm256_fmadd_ps(_mm256_broadcast_ss(a_rows[i] + k), b0, acc0[i]);
        acc1[i] = _mm256_fmadd_ps(_mm256_broadcast_ss(a_rows[i] + k + 1), b1, acc1[i]);
      }
    }
  }
  // The slice of the next weights to fetch, spaced over the k steps as the
  // AVX-512 tile spaces it (see there).
  const char* pf = epilogue->prefetch;
  const char* const pf_end = epilogue->prefetch_end;
  if (pf < pf_end) {
    const size_t lines = static_cast<size_t>(pf_end - pf + 63) / 64;
    if (4 * lines <= kc - k) {
      prefetching_steps<4, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1);
    } else if (2 * lines <= kc - k) {
      prefetching_steps<2, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1);
    } else {
      prefetching_steps<1, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1);
    }
  }
#pragma GCC unroll 4
  for (; k < kc; ++k, w += kNr) k_step<MR, NV>(a_rows, k, w, acc0, acc1);
  if (NV == 1) {
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; ++i) acc0[i] = _mm256_add_ps(acc0[i], acc1[i]);
  }

  store_tile<MR>(acc0, acc1, nr, c, c_stride, flags, epilogue);
}

// Tiles of mr <= 6 rows and NV vectors of columns.
template <size_t NV>
void tile_rows(size_t mr, size_t nr, size_t kc, const float* a, size_t a_stride, const float* w,
               float* c, size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  switch (mr) {
    case 6: return tile<6, NV>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 5: return tile<5, NV>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 4: return tile<4, NV>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 3: return tile<3, NV>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 2: return tile<2, NV>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    default: return tile<1, NV>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
  }
}

void ukernel_6x16(size_t mr, size_t nr, size_t kc, const float* a, size_t a_stride,
                  const float* w, float* c, size_t c_stride, uint32_t flags,
                  const F32GemmEpilogue* epilogue) {
  if (nr <= 8) return tile_rows<1>(mr, nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
  tile_rows<2>(mr, nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
}

// Indirect tile: as tile<MR>, A's rows read through ks pointers each (one
// per tap), kc floats per pointer, the sums written once (no K blocks).
template <size_t MR, size_t NV>
void itile(size_t nr, size_t kc, size_t ks, const float* const* a, size_t mr_stride,
           size_t a_offset, const float* zero, const float* w, float* c, size_t c_stride,
           const F32GemmEpilogue* epilogue) {
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) {
    _mm_prefetch(reinterpret_cast<const char*>(c + i * c_stride), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(c + i * c_stride + kNr - 1), _MM_HINT_T0);
  }
  __m256 acc0[MR];
  __m256 acc1[MR];
  start_accumulators<MR>(acc0, acc1, nr, bias_in_accumulators(epilogue), epilogue->self);
  for (size_t p = 0; p < ks; ++p) {
    const float* a_rows[MR];
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; ++i) {
      const float* ptr = a[i];
      a_rows[i] = ptr != zero ? reinterpret_cast<const float*>(
                                    reinterpret_cast<uintptr_t>(ptr) + a_offset)
                              : zero;
    }
    a += mr_stride;
#pragma GCC unroll 4
    for (size_t k = 0; k < kc; ++k) {
      const __m256 b0 = _mm256_loadu_ps(w);
      const __m256 b1 = NV == 2 ? _mm256_loadu_ps(w + 8) : b0;
      w += kNr;
#pragma GCC unroll 6
      for (size_t i = 0; i < MR; ++i) {
        const __m256 av = _mm256_broadcast_ss(a_rows[i] + k);
        acc0[i] = _mm256_fmadd_ps(av, b0, acc0[i]);
        if (NV == 2) acc1[i] = _mm256_fmadd_ps(av, b1, acc1[i]);
      }
    }
  }
  store_tile<MR>(acc0, acc1, nr, c, c_stride, kF32GemmFinal, epilogue);
}

template <size_t NV>
void itile_rows(size_t mr, size_t nr, size_t kc, size_t ks, const float* const* a,
                size_t mr_stride, size_t a_offset, const float* zero, const float* w, float* c,
                size_t c_stride, const F32GemmEpilogue* epilogue) {
  switch (mr) {
    case 6: return itile<6, NV>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 5: return itile<5, NV>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 4: return itile<4, NV>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 3: return itile<3, NV>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 2: return itile<2, NV>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    default:
      return itile<1, NV>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
  }
}

void igemm_6x16(size_t mr, size_t nr, size_t kc, size_t ks, const float* const* a,
                size_t mr_stride, size_t a_offset, const float* zero, const float* w, float* c,
                size_t c_stride, const F32GemmEpilogue* epilogue) {
  if (nr <= 8) {
    return itile_rows<1>(mr, nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
  }
  itile_rows<2>(mr, nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
}

// GEMV: the sums of R rows of C over a block of columns live on the stack
// (8 KiB, in L1) while B is read U rows at a time in memory order: U
// sequential streams the prefetcher follows. Per 8 columns: U loads of B, R
// loads and stores of sums, R * U FMAs; R * U broadcast A values stay in
// registers (at most 8, plus U for B and one for a sum).
constexpr size_t kGemvSums = 2048;

// Writes one row of sums to C: vectors where self is contiguous, broadcast or
// unread, the plain epilogue for the tail and other strides.
void gemv_store_row(size_t nb, const float* sums, float* c, const F32GemmEpilogue& ep) {
  const bool scale = ep.alpha != 1.0f;
  const bool add_self = ep.beta != 0.0f;
  const ptrdiff_t scs = ep.self_col_stride;
  size_t done = 0;
  if (!add_self || scs == 0 || scs == 1) {
    const __m256 alpha = _mm256_set1_ps(ep.alpha);
    const __m256 beta = _mm256_set1_ps(ep.beta);
    for (; done + 8 <= nb; done += 8) {
      __m256 v = _mm256_load_ps(sums + done);
      if (scale) v = _mm256_mul_ps(alpha, v);
      if (add_self) {
        const __m256 sv = scs == 1 ? _mm256_loadu_ps(ep.self + done) : _mm256_broadcast_ss(ep.self);
        v = _mm256_fmadd_ps(beta, sv, v);
      }
      _mm256_storeu_ps(c + done, v);
    }
  }
  F32GemmEpilogue rest = ep;
  if (add_self) rest.self = ep.self + static_cast<ptrdiff_t>(done) * scs;
  f32_gemm_store_tile(1, nb - done, sums + done, 0, c + done, 0, kF32GemmFinal, &rest);
}

template <size_t R, size_t U>
void gemv_rows(size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
               float* c, size_t ldc, const F32GemmEpilogue* epilogue) {
  constexpr size_t kBlock = kGemvSums / R / 8 * 8;
  alignas(32) float sums[R][kBlock];
  for (size_t j0 = 0; j0 < n; j0 += kBlock) {
    const size_t nb = n - j0 < kBlock ? n - j0 : kBlock;
    const size_t nv = nb / 8 * 8;
    const size_t tail = nb - nv;
    // Lanes [0, tail) of the last, partial vector: B is not read past n.
    const __m256i tail_mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(tail)),
                                                 _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const size_t nz = nv + (tail != 0 ? 8 : 0);
    for (size_t r = 0; r < R; ++r) {
      for (size_t j = 0; j < nz; j += 8) _mm256_store_ps(sums[r] + j, _mm256_setzero_ps());
    }
    const float* bj = b + j0;
    size_t p = 0;
    for (; p + U <= k; p += U) {
      const float* b_rows[U];
      __m256 av[R][U];
#pragma GCC unroll 4
      for (size_t u = 0; u < U; ++u) {
        b_rows[u] = bj + (p + u) * ldb;
#pragma GCC unroll 4
        for (size_t r = 0; r < R; ++r) av[r][u] = _mm256_broadcast_ss(a + r * lda + p + u);
      }
      for (size_t j = 0; j < nv; j += 8) {
        __m256 bv[U];
#pragma GCC unroll 4
        for (size_t u = 0; u < U; ++u) bv[u] = _mm256_loadu_ps(b_rows[u] + j);
#pragma GCC unroll 4
        for (size_t r = 0; r < R; ++r) {
          __m256 sv = _mm256_load_ps(sums[r] + j);
#pragma GCC unroll 4
          for (size_t u = 0; u < U; ++u) sv = _mm256_fmadd_ps(av[r][u], bv[u], sv);
          _mm256_store_ps(sums[r] + j, sv);
        }
      }
      if (tail != 0) {
        __m256 bv[U];
        for (size_t u = 0; u < U; ++u) bv[u] = _mm256_maskload_ps(b_rows[u] + nv, tail_mask);
        for (size_t r = 0; r < R; ++r) {
          __m256 sv = _mm256_load_ps(sums[r] + nv);
          for (size_t u = 0; u < U; ++u) sv = _mm256_fmadd_ps(av[r][u], bv[u], sv);
          _mm256_store_ps(sums[r] + nv, sv);
        }
      }
    }
    for (; p < k; ++p) {
      const float* b0 = bj + p * ldb;
      for (size_t r = 0; r < R; ++r) {
        const __m256 a0 = _mm256_broadcast_ss(a + r * lda + p);
        for (size_t j = 0; j < nv; j += 8) {
          _mm256_store_ps(sums[r] + j, _mm256_fmadd_ps(a0, _mm256_loadu_ps(b0 + j),
                                                       _mm256_load_ps(sums[r] + j)));
        }
        if (tail != 0) {
          _mm256_store_ps(sums[r] + nv,
                          _mm256_fmadd_ps(a0, _mm256_maskload_ps(b0 + nv, tail_mask),
                                          _mm256_load_ps(sums[r] + nv)));
        }
      }
    }

    for (size_t r = 0; r < R; ++r) {
      F32GemmEpilogue ep = *epilogue;
      if (ep.beta != 0.0f) {
        ep.self += static_cast<ptrdiff_t>(r) * ep.self_row_stride +
                   static_cast<ptrdiff_t>(j0) * ep.self_col_stride;
      }
      gemv_store_row(nb, sums[r], c + r * ldc + j0, ep);
    }
  }
}

}  // namespace

// Also the AVX-512 variant's GEMV (avx512.cpp), hence external.
void f32_gemv_avx2(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b,
                   size_t ldb, float* c, size_t ldc, const F32GemmEpilogue* epilogue) {
  switch (m) {
    case 1: return gemv_rows<1, 4>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    case 2: return gemv_rows<2, 4>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    case 3: return gemv_rows<3, 2>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    default: return gemv_rows<4, 2>(n, k, a, lda, b, ldb, c, ldc, epilogue);
  }
}

// Zen 3 (cpu-kernels.md): kc = 256 makes a packed micro-panel 256 * 16 * 4 =
// 16 KiB, half of L1D, as BLIS's zen3 KC; nc = 128 makes the packed B block
// 128 KiB, a quarter of the 512 KiB L2, leaving room for the A rows and C.
extern const F32GemmConfig kF32GemmAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, ukernel_6x16, kMr, kNr,
    /*kc=*/256, /*nc=*/128, f32_gemv_avx2, igemm_6x16,
};

}  // namespace ember::kernels::optimized
