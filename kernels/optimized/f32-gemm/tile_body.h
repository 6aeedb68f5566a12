// The f32 GEMM micro-tile written once over a vector width W (avx2::Vec,
// avx512::Vec, neon::Vec, wasm::Vec from simd/*_math.h): a tile of MR rows
// by two vectors of columns (kNr = 2 W::kLanes), its accumulators started
// from the bias and written through the addmm epilogue, N tails through
// W's lane masks.
//
// The k loop that fills the accumulators is the one part that differs by
// ISA. x86 (AVX2, AVX-512) runs broadcast_tile / broadcast_itile here: one
// broadcast A value per row and k times the B row's vectors, the next
// weights prefetched on the way. NEON uses A by lane (FMLA by element) and
// SIMD128 keeps its loop unrolled by one for V8's 16 registers; both keep
// their k loops in their files and run them in looped_ukernel /
// looped_igemm.
//
// Included only by those ISA files, after their simd header; everything here
// has internal linkage (an unnamed namespace), so each file's copy is
// compiled with its own flags and no copy can stand in for another at link.
#pragma once

#if !(defined(__AVX2__) && defined(__FMA__)) && !defined(__aarch64__) && !defined(__wasm_simd128__)
#error "tile_body.h is for the SIMD variants (avx2, avx512, neon, wasmsimd) only"
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::kernels::optimized {
namespace {

// Calls f(std::integral_constant<size_t, R>{}) for R = mr, 1 <= mr <= MaxMR:
// one instance per row count, so that every tile's accumulators stay in
// registers.
template <size_t MaxMR, typename F>
__attribute__((always_inline)) inline void for_row_count(size_t mr, F f) {
  if constexpr (MaxMR == 1) {
    f(std::integral_constant<size_t, 1>{});
  } else {
    if (mr >= MaxMR) return f(std::integral_constant<size_t, MaxMR>{});
    for_row_count<MaxMR - 1>(mr, f);
  }
}

// An indirection pointer made absolute: the input's pointers are relative to
// it, `zero` (a padding tap) is not.
inline const float* translate(const float* p, size_t offset, const float* zero) {
  return p != zero ? reinterpret_cast<const float*>(reinterpret_cast<uintptr_t>(p) + offset)
                   : zero;
}

// A bias row (addmm's self as a linear or conv bias: one row, read
// contiguously, added once): the accumulators start from it, so the
// epilogue has nothing to add. Decided from the epilogue alone, so every K
// block of a problem agrees: the first starts from the bias, none adds it.
inline bool bias_in_accumulators(const F32GemmEpilogue* ep) {
  return ep->beta == 1.0f && ep->alpha == 1.0f && ep->self_row_stride == 0 &&
         ep->self_col_stride == 1;
}

// `lanes` <= kLanes values from p, zero past them (nothing past them read).
template <typename W>
__attribute__((always_inline)) inline typename W::V load_lanes(const float* p, size_t lanes) {
  return lanes >= W::kLanes ? W::loadu(p) : W::load_tail(W::tail_mask(lanes), p);
}

// The accumulators' start: the bias columns [0, nr) (zero past nr) or zero.
template <typename W, size_t MR>
__attribute__((always_inline)) inline void start_accumulators(typename W::V* acc0,
                                                              typename W::V* acc1, size_t nr,
                                                              bool from_bias,
                                                              const float* bias) {
  constexpr size_t L = W::kLanes;
  typename W::V b0 = W::zero(), b1 = W::zero();
  if (from_bias) {
    b0 = load_lanes<W>(bias, nr);
    if (nr > L) b1 = load_lanes<W>(bias + L, nr - L);
  }
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = b0;
    acc1[i] = b1;
  }
}

// Starts C's lines of an MR-row tile on their way: they are read (K blocks
// after the first) and written only after the k loop, and by then would be a
// miss each.
template <size_t MR>
__attribute__((always_inline)) inline void prefetch_c(float* c, size_t c_stride, size_t columns) {
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    __builtin_prefetch(c + i * c_stride, 0, 3);
    __builtin_prefetch(c + i * c_stride + columns - 1, 0, 3);
  }
}

// What a tile's store does to each vector of sums, decided once per tile.
template <typename W>
struct TileEpilogue {
  using V = typename W::V;
  bool accumulate, scale, add_self, clamp;
  V alpha, beta, low, high;
  const F32GemmEpilogue* ep;

