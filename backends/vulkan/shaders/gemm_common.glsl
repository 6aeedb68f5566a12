// The matrix-product family: C[z, m, n] = epilogue(sum_k A(z, m, k) B(z, k, n))
// for z < batch, where A is read through strides (a matmul or linear layer)
// or gathered from an NHWC image (a convolution's implicit im2col, or the
// taps of a transposed convolution), and B through strides (a weight packed
// at init, or a runtime operand). The output element (z, m, n) is at
// m * c_row + z * c_batch + n; the epilogue adds bias[z * bias_batch + n],
// then the residual at the output's index, then applies the activation and
// the clamp, the order the CPU backend uses.
//
// Params 0..19 (every variant):
//   M, N, K, batch, a_offset, a_batch, a_row, a_col, b_offset, b_batch, b_row,
//   b_col, c_batch, c_row, flags (1: bias, 2: residual), activation, low,
//   high, bias_batch, 0
// Params 20..35 (A_CONV, A_CONV_TRANSPOSED): in_h, in_w, in_c, out_h, out_w,
//   kh, kw, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, in_per_group,
//   0, 0
// Bindings: 1 A, 2 B, 3 bias, 4 residual, 5 C.

layout(std430, set = 0, binding = 1) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 3) readonly buffer Bias { float bias[]; };
layout(std430, set = 0, binding = 4) readonly buffer Residual { float residual[]; };
layout(std430, set = 0, binding = 5) writeonly buffer C { float c[]; };

float load_a(uint z, uint m, uint k) {
#if defined(A_CONV) || defined(A_CONV_TRANSPOSED)
  // m: an output pixel (n, oy, ox); k: a tap (ky, kx) and an input channel
  // of group z, channels innermost so that neighbouring k read neighbours.
  const uint in_h = pu(20), in_w = pu(21), in_c = pu(22), out_h = pu(23), out_w = pu(24);
  const uint kw = pu(26), cg = pu(33);
  const uint ox = m % out_w, oy = (m / out_w) % out_h, nb = m / (out_w * out_h);
  const uint ic = k % cg, tap = k / cg;
  const int kx = int(tap % kw), ky = int(tap / kw);
#if defined(A_CONV)
  const int iy = int(oy * pu(27)) - pi(29) + ky * pi(31);
  const int ix = int(ox * pu(28)) - pi(30) + kx * pi(32);
  if (iy < 0 || ix < 0 || iy >= int(in_h) || ix >= int(in_w)) return 0.0;
#else
  // The input pixel whose stride lands on (oy, ox) through tap (ky, kx).
  const int ty = int(oy) + pi(29) - ky * pi(31), tx = int(ox) + pi(30) - kx * pi(32);
  const int sy = pi(27), sx = pi(28);
  if (ty < 0 || tx < 0 || ty % sy != 0 || tx % sx != 0) return 0.0;
  const int iy = ty / sy, ix = tx / sx;
  if (iy >= int(in_h) || ix >= int(in_w)) return 0.0;
#endif
  return a[pc.off[0] + ((nb * in_h + uint(iy)) * in_w + uint(ix)) * in_c + z * cg + ic];
#else
  return a[pc.off[0] + pu(4) + z * pu(5) + m * pu(6) + k * pu(7)];
#endif
}

float load_b(uint z, uint k, uint n) { return b[pc.off[1] + pu(8) + z * pu(9) + k * pu(10) + n * pu(11)]; }

void store_c(uint z, uint m, uint n, float v) {
  const uint flags = pu(14);
  if ((flags & 1u) != 0u) v += bias[pc.off[2] + z * pu(18) + n];
  const uint at = m * pu(13) + z * pu(12) + n;
  if ((flags & 2u) != 0u) v += residual[pc.off[3] + at];
  const uint act = pu(15);
  if (act != kNoActivation) v = activate(act, v);
  c[pc.off[4] + at] = clamp_keep_nan(v, pf(16), pf(17));
}
