// 4-bit grouped-weight GEMM for AVX2 without VNNI (3x16 tile, k-pairs): 16
// bytes of nibbles per k-pair become 16 * w as int8 (a shift and two ands),
// sign-extended to int16 and multiplied against A's int16 pairs by vpmaddwd.
// Compiled with -mavx2 -mfma for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qd8-f32-qb4w-gemm/avx2_tiles.h"

namespace ember::kernels::optimized {
namespace {

using namespace qb4w_avx2;

struct MaddInner {
  using AValue = int16_t;
  static constexpr int32_t kShift = 0;
  static constexpr size_t kKr = 2;

  template <size_t MR>
  static __attribute__((always_inline)) void dot(size_t group, const int16_t* const* rows,
                                                 const uint8_t* bytes, __m256i (&acc)[MR][2]) {
    for (size_t k = 0; k < group; k += kKr, bytes += kNr * kKr / 2) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes));
      const __m256i b0 = _mm256_cvtepi8_epi16(low_nibbles(v));   // columns 0-7
      const __m256i b1 = _mm256_cvtepi8_epi16(high_nibbles(v));  // columns 8-15
      for (size_t i = 0; i < MR; ++i) {
        const __m256i av = _mm256_set1_epi32(static_cast<int>(load_u32(rows[i] + k)));
        acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(av, b0));
        acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(av, b1));
      }
    }
  }
};

}  // namespace

extern const Qb4wGemmConfig kQb4wGemmAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm, kMr, kNr, MaddInner::kKr, Qs8AFormat::S16,
    MaddInner::kShift, ukernel<MaddInner>,
};

}  // namespace ember::kernels::optimized
