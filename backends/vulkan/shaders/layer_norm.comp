// Layer norm (or RMS norm) over the last n elements of each row, a
// workgroup per row: y = (x - mean) / sqrt(var + eps) * w + b, or
// x / sqrt(mean(x^2) + eps) * w; mean and variance in two passes.
// Params: rows, n, eps, rms, flags (1 weight, 2 bias).
// Bindings: 1 x, 2 weight, 3 bias, 4 y.
#version 450
#extension GL_GOOGLE_include_directive : require
#define ROW_THREADS 64u
layout(local_size_x = 64) in;
#include "common.glsl"
#include "rows.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer W { float w[]; };
layout(std430, set = 0, binding = 3) restrict readonly buffer Bias { float bias[]; };
layout(std430, set = 0, binding = 4) restrict writeonly buffer Y { float y[]; };

void main() {
  const uint rows = pu(0), n = pu(1), flags = pu(4);
  const float eps = pf(2);
  const bool rms = pu(3) != 0u;
  const uint t = gl_LocalInvocationID.x;
  for (uint row = gl_WorkGroupID.x; row < rows; row += gl_NumWorkGroups.x) {
    const uint base = pc.off[0] + row * n;
    float mean = 0.0;
    if (!rms) {
      float s = 0.0;
      for (uint j = t; j < n; j += ROW_THREADS) s += x[base + j];
      mean = group_sum(s) / float(n);
    }
    float q = 0.0;
    for (uint j = t; j < n; j += ROW_THREADS) {
      const float d = x[base + j] - mean;
      q += d * d;
    }
    const float scale = 1.0 / sqrt(group_sum(q) / float(n) + eps);
    for (uint j = t; j < n; j += ROW_THREADS) {
      float v = (x[base + j] - mean) * scale;
      if ((flags & 1u) != 0u) v *= w[pc.off[1] + j];
      if ((flags & 2u) != 0u) v += bias[pc.off[2] + j];
      y[pc.off[3] + row * n + j] = v;
    }
  }
}
