// 4-bit grouped-weight GEMM for AArch64 without the dot-product extension
// (2x16 tile, k-group 1): 8 bytes of nibbles per k become 16 * w as int8
// (vshl, vand), widened to int16 and multiplied into int32 sums by vmlal
// against A's int16 value. Baseline on AArch64: no extra flags.
#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qd8-f32-qb4w-gemm/neon_tiles.h"

namespace ember::kernels::optimized {
namespace {

using namespace qb4w_neon;

struct MlalInner {
  using AValue = int16_t;
  static constexpr int32_t kShift = 0;
  static constexpr size_t kKr = 1;

  template <size_t MR>
  static __attribute__((always_inline)) void dot(size_t group, const int16_t* const* rows,
                                                 const uint8_t* bytes, int32x4_t (&acc)[MR][4]) {
    const int8x8_t mask = vdup_n_s8(static_cast<int8_t>(0xF0));
    for (size_t k = 0; k < group; ++k, bytes += kNr / 2) {
      const int8x8_t v = vld1_s8(reinterpret_cast<const int8_t*>(bytes));
      const int16x8_t lo = vmovl_s8(vshl_n_s8(v, 4));  // columns 0-7
      const int16x8_t hi = vmovl_s8(vand_s8(v, mask));  // columns 8-15
      for (size_t i = 0; i < MR; ++i) {
        const int16_t av = rows[i][k];
        acc[i][0] = vmlal_n_s16(acc[i][0], vget_low_s16(lo), av);
        acc[i][1] = vmlal_high_n_s16(acc[i][1], lo, av);
        acc[i][2] = vmlal_n_s16(acc[i][2], vget_low_s16(hi), av);
        acc[i][3] = vmlal_high_n_s16(acc[i][3], hi, av);
      }
    }
  }
};

}  // namespace

extern const Qb4wGemmConfig kQb4wGemmNeonConfig = {
    "neon", kCpuNeon, kMr, kNr, MlalInner::kKr, Qs8AFormat::S16, MlalInner::kShift,
    ukernel<MlalInner>,
};

}  // namespace ember::kernels::optimized
