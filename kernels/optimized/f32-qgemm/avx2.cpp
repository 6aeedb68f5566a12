// AVX2 + FMA (+ F16C for the block scales) microkernels of the quantized
// GEMM, on whole panels of 16 rows as two halves of 8 (a lane per row). A
// chunk holds 4 code bytes per row, so one 32-byte load gives 8 rows' codes
// at 4 (Q8_0) or 8 (Q4_1) inputs; each input's codes come out with a shift
// and a mask and meet that input broadcast in one FMA. Q4_1's high nibbles
// are masked in place (16 q) and their sums scaled by 1/16 once per block,
// which saves a shift per pair and is exact.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kHalf = 8;  // rows per vector
// Blocks ahead that the GEMV prefetches (see avx512.cpp).
constexpr size_t kPrefetchBlocks = 8;

void prefetch_ahead(const uint8_t* at, size_t bytes) {
  const char* ahead = reinterpret_cast<const char*>(at) + kPrefetchBlocks * bytes;
  for (size_t line = 0; line < bytes; line += 64) _mm_prefetch(ahead + line, _MM_HINT_T0);
}

__m256i load(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }

// 8 fp16 values from p as floats.
__m256 halfs(const uint8_t* p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Byte i of each lane of v, as its low-nibble code and as 16 x its
// high-nibble code.
template <int kI>
void q4_pair(__m256i v, __m256* low, __m256* high16) {
  const __m256i t = kI == 0 ? v : _mm256_srli_epi32(v, 8 * kI);
  *low = _mm256_cvtepi32_ps(_mm256_and_si256(t, _mm256_set1_epi32(0x0F)));
  *high16 = _mm256_cvtepi32_ps(_mm256_and_si256(t, _mm256_set1_epi32(0xF0)));
}

// Signed byte i of each lane of v.
template <int kI>
__m256 q8_code(__m256i v) {
  const __m256i t = kI == 3 ? v : _mm256_slli_epi32(v, 24 - 8 * kI);
  return _mm256_cvtepi32_ps(_mm256_srai_epi32(t, 24));
}

// Byte i of a Q4_1 chunk for inputs xc[0..7]: low codes times xc[i] into
// `low`, 16 x high codes times xc[4 + i] into `high`.
template <int kI>
void q4_step(__m256i v, const float* xc, __m256* low, __m256* high) {
  __m256 ql, qh;
  q4_pair<kI>(v, &ql, &qh);
  *low = _mm256_fmadd_ps(ql, _mm256_broadcast_ss(xc + kI), *low);
  *high = _mm256_fmadd_ps(qh, _mm256_broadcast_ss(xc + 4 + kI), *high);
}

void gemv_q4_1(size_t nb, const float* x, const float* xsum, const uint8_t* panel, size_t,
               float* y) {
  constexpr size_t kRows = kF32QPanelRows, kBlock = 20 * kRows;
  __m256 acc[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kBlock;
    prefetch_ahead(at, kBlock);
    const float* xb = x + b * 32;
    const __m256 sum = _mm256_broadcast_ss(xsum + b);
    for (size_t half = 0; half < 2; ++half) {
      __m256 low = _mm256_setzero_ps(), high = _mm256_setzero_ps();
      for (size_t c = 0; c < 4; ++c) {
        const __m256i v = load(at + 4 * kRows + c * 4 * kRows + half * 4 * kHalf);
        q4_step<0>(v, xb + 8 * c, &low, &high);
        q4_step<1>(v, xb + 8 * c, &low, &high);
        q4_step<2>(v, xb + 8 * c, &low, &high);
        q4_step<3>(v, xb + 8 * c, &low, &high);
      }
      const __m256 dot = _mm256_fmadd_ps(high, _mm256_set1_ps(1.0f / 16), low);
      acc[half] = _mm256_fmadd_ps(halfs(at + 2 * half * kHalf), dot, acc[half]);
      acc[half] = _mm256_fmadd_ps(halfs(at + 2 * kRows + 2 * half * kHalf), sum, acc[half]);
    }
  }
  _mm256_storeu_ps(y, acc[0]);
  _mm256_storeu_ps(y + kHalf, acc[1]);
}

template <int kI>
void q8_step(__m256i v, const float* xc, __m256* s) {
  *s = _mm256_fmadd_ps(q8_code<kI>(v), _mm256_broadcast_ss(xc + kI), *s);
}

void gemv_q8_0(size_t nb, const float* x, const float*, const uint8_t* panel, size_t, float* y) {
  constexpr size_t kRows = kF32QPanelRows, kBlock = 34 * kRows;
  __m256 acc[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kBlock;
    prefetch_ahead(at, kBlock);
    const float* xb = x + b * 32;
    for (size_t half = 0; half < 2; ++half) {
      __m256 s[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
      for (size_t c = 0; c < 8; ++c) {
        const __m256i v = load(at + 2 * kRows + c * 4 * kRows + half * 4 * kHalf);
        q8_step<0>(v, xb + 4 * c, &s[c % 2]);
        q8_step<1>(v, xb + 4 * c, &s[c % 2]);
        q8_step<2>(v, xb + 4 * c, &s[c % 2]);
        q8_step<3>(v, xb + 4 * c, &s[c % 2]);
      }
      acc[half] =
          _mm256_fmadd_ps(halfs(at + 2 * half * kHalf), _mm256_add_ps(s[0], s[1]), acc[half]);
    }
  }
  _mm256_storeu_ps(y, acc[0]);
  _mm256_storeu_ps(y + kHalf, acc[1]);
}

template <int kI>
void q4_unpack_step(__m256i v, __m256 d, __m256 d16, __m256 m, float* out, size_t nr) {
  __m256 ql, qh;
  q4_pair<kI>(v, &ql, &qh);
  _mm256_storeu_ps(out + kI * nr, _mm256_fmadd_ps(ql, d, m));
  _mm256_storeu_ps(out + (4 + kI) * nr, _mm256_fmadd_ps(qh, d16, m));
}

// Whole panels only (r0 0, 16 rows): the driver sends the rest to scalar.
void unpack_q4_1(size_t nb, const uint8_t* blocks, size_t, size_t, size_t, size_t nr,
                 float* out) {
  constexpr size_t kRows = kF32QPanelRows, kBlock = 20 * kRows;
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * kBlock;
    for (size_t half = 0; half < 2; ++half) {
      const __m256 d = halfs(at + 2 * half * kHalf);
      const __m256 d16 = _mm256_mul_ps(d, _mm256_set1_ps(1.0f / 16));
      const __m256 m = halfs(at + 2 * kRows + 2 * half * kHalf);
      for (size_t c = 0; c < 4; ++c) {
        const __m256i v = load(at + 4 * kRows + c * 4 * kRows + half * 4 * kHalf);
        float* o = out + (b * 32 + 8 * c) * nr + half * kHalf;
        q4_unpack_step<0>(v, d, d16, m, o, nr);
        q4_unpack_step<1>(v, d, d16, m, o, nr);
        q4_unpack_step<2>(v, d, d16, m, o, nr);
        q4_unpack_step<3>(v, d, d16, m, o, nr);
      }
    }
  }
}

void unpack_q8_0(size_t nb, const uint8_t* blocks, size_t, size_t, size_t, size_t nr,
                 float* out) {
  constexpr size_t kRows = kF32QPanelRows, kBlock = 34 * kRows;
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * kBlock;
    for (size_t half = 0; half < 2; ++half) {
      const __m256 d = halfs(at + 2 * half * kHalf);
      for (size_t c = 0; c < 8; ++c) {
        const __m256i v = load(at + 2 * kRows + c * 4 * kRows + half * 4 * kHalf);
        float* o = out + (b * 32 + 4 * c) * nr + half * kHalf;
        _mm256_storeu_ps(o, _mm256_mul_ps(q8_code<0>(v), d));
        _mm256_storeu_ps(o + nr, _mm256_mul_ps(q8_code<1>(v), d));
        _mm256_storeu_ps(o + 2 * nr, _mm256_mul_ps(q8_code<2>(v), d));
        _mm256_storeu_ps(o + 3 * nr, _mm256_mul_ps(q8_code<3>(v), d));
      }
    }
  }
}

}  // namespace

extern const F32QGemmConfig kF32QGemmAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm,
    gemv_q4_1, gemv_q8_0, unpack_q4_1, unpack_q8_0,
};

}  // namespace ember::kernels::optimized
