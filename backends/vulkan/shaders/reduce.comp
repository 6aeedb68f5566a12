// Sum, mean or max over the middle dim of a value seen as [outer, size,
// inner] in memory order; out[o * inner + i] is plain. GROUP_PER_OUTPUT: a
// workgroup folds each output (a long reduced dim); otherwise an invocation
// per output loops over its `size` elements (many outputs, short rows).
// Params: outer, size, inner, op (0 sum, 1 mean, 2 max).
// Bindings: 1 x, 2 out.
#version 450
#extension GL_GOOGLE_include_directive : require
#define ROW_THREADS 64u
layout(local_size_x = 64) in;
#include "common.glsl"
#include "rows.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) restrict writeonly buffer O { float o[]; };

float finish(float v, uint op, uint size) { return op == 1u ? v / float(size) : v; }

void main() {
  const uint outer = pu(0), size = pu(1), inner = pu(2), op = pu(3);
  const uint outputs = outer * inner;
#ifdef GROUP_PER_OUTPUT
  const uint t = gl_LocalInvocationID.x;
  for (uint out_i = gl_WorkGroupID.x; out_i < outputs; out_i += gl_NumWorkGroups.x) {
    const uint base = pc.off[0] + (out_i / inner) * size * inner + out_i % inner;
    float v = op == 2u ? -kInf : 0.0;
    for (uint j = t; j < size; j += ROW_THREADS) {
      const float e = x[base + j * inner];
      v = op == 2u ? nan_max(e, v) : v + e;
    }
    v = op == 2u ? group_max(v) : group_sum(v);
    if (t == 0u) o[pc.off[1] + out_i] = finish(v, op, size);
  }
#else
  GRID_LOOP(out_i, outputs, ROW_THREADS) {
    const uint base = pc.off[0] + (out_i / inner) * size * inner + out_i % inner;
    float v = op == 2u ? -kInf : 0.0;
    for (uint j = 0u; j < size; ++j) {
      const float e = x[base + j * inner];
      v = op == 2u ? nan_max(e, v) : v + e;
    }
    o[pc.off[1] + out_i] = finish(v, op, size);
  }
#endif
}
