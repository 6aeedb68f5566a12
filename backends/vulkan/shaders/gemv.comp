// The product for few rows of A (a linear layer on one token, a matmul of a
// short matrix): each invocation owns one column n of C and up to 4 rows,
// reading B's row k once for all of them (neighbouring invocations read
// neighbouring columns) and A's elements as broadcasts. A strided
// (gemm_common.glsl). Groups: (ceil(N / 64), ceil(M / 4), batch).
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
#include "common.glsl"
#include "gemm_common.glsl"

void main() {
  load_params();
  const uint z = gl_WorkGroupID.z, n = gl_GlobalInvocationID.x, m0 = gl_WorkGroupID.y * 4u;
  if (n >= N) return;
  const uint rows = min(4u, M - m0);
  float acc[4] = float[4](0.0, 0.0, 0.0, 0.0);
  for (uint k = 0u; k < K; ++k) {
    const float w = load_b(z, k, n);
    for (uint r = 0u; r < rows; ++r) acc[r] += load_a(z, m0 + r, k) * w;
  }
  for (uint r = 0u; r < rows; ++r) store_c(z, m0 + r, n, acc[r]);
}
