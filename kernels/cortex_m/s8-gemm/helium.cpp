// GEMM with Helium: VMLADAVA sums 16 int8 products into a scalar
// accumulator per instruction. One row by four channels at a time: the
// row's vector serves the four weight rows, and the four accumulators,
// channels c..c+3, are requantized together as one vector (VQRDMULH,
// VRSHL) and stored as four bytes. The depth tail is a predicated load
// that zeroes the lanes past the end; the channel tail a predicated store.
#include "kernels/cortex_m/helium_util.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {
namespace {

// x . w[c] for the `count` (1 to 4) weight rows from w, `depth` apart.
EMBER_CM_INLINE int32x4_t channels4(const int8_t* x, const int8_t* w, int32_t depth,
                                    int32_t count) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  // Rows past `count` repeat the last one: their results are never stored.
  const int8_t* w0 = w;
  const int8_t* w1 = w + (count > 1 ? depth : 0);
  const int8_t* w2 = w + (count > 2 ? 2 * depth : 0);
  const int8_t* w3 = w + (count > 3 ? 3 * depth : 0);
  int32_t k = 0;
  for (; k + 16 <= depth; k += 16) {
    const int8x16_t xv = vld1q_s8(x + k);
    a0 = vmladavaq_s8(a0, xv, vld1q_s8(w0 + k));
    a1 = vmladavaq_s8(a1, xv, vld1q_s8(w1 + k));
    a2 = vmladavaq_s8(a2, xv, vld1q_s8(w2 + k));
    a3 = vmladavaq_s8(a3, xv, vld1q_s8(w3 + k));
  }
  if (k < depth) {
    const mve_pred16_t p = vctp8q(static_cast<uint32_t>(depth - k));
    const int8x16_t xv = vldrbq_z_s8(x + k, p);
    a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w0 + k, p));
    a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1 + k, p));
    a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2 + k, p));
    a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3 + k, p));
  }
  int32x4_t acc = vdupq_n_s32(a0);
  acc = vsetq_lane_s32(a1, acc, 1);
  acc = vsetq_lane_s32(a2, acc, 2);
  return vsetq_lane_s32(a3, acc, 3);
}

// Calls store(r, c, acc, p) with the accumulators of channels c..c+3 of
// row r (bias included) and the predicate of the channels that exist.
template <typename Store>
void gemm(const GemmArgs& a, Store&& store) {
  for (int32_t r = 0; r < a.num_rows; ++r) {
    for (int32_t c = 0; c < a.channels; c += 4) {
      const int32_t count = a.channels - c < 4 ? a.channels - c : 4;
      const mve_pred16_t p = vctp32q(static_cast<uint32_t>(count));
      int32x4_t acc = channels4(a.rows[r], a.weight + static_cast<size_t>(c) * a.depth, a.depth,
                                count);
      if (a.bias != nullptr) acc = vaddq_s32(acc, vldrwq_z_s32(a.bias + c, p));
      store(r, c, acc, p);
    }
  }
}

}  // namespace

void gemm_s8_helium(const GemmArgs& a) {
  const Requant& q = a.requant;
  gemm(a, [&](int32_t r, int32_t c, int32x4_t acc, mve_pred16_t p) {
    const int32x4_t out = helium::requantize_s8(acc, vldrwq_z_s32(q.multiplier + c, p),
                                                vldrwq_z_s32(q.shift + c, p), q.output_zero_point,
                                                q.activation_min, q.activation_max);
    vstrbq_p_s32(a.out + r * a.out_stride + c, out, p);
  });
}

void gemm_s8_f32_helium(const GemmArgs& a, const FloatEpilogue& e) {
  gemm(a, [&](int32_t r, int32_t c, int32x4_t acc, mve_pred16_t p) {
    // float(acc) * scale, then + bias: each step rounded, as the scalar code.
    float32x4_t out = vmulq_f32(vcvtq_f32_s32(acc), vldrwq_z_f32(e.scale + c, p));
    if (e.bias != nullptr) out = vaddq_f32(out, vldrwq_z_f32(e.bias + c, p));
    vstrwq_p_f32(e.out + r * e.out_stride + c, out, p);
  });
}

}  // namespace ember::cortex_m