  __attribute__((always_inline)) TileEpilogue(uint32_t flags, const F32GemmEpilogue* e) : ep(e) {
    const bool final_block = (flags & kF32GemmFinal) != 0;
    accumulate = (flags & kF32GemmAccumulate) != 0;
    scale = final_block && e->alpha != 1.0f;
    add_self = final_block && e->beta != 0.0f && !bias_in_accumulators(e);
    clamp = final_block &&
            (e->clamp_min != -__builtin_inff() || e->clamp_max != __builtin_inff());
    alpha = W::splat(scale ? e->alpha : 1.0f);
    beta = W::splat(add_self ? e->beta : 0.0f);
    low = W::splat(clamp ? e->clamp_min : 0.0f);
    high = W::splat(clamp ? e->clamp_max : 0.0f);
  }

  // max(low, v) then min(high, v): each returns v, the second operand, when
  // v is NaN, which passes through as torch.clamp lets it.
  __attribute__((always_inline)) V clamped(V v) const { return W::min(high, W::max(low, v)); }
};

// `lanes` values of a strided self (a transposed addmm input).
template <typename W>
inline typename W::V load_strided(const float* self, ptrdiff_t col_stride, size_t lanes) {
  float row[W::kLanes] = {};
  for (size_t j = 0; j < lanes; ++j) row[j] = self[static_cast<ptrdiff_t>(j) * col_stride];
  return W::loadu(row);
}

// `lanes` values of self from `self` on, through its column stride.
template <typename W>
__attribute__((always_inline)) inline typename W::V load_self(const float* self,
                                                              ptrdiff_t col_stride,
                                                              size_t lanes) {
  if (col_stride == 1) return load_lanes<W>(self, lanes);
  if (col_stride == 0) return W::splat(*self);
  return load_strided<W>(self, col_stride, lanes);
}

// Stores alpha v + beta self, clamped, to `lanes` <= kLanes columns of row i
// from column j (c points at them).
template <typename W>
__attribute__((always_inline)) inline void store_vec(const TileEpilogue<W>& e, typename W::V v,
                                                     float* c, size_t i, size_t j,
                                                     size_t lanes) {
  if (e.scale) v = W::mul(e.alpha, v);
  if (e.add_self) {
    const F32GemmEpilogue& ep = *e.ep;
    const float* self = ep.self + static_cast<ptrdiff_t>(i) * ep.self_row_stride +
                        static_cast<ptrdiff_t>(j) * ep.self_col_stride;
    v = W::fmadd(e.beta, load_self<W>(self, ep.self_col_stride, lanes), v);
  }
  if (e.clamp) v = e.clamped(v);
  if (lanes >= W::kLanes) {
    W::storeu(c, v);
  } else {
    W::store_tail(c, W::tail_mask(lanes), v);
  }
}

// C = clamp(alpha C + beta self) over mr rows of nr <= 2 kLanes columns.
template <typename W>
__attribute__((noinline)) void epilogue_pass(size_t mr, size_t nr, float* c, size_t c_stride,
                                             const F32GemmEpilogue* epilogue) {
  constexpr size_t L = W::kLanes;
  const TileEpilogue<W> e(kF32GemmFinal, epilogue);
  const size_t lanes0 = nr < L ? nr : L;
  const size_t lanes1 = nr > L ? nr - L : 0;
  for (size_t i = 0; i < mr; ++i) {
    float* c_row = c + i * c_stride;
    store_vec<W>(e, load_lanes<W>(c_row, lanes0), c_row, i, 0, lanes0);
    if (lanes1 != 0) store_vec<W>(e, load_lanes<W>(c_row + L, lanes1), c_row + L, i, L, lanes1);
  }
}

// The epilogue that scales the sums or adds a self that is not a bias row
// (addmm's alpha and beta): applied by with_epilogue_pass in a pass over the
// tile's C after the tile stored its plain sums there. In the tile, this
// rarely taken branch cost the usual short-K tiles 5% (its frame and spill
// slots) and, inlined, left GCC keeping the accumulators in memory (1x1
// convolutions with K = 16 ran 20% slower).
inline bool needs_epilogue_pass(uint32_t flags, const F32GemmEpilogue* ep) {
  return (flags & kF32GemmFinal) != 0 &&
         (ep->alpha != 1.0f || (ep->beta != 0.0f && !bias_in_accumulators(ep)));
}

