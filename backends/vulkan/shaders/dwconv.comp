// Depthwise convolution on NHWC values (one input channel per output
// channel): an invocation per output element, its kh x kw taps from
// weights packed [kh, kw, C] at init (B_F16: as halves). Epilogue as gemm_common.glsl's:
// bias, residual, activation, clamp.
// Params: n (outputs), C, in_h, in_w, out_h, out_w, kh, kw, stride_h,
//         stride_w, pad_h, pad_w, dil_h, dil_w, flags (1 bias, 2 residual),
//         activation, low, high.
// Bindings: 1 x, 2 weights, 3 bias, 4 residual, 5 out.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer X { float x[]; };
#ifdef B_F16
layout(std430, set = 0, binding = 2) restrict readonly buffer W { uint ww[]; };
float weight(uint i) {
  const uint at = 2u * pc.off[1] + i;
  return unpackHalf2x16(ww[at >> 1u])[at & 1u];
}
#else
layout(std430, set = 0, binding = 2) restrict readonly buffer W { float w[]; };
float weight(uint i) { return w[pc.off[1] + i]; }
#endif
layout(std430, set = 0, binding = 3) restrict readonly buffer Bias { float bias[]; };
layout(std430, set = 0, binding = 4) restrict readonly buffer Residual { float residual[]; };
layout(std430, set = 0, binding = 5) restrict writeonly buffer O { float o[]; };

void main() {
  const uint n = pu(0), C = pu(1), in_h = pu(2), in_w = pu(3), out_h = pu(4), out_w = pu(5);
  const uint kh = pu(6), kw = pu(7), flags = pu(14), act = pu(15);
  GRID_LOOP(i, n, 256u) {
    const uint ch = i % C, ox = (i / C) % out_w, oy = (i / (C * out_w)) % out_h;
    const uint nb = i / (C * out_w * out_h);
    float acc = 0.0;
    for (uint ky = 0u; ky < kh; ++ky) {
      const int iy = int(oy * pu(8)) - pi(10) + int(ky) * pi(12);
      if (iy < 0 || iy >= int(in_h)) continue;
      for (uint kx = 0u; kx < kw; ++kx) {
        const int ix = int(ox * pu(9)) - pi(11) + int(kx) * pi(13);
        if (ix < 0 || ix >= int(in_w)) continue;
        acc += x[pc.off[0] + ((nb * in_h + uint(iy)) * in_w + uint(ix)) * C + ch] *
               weight((ky * kw + kx) * C + ch);
      }
    }
    if ((flags & 1u) != 0u) acc += bias[pc.off[2] + ch];
    if ((flags & 2u) != 0u) acc += residual[pc.off[3] + i];
    if (act != kNoActivation) acc = activate(act, acc);
    o[pc.off[4] + i] = clamp_keep_nan(acc, pf(16), pf(17));
  }
}
