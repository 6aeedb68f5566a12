// A strided copy, the shape of every layout op: for each index (i_0 ..
// i_rank-1) of `sizes`, dst[dst_offset + sum i_d dst_strides[d]] =
// src[src_offset + sum (i_d - before[d]) src_strides[d]], or `fill` where
// some i_d - before[d] falls outside [0, src_sizes[d]) (padding; `padded` 0
// skips the test). Permutes, slices, views made dense, layout changes,
// concatenation (one copy per input into its slice of the output), pads.
// Params: n, rank, src_offset, dst_offset, padded, fill,
//         sizes[8], src_strides[8], dst_strides[8], before[8], src_sizes[8].
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer Src { float src[]; };
layout(std430, set = 0, binding = 2) restrict writeonly buffer Dst { float dst[]; };

void main() {
  const uint n = pu(0), rank = pu(1);
  const bool padded = pu(4) != 0u;
  const float fill = pf(5);
  GRID_LOOP(i, n, 256u) {
    uint rest = i;
    int from = pi(2);
    uint to = pu(3);
    bool inside = true;
    for (uint d = rank; d-- > 0u;) {
      const uint size = pu(6u + d);
      const uint index = rest % size;
      rest /= size;
      const int at = int(index) - (padded ? pi(30u + d) : 0);
      inside = inside && (!padded || (at >= 0 && at < pi(38u + d)));
      from += at * pi(14u + d);
      to += index * pu(22u + d);
    }
    dst[pc.off[1] + to] = inside ? src[pc.off[0] + uint(from)] : fill;
  }
}
