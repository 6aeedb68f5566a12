// int8 GEMM microkernels for AArch64 without the dot-product extension (4x16
// tile, k-group 1): A gathered as int16, B's bytes widened to int16 as they
// are loaded (vmovl), each product accumulated into int32 lanes by vmlal
// with A's value taken from a vector lane (XNNPACK's "mlal-lane" kernels).
// Exact: int16 x int16 products summed in int32. Advanced SIMD is baseline on
// AArch64: no extra flags.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-gemm/neon_tiles.h"

namespace ember::kernels::optimized {
namespace {

using namespace qs8_neon;

struct MlalInner {
  using AValue = int16_t;
  static constexpr int32_t kShift = 0;
  static constexpr size_t kKr = 1;

  // B's 16 columns at one k, widened to int16, times A's value from lane L.
  template <size_t MR, int L>
  static __attribute__((always_inline)) void step(const int8_t* w, const int16x4_t (&av)[MR],
                                                  int32x4_t (&acc)[MR][4]) {
    const int8x16_t b = vld1q_s8(w);
    const int16x8_t b_lo = vmovl_s8(vget_low_s8(b));
    const int16x8_t b_hi = vmovl_high_s8(b);
    for (size_t i = 0; i < MR; ++i) {
      acc[i][0] = vmlal_lane_s16(acc[i][0], vget_low_s16(b_lo), av[i], L);
      acc[i][1] = vmlal_high_lane_s16(acc[i][1], b_lo, av[i], L);
      acc[i][2] = vmlal_lane_s16(acc[i][2], vget_low_s16(b_hi), av[i], L);
      acc[i][3] = vmlal_high_lane_s16(acc[i][3], b_hi, av[i], L);
    }
  }

  template <size_t MR>
  static __attribute__((always_inline)) void accumulate(size_t kp, const int16_t* a,
                                                        const int8_t* w, int32x4_t (&acc)[MR][4]) {
    size_t k = 0;
    // Four k at a time: each row's four values in one int16x4 load.
    for (; k + 4 <= kp; k += 4, w += 4 * kNr) {
      int16x4_t av[MR];
      for (size_t i = 0; i < MR; ++i) av[i] = vld1_s16(a + i * kp + k);
      step<MR, 0>(w, av, acc);
      step<MR, 1>(w + kNr, av, acc);
      step<MR, 2>(w + 2 * kNr, av, acc);
      step<MR, 3>(w + 3 * kNr, av, acc);
    }
    for (; k < kp; ++k, w += kNr) {
      int16x4_t av[MR];
      for (size_t i = 0; i < MR; ++i) av[i] = vdup_n_s16(a[i * kp + k]);
      step<MR, 0>(w, av, acc);
    }
  }
};

}  // namespace

extern const Qs8GemmConfig kQs8GemmNeonConfig = {
    "neon", kCpuNeon, kMr, kNr, MlalInner::kKr, Qs8AFormat::S16, MlalInner::kShift,
    qs8_ukernel<MlalInner>, qd8_ukernel<MlalInner>,
};

}  // namespace ember::kernels::optimized
