// 4-bit grouped-weight GEMM for AVX-VNNI (3x16 tile, k-quads): 32 bytes of
// nibbles per k-quad become two vectors of 16 * w as int8, each multiplied
// against A's u8 quads (a + 128) by vpdpbusd. Compiled with -mavx2 -mfma
// -mavxvnni for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qd8-f32-qb4w-gemm/avx2_tiles.h"

#if !defined(__AVXVNNI__)
#error "qd8-f32-qb4w-gemm/avxvnni.cpp needs -mavxvnni"
#endif

namespace ember::kernels::optimized {
namespace {

using namespace qb4w_avx2;

struct DpbusdInner {
  using AValue = uint8_t;
  static constexpr int32_t kShift = 128;
  static constexpr size_t kKr = 4;

  template <size_t MR>
  static __attribute__((always_inline)) void dot(size_t group, const uint8_t* const* rows,
                                                 const uint8_t* bytes, __m256i (&acc)[MR][2]) {
    for (size_t k = 0; k < group; k += kKr, bytes += kNr * kKr / 2) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes));
      const __m256i b0 = low_nibbles(v);   // columns 0-7
      const __m256i b1 = high_nibbles(v);  // columns 8-15
      for (size_t i = 0; i < MR; ++i) {
        const __m256i av = _mm256_set1_epi32(static_cast<int>(load_u32(rows[i] + k)));
        acc[i][0] = _mm256_dpbusd_avx_epi32(acc[i][0], av, b0);
        acc[i][1] = _mm256_dpbusd_avx_epi32(acc[i][1], av, b1);
      }
    }
  }
};

}  // namespace

extern const Qb4wGemmConfig kQb4wGemmAvxVnniConfig = {
    "avxvnni", kCpuAvxVnni | kCpuAvx2 | kCpuFma | kCpuOsYmm, kMr, kNr, DpbusdInner::kKr,
    Qs8AFormat::U8, DpbusdInner::kShift, ukernel<DpbusdInner>,
};

}  // namespace ember::kernels::optimized
