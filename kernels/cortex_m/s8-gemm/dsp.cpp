// GEMM with the DSP extension: blocks of two rows by two channels, four
// depth steps at a time with SXTB16 + SMLAD (two 16-bit products per
// instruction); every expanded word serves two products.
#include "kernels/cortex_m/dsp_util.h"
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {
namespace {

using dsp::dot4;
using dsp::read4;
using dsp::split;

// Two rows by two channels: every split word serves two products. Pointers
// walk and the accumulators are locals, so that they stay in registers.
EMBER_CM_INLINE void block_2x2(const int8_t* x0, const int8_t* x1, const int8_t* w0,
                               const int8_t* w1, int32_t depth, int32_t (&acc)[2][2]) {
  int32_t a00 = acc[0][0], a01 = acc[0][1], a10 = acc[1][0], a11 = acc[1][1];
  for (const int8_t* end = x0 + (depth & ~3); x0 < end; x0 += 4, x1 += 4, w0 += 4, w1 += 4) {
    const dsp::Pairs v0 = split(read4(w0));
    const dsp::Pairs v1 = split(read4(w1));
    const dsp::Pairs u0 = split(read4(x0));
    a00 = dot4(u0, v0, a00);
    a01 = dot4(u0, v1, a01);
    const dsp::Pairs u1 = split(read4(x1));
    a10 = dot4(u1, v0, a10);
    a11 = dot4(u1, v1, a11);
  }
  for (int32_t k = 0; k < (depth & 3); ++k) {
    a00 += x0[k] * w0[k];
    a01 += x0[k] * w1[k];
    a10 += x1[k] * w0[k];
    a11 += x1[k] * w1[k];
  }
  acc[0][0] = a00, acc[0][1] = a01, acc[1][0] = a10, acc[1][1] = a11;
}

// One row by two channels (a fully connected layer on one input): the
// row's split words serve both channels.
EMBER_CM_INLINE void block_1x2(const int8_t* x0, const int8_t* w0, const int8_t* w1,
                               int32_t depth, int32_t (&acc)[2][2]) {
  int32_t a00 = acc[0][0], a01 = acc[0][1];
  for (const int8_t* end = x0 + (depth & ~3); x0 < end; x0 += 4, w0 += 4, w1 += 4) {
    const dsp::Pairs u0 = split(read4(x0));
    a00 = dot4(u0, split(read4(w0)), a00);
    a01 = dot4(u0, split(read4(w1)), a01);
  }
  for (int32_t k = 0; k < (depth & 3); ++k) {
    a00 += x0[k] * w0[k];
    a01 += x0[k] * w1[k];
  }
  acc[0][0] = a00, acc[0][1] = a01;
}

// One row by one channel: the odd row or channel left over.
EMBER_CM_INLINE int32_t block_1x1(const int8_t* x0, const int8_t* w0, int32_t depth, int32_t acc) {
  for (const int8_t* end = x0 + (depth & ~3); x0 < end; x0 += 4, w0 += 4) {
    acc = dot4(split(read4(x0)), split(read4(w0)), acc);
  }
  for (int32_t k = 0; k < (depth & 3); ++k) acc += x0[k] * w0[k];
  return acc;
}

// Calls store(r, c, acc) for every output, two rows by two channels at a time.
template <typename Store>
void gemm(const GemmArgs& a, Store&& store) {
  for (int32_t r = 0; r < a.num_rows; r += 2) {
    const bool two_rows = r + 1 < a.num_rows;
    const int8_t* x0 = a.rows[r];
    const int8_t* x1 = two_rows ? a.rows[r + 1] : x0;
    const int8_t* w = a.weight;
    int32_t c = 0;
    for (; c + 2 <= a.channels; c += 2, w += 2 * a.depth) {
      const int32_t b0 = a.bias != nullptr ? a.bias[c] : 0;
      const int32_t b1 = a.bias != nullptr ? a.bias[c + 1] : 0;
      int32_t acc[2][2] = {{b0, b1}, {b0, b1}};
      if (two_rows) {
        block_2x2(x0, x1, w, w + a.depth, a.depth, acc);
        store(r + 1, c, acc[1][0]);
        store(r + 1, c + 1, acc[1][1]);
      } else {
        block_1x2(x0, w, w + a.depth, a.depth, acc);
      }
      store(r, c, acc[0][0]);
      store(r, c + 1, acc[0][1]);
    }
    if (c < a.channels) {
      const int32_t b = a.bias != nullptr ? a.bias[c] : 0;
      store(r, c, block_1x1(x0, w, a.depth, b));
      if (two_rows) store(r + 1, c, block_1x1(x1, w, a.depth, b));
    }
  }
}

}  // namespace

void gemm_s8_dsp(const GemmArgs& a) {
  // The requantization's constants in locals: the epilogue runs per output.
  const int32_t* multiplier = a.requant.multiplier;
  const int32_t* shift = a.requant.shift;
  const int32_t zero_point = a.requant.output_zero_point;
  const int32_t low = a.requant.activation_min, high = a.requant.activation_max;
  int8_t* out = a.out;
  const int32_t stride = a.out_stride;
  gemm(a, [=](int32_t r, int32_t c, int32_t acc) {
    out[r * stride + c] = requantize_s8(acc, multiplier[c], shift[c], zero_point, low, high);
  });
}

void gemm_s8_f32_dsp(const GemmArgs& a, const FloatEpilogue& e) {
  gemm(a, [&](int32_t r, int32_t c, int32_t acc) {
    const float scaled = static_cast<float>(acc) * e.scale[c];
    e.out[r * e.out_stride + c] = e.bias != nullptr ? scaled + e.bias[c] : scaled;
  });
}

}  // namespace ember::cortex_m
