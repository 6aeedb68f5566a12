// int8 GEMM microkernels for AVX2 without VNNI (6x16 tile, k-pairs): A's
// values gathered as int16, B's sign-extended to int16 as they are loaded
// (vpmovsxbw), and vpmaddwd sums each k-pair of products into int32 lanes.
// Exact: a pair of int16 products is at most 2 * 255 * 128 in magnitude, far
// inside int32, where vpmaddubsw's saturating int16 sums would overflow on
// u8 x s8 (cpu-kernels.md section 6). Compiled with -mavx2 -mfma for this
// file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-gemm/avx2_tiles.h"

namespace ember::kernels::optimized {
namespace {

using namespace qs8_avx2;

struct MaddInner {
  using AValue = int16_t;
  static constexpr int32_t kShift = 0;
  static constexpr size_t kKr = 2;

  // Per k-pair: B's 16 columns x 2 values as two vectors of 8 int16 pairs,
  // each row's pair broadcast, one vpmaddwd and one add per vector and row.
  template <size_t MR, size_t NV>
  static __attribute__((always_inline)) void accumulate(size_t kp, const int16_t* a,
                                                        const int8_t* w, __m256i (&acc)[MR][2]) {
    const int16_t* rows[MR];
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; ++i) rows[i] = a + i * kp;
    for (size_t k = 0; k < kp; k += kKr, w += kNr * kKr) {
      const __m256i b0 =
          _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
      const __m256i b1 =
          NV == 2
              ? _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 16)))
              : b0;
#pragma GCC unroll 6
      for (size_t i = 0; i < MR; ++i) {
        const __m256i av = _mm256_set1_epi32(static_cast<int>(load_u32(rows[i] + k)));
        acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(av, b0));
        if (NV == 2) acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(av, b1));
      }
    }
  }
};

}  // namespace

extern const Qs8GemmConfig kQs8GemmAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, kMr, kNr, MaddInner::kKr, Qs8AFormat::S16,
    MaddInner::kShift, qs8_ukernel<MaddInner>, qd8_ukernel<MaddInner>,
};

}  // namespace ember::kernels::optimized
