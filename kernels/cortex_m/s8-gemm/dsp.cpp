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

template <typename Store>
void gemm(const GemmArgs& a, Store&& store) {
  for (int32_t r = 0; r < a.num_rows; r += 2) {
    const bool two_rows = r + 1 < a.num_rows;
    const int8_t* const* rows = a.rows + r;
    for (int32_t c = 0; c < a.channels; c += 2) {
      const bool two_channels = c + 1 < a.channels;
      const int8_t* w[2] = {a.weight + static_cast<size_t>(c) * a.depth,
                            a.weight + static_cast<size_t>(c + (two_channels ? 1 : 0)) * a.depth};
      const int32_t b0 = a.bias != nullptr ? a.bias[c] : 0;
      const int32_t b1 = a.bias != nullptr && two_channels ? a.bias[c + 1] : 0;
      int32_t acc[2][2] = {{b0, b1}, {b0, b1}};
      if (two_rows && two_channels) {
        block_2x2(rows[0], rows[1], w[0], w[1], a.depth, acc);
      } else if (two_channels) {
        block_1x2(rows[0], w[0], w[1], a.depth, acc);
      } else {
        acc[0][0] = block_1x1(rows[0], w[0], a.depth, acc[0][0]);
        if (two_rows) acc[1][0] = block_1x1(rows[1], w[0], a.depth, acc[1][0]);
      }
      for (int32_t i = 0; i < (two_rows ? 2 : 1); ++i) {
        for (int32_t j = 0; j < (two_channels ? 2 : 1); ++j) store(r + i, c + j, acc[i][j]);
      }
    }
  }
}

}  // namespace

void gemm_s8_dsp(const GemmArgs& a) {
  const Requant& q = a.requant;
  gemm(a, [&](int32_t r, int32_t c, int32_t acc) {
    a.out[r * a.out_stride + c] = requantize_s8(acc, q.multiplier[c], q.shift[c], q.output_zero_point,
                                                q.activation_min, q.activation_max);
  });
}

void gemm_s8_f32_dsp(const GemmArgs& a, const FloatEpilogue& e) {
  gemm(a, [&](int32_t r, int32_t c, int32_t acc) {
    const float scaled = static_cast<float>(acc) * e.scale[c];
    e.out[r * e.out_stride + c] = e.bias != nullptr ? scaled + e.bias[c] : scaled;
  });
}

}  // namespace ember::cortex_m
