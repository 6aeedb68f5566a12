// Softmax (or log-softmax) along one dim, in the value's memory order: the
// value as [outer, size, inner], a workgroup per (outer, inner) row of
// `size` elements `inner` apart.
// Params: rows (outer * inner), size, inner, log.
// Bindings: 1 x, 2 y.
#version 450
#extension GL_GOOGLE_include_directive : require
#define ROW_THREADS 64u
layout(local_size_x = 64) in;
#include "common.glsl"
#include "rows.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) restrict writeonly buffer Y { float y[]; };

void main() {
  const uint rows = pu(0), size = pu(1), inner = pu(2);
  const bool log_softmax = pu(3) != 0u;
  const uint t = gl_LocalInvocationID.x;
  for (uint row = gl_WorkGroupID.x; row < rows; row += gl_NumWorkGroups.x) {
    const uint base = (row / inner) * size * inner + row % inner;
    float m = -kInf;
    for (uint j = t; j < size; j += ROW_THREADS) m = nan_max(x[pc.off[0] + base + j * inner], m);
    m = group_max(m);
    float s = 0.0;
    for (uint j = t; j < size; j += ROW_THREADS) s += exp(x[pc.off[0] + base + j * inner] - m);
    s = group_sum(s);
    const float log_s = log(s);
    for (uint j = t; j < size; j += ROW_THREADS) {
      const float v = x[pc.off[0] + base + j * inner] - m;
      y[pc.off[1] + base + j * inner] = log_softmax ? v - log_s : exp(v) / s;
    }
  }
}
