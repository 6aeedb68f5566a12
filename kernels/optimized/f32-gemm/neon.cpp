// f32 GEMM microkernel for AArch64 Advanced SIMD (8x8 tile). Built only for
// AArch64, where NEON is part of the base ISA, so it needs no extra flags.
#include <arm_neon.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::kernels::optimized {
namespace {

// 8 rows x 8 columns = 16 q-register accumulators, 8 for four k values of
// each A row and 2 for a B row: 26 of the 32 vector registers. A is loaded
// four k at a time and used by lane (FMLA by element), so per k the kernel
// loads 2 vectors of B and issues 16 FMAs.
constexpr size_t kMr = 8;
constexpr size_t kNr = 8;

template <size_t MR, int Lane>
inline void fma_lane(float32x4_t* acc0, float32x4_t* acc1, const float32x4_t* av,
                     const float* w) {
  const float32x4_t b0 = vld1q_f32(w);
  const float32x4_t b1 = vld1q_f32(w + 4);
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = vfmaq_laneq_f32(acc0[i], b0, av[i], Lane);
    acc1[i] = vfmaq_laneq_f32(acc1[i], b1, av[i], Lane);
  }
}

// Self's 8 values of one row, broadcast through its column stride.
inline void load_self_row(const float* self, ptrdiff_t col_stride, float32x4_t* s0,
                          float32x4_t* s1) {
  if (col_stride == 1) {
    *s0 = vld1q_f32(self);
    *s1 = vld1q_f32(self + 4);
  } else if (col_stride == 0) {
    *s0 = vld1q_dup_f32(self);
    *s1 = *s0;
  } else {
    float row[kNr];
    for (size_t j = 0; j < kNr; ++j) row[j] = self[static_cast<ptrdiff_t>(j) * col_stride];
    *s0 = vld1q_f32(row);
    *s1 = vld1q_f32(row + 4);
  }
}

// Writes an MR x 8 tile of sums (nr columns of it) to C as `flags` say.
template <size_t MR>
__attribute__((always_inline)) inline void store_tile(const float32x4_t* acc0,
                                                      const float32x4_t* acc1, size_t nr,
                                                      float* c, size_t c_stride, uint32_t flags,
                                                      const F32GemmEpilogue* epilogue) {
  if (nr != kNr) {
    // N tail: the sums go through memory to the plain epilogue, which writes
    // only nr columns.
    float sums[MR][kNr];
    for (size_t i = 0; i < MR; ++i) {
      vst1q_f32(sums[i], acc0[i]);
      vst1q_f32(sums[i] + 4, acc1[i]);
    }
    f32_gemm_store_tile(MR, nr, &sums[0][0], kNr, c, c_stride, flags, epilogue);
    return;
  }

  const bool final_block = (flags & kF32GemmFinal) != 0;
  const bool scale = final_block && epilogue->alpha != 1.0f;
  const bool add_self = final_block && epilogue->beta != 0.0f;
  const float32x4_t alpha = vdupq_n_f32(final_block ? epilogue->alpha : 1.0f);
  const float32x4_t beta = vdupq_n_f32(add_self ? epilogue->beta : 0.0f);
  const bool clamp = final_block && (epilogue->clamp_min != -__builtin_inff() ||
                                     epilogue->clamp_max != __builtin_inff());
  const float32x4_t low = vdupq_n_f32(final_block ? epilogue->clamp_min : 0.0f);
  const float32x4_t high = vdupq_n_f32(final_block ? epilogue->clamp_max : 0.0f);
  for (size_t i = 0; i < MR; ++i) {
    float* c_row = c + i * c_stride;
    float32x4_t v0 = acc0[i];
    float32x4_t v1 = acc1[i];
    if (flags & kF32GemmAccumulate) {
      v0 = vaddq_f32(v0, vld1q_f32(c_row));
      v1 = vaddq_f32(v1, vld1q_f32(c_row + 4));
    }
    if (scale) {
      v0 = vmulq_f32(alpha, v0);
      v1 = vmulq_f32(alpha, v1);
    }
    if (add_self) {
      float32x4_t s0, s1;
      load_self_row(epilogue->self + static_cast<ptrdiff_t>(i) * epilogue->self_row_stride,
                    epilogue->self_col_stride, &s0, &s1);
      v0 = vfmaq_f32(v0, beta, s0);
      v1 = vfmaq_f32(v1, beta, s1);
    }
    if (clamp) {
      // vmaxq/vminq would turn NaN into a bound: select keeps v where it is
      // not below low (or above high), NaN included.
      v0 = vbslq_f32(vcltq_f32(v0, low), low, v0);
      v0 = vbslq_f32(vcgtq_f32(v0, high), high, v0);
      v1 = vbslq_f32(vcltq_f32(v1, low), low, v1);
      v1 = vbslq_f32(vcgtq_f32(v1, high), high, v1);
    }
    vst1q_f32(c_row, v0);
    vst1q_f32(c_row + 4, v1);
  }
}

