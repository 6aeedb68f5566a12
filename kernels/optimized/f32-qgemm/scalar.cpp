// Scalar microkernels of the quantized GEMM: the fallback on every CPU, and
// the reference shape of the SIMD ones.
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

void gemv_q4_1(size_t nb, const float* x, const float* xsum, const uint8_t* w,
               size_t w_row_bytes, size_t rows, float* y) {
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* row = w + r * w_row_bytes;
    float acc = 0.0f;
    for (size_t b = 0; b < nb; ++b) {
      const uint8_t* block = row + b * 20;
      const float* xb = x + b * 32;
      float dot = 0.0f;
      for (size_t j = 0; j < 16; ++j) {
        dot += xb[j] * static_cast<float>(block[4 + j] & 0x0F) +
               xb[j + 16] * static_cast<float>(block[4 + j] >> 4);
      }
      acc += fp16(block) * dot + fp16(block + 2) * xsum[b];
    }
    y[r] = acc;
  }
}

void gemv_q8_0(size_t nb, const float* x, const float*, const uint8_t* w, size_t w_row_bytes,
               size_t rows, float* y) {
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* row = w + r * w_row_bytes;
    float acc = 0.0f;
    for (size_t b = 0; b < nb; ++b) {
      const uint8_t* block = row + b * 34;
      const float* xb = x + b * 32;
      float dot = 0.0f;
      for (size_t j = 0; j < 32; ++j) {
        dot += xb[j] * static_cast<float>(static_cast<int8_t>(block[2 + j]));
      }
      acc += fp16(block) * dot;
    }
    y[r] = acc;
  }
}

void unpack_q4_1(size_t nb, const uint8_t* w, size_t w_row_bytes, size_t rows, size_t nr,
                 float* panel) {
  for (size_t r = 0; r < nr; ++r) {
    const uint8_t* row = w + r * w_row_bytes;
    for (size_t b = 0; b < nb; ++b) {
      float* out = panel + b * 32 * nr + r;
      if (r >= rows) {
        for (size_t j = 0; j < 32; ++j) out[j * nr] = 0.0f;
        continue;
      }
      const uint8_t* block = row + b * 20;
      const float d = fp16(block), m = fp16(block + 2);
      for (size_t j = 0; j < 16; ++j) {
        out[j * nr] = d * static_cast<float>(block[4 + j] & 0x0F) + m;
        out[(j + 16) * nr] = d * static_cast<float>(block[4 + j] >> 4) + m;
      }
    }
  }
}

void unpack_q8_0(size_t nb, const uint8_t* w, size_t w_row_bytes, size_t rows, size_t nr,
                 float* panel) {
  for (size_t r = 0; r < nr; ++r) {
    const uint8_t* row = w + r * w_row_bytes;
    for (size_t b = 0; b < nb; ++b) {
      float* out = panel + b * 32 * nr + r;
      if (r >= rows) {
        for (size_t j = 0; j < 32; ++j) out[j * nr] = 0.0f;
        continue;
      }
      const uint8_t* block = row + b * 34;
      const float d = fp16(block);
      for (size_t j = 0; j < 32; ++j) {
        out[j * nr] = d * static_cast<float>(static_cast<int8_t>(block[2 + j]));
      }
    }
  }
}

}  // namespace

extern const F32QGemmConfig kF32QGemmScalarConfig = {
    "scalar", 0, gemv_q4_1, gemv_q8_0, unpack_q4_1, unpack_q8_0,
};

}  // namespace ember::kernels::optimized
