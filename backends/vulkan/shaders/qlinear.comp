// y[m, n] = sum_k x[m, k] W[n, k] with W in blocks of 32 weights along k,
// repacked at init (ops/qlinear.cpp) so that neighbouring invocations, one
// per output column n, read neighbouring words: the block scales as words
// [nb][N] (Q4: fp16 d | fp16 m << 16; Q8: fp16 d), then the codes as words
// [nb][W][N] (Q4: W = 4, word c holds weights 8c .. 8c + 7 as nibbles; Q8:
// W = 8, word c weights 4c .. 4c + 3 as int8 bytes). Each invocation takes
// up to 4 rows of x, decoding each weight once for all of them.
// Q4 (Q4_1): w = d q + m. Q8 (Q8_0): w = d q.
// Params: M, N, K. Groups: (ceil(N / 64), ceil(M / 4)).
// Bindings: 1 x, 2 packed weights, 3 y.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
#include "common.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer Wq { uint wq[]; };
layout(std430, set = 0, binding = 3) restrict writeonly buffer Y { float y[]; };

#ifdef Q4
const uint kWords = 4u;
#else
const uint kWords = 8u;
#endif

void main() {
  const uint M = pu(0), N = pu(1), K = pu(2);
  const uint n = gl_GlobalInvocationID.x, m0 = gl_WorkGroupID.y * 4u;
  if (n >= N) return;
  const uint rows = min(4u, M - m0), nb = K / 32u;
  float acc[4] = float[4](0.0, 0.0, 0.0, 0.0);
  for (uint blk = 0u; blk < nb; ++blk) {
    const vec2 dm = unpackHalf2x16(wq[pc.off[1] + blk * N + n]);
    float dot[4] = float[4](0.0, 0.0, 0.0, 0.0);
    float xsum[4] = float[4](0.0, 0.0, 0.0, 0.0);
    for (uint c = 0u; c < kWords; ++c) {
      const uint word = wq[pc.off[1] + nb * N + (blk * kWords + c) * N + n];
#ifdef Q4
      for (uint e = 0u; e < 8u; ++e) {
        const float code = float((word >> (4u * e)) & 15u);
        const uint kk = blk * 32u + 8u * c + e;
        for (uint r = 0u; r < rows; ++r) {
          const float xv = x[pc.off[0] + (m0 + r) * K + kk];
          dot[r] += xv * code;
          xsum[r] += xv;
        }
      }
#else
      for (uint e = 0u; e < 4u; ++e) {
        const float code = float(int(word << (24u - 8u * e)) >> 24);
        const uint kk = blk * 32u + 4u * c + e;
        for (uint r = 0u; r < rows; ++r) dot[r] += x[pc.off[0] + (m0 + r) * K + kk] * code;
      }
#endif
    }
    for (uint r = 0u; r < rows; ++r) acc[r] += dm.x * dot[r] + dm.y * xsum[r];
  }
  for (uint r = 0u; r < rows; ++r) y[pc.off[2] + (m0 + r) * N + n] = acc[r];
}