template <size_t MR>
void tile(size_t nr, size_t kc, const float* a, size_t a_stride, const float* w, float* c,
          size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  const float* a_rows[MR];
  for (size_t i = 0; i < MR; ++i) a_rows[i] = a + i * a_stride;
  // Start C's lines on their way: they are read (K blocks after the first)
  // and written only after the k loop, and by then would be a miss each.
  for (size_t i = 0; i < MR; ++i) {
    __builtin_prefetch(c + i * c_stride);
    __builtin_prefetch(c + i * c_stride + kNr - 1);
  }
  float32x4_t acc0[MR];
  float32x4_t acc1[MR];
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = vdupq_n_f32(0.0f);
    acc1[i] = vdupq_n_f32(0.0f);
  }

  size_t k = 0;
  for (; k + 4 <= kc; k += 4) {
    float32x4_t av[MR];
    for (size_t i = 0; i < MR; ++i) av[i] = vld1q_f32(a_rows[i] + k);
    fma_lane<MR, 0>(acc0, acc1, av, w);
    fma_lane<MR, 1>(acc0, acc1, av, w + kNr);
    fma_lane<MR, 2>(acc0, acc1, av, w + 2 * kNr);
    fma_lane<MR, 3>(acc0, acc1, av, w + 3 * kNr);
    w += 4 * kNr;
  }
  for (; k < kc; ++k) {
    const float32x4_t b0 = vld1q_f32(w);
    const float32x4_t b1 = vld1q_f32(w + 4);
    w += kNr;
    for (size_t i = 0; i < MR; ++i) {
      const float32x4_t av = vld1q_dup_f32(a_rows[i] + k);
      acc0[i] = vfmaq_f32(acc0[i], av, b0);
      acc1[i] = vfmaq_f32(acc1[i], av, b1);
    }
  }

  store_tile<MR>(acc0, acc1, nr, c, c_stride, flags, epilogue);
}

void ukernel_8x8(size_t mr, size_t nr, size_t kc, const float* a, size_t a_stride,
                 const float* w, float* c, size_t c_stride, uint32_t flags,
                 const F32GemmEpilogue* epilogue) {
  switch (mr) {
    case 8: return tile<8>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 7: return tile<7>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 6: return tile<6>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 5: return tile<5>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 4: return tile<4>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 3: return tile<3>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 2: return tile<2>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    default: return tile<1>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
  }
}

// Indirect tile: as tile<MR>, A's rows read through ks pointers each (one
// per tap), kc floats per pointer, the sums written once (no K blocks).
template <size_t MR>
void itile(size_t nr, size_t kc, size_t ks, const float* const* a, size_t mr_stride,
           size_t a_offset, const float* zero, const float* w, float* c, size_t c_stride,
           const F32GemmEpilogue* epilogue) {
  float32x4_t acc0[MR];
  float32x4_t acc1[MR];
  for (size_t i = 0; i < MR; ++i) {
    acc0[i] = vdupq_n_f32(0.0f);
    acc1[i] = vdupq_n_f32(0.0f);
  }
  for (size_t p = 0; p < ks; ++p) {
    const float* a_rows[MR];
    for (size_t i = 0; i < MR; ++i) {
      a_rows[i] = a[i] != zero ? reinterpret_cast<const float*>(
                                     reinterpret_cast<uintptr_t>(a[i]) + a_offset)
                               : zero;
    }
    a += mr_stride;
    size_t k = 0;
    for (; k + 4 <= kc; k += 4) {
      float32x4_t av[MR];
      for (size_t i = 0; i < MR; ++i) av[i] = vld1q_f32(a_rows[i] + k);
      fma_lane<MR, 0>(acc0, acc1, av, w);
      fma_lane<MR, 1>(acc0, acc1, av, w + kNr);
      fma_lane<MR, 2>(acc0, acc1, av, w + 2 * kNr);
      fma_lane<MR, 3>(acc0, acc1, av, w + 3 * kNr);
      w += 4 * kNr;
    }
    for (; k < kc; ++k) {
      const float32x4_t b0 = vld1q_f32(w);
      const float32x4_t b1 = vld1q_f32(w + 4);
      w += kNr;
      for (size_t i = 0; i < MR; ++i) {
        const float32x4_t av = vld1q_dup_f32(a_rows[i] + k);
        acc0[i] = vfmaq_f32(acc0[i], av, b0);
        acc1[i] = vfmaq_f32(acc1[i], av, b1);
      }
    }
  }
  store_tile<MR>(acc0, acc1, nr, c, c_stride, kF32GemmFinal, epilogue);
}

void igemm_8x8(size_t mr, size_t nr, size_t kc, size_t ks, const float* const* a,
               size_t mr_stride, size_t a_offset, const float* zero, const float* w, float* c,
               size_t c_stride, const F32GemmEpilogue* epilogue) {
  switch (mr) {
    case 8: return itile<8>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 7: return itile<7>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 6: return itile<6>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 5: return itile<5>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 4: return itile<4>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 3: return itile<3>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 2: return itile<2>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    default: return itile<1>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
  }
}

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
    "neon", kCpuNeon, ukernel_8x8, kMr, kNr, /*kc=*/256, /*nc=*/128, gemv, igemm_8x8,
};

}  // namespace ember::kernels::optimized
