// The tiled product (gemm_common.glsl): a workgroup of 16 x 16 invocations
// computes a 64 x 64 tile of C, each invocation 4 x 4 outputs, with tiles
// of A and B staged through shared memory 16 columns of K at a time.
// Groups: (ceil(N / 64), ceil(M / 64), batch).
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"
#include "gemm_common.glsl"

const uint TM = 64, TN = 64, TK = 16;
shared float tile_a[TK][TM];
shared float tile_b[TK][TN];

void main() {
  load_params();
  const uint z = gl_WorkGroupID.z;
  const uint m0 = gl_WorkGroupID.y * TM, n0 = gl_WorkGroupID.x * TN;
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  const uint tid = ty * 16u + tx;
  float acc[4][4];
  for (uint i = 0u; i < 4u; ++i) {
    for (uint j = 0u; j < 4u; ++j) acc[i][j] = 0.0;
  }
  for (uint k0 = 0u; k0 < K; k0 += TK) {
    for (uint r = 0u; r < 4u; ++r) {
      const uint e = tid + 256u * r;
      const uint am = e / TK, ak = e % TK;
      tile_a[ak][am] = (m0 + am < M && k0 + ak < K) ? load_a(z, m0 + am, k0 + ak) : 0.0;
      const uint bk = e / TN, bn = e % TN;
      tile_b[bk][bn] = (k0 + bk < K && n0 + bn < N) ? load_b(z, k0 + bk, n0 + bn) : 0.0;
    }
    barrier();
    for (uint kk = 0u; kk < TK; ++kk) {
      float va[4], vb[4];
      for (uint i = 0u; i < 4u; ++i) va[i] = tile_a[kk][ty + 16u * i];
      for (uint j = 0u; j < 4u; ++j) vb[j] = tile_b[kk][tx + 16u * j];
      for (uint i = 0u; i < 4u; ++i) {
        for (uint j = 0u; j < 4u; ++j) acc[i][j] += va[i] * vb[j];
      }
    }
    barrier();
  }
  for (uint i = 0u; i < 4u; ++i) {
    const uint m = m0 + ty + 16u * i;
    if (m >= M) continue;
    for (uint j = 0u; j < 4u; ++j) {
      const uint n = n0 + tx + 16u * j;
      if (n < N) store_c(z, m, n, acc[i][j]);
    }
  }
}
