// 4-bit grouped-weight GEMM for AArch64 with the dot-product extension (2x16
// tile, k-quads): 32 bytes of nibbles per k-quad become four vectors of 16 *
// w as int8 (vshl for the low nibbles, vand for the high ones), each
// multiplied against the row's quad by sdot. Compiled with
// -march=armv8.2-a+dotprod for this file only.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qd8-f32-qb4w-gemm/neon_tiles.h"

#if !defined(__ARM_FEATURE_DOTPROD)
#error "qd8-f32-qb4w-gemm/neondot.cpp needs -march=armv8.2-a+dotprod"
#endif

namespace ember::kernels::optimized {
namespace {

using namespace qb4w_neon;

struct SdotInner {
  using AValue = int8_t;
  static constexpr int32_t kShift = 0;
  static constexpr size_t kKr = 4;

  template <size_t MR>
  static __attribute__((always_inline)) void dot(size_t group, const int8_t* const* rows,
                                                 const uint8_t* bytes, int32x4_t (&acc)[MR][4]) {
    const int8x16_t mask = vdupq_n_s8(static_cast<int8_t>(0xF0));
    for (size_t k = 0; k < group; k += kKr, bytes += kNr * kKr / 2) {
      const int8x16_t v0 = vld1q_s8(reinterpret_cast<const int8_t*>(bytes));
      const int8x16_t v1 = vld1q_s8(reinterpret_cast<const int8_t*>(bytes) + 16);
      // Columns 0-3, 4-7 from the low nibbles, 8-11, 12-15 from the high.
      const int8x16_t b[4] = {vshlq_n_s8(v0, 4), vshlq_n_s8(v1, 4), vandq_s8(v0, mask),
                              vandq_s8(v1, mask)};
      for (size_t i = 0; i < MR; ++i) {
        const int8x16_t av = vreinterpretq_s8_u32(vdupq_n_u32(load_u32(rows[i] + k)));
        for (size_t c = 0; c < 4; ++c) acc[i][c] = vdotq_s32(acc[i][c], b[c], av);
      }
    }
  }
};

}  // namespace

extern const Qb4wGemmConfig kQb4wGemmNeonDotConfig = {
    "neondot", kCpuNeon | kCpuDotprod, kMr, kNr, SdotInner::kKr, Qs8AFormat::S8,
    SdotInner::kShift, ukernel<SdotInner>,
};

}  // namespace ember::kernels::optimized
