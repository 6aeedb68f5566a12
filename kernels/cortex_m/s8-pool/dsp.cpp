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
  for_each_window(s, input, output, [&](const PoolWindow& w, const int8_t* image, int8_t* out) {
    for (int32_t c = 0; c < blocked; c += 4) {
      int32_t best = static_cast<int32_t>(0x80808080u);
      for (int32_t y = w.y0; y < w.y1; ++y) {
        for (int32_t x = w.x0; x < w.x1; ++x) {
          const int32_t v = dsp::read4(at(s, image, y, x, c));
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
      out[c] = clamp_s8(window_max(s, image, w, c), s.activation_min, s.activation_max);
    }
  });
}

}  // namespace ember::cortex_m
