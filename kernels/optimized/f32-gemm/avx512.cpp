// f32 GEMM microkernels for AVX-512 (12x32 tile): tile_body.h at 16 lanes.
// Compiled with the Skylake-server AVX-512 flags for this file only.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/simd/avx512_math.h"
#include "kernels/optimized/f32-gemm/tile_body.h"

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

// The 16-lane width with the ymm half that tile_body.h's kHalfTail tiles
// use for panels of 17 to 24 columns.
struct W : avx512::Vec {
  static constexpr bool kHasHalf = true;
  using Half = __m256;
  static Half half_loadu(const float* p) { return _mm256_loadu_ps(p); }
  static Half half(V v) { return _mm512_castps512_ps256(v); }
  static V widen(Half h) { return _mm512_castps256_ps512(h); }
  static Half half_fmadd(V a, Half b, Half c) {
    return _mm256_fmadd_ps(_mm512_castps512_ps256(a), b, c);
  }
};

}  // namespace

// kc = 256 makes a packed micro-panel 256 * 32 * 4 = 32 KiB, two thirds of a
// 48 KiB L1D; nc = 128 (4 panels) keeps the packed B block at the driver's
// 128 KiB bound, well inside a 2 MiB L2.
extern const F32GemmConfig kF32GemmAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    broadcast_ukernel<W, kMr>, kMr, kNr, /*kc=*/256, /*nc=*/128, f32_gemv_avx2,
    broadcast_igemm<W, kMr>,
};

}  // namespace ember::kernels::optimized