// Runs tile(epilogue) for an mr x nr tile of C: with the given epilogue, or,
// where it needs the pass, with a plain one (the sums, summed over K blocks
// as `flags` say) and then alpha, beta * self and the clamp over C in place.
template <typename W, typename Tile>
__attribute__((always_inline)) inline void with_epilogue_pass(size_t mr, size_t nr, float* c,
                                                              size_t c_stride, uint32_t flags,
                                                              const F32GemmEpilogue* epilogue,
                                                              Tile tile) {
  // One call of tile: two would put two copies of every row count's tile
  // in the ukernel (AVX2 ran 10-25% slower).
  const bool pass = needs_epilogue_pass(flags, epilogue);
  F32GemmEpilogue plain;
  if (pass) {
    plain = *epilogue;
    plain.alpha = 1.0f;
    plain.beta = 0.0f;
    plain.self = nullptr;
    plain.clamp_min = -__builtin_inff();
    plain.clamp_max = __builtin_inff();
  }
  tile(pass ? &plain : epilogue);
  if (pass) epilogue_pass<W>(mr, nr, c, c_stride, epilogue);
}

// Writes an MR x kNr tile of sums (nr columns of it; acc1 unread when nr <=
// kLanes) to C as `flags` say, the epilogue one that needs no pass
// (with_epilogue_pass).
template <typename W, size_t MR>
__attribute__((always_inline)) inline void store_tile(const typename W::V* acc0,
                                                      const typename W::V* acc1, size_t nr,
                                                      float* c, size_t c_stride, uint32_t flags,
                                                      const F32GemmEpilogue* epilogue) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes;
  const TileEpilogue<W> e(flags, epilogue);
  // The usual tiles, tested once rather than per vector: a K block adding
  // to C's sums or the last one (whose sums hold the bias), clamped or not.
  // Store by store, the tests cost as much as a short K's FMAs (1x1
  // convolutions with K = 16 to 32 ran at 60-75% of the FMA peak). The
  // lambdas are always_inline: left to GCC, they kept the accumulators in
  // memory (K = 16: 15% slower).
  const size_t lanes0 = nr < L ? nr : L;
  const size_t lanes1 = nr > L ? nr - L : 0;
  const auto mask0 = W::tail_mask(lanes0);
  const auto mask1 = W::tail_mask(lanes1);
  auto store_all = [&](auto accumulated, auto clamped) __attribute__((always_inline)) {
    auto put = [&](V v, float* to, size_t lanes, auto mask) __attribute__((always_inline)) {
      const bool whole = lanes >= L;
      if (decltype(accumulated)::value) {
        v = W::add(v, whole ? W::loadu(to) : W::load_tail(mask, to));
      }
      if (decltype(clamped)::value) v = e.clamped(v);
      if (whole) {
        W::storeu(to, v);
      } else {
        W::store_tail(to, mask, v);
      }
    };
#pragma GCC unroll 12
    for (size_t i = 0; i < MR; ++i) {
      float* c_row = c + i * c_stride;
      put(acc0[i], c_row, lanes0, mask0);
      if (lanes1 != 0) put(acc1[i], c_row + L, lanes1, mask1);
    }
  };
  if (e.accumulate) {
    if (e.clamp) return store_all(std::true_type{}, std::true_type{});
    return store_all(std::true_type{}, std::false_type{});
  }
  if (e.clamp) return store_all(std::false_type{}, std::true_type{});
  store_all(std::false_type{}, std::false_type{});
}

// ---------------------------------------------------------------------------
// Tiles around an ISA's own k loop (NEON, SIMD128). KLoop::run<MR>(a_rows,
// kc, w, acc0, acc1) adds kc k steps of A's MR rows times the panel at w to
// the accumulators and returns w past the rows it read.

template <typename W, typename KLoop, size_t MR>
void looped_tile(size_t nr, size_t kc, const float* a, size_t a_stride, const float* w,
                 float* c, size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  const float* a_rows[MR];
  for (size_t i = 0; i < MR; ++i) a_rows[i] = a + i * a_stride;
  prefetch_c<MR>(c, c_stride, 2 * W::kLanes);
  typename W::V acc0[MR];
  typename W::V acc1[MR];
  const bool from_bias = (flags & kF32GemmAccumulate) == 0 && bias_in_accumulators(epilogue);
  start_accumulators<W, MR>(acc0, acc1, nr, from_bias, epilogue->self);
  KLoop::template run<MR>(a_rows, kc, w, acc0, acc1);
  store_tile<W, MR>(acc0, acc1, nr, c, c_stride, flags, epilogue);
}

