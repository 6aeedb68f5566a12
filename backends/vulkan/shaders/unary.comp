// y = clamp(f(x)) elementwise; x and y lie alike.
// Params: n, op (UnaryOp), low, high.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) restrict writeonly buffer Y { float y[]; };

void main() {
  const uint n = pu(0), op = pu(1);
  const float lo = pf(2), hi = pf(3);
  GRID_LOOP(i, n, 256u) { y[pc.off[1] + i] = clamp_keep_nan(activate(op, x[pc.off[0] + i]), lo, hi); }
}
