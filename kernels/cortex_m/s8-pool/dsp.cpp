// Max pooling with the DSP extension: four channels per word, SSUB8 setting
// the per-byte flags and SEL keeping the larger bytes. Average pooling
// stays scalar (its division dominates).
#include "kernels/cortex_m/dsp_util.h"
#include "kernels/cortex_m/quant_math.h"
#include "kernels/cortex_m/s8-pool/pool.h"
#include "kernels/cortex_m/variants.h"

namespace ember::cortex_m {

void max_pool2d_s8_dsp(const PoolShape& s, const int8_t* input, int8_t* output) {
  const int32_t blocked = s.channels & ~3;
  for (int32_t n = 0; n < s.batches; ++n) {
    for (int32_t oy = 0; oy < s.out_h; ++oy) {
      for (int32_t ox = 0; ox < s.out_w; ++ox) {
        const PoolWindow w = pool_window(s, oy, ox);
        int8_t* out = output + ((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * s.channels;
        for (int32_t c = 0; c < blocked; c += 4) {
          int32_t best = static_cast<int32_t>(0x80808080u);
          for (int32_t y = w.y0; y < w.y1; ++y) {
            for (int32_t x = w.x0; x < w.x1; ++x) {
              const int32_t v = dsp::read4(
                  input + ((static_cast<size_t>(n) * s.in_h + y) * s.in_w + x) * s.channels + c);
              __ssub8(v, best);  // GE[i] = v[i] >= best[i]
              best = static_cast<int32_t>(__sel(static_cast<uint32_t>(v), static_cast<uint32_t>(best)));
            }
          }
          for (int32_t i = 0; i < 4; ++i) {
            out[c + i] = clamp_s8(static_cast<int8_t>(best >> (8 * i)), s.activation_min,
                                  s.activation_max);
          }
        }
        for (int32_t c = blocked; c < s.channels; ++c) {
          int32_t best = -128;
          for (int32_t y = w.y0; y < w.y1; ++y) {
            for (int32_t x = w.x0; x < w.x1; ++x) {
              const int32_t v =
                  input[((static_cast<size_t>(n) * s.in_h + y) * s.in_w + x) * s.channels + c];
              best = v > best ? v : best;
            }
          }
          out[c] = clamp_s8(best, s.activation_min, s.activation_max);
        }
      }
    }
  }
}

}  // namespace ember::cortex_m