// The F32GemmUkernelFn of such a tile.
template <typename W, typename KLoop, size_t MaxMR>
void looped_ukernel(size_t mr, size_t nr, size_t kc, const float* a, size_t a_stride,
                    const float* w, float* c, size_t c_stride, uint32_t flags,
                    const F32GemmEpilogue* epilogue) {
  with_epilogue_pass<W>(mr, nr, c, c_stride, flags, epilogue, [&](const F32GemmEpilogue* ep) {
    for_row_count<MaxMR>(mr, [&](auto rows) {
      looped_tile<W, KLoop, decltype(rows)::value>(nr, kc, a, a_stride, w, c, c_stride, flags,
                                                   ep);
    });
  });
}

// Indirect tile: A's rows read through ks pointers each (one per tap), kc
// floats per pointer, the sums written once (no K blocks).
template <typename W, typename KLoop, size_t MR>
void looped_itile(size_t nr, size_t kc, size_t ks, const float* const* a, size_t mr_stride,
                  size_t a_offset, const float* zero, const float* w, float* c,
                  size_t c_stride, const F32GemmEpilogue* epilogue) {
  typename W::V acc0[MR];
  typename W::V acc1[MR];
  start_accumulators<W, MR>(acc0, acc1, nr, bias_in_accumulators(epilogue), epilogue->self);
  for (size_t p = 0; p < ks; ++p, a += mr_stride) {
    const float* a_rows[MR];
    for (size_t i = 0; i < MR; ++i) a_rows[i] = translate(a[i], a_offset, zero);
    w = KLoop::template run<MR>(a_rows, kc, w, acc0, acc1);
  }
  store_tile<W, MR>(acc0, acc1, nr, c, c_stride, kF32GemmFinal, epilogue);
}

// The F32IgemmUkernelFn of such a tile.
template <typename W, typename KLoop, size_t MaxMR>
void looped_igemm(size_t mr, size_t nr, size_t kc, size_t ks, const float* const* a,
                  size_t mr_stride, size_t a_offset, const float* zero, const float* w,
                  float* c, size_t c_stride, const F32GemmEpilogue* epilogue) {
  const uint32_t flags = kF32GemmFinal;  // one pass over all taps: no K blocks
  with_epilogue_pass<W>(mr, nr, c, c_stride, flags, epilogue, [&](const F32GemmEpilogue* ep) {
    for_row_count<MaxMR>(mr, [&](auto rows) {
      looped_itile<W, KLoop, decltype(rows)::value>(nr, kc, ks, a, mr_stride, a_offset, zero, w,
                                                    c, c_stride, ep);
    });
  });
}

// ---------------------------------------------------------------------------
// The broadcast k loop (x86): per k, NV vectors of B's row and one broadcast
// A value per row, NV FMAs per row.

// NV for a panel of L + 1 to 3L/2 columns where W has a half-width vector
// (W::kHasHalf, W::Half: avx512's ymm). Where full-width FMAs issue as two
// halves (Zen 4), the half costs half of a vector, so such a tile
// (MobileNetV2's 24-channel projections at 16 lanes) takes 3/4 of the time
// of two full vectors; elsewhere it costs the same.
constexpr size_t kHalfTail = 3;

template <typename W, typename = void>
struct HalfOf {
  using V = typename W::V;  // unused: W has no half vector, no tile takes kHalfTail
  static constexpr bool kExists = false;
};
// Detected through a bool: naming W::Half (an x86 vector type) as a
// template argument would drop its attributes (-Wignored-attributes).
template <typename W>
struct HalfOf<W, std::enable_if_t<W::kHasHalf>> {
  using V = typename W::Half;
  static constexpr bool kExists = true;
};

