// f32 attention row operations in plain C++: the variant every CPU runs. The
// exp is the AVX2 variant's algorithm one lane at a time (not std::exp), so
// the compiler can vectorize the loop for the baseline ISA (SSE2, NEON).
#include <cstdint>
#include <cstring>

#include "kernels/optimized/f32-attention/f32_attention.h"

namespace ember::kernels::optimized {
namespace {

float row_max(const float* x, size_t n) {
  // Four running maxima: one chain would serialise on the compare latency.
  float m[4] = {x[0], x[0], x[0], x[0]};
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (size_t j = 0; j < 4; ++j) m[j] = x[i + j] > m[j] ? x[i + j] : m[j];
  }
  for (; i < n; ++i) m[0] = x[i] > m[0] ? x[i] : m[0];
  const float a = m[0] > m[1] ? m[0] : m[1];
  const float b = m[2] > m[3] ? m[2] : m[3];
  return a > b ? a : b;
}

// exp(x) for x <= 0: x = n ln2 + t (Cody-Waite, two constants), 2^n built in
// the exponent bits, exp(t) by a degree-5 polynomial on |t| <= ln2 / 2
// (XNNPACK's rr2_p5 constants); below -87.34 the result is 0 (as exp's
// nearest float is, or a denormal, which softmax cannot tell from 0).
float exp_nonpositive(float x) {
  const float magic = 0x1.8000FEp23f;  // 1.5 * 2^23 + 127: rounds and biases n
  float nf = x * 0x1.715476p+0f + magic;
  uint32_t bits;
  std::memcpy(&bits, &nf, sizeof(bits));
  const uint32_t scale_bits = bits << 23;
  float scale;
  std::memcpy(&scale, &scale_bits, sizeof(scale));
  nf -= magic;
  float t = nf * -0x1.62E43p-1f + x;
  t = nf * 0x1.05C61p-29f + t;
  float p = 0x1.0F9F9Cp-7f * t + 0x1.573A1Ap-5f;
  p = p * t + 0x1.555A80p-3f;
  p = p * t + 0x1.FFFDC6p-2f;
  p = p * t + 0x1.FFFFF6p-1f;
  t *= scale;
  const float f = t * p + scale;
  return x < -0x1.5D589Ep6f ? 0.0f : f;
}

float exp_row(float* x, size_t n, float max) {
  float sum = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    const float e = exp_nonpositive(x[i] - max);
    x[i] = e;
    sum += e;
  }
  return sum;
}

void scale_row(float* x, size_t n, float s) {
  for (size_t i = 0; i < n; ++i) x[i] *= s;
}

void pack_kt(size_t n, size_t d, const float* k, size_t ldk, size_t nr, float* packed) {
  for (size_t j0 = 0; j0 < n; j0 += nr) {
    const size_t cols = n - j0 < nr ? n - j0 : nr;
    float* panel = packed + j0 * d;  // panel j0 / nr starts at (j0 / nr) * d * nr
    for (size_t c = 0; c < cols; ++c) {
      const float* src = k + (j0 + c) * ldk;
      for (size_t p = 0; p < d; ++p) panel[p * nr + c] = src[p];
    }
    for (size_t c = cols; c < nr; ++c) {
      for (size_t p = 0; p < d; ++p) panel[p * nr + c] = 0.0f;
    }
  }
}

void scores(size_t nq, const float* const* q, const float* keys, size_t len, size_t d,
            float scale, float* out, size_t ld) {
  for (size_t g = 0; g < nq; ++g) {
    for (size_t t = 0; t < len; ++t) {
      const float* key = keys + t * d;
      // Four partial sums, as row_max keeps four maxima.
      float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      size_t i = 0;
      for (; i + 4 <= d; i += 4) {
        for (size_t j = 0; j < 4; ++j) s[j] += q[g][i + j] * key[i + j];
      }
      for (; i < d; ++i) s[0] += q[g][i] * key[i];
      out[g * ld + t] = ((s[0] + s[1]) + (s[2] + s[3])) * scale;
    }
  }
}

void accumulate(size_t nq, float* const* y, const float* values, size_t len, size_t dv,
                const float* p, size_t ld) {
  for (size_t g = 0; g < nq; ++g) {
    for (size_t t = 0; t < len; ++t) {
      const float a = p[g * ld + t];
      for (size_t i = 0; i < dv; ++i) y[g][i] += a * values[t * dv + i];
    }
  }
}

}  // namespace

extern const F32AttentionConfig kF32AttentionScalarConfig = {
    "scalar", 0, row_max, exp_row, scale_row, pack_kt, scores, accumulate,
};

}  // namespace ember::kernels::optimized
