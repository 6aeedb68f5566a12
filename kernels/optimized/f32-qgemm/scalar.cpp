// Scalar microkernels of the quantized GEMM: the fallback on every CPU, the
// kernels for partial panels (fewer than 16 rows) on every CPU, and the
// reference shape of the SIMD ones.
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "runtime/core/half.h"

namespace ember::kernels::optimized {
namespace {

float fp16(const uint8_t* p) {
  uint16_t bits;
  std::memcpy(&bits, p, 2);
  return Half::to_float(bits);
}

// The 32 weights of lane r's block (`at`: the panel block of h rows), in
// order, as codes: w = d * q + m.
void q4_codes(const uint8_t* at, size_t h, size_t r, float* q) {
  for (size_t c = 0; c < 4; ++c) {
    const uint8_t* bytes = at + 4 * h + c * 4 * h + 4 * r;
    for (size_t i = 0; i < 4; ++i) {
      q[8 * c + i] = static_cast<float>(bytes[i] & 0x0F);
      q[8 * c + 4 + i] = static_cast<float>(bytes[i] >> 4);
    }
  }
}

void q8_codes(const uint8_t* at, size_t h, size_t r, float* q) {
  for (size_t c = 0; c < 8; ++c) {
    const uint8_t* bytes = at + 2 * h + c * 4 * h + 4 * r;
    for (size_t i = 0; i < 4; ++i) q[4 * c + i] = static_cast<float>(static_cast<int8_t>(bytes[i]));
  }
}

template <bool kQ4>
void gemv(size_t nb, const float* x, const float* xsum, const uint8_t* panel, size_t h,
          float* y) {
  constexpr size_t kBlock = kQ4 ? 20 : 34;
  float acc[kF32QPanelRows] = {};
  float q[32];
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * h * kBlock;
    const float* xb = x + b * 32;
    for (size_t r = 0; r < h; ++r) {
      if (kQ4) {
        q4_codes(at, h, r, q);
      } else {
        q8_codes(at, h, r, q);
      }
      float dot = 0.0f;
      for (size_t j = 0; j < 32; ++j) dot += xb[j] * q[j];
      acc[r] += fp16(at + 2 * r) * dot;
      if (kQ4) acc[r] += fp16(at + 2 * h + 2 * r) * xsum[b];
    }
  }
  for (size_t r = 0; r < h; ++r) y[r] = acc[r];
}

template <bool kQ4>
void unpack(size_t nb, const uint8_t* blocks, size_t h, size_t r0, size_t rows, size_t nr,
            float* out) {
  constexpr size_t kBlock = kQ4 ? 20 : 34;
  float q[32];
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * h * kBlock;
    for (size_t j = 0; j < rows; ++j) {
      const size_t r = r0 + j;
      const float d = fp16(at + 2 * r), m = kQ4 ? fp16(at + 2 * h + 2 * r) : 0.0f;
      if (kQ4) {
        q4_codes(at, h, r, q);
      } else {
        q8_codes(at, h, r, q);
      }
      for (size_t p = 0; p < 32; ++p) out[(b * 32 + p) * nr + j] = d * q[p] + m;
    }
  }
}

}  // namespace

extern const F32QGemmConfig kF32QGemmScalarConfig = {
    "scalar", 0, gemv<true>, gemv<false>, unpack<true>, unpack<false>,
};

}  // namespace ember::kernels::optimized