// One k step of an MR-row tile: row i's A value times B's NV vectors at w.
// acc1 serves NV == 2, acch (columns L .. 3L/2) NV == kHalfTail.
template <typename W, size_t MR, size_t NV>
__attribute__((always_inline)) inline void k_step(const float* const* a_rows, size_t k,
                                                  const float* w, typename W::V* acc0,
                                                  typename W::V* acc1,
                                                  typename HalfOf<W>::V* acch) {
  constexpr size_t L = W::kLanes;
  const typename W::V b0 = W::loadu(w);
  const typename W::V b1 = NV == 2 ? W::loadu(w + L) : b0;
  [[maybe_unused]] typename HalfOf<W>::V bh;
  if constexpr (NV == kHalfTail) bh = W::half_loadu(w + L);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    const typename W::V av = W::splat(a_rows[i][k]);
    acc0[i] = W::fmadd(av, b0, acc0[i]);
    if constexpr (NV == 2) acc1[i] = W::fmadd(av, b1, acc1[i]);
    if constexpr (NV == kHalfTail) acch[i] = W::half_fmadd(av, bh, acch[i]);
  }
}

// K steps from k, one line of the next weights' slice fetched every E steps
// while both last. A fixed E (not the slice spread over the steps at run
// time, which needs more live registers than the 12-row AVX-512 tile has
// spare: 3% slower) keeps the loop as lean as one with no prefetch.
template <typename W, size_t E, size_t MR, size_t NV>
__attribute__((always_inline)) inline void prefetching_steps(
    const float* const* a_rows, size_t& k, size_t kc, const float*& w, const char*& pf,
    const char* pf_end, typename W::V* acc0, typename W::V* acc1, typename HalfOf<W>::V* acch) {
  constexpr size_t kNr = 2 * W::kLanes;
  for (; pf < pf_end && k + E <= kc; k += E, pf += 64) {
    __builtin_prefetch(pf, 0, 2);  // to L2 (prefetcht1)
#pragma GCC unroll 4
    for (size_t step = 0; step < E; ++step, w += kNr) {
      k_step<W, MR, NV>(a_rows, k + step, w, acc0, acc1, acch);
    }
  }
}

// NV vectors of B per k: 2 (columns 0 .. 2L), kHalfTail (L + 1 .. 3L/2), or 1
// for a panel of at most L columns, which then costs half the FMAs.
template <typename W, size_t MR, size_t NV>
void broadcast_tile(size_t nr, size_t kc, const float* a, size_t a_stride, const float* w,
                    float* c, size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  using V = typename W::V;
  constexpr size_t L = W::kLanes, kNr = 2 * L;
  const float* a_rows[MR];
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) a_rows[i] = a + i * a_stride;
  prefetch_c<MR>(c, c_stride, NV == 1 ? L : kNr);
  V acc0[MR];
  V acc1[MR];
  typename HalfOf<W>::V acch[MR];
  // NV == 1 sums even and odd k apart and adds acc1 into acc0 at the end:
  // the bias goes into acc0 only.
  const bool from_bias = (flags & kF32GemmAccumulate) == 0 && bias_in_accumulators(epilogue);
  start_accumulators<W, MR>(acc0, acc1, NV == 1 ? (nr < L ? nr : L) : nr, from_bias,
                            epilogue->self);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    if constexpr (NV == 1) acc1[i] = W::zero();
    if constexpr (NV == kHalfTail) acch[i] = W::half(acc1[i]);
  }

  size_t k = 0;
  if constexpr (NV == 1) {
    // One vector per row leaves MR FMA chains, fewer than the 8 that hide
    // the FMA latency on small tiles: even k steps go to acc0, odd ones to
    // acc1, summed at the end.
#pragma GCC unroll 2
    for (; k + 2 <= kc; k += 2) {
      const V b0 = W::loadu(w);
      const V b1 = W::loadu(w + kNr);
      w += 2 * kNr;
#pragma GCC unroll 12
      for (size_t i = 0; i < MR; ++i) {
        acc0[i] = W::fmadd(W::splat(a_rows[i][k]), b0, acc0[i]);
        acc1[i] = W::fmadd(W::splat(a_rows[i][k + 1]), b1, acc1[i]);
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
      prefetching_steps<W, 4, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1, acch);
    } else if (2 * lines <= kc - k) {
      prefetching_steps<W, 2, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1, acch);
    } else {
      prefetching_steps<W, 1, MR, NV>(a_rows, k, kc, w, pf, pf_end, acc0, acc1, acch);
    }
  }
#pragma GCC unroll 2
  for (; k < kc; ++k, w += kNr) k_step<W, MR, NV>(a_rows, k, w, acc0, acc1, acch);
