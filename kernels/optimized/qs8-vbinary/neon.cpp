// int8 add and mul for AArch64 (Advanced SIMD): 16 elements per step in four
// int32x4 vectors, the arithmetic of qs8_vbinary.h in float (vfma for add);
// a partial step goes through zero-padded stack buffers. Baseline on
// AArch64.
#include <arm_neon.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vbinary/blocks_body.h"
#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"

namespace ember::kernels::optimized {
namespace {

// The 16 bytes of v as four int32x4.
inline void widen(int8x16_t v, int32x4_t (&out)[4]) {
  const int16x8_t lo = vmovl_s8(vget_low_s8(v));
  const int16x8_t hi = vmovl_high_s8(v);
  out[0] = vmovl_s16(vget_low_s16(lo));
  out[1] = vmovl_high_s16(lo);
  out[2] = vmovl_s16(vget_low_s16(hi));
  out[3] = vmovl_high_s16(hi);
}

template <Qs8BinaryOp Op>
inline void block(const int8_t* a, const int8_t* b, int8_t* y, const Qs8BinaryParams* p) {
  int32x4_t av[4], bv[4];
  widen(vld1q_s8(a), av);
  widen(vld1q_s8(b), bv);
  const float32x4_t lo = vdupq_n_f32(static_cast<float>(p->out_min - p->out_zero));
  const float32x4_t hi = vdupq_n_f32(static_cast<float>(p->out_max - p->out_zero));
  int16x4_t q[4];
  for (int j = 0; j < 4; ++j) {
    const int32x4_t da = vsubq_s32(av[j], vdupq_n_s32(p->a_zero));
    const int32x4_t db = vsubq_s32(bv[j], vdupq_n_s32(p->b_zero));
    float32x4_t v;
    if (Op == Qs8BinaryOp::Add) {
      v = vfmaq_n_f32(vmulq_n_f32(vcvtq_f32_s32(db), p->b_mult), vcvtq_f32_s32(da), p->a_mult);
    } else {
      v = vmulq_n_f32(vcvtq_f32_s32(vmulq_s32(da, db)), p->a_mult);
    }
    v = vminq_f32(vmaxq_f32(v, lo), hi);
    q[j] = vqmovn_s32(vaddq_s32(vcvtnq_s32_f32(v), vdupq_n_s32(p->out_zero)));
  }
  vst1q_s8(y, vcombine_s8(vqmovn_s16(vcombine_s16(q[0], q[1])),
                          vqmovn_s16(vcombine_s16(q[2], q[3]))));
}

template <Qs8BinaryOp Op>
struct Block {
  const Qs8BinaryParams* p;
  explicit Block(const Qs8BinaryParams* params) : p(params) {}
  void operator()(const int8_t* a, const int8_t* b, int8_t* y) const { block<Op>(a, b, y, p); }
};

}  // namespace

extern const Qs8VBinaryConfig kQs8VBinaryNeonConfig = {
    "neon", kCpuNeon,
    {vv_blocks<Block<Qs8BinaryOp::Add>>, vv_blocks<Block<Qs8BinaryOp::Mul>>},
    {vs_blocks<Block<Qs8BinaryOp::Add>>, vs_blocks<Block<Qs8BinaryOp::Mul>>},
};

}  // namespace ember::kernels::optimized
