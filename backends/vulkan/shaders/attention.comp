// softmax(q k^T * scale + mask) v as one pass (flash attention's online
// softmax): a workgroup of 64 per query row (b, h, i) takes the keys 64 at a
// time, one score per invocation, and keeps the running max, the running
// sum and the output row (each invocation owns output columns t, t + 64,
// ...). The score matrix never exists. Every operand is read (and the
// output written) in place through strides over (b, h, row), columns
// contiguous; the mask through (b, h, i, j) strides, 0 where it broadcasts:
// additive floats, or bools (a byte each) where a score whose byte differs
// from `keeps` becomes masked_score. Under safe_softmax a query with every
// key masked gets 0 (torch's scaled_dot_product_attention), else NaN.
// Params: batch, heads, q_len, kv_len, head_dim, v_dim, scale, causal,
//         has_mask, offsets[5] (q, k, v, mask, out), q_strides[3],
//         k_strides[3], v_strides[3], mask_strides[4], out_strides[3],
//         safe_softmax, bool_mask, keeps, masked_score.
// Bindings: 1 q, 2 k, 3 v, 4 mask, 5 out.
#version 450
#extension GL_GOOGLE_include_directive : require
#define ROW_THREADS 64u
layout(local_size_x = 64) in;
#include "common.glsl"
#include "rows.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer Q { float q[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer K { float k[]; };
layout(std430, set = 0, binding = 3) restrict readonly buffer V { float v[]; };
layout(std430, set = 0, binding = 4) restrict readonly buffer Mask { uint mask_words[]; };
layout(std430, set = 0, binding = 5) restrict writeonly buffer O { float o[]; };

// The longest q / k row (head_dim) and v / out row (v_dim) it takes.
const uint kMaxDim = 512u;
shared float q_row[kMaxDim];
shared float probs[64];

uint at3(uint base, uint s, uint b, uint h, uint r) {
  return base + b * pu(s) + h * pu(s + 1u) + r * pu(s + 2u);
}

// The score s of (b, h, i, j) with the mask applied.
float masked(float s, uint b, uint h, uint i, uint j) {
  const uint at = pu(12) + b * pu(23) + h * pu(24) + i * pu(25) + j * pu(26);
  if (pu(31) == 0u) return s + uintBitsToFloat(mask_words[pc.off[3] + at]);
  const uint byte_at = pc.off[3] * 4u + at;
  const bool set = ((mask_words[byte_at >> 2u] >> ((byte_at & 3u) * 8u)) & 0xffu) != 0u;
  return set == (pu(32) != 0u) ? s : pf(33);
}

void main() {
  const uint B = pu(0), H = pu(1), L = pu(2), S = pu(3), D = pu(4), E = pu(5);
  const float scale = pf(6);
  const bool causal = pu(7) != 0u, has_mask = pu(8) != 0u;
  const uint t = gl_LocalInvocationID.x;
  for (uint row = gl_WorkGroupID.x; row < B * H * L; row += gl_NumWorkGroups.x) {
    const uint i = row % L, h = (row / L) % H, b = row / (L * H);
    const uint q_at = at3(pc.off[0] + pu(9), 14u, b, h, i);
    for (uint d = t; d < D; d += 64u) q_row[d] = q[q_at + d];
    barrier();
    float m = -kInf, l = 0.0;
    float acc[kMaxDim / 64u];
    for (uint c = 0u; c < kMaxDim / 64u; ++c) acc[c] = 0.0;
    const uint keys = causal ? min(S, i + 1u) : S;
    for (uint j0 = 0u; j0 < keys; j0 += 64u) {
      const uint j = j0 + t;
      float s = -kInf;
      if (j < keys) {
        const uint k_at = at3(pc.off[1] + pu(10), 17u, b, h, j);
        float dot = 0.0;
        for (uint d = 0u; d < D; ++d) dot += q_row[d] * k[k_at + d];
        s = dot * scale;
        if (has_mask) s = masked(s, b, h, i, j);
      }
      const float new_m = max(m, group_max(s));
      // Until a key is unmasked there is nothing to weigh.
      const float p = new_m == -kInf ? 0.0 : exp(s - new_m);
      const float correction = new_m == -kInf ? 1.0 : exp(m - new_m);
      probs[t] = p;
      l = l * correction + group_sum(p);
      const uint count = min(64u, keys - j0);
      for (uint c = 0u; c * 64u + t < E; ++c) {
        const uint e = c * 64u + t;
        float sum = acc[c] * correction;
        for (uint jj = 0u; jj < count; ++jj) {
          sum += probs[jj] * v[at3(pc.off[2] + pu(11), 20u, b, h, j0 + jj) + e];
        }
        acc[c] = sum;
      }
      m = new_m;
      barrier();  // probs is rewritten by the next block
    }
    const bool zero = l == 0.0 && pu(30) != 0u;
    for (uint c = 0u; c * 64u + t < E; ++c) {
      o[at3(pc.off[4] + pu(13), 27u, b, h, i) + c * 64u + t] = zero ? 0.0 : acc[c] / l;
    }
    barrier();  // q_row is rewritten by the next row
  }
}
