// out = clamp(a op b) with broadcasting: out is walked in its memory order
// over `rank` dims (collapsed at init), each operand through its own strides
// (0 where it repeats); b may be a number instead.
// Params: n, op (BinaryOp), has_scalar, scalar, low, high, rank,
//         sizes[8], a_strides[8], b_strides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 3) restrict writeonly buffer O { float o[]; };

// The blob's BinaryOp codes: Add 0, Sub 1, Mul 2, Div 3, Max 4, Min 5 (NaN
// when either operand is NaN, as torch.maximum / minimum).
float binary(uint op, float x, float y) {
  switch (op) {
    case 0u: return x + y;
    case 1u: return x - y;
    case 2u: return x * y;
    case 3u: return x / y;
    case 4u: return isnan(x) || isnan(y) ? kNaN : max(x, y);
    default: return isnan(x) || isnan(y) ? kNaN : min(x, y);
  }
}

void main() {
  const uint n = pu(0), op = pu(1), rank = pu(6);
  const bool has_scalar = pu(2) != 0u;
  const float scalar = pf(3), lo = pf(4), hi = pf(5);
  GRID_LOOP(i, n, 256u) {
    uint rest = i, ia = 0u, ib = 0u;
    for (uint d = rank; d-- > 0u;) {
      const uint size = pu(7u + d);
      const uint index = rest % size;
      rest /= size;
      ia += index * pu(15u + d);
      ib += index * pu(23u + d);
    }
    const float y = has_scalar ? scalar : b[pc.off[1] + ib];
    o[pc.off[2] + i] = clamp_keep_nan(binary(op, a[pc.off[0] + ia], y), lo, hi);
  }
}
