// AVX2 + FMA (+ F16C for the block scales) microkernels of the quantized
// GEMM: qgemm_body.h at 8 lanes, a panel of 16 rows as two vectors.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "kernels/optimized/simd/avx2_math.h"
#include "kernels/optimized/f32-qgemm/qgemm_body.h"

namespace ember::kernels::optimized {
namespace {

struct Q : avx2::Vec {
  using Codes = __m256i;
  static constexpr bool kPrefetchAhead = true;
  static Codes codes(const uint8_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static V halfs(const uint8_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  template <int kI>
  static void nibbles(Codes v, V* low, V* high16) {
    const __m256i t = kI == 0 ? v : _mm256_srli_epi32(v, 8 * kI);
    *low = _mm256_cvtepi32_ps(_mm256_and_si256(t, _mm256_set1_epi32(0x0F)));
    *high16 = _mm256_cvtepi32_ps(_mm256_and_si256(t, _mm256_set1_epi32(0xF0)));
  }
  template <int kI>
  static V signed_byte(Codes v) {
    const __m256i t = kI == 3 ? v : _mm256_slli_epi32(v, 24 - 8 * kI);
    return _mm256_cvtepi32_ps(_mm256_srai_epi32(t, 24));
  }
};

}  // namespace

extern const F32QGemmConfig kF32QGemmAvx2Config =
    qgemm_config<Q>("avx2", kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm);

}  // namespace ember::kernels::optimized
