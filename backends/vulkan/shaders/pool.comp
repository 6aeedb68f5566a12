// 2-D pools on NHWC values, an invocation per output element: max (NaN
// wins, as in PyTorch), average (count_include_pad, divisor_override) and
// adaptive average (cell (oy, ox) averages rows [oy H / OH, ceil((oy + 1) H
// / OH)) and likewise columns); then the clamp.
// Params: n, C, in_h, in_w, out_h, out_w, mode (0 max, 1 average, 2
//         adaptive), kh, kw, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
//         count_include_pad, divisor_override, low, high.
// Bindings: 1 x, 2 out.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) restrict writeonly buffer O { float o[]; };

float at(uint nb, uint iy, uint ix, uint ch) {
  return x[pc.off[0] + ((nb * pu(2) + iy) * pu(3) + ix) * pu(1) + ch];
}

void main() {
  const uint n = pu(0), C = pu(1), in_h = pu(2), in_w = pu(3), out_h = pu(4), out_w = pu(5);
  const uint mode = pu(6);
  const int kh = pi(7), kw = pi(8), sh = pi(9), sw = pi(10), ph = pi(11), pw = pi(12);
  GRID_LOOP(i, n, 256u) {
    const uint ch = i % C, ox = (i / C) % out_w, oy = (i / (C * out_w)) % out_h;
    const uint nb = i / (C * out_w * out_h);
    float v;
    if (mode == 2u) {
      const uint y0 = oy * in_h / out_h, y1 = ((oy + 1u) * in_h + out_h - 1u) / out_h;
      const uint x0 = ox * in_w / out_w, x1 = ((ox + 1u) * in_w + out_w - 1u) / out_w;
      float sum = 0.0;
      for (uint iy = y0; iy < y1; ++iy) {
        for (uint ix = x0; ix < x1; ++ix) sum += at(nb, iy, ix, ch);
      }
      v = sum * (1.0 / float((y1 - y0) * (x1 - x0)));
    } else if (mode == 0u) {
      v = -3.402823466e38;  // a window wholly in the padding, as the CPU backend
      bool first = true;
      for (int ky = 0; ky < kh; ++ky) {
        const int iy = int(oy) * sh - ph + ky * pi(13);
        if (iy < 0 || iy >= int(in_h)) continue;
        for (int kx = 0; kx < kw; ++kx) {
          const int ix = int(ox) * sw - pw + kx * pi(14);
          if (ix < 0 || ix >= int(in_w)) continue;
          const float e = at(nb, uint(iy), uint(ix), ch);
          v = (first || e > v || isnan(e)) ? e : v;
          first = false;
        }
      }
    } else {
      // PyTorch's avg_pool2d: the window clipped to the padded input gives
      // the count with padding, clipped to the input the one without.
      int y0 = int(oy) * sh - ph, x0 = int(ox) * sw - pw;
      int y1 = min(y0 + kh, int(in_h) + ph), x1 = min(x0 + kw, int(in_w) + pw);
      const int padded = (y1 - y0) * (x1 - x0);
      y0 = max(y0, 0);
      x0 = max(x0, 0);
      y1 = min(y1, int(in_h));
      x1 = min(x1, int(in_w));
      const int divisor = pi(16) != 0 ? pi(16) : (pu(15) != 0u ? padded : (y1 - y0) * (x1 - x0));
      float sum = 0.0;
      for (int iy = y0; iy < y1; ++iy) {
        for (int ix = x0; ix < x1; ++ix) sum += at(nb, uint(iy), uint(ix), ch);
      }
      v = sum * (1.0 / float(divisor));
    }
    o[pc.off[1] + i] = clamp_keep_nan(v, pf(17), pf(18));
  }
}
