// f32 GEMM microkernel for AArch64 Advanced SIMD (8x8 tile): tile_body.h at
// 4 lanes with this file's k loop (A by lane), and the GEMV for few rows.
// Built only for AArch64, where NEON is part of the base ISA: no extra flags.
#include <arm_neon.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/simd/neon_math.h"
#include "kernels/optimized/f32-gemm/tile_body.h"

namespace ember::kernels::optimized {
namespace {

// 8 rows x 8 columns = 16 q-register accumulators, 8 for four k values of
// each A row and 2 for a B row: 26 of the 32 vector registers. A is loaded
// four k at a time and used by lane (FMLA by element), so per k the kernel
// loads 2 vectors of B and issues 16 FMAs.
constexpr size_t kMr = 8;
constexpr size_t kNr = 8;

using W = neon::Vec;

template <size_t MR, int Lane>
__attribute__((always_inline)) inline void fma_lane(float32x4_t* acc0, float32x4_t* acc1,
                                                    const float32x4_t* av, const float* w) {
  const float32x4_t b0 = vld1q_f32(w);
  const float32x4_t b1 = vld1q_f32(w + 4);
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = vfmaq_laneq_f32(acc0[i], b0, av[i], Lane);
    acc1[i] = vfmaq_laneq_f32(acc1[i], b1, av[i], Lane);
  }
}

// The k loop: A four k at a time by lane, the rest one by one.
struct LaneKLoop {
  template <size_t MR>
  __attribute__((always_inline)) static const float* run(const float* const* a_rows,
                                                         size_t kc, const float* w,
                                                         float32x4_t* acc0, float32x4_t* acc1) {
    size_t k = 0;
    for (; k + 4 <= kc; k += 4, w += 4 * kNr) {
      float32x4_t av[MR];
      for (size_t i = 0; i < MR; ++i) av[i] = vld1q_f32(a_rows[i] + k);
      fma_lane<MR, 0>(acc0, acc1, av, w);
      fma_lane<MR, 1>(acc0, acc1, av, w + kNr);
      fma_lane<MR, 2>(acc0, acc1, av, w + 2 * kNr);
      fma_lane<MR, 3>(acc0, acc1, av, w + 3 * kNr);
    }
    for (; k < kc; ++k, w += kNr) {
      const float32x4_t b0 = vld1q_f32(w);
      const float32x4_t b1 = vld1q_f32(w + 4);
      for (size_t i = 0; i < MR; ++i) {
        const float32x4_t av = vld1q_dup_f32(a_rows[i] + k);
        acc0[i] = vfmaq_f32(acc0[i], av, b0);
        acc1[i] = vfmaq_f32(acc1[i], av, b1);
      }
    }
    return w;
  }
};

// GEMV: R rows' sums over a block of columns stay on the stack (8 KiB, in
// L1) while B is read four rows at a time in memory order; A's four values
// per row sit in one register and are used by lane.
constexpr size_t kGemvSums = 2048;

template <size_t R>
void gemv_rows(size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
               float* c, size_t ldc, const F32GemmEpilogue* epilogue) {
  constexpr size_t kBlock = kGemvSums / R / 4 * 4;
  float sums[R][kBlock];
  for (size_t j0 = 0; j0 < n; j0 += kBlock) {
    const size_t nb = n - j0 < kBlock ? n - j0 : kBlock;
    const size_t nv = nb / 4 * 4;
    for (size_t r = 0; r < R; ++r) {
      for (size_t j = 0; j < nb; ++j) sums[r][j] = 0.0f;
    }
    const float* bj = b + j0;
    size_t p = 0;
    for (; p + 4 <= k; p += 4) {
      const float* b0 = bj + p * ldb;
      const float* b1 = b0 + ldb;
      const float* b2 = b1 + ldb;
      const float* b3 = b2 + ldb;
      float32x4_t av[R];
      for (size_t r = 0; r < R; ++r) av[r] = vld1q_f32(a + r * lda + p);
      for (size_t j = 0; j < nv; j += 4) {
        const float32x4_t v0 = vld1q_f32(b0 + j);
        const float32x4_t v1 = vld1q_f32(b1 + j);
        const float32x4_t v2 = vld1q_f32(b2 + j);
        const float32x4_t v3 = vld1q_f32(b3 + j);
        for (size_t r = 0; r < R; ++r) {
          float32x4_t s = vld1q_f32(sums[r] + j);
          s = vfmaq_laneq_f32(s, v0, av[r], 0);
          s = vfmaq_laneq_f32(s, v1, av[r], 1);
          s = vfmaq_laneq_f32(s, v2, av[r], 2);
          s = vfmaq_laneq_f32(s, v3, av[r], 3);
          vst1q_f32(sums[r] + j, s);
        }
      }
      for (size_t r = 0; r < R; ++r) {
        const float* ar = a + r * lda + p;
        for (size_t j = nv; j < nb; ++j) {
          sums[r][j] += ar[0] * b0[j] + ar[1] * b1[j] + ar[2] * b2[j] + ar[3] * b3[j];
        }
      }
    }
    for (; p < k; ++p) {
      const float* b0 = bj + p * ldb;
      for (size_t r = 0; r < R; ++r) {
        const float ar = a[r * lda + p];
        const float32x4_t a0 = vdupq_n_f32(ar);
        for (size_t j = 0; j < nv; j += 4) {
          vst1q_f32(sums[r] + j, vfmaq_f32(vld1q_f32(sums[r] + j), a0, vld1q_f32(b0 + j)));
        }
        for (size_t j = nv; j < nb; ++j) sums[r][j] += ar * b0[j];
      }
    }
    F32GemmEpilogue e = *epilogue;
    if (e.beta != 0.0f) e.self += static_cast<ptrdiff_t>(j0) * e.self_col_stride;
    f32_gemm_store_tile(R, nb, &sums[0][0], kBlock, c + j0, ldc, kF32GemmFinal, &e);
  }
}

void gemv(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
          float* c, size_t ldc, const F32GemmEpilogue* epilogue) {
  switch (m) {
    case 1: return gemv_rows<1>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    case 2: return gemv_rows<2>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    case 3: return gemv_rows<3>(n, k, a, lda, b, ldb, c, ldc, epilogue);
    default: return gemv_rows<4>(n, k, a, lda, b, ldb, c, ldc, epilogue);
  }
}

}  // namespace

// Typical Arm cores have 32-64 KiB L1D and 256 KiB-1 MiB L2: kc = 256 makes a
// micro-panel 8 KiB, nc = 128 makes the packed B block 128 KiB. To be tuned
// on hardware.
extern const F32GemmConfig kF32GemmNeonConfig = {
    "neon", kCpuNeon, looped_ukernel<W, LaneKLoop, kMr>, kMr, kNr, /*kc=*/256, /*nc=*/128,
    gemv, looped_igemm<W, LaneKLoop, kMr>,
};

}  // namespace ember::kernels::optimized
