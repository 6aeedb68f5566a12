// f32 GEMM microkernels for AVX2 + FMA (6x16 tile: tile_body.h at 8 lanes)
// and the GEMV for few rows, compiled with -mavx2 -mfma for this file only.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-gemm/tile_body.h"

namespace ember::kernels::optimized {
namespace {

// 6 rows x 16 columns = 12 ymm accumulators, plus 2 for the B row and 1 for
// the broadcast A value: 15 of the 16 ymm registers. 12 independent FMA
// chains cover Zen 3's 2 FMA pipes x 4 cycles of latency (8 needed).
constexpr size_t kMr = 6;
constexpr size_t kNr = 16;

using W = avx2::Vec;

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
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, broadcast_ukernel<W, kMr>, kMr, kNr, /*kc=*/256,
    /*nc=*/128, f32_gemv_avx2, broadcast_igemm<W, kMr>,
};

}  // namespace ember::kernels::optimized
