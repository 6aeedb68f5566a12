// int8 GEMM microkernels for AArch64 with the dot-product extension (4x16
// tile, k-quads): sdot multiplies signed bytes in groups of four and adds
// each group into an int32 lane, 16 multiply-adds per instruction; one
// 16-byte load of a row holds four k-quads, used lane by lane
// (vdotq_laneq_s32). Both operands are signed: no shift. Compiled with
// -march=armv8.2-a+dotprod for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-gemm/neon_tiles.h"

#if !defined(__ARM_FEATURE_DOTPROD)
#error "qs8-gemm/neondot.cpp needs -march=armv8.2-a+dotprod"
#endif

namespace ember::kernels::optimized {
namespace {

using namespace qs8_neon;

struct SdotInner {
  using AValue = int8_t;
  static constexpr int32_t kShift = 0;
  static constexpr size_t kKr = 4;

  // One k-quad: B's 16 columns x 4 bytes (four vectors) against quad L of
  // each row's vector.
  template <size_t MR, int L>
  static __attribute__((always_inline)) void step(const int8_t* w, const int8x16_t (&av)[MR],
                                                  int32x4_t (&acc)[MR][4]) {
    const int8x16_t b0 = vld1q_s8(w);
    const int8x16_t b1 = vld1q_s8(w + 16);
    const int8x16_t b2 = vld1q_s8(w + 32);
    const int8x16_t b3 = vld1q_s8(w + 48);
    for (size_t i = 0; i < MR; ++i) {
      acc[i][0] = vdotq_laneq_s32(acc[i][0], b0, av[i], L);
      acc[i][1] = vdotq_laneq_s32(acc[i][1], b1, av[i], L);
      acc[i][2] = vdotq_laneq_s32(acc[i][2], b2, av[i], L);
      acc[i][3] = vdotq_laneq_s32(acc[i][3], b3, av[i], L);
    }
  }

  template <size_t MR>
  static __attribute__((always_inline)) void accumulate(size_t kp, const int8_t* a,
                                                        const int8_t* w, int32x4_t (&acc)[MR][4]) {
    constexpr size_t kQuad = kNr * kKr;  // bytes of B per k-quad
    size_t k = 0;
    for (; k + 16 <= kp; k += 16, w += 4 * kQuad) {
      int8x16_t av[MR];
      for (size_t i = 0; i < MR; ++i) av[i] = vld1q_s8(a + i * kp + k);
      step<MR, 0>(w, av, acc);
      step<MR, 1>(w + kQuad, av, acc);
      step<MR, 2>(w + 2 * kQuad, av, acc);
      step<MR, 3>(w + 3 * kQuad, av, acc);
    }
    for (; k < kp; k += kKr, w += kQuad) {
      int8x16_t av[MR];
      for (size_t i = 0; i < MR; ++i) {
        av[i] = vreinterpretq_s8_u32(vdupq_n_u32(load_u32(a + i * kp + k)));
      }
      step<MR, 0>(w, av, acc);
    }
  }
};

}  // namespace

extern const Qs8GemmConfig kQs8GemmNeonDotConfig = {
    "neondot", kCpuNeon | kCpuDotprod, kMr, kNr, SdotInner::kKr, Qs8AFormat::S8,
    SdotInner::kShift, qs8_ukernel<SdotInner>, qd8_ukernel<SdotInner>,
};

}  // namespace ember::kernels::optimized