#pragma GCC unroll 12
  for (size_t i = 0; i < MR; ++i) {
    if constexpr (NV == 1) acc0[i] = W::add(acc0[i], acc1[i]);
    if constexpr (NV == kHalfTail) acc1[i] = W::widen(acch[i]);  // lanes past 3L/2 not stored
  }
  store_tile<W, MR>(acc0, acc1, nr, c, c_stride, flags, epilogue);
}

// Indirect tile: as broadcast_tile, A's rows read through ks pointers each
// (one per tap), kc floats per pointer, the sums written once (no K blocks).
template <typename W, size_t MR, size_t NV>
void broadcast_itile(size_t nr, size_t kc, size_t ks, const float* const* a, size_t mr_stride,
                     size_t a_offset, const float* zero, const float* w, float* c,
                     size_t c_stride, const F32GemmEpilogue* epilogue) {
  constexpr size_t L = W::kLanes, kNr = 2 * L;
  prefetch_c<MR>(c, c_stride, NV == 1 ? L : kNr);
  typename W::V acc0[MR];
  typename W::V acc1[MR];
  start_accumulators<W, MR>(acc0, acc1, nr, bias_in_accumulators(epilogue), epilogue->self);
  const char* pf = epilogue->prefetch;
  const char* const pf_end = epilogue->prefetch_end;
  for (size_t p = 0; p < ks; ++p, a += mr_stride) {
    const float* a_rows[MR];
#pragma GCC unroll 12
    for (size_t i = 0; i < MR; ++i) a_rows[i] = translate(a[i], a_offset, zero);
    size_t k = 0;
    // The slice of the next weights (see broadcast_tile): one line per k
    // step. Spaced out as the tile spaces them, ResNet-18 ran 3% slower.
    for (; pf < pf_end && k < kc; ++k, pf += 64, w += kNr) {
      __builtin_prefetch(pf, 0, 2);
      k_step<W, MR, NV>(a_rows, k, w, acc0, acc1, nullptr);
    }
#pragma GCC unroll 2
    for (; k < kc; ++k, w += kNr) k_step<W, MR, NV>(a_rows, k, w, acc0, acc1, nullptr);
  }
  store_tile<W, MR>(acc0, acc1, nr, c, c_stride, kF32GemmFinal, epilogue);
}

// The F32GemmUkernelFn of the broadcast tiles: NV by the panel's width.
template <typename W, size_t MaxMR>
void broadcast_ukernel(size_t mr, size_t nr, size_t kc, const float* a, size_t a_stride,
                       const float* w, float* c, size_t c_stride, uint32_t flags,
                       const F32GemmEpilogue* epilogue) {
  constexpr size_t L = W::kLanes;
  with_epilogue_pass<W>(mr, nr, c, c_stride, flags, epilogue, [&](const F32GemmEpilogue* ep) {
    for_row_count<MaxMR>(mr, [&](auto rows) {
      constexpr size_t R = decltype(rows)::value;
      if (nr <= L) {
        return broadcast_tile<W, R, 1>(nr, kc, a, a_stride, w, c, c_stride, flags, ep);
      }
      if constexpr (HalfOf<W>::kExists) {
        if (nr <= L + L / 2) {
          return broadcast_tile<W, R, kHalfTail>(nr, kc, a, a_stride, w, c, c_stride, flags,
                                                 ep);
        }
      }
      broadcast_tile<W, R, 2>(nr, kc, a, a_stride, w, c, c_stride, flags, ep);
    });
  });
}

// The F32IgemmUkernelFn of the broadcast tiles.
template <typename W, size_t MaxMR>
void broadcast_igemm(size_t mr, size_t nr, size_t kc, size_t ks, const float* const* a,
                     size_t mr_stride, size_t a_offset, const float* zero, const float* w,
                     float* c, size_t c_stride, const F32GemmEpilogue* epilogue) {
  const uint32_t flags = kF32GemmFinal;  // one pass over all taps: no K blocks
  with_epilogue_pass<W>(mr, nr, c, c_stride, flags, epilogue, [&](const F32GemmEpilogue* ep) {
    for_row_count<MaxMR>(mr, [&](auto rows) {
      constexpr size_t R = decltype(rows)::value;
      if (nr <= W::kLanes) {
        return broadcast_itile<W, R, 1>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride,
                                        ep);
      }
      broadcast_itile<W, R, 2>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, ep);
    });
  });
}

}  // namespace
}  // namespace ember::kernels::optimized
