// The matrix-product family: C[z, m, n] = epilogue(sum_k A(z, m, k) B(z, k, n))
// for z < batch, where A is read through strides (a matmul or linear layer)
// or gathered from an NHWC image (a convolution's implicit im2col, or the
// taps of a transposed convolution), and B through strides (a weight packed
// at init, or a runtime operand; B_F16: weights stored as halves). The output
// element (z, m, n) is at
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

layout(std430, set = 0, binding = 1) restrict readonly buffer A { float a[]; };
#ifdef B_F16
// Weights stored as IEEE halves, two to a word (unpackHalf2x16 is core GLSL:
// every device reads them); the arithmetic stays float.
layout(std430, set = 0, binding = 2) restrict readonly buffer B { uint bw[]; };
#else
layout(std430, set = 0, binding = 2) restrict readonly buffer B { float b[]; };
#endif
layout(std430, set = 0, binding = 3) restrict readonly buffer Bias { float bias[]; };
layout(std430, set = 0, binding = 4) restrict readonly buffer Residual { float residual[]; };
layout(std430, set = 0, binding = 5) restrict writeonly buffer C { float c[]; };

// The parameters, read once (load_params) rather than at every element.
uint M, N, K, a_base, a_batch, a_row, a_col, b_base, b_batch, b_row, b_col;
uint c_batch, c_row, flags, act, bias_batch;
float low, high;
#if defined(A_CONV) || defined(A_CONV_TRANSPOSED)
uint in_h, in_w, in_c, out_h, out_w, kw, cg;
int stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
#endif

void load_params() {
  M = pu(0); N = pu(1); K = pu(2);
  a_base = pc.off[0] + pu(4); a_batch = pu(5); a_row = pu(6); a_col = pu(7);
#ifdef B_F16
  b_base = 2u * pc.off[1] + pu(8);
#else
  b_base = pc.off[1] + pu(8);
#endif
  b_batch = pu(9); b_row = pu(10); b_col = pu(11);
  c_batch = pu(12); c_row = pu(13); flags = pu(14); act = pu(15);
  low = pf(16); high = pf(17); bias_batch = pu(18);
#if defined(A_CONV) || defined(A_CONV_TRANSPOSED)
  in_h = pu(20); in_w = pu(21); in_c = pu(22); out_h = pu(23); out_w = pu(24);
  kw = pu(26); cg = pu(33);
  stride_h = pi(27); stride_w = pi(28); pad_h = pi(29); pad_w = pi(30);
  dil_h = pi(31); dil_w = pi(32);
#endif
}

float load_a(uint z, uint m, uint k) {
#if defined(A_CONV) || defined(A_CONV_TRANSPOSED)
  // m: an output pixel (n, oy, ox); k: a tap (ky, kx) and an input channel
  // of group z, channels innermost so that neighbouring k read neighbours.
  const uint ox = m % out_w, oy = (m / out_w) % out_h, nb = m / (out_w * out_h);
  const uint ic = k % cg, tap = k / cg;
  const int kx = int(tap % kw), ky = int(tap / kw);
#if defined(A_CONV)
  const int iy = int(oy) * stride_h - pad_h + ky * dil_h;
  const int ix = int(ox) * stride_w - pad_w + kx * dil_w;
  if (iy < 0 || ix < 0 || iy >= int(in_h) || ix >= int(in_w)) return 0.0;
#else
  // The input pixel whose stride lands on (oy, ox) through tap (ky, kx).
  const int ty = int(oy) + pad_h - ky * dil_h, tx = int(ox) + pad_w - kx * dil_w;
  if (ty < 0 || tx < 0 || ty % stride_h != 0 || tx % stride_w != 0) return 0.0;
  const int iy = ty / stride_h, ix = tx / stride_w;
  if (iy >= int(in_h) || ix >= int(in_w)) return 0.0;
#endif
  return a[pc.off[0] + ((nb * in_h + uint(iy)) * in_w + uint(ix)) * in_c + z * cg + ic];
#else
  return a[a_base + z * a_batch + m * a_row + k * a_col];
#endif
}

float load_b(uint z, uint k, uint n) {
  const uint i = b_base + z * b_batch + k * b_row + n * b_col;
#ifdef B_F16
  return unpackHalf2x16(bw[i >> 1u])[i & 1u];
#else
  return b[i];
#endif
}

void store_c(uint z, uint m, uint n, float v) {
  if ((flags & 1u) != 0u) v += bias[pc.off[2] + z * bias_batch + n];
  const uint at = m * c_row + z * c_batch + n;
  if ((flags & 2u) != 0u) v += residual[pc.off[3] + at];
  if (act != kNoActivation) v = activate(act, v);
  c[pc.off[4] + at] = clamp_keep_nan(v, low, high);
}
