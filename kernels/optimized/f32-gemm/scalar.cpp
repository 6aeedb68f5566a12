// f32 GEMM microkernels in plain C++ (4x8 tile): the variant every CPU runs.
// The compiler may vectorize them for the baseline ISA (SSE2, NEON), and is
// meant to do it within a k step (the 8 columns of a row), which GCC's
// basic-block (SLP) vectorizer does. GCC's loop vectorizer would instead
// vectorize the k loop, transposing B four k at a time with shuffles, at a
// fifth of the speed: CMake builds this file with -fno-tree-loop-vectorize,
// and the GEMV's column loop is unrolled by hand so that SLP covers it too.
#include <cstdint>

#include "kernels/optimized/f32-gemm/f32_gemm.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kMr = 4;
constexpr size_t kNr = 8;

template <size_t MR>
void tile(size_t nr, size_t kc, const float* a, size_t a_stride, const float* w, float* c,
          size_t c_stride, uint32_t flags, const F32GemmEpilogue* epilogue) {
  // MR x NR sums: small enough for the compiler to keep in registers.
  float acc[MR][kNr] = {};
  for (size_t k = 0; k < kc; ++k) {
    const float* w_row = w + k * kNr;
    for (size_t i = 0; i < MR; ++i) {
      const float av = a[i * a_stride + k];
      for (size_t j = 0; j < kNr; ++j) acc[i][j] += av * w_row[j];
    }
  }
  f32_gemm_store_tile(MR, nr, &acc[0][0], kNr, c, c_stride, flags, epilogue);
}

void ukernel_4x8(size_t mr, size_t nr, size_t kc, const float* a, size_t a_stride,
                 const float* w, float* c, size_t c_stride, uint32_t flags,
                 const F32GemmEpilogue* epilogue) {
  switch (mr) {
    case 4: return tile<4>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 3: return tile<3>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    case 2: return tile<2>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
    default: return tile<1>(nr, kc, a, a_stride, w, c, c_stride, flags, epilogue);
  }
}

// Indirect tile: A's rows through ks pointers each, kc floats per pointer.
template <size_t MR>
void itile(size_t nr, size_t kc, size_t ks, const float* const* a, size_t mr_stride,
           size_t a_offset, const float* zero, const float* w, float* c, size_t c_stride,
           const F32GemmEpilogue* epilogue) {
  float acc[MR][kNr] = {};
  for (size_t p = 0; p < ks; ++p, a += mr_stride) {
    const float* rows[MR];
    for (size_t i = 0; i < MR; ++i) {
      rows[i] = a[i] != zero ? reinterpret_cast<const float*>(
                                   reinterpret_cast<uintptr_t>(a[i]) + a_offset)
                             : zero;
    }
    for (size_t k = 0; k < kc; ++k, w += kNr) {
      for (size_t i = 0; i < MR; ++i) {
        const float av = rows[i][k];
        for (size_t j = 0; j < kNr; ++j) acc[i][j] += av * w[j];
      }
    }
  }
  f32_gemm_store_tile(MR, nr, &acc[0][0], kNr, c, c_stride, kF32GemmFinal, epilogue);
}

void igemm_4x8(size_t mr, size_t nr, size_t kc, size_t ks, const float* const* a,
               size_t mr_stride, size_t a_offset, const float* zero, const float* w, float* c,
               size_t c_stride, const F32GemmEpilogue* epilogue) {
  switch (mr) {
    case 4: return itile<4>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 3: return itile<3>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    case 2: return itile<2>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
    default: return itile<1>(nr, kc, ks, a, mr_stride, a_offset, zero, w, c, c_stride, epilogue);
  }
}

// GEMV: up to 4 rows' sums over a block of columns stay on the stack (4 KiB)
// while B is read row after row in memory order.
constexpr size_t kGemvSums = 1024;

void gemv(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
          float* c, size_t ldc, const F32GemmEpilogue* epilogue) {
  float sums[kGemvSums];
  const size_t block = kGemvSums / m;
  for (size_t j0 = 0; j0 < n; j0 += block) {
    const size_t nb = n - j0 < block ? n - j0 : block;
    for (size_t j = 0; j < m * nb; ++j) sums[j] = 0.0f;
    for (size_t p = 0; p < k; ++p) {
      // __restrict: the sums are on the stack, never B; without it the
      // vectorizer must assume they may overlap and leaves the loop scalar.
      const float* __restrict b_row = b + p * ldb + j0;
      for (size_t i = 0; i < m; ++i) {
        const float av = a[i * lda + p];
        float* __restrict s = sums + i * nb;
        size_t j = 0;
        for (; j + 8 <= nb; j += 8) {
          // Eight statements, not a loop: GCC's SLP vectorizer sees them
          // only once they are straight-line code before it runs.
          float* __restrict sj = s + j;
          const float* __restrict bj = b_row + j;
          sj[0] += av * bj[0];
          sj[1] += av * bj[1];
          sj[2] += av * bj[2];
          sj[3] += av * bj[3];
          sj[4] += av * bj[4];
          sj[5] += av * bj[5];
          sj[6] += av * bj[6];
          sj[7] += av * bj[7];
        }
        for (; j < nb; ++j) s[j] += av * b_row[j];
      }
    }
    F32GemmEpilogue e = *epilogue;
    if (e.beta != 0.0f) e.self += static_cast<ptrdiff_t>(j0) * e.self_col_stride;
    f32_gemm_store_tile(m, nb, sums, nb, c + j0, ldc, kF32GemmFinal, &e);
  }
}

}  // namespace

// kc * nr = 8 KiB micro-panels; kc * nc = 64 KiB packed per N block.
extern const F32GemmConfig kF32GemmScalarConfig = {
    "scalar", 0, ukernel_4x8, kMr, kNr, /*kc=*/256, /*nc=*/64, gemv, igemm_4x8,
};

}  // namespace ember::kernels::optimized
