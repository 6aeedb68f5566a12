// int8 GEMM microkernels for AVX-VNNI (6x16 tile, k-quads): vpdpbusd on
// 256-bit vectors, the VEX form of AVX512-VNNI's dot product, for CPUs with
// AVX-VNNI but no AVX-512 (Alder Lake and later client cores). vpdpbusd
// multiplies unsigned by signed bytes, so A is gathered as u8 = s8 + 128 and
// the panel heads subtract 128 * colsum (a_shift). Compiled with -mavx2 -mfma
// -mavxvnni for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-gemm/avx2_tiles.h"

#if !defined(__AVXVNNI__)
#error "qs8-gemm/avxvnni.cpp needs -mavxvnni"
#endif

namespace ember::kernels::optimized {
namespace {

using namespace qs8_avx2;

struct DpbusdInner {
  using AValue = uint8_t;
  static constexpr int32_t kShift = 128;
  static constexpr size_t kKr = 4;

  // Per k-quad: B's 16 columns x 4 bytes as two vectors, each row's 4 bytes
  // broadcast, one vpdpbusd per vector and row (12 independent chains).
  template <size_t MR, size_t NV>
  static __attribute__((always_inline)) void accumulate(size_t kp, const uint8_t* a,
                                                        const int8_t* w, __m256i (&acc)[MR][2]) {
    const uint8_t* rows[MR];
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; ++i) rows[i] = a + i * kp;
    for (size_t k = 0; k < kp; k += kKr, w += kNr * kKr) {
      const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w));
      const __m256i b1 =
          NV == 2 ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 32)) : b0;
#pragma GCC unroll 6
      for (size_t i = 0; i < MR; ++i) {
        const __m256i av = _mm256_set1_epi32(static_cast<int>(load_u32(rows[i] + k)));
        acc[i][0] = _mm256_dpbusd_avx_epi32(acc[i][0], av, b0);
        if (NV == 2) acc[i][1] = _mm256_dpbusd_avx_epi32(acc[i][1], av, b1);
      }
    }
  }
};

}  // namespace

extern const Qs8GemmConfig kQs8GemmAvxVnniConfig = {
    "avxvnni", kCpuAvxVnni | kCpuAvx2 | kCpuFma | kCpuOsYmm, kMr, kNr, DpbusdInner::kKr,
    Qs8AFormat::U8, DpbusdInner::kShift, qs8_ukernel<DpbusdInner>, qd8_ukernel<DpbusdInner>,
};

}  // namespace ember::kernels::optimized
