// AVX-512 microkernels of the quantized GEMM: as avx2.cpp with a whole panel
// of 16 rows in one vector (a lane per row), so a 64-byte chunk load gives
// every row's codes at 4 (Q8_0) or 8 (Q4_1) inputs. Two sets of partial sums
// per block keep the FMA chains short enough to overlap.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"

namespace ember::kernels::optimized {
namespace {

constexpr size_t kRows = kF32QPanelRows;  // one lane each
// Blocks ahead that the GEMV prefetches: a decode step streams every weight
// once from memory, and the hardware prefetcher ramps up too slowly on the
// short runs of one task.
constexpr size_t kPrefetchBlocks = 8;

// The cache lines of the block kPrefetchBlocks after `at` (`bytes` long).
void prefetch_ahead(const uint8_t* at, size_t bytes) {
  const char* ahead = reinterpret_cast<const char*>(at) + kPrefetchBlocks * bytes;
  for (size_t line = 0; line < bytes; line += 64) _mm_prefetch(ahead + line, _MM_HINT_T0);
}

__m512i load(const uint8_t* p) { return _mm512_loadu_si512(p); }

// 16 fp16 values from p as floats.
__m512 halfs(const uint8_t* p) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

// Byte i of each lane of v as its low-nibble code and as 16 x its high one.
template <int kI>
void q4_pair(__m512i v, __m512* low, __m512* high16) {
  const __m512i t = kI == 0 ? v : _mm512_srli_epi32(v, 8 * kI);
  *low = _mm512_cvtepi32_ps(_mm512_and_si512(t, _mm512_set1_epi32(0x0F)));
  *high16 = _mm512_cvtepi32_ps(_mm512_and_si512(t, _mm512_set1_epi32(0xF0)));
}

// Signed byte i of each lane of v.
template <int kI>
__m512 q8_code(__m512i v) {
  const __m512i t = kI == 3 ? v : _mm512_slli_epi32(v, 24 - 8 * kI);
  return _mm512_cvtepi32_ps(_mm512_srai_epi32(t, 24));
}

// Byte i of a Q4_1 chunk for inputs xc[0..7]: low codes times xc[i] into
// `low`, 16 x high codes times xc[4 + i] into `high`.
template <int kI>
void q4_step(__m512i v, const float* xc, __m512* low, __m512* high) {
  __m512 ql, qh;
  q4_pair<kI>(v, &ql, &qh);
  *low = _mm512_fmadd_ps(ql, _mm512_set1_ps(xc[kI]), *low);
  *high = _mm512_fmadd_ps(qh, _mm512_set1_ps(xc[4 + kI]), *high);
}

void gemv_q4_1(size_t nb, const float* x, const float* xsum, const uint8_t* panel, size_t,
               float* y) {
  constexpr size_t kBlock = 20 * kRows;
  __m512 acc = _mm512_setzero_ps();
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kBlock;
    prefetch_ahead(at, kBlock);
    const float* xb = x + b * 32;
    __m512 low[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()};
    __m512 high[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()};
    for (size_t c = 0; c < 4; ++c) {
      const __m512i v = load(at + 4 * kRows + c * 4 * kRows);
      q4_step<0>(v, xb + 8 * c, &low[c % 2], &high[c % 2]);
      q4_step<1>(v, xb + 8 * c, &low[c % 2], &high[c % 2]);
      q4_step<2>(v, xb + 8 * c, &low[c % 2], &high[c % 2]);
      q4_step<3>(v, xb + 8 * c, &low[c % 2], &high[c % 2]);
    }
    const __m512 dot = _mm512_fmadd_ps(_mm512_add_ps(high[0], high[1]),
                                       _mm512_set1_ps(1.0f / 16), _mm512_add_ps(low[0], low[1]));
    acc = _mm512_fmadd_ps(halfs(at), dot, acc);
    acc = _mm512_fmadd_ps(halfs(at + 2 * kRows), _mm512_set1_ps(xsum[b]), acc);
  }
  _mm512_storeu_ps(y, acc);
}

template <int kI>
void q8_step(__m512i v, const float* xc, __m512* s) {
  *s = _mm512_fmadd_ps(q8_code<kI>(v), _mm512_set1_ps(xc[kI]), *s);
}

void gemv_q8_0(size_t nb, const float* x, const float*, const uint8_t* panel, size_t, float* y) {
  constexpr size_t kBlock = 34 * kRows;
  __m512 acc = _mm512_setzero_ps();
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = panel + b * kBlock;
    prefetch_ahead(at, kBlock);
    const float* xb = x + b * 32;
    __m512 s[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(),
                   _mm512_setzero_ps()};
    for (size_t c = 0; c < 8; ++c) {
      const __m512i v = load(at + 2 * kRows + c * 4 * kRows);
      q8_step<0>(v, xb + 4 * c, &s[c % 4]);
      q8_step<1>(v, xb + 4 * c, &s[c % 4]);
      q8_step<2>(v, xb + 4 * c, &s[c % 4]);
      q8_step<3>(v, xb + 4 * c, &s[c % 4]);
    }
    const __m512 dot = _mm512_add_ps(_mm512_add_ps(s[0], s[1]), _mm512_add_ps(s[2], s[3]));
    acc = _mm512_fmadd_ps(halfs(at), dot, acc);
  }
  _mm512_storeu_ps(y, acc);
}

template <int kI>
void q4_unpack_step(__m512i v, __m512 d, __m512 d16, __m512 m, float* out, size_t nr) {
  __m512 ql, qh;
  q4_pair<kI>(v, &ql, &qh);
  _mm512_storeu_ps(out + kI * nr, _mm512_fmadd_ps(ql, d, m));
  _mm512_storeu_ps(out + (4 + kI) * nr, _mm512_fmadd_ps(qh, d16, m));
}

// Whole panels only (r0 0, 16 rows): the driver sends the rest to scalar.
void unpack_q4_1(size_t nb, const uint8_t* blocks, size_t, size_t, size_t, size_t nr,
                 float* out) {
  constexpr size_t kBlock = 20 * kRows;
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * kBlock;
    const __m512 d = halfs(at), m = halfs(at + 2 * kRows);
    const __m512 d16 = _mm512_mul_ps(d, _mm512_set1_ps(1.0f / 16));
    for (size_t c = 0; c < 4; ++c) {
      const __m512i v = load(at + 4 * kRows + c * 4 * kRows);
      float* o = out + (b * 32 + 8 * c) * nr;
      q4_unpack_step<0>(v, d, d16, m, o, nr);
      q4_unpack_step<1>(v, d, d16, m, o, nr);
      q4_unpack_step<2>(v, d, d16, m, o, nr);
      q4_unpack_step<3>(v, d, d16, m, o, nr);
    }
  }
}

void unpack_q8_0(size_t nb, const uint8_t* blocks, size_t, size_t, size_t, size_t nr,
                 float* out) {
  constexpr size_t kBlock = 34 * kRows;
  for (size_t b = 0; b < nb; ++b) {
    const uint8_t* at = blocks + b * kBlock;
    const __m512 d = halfs(at);
    for (size_t c = 0; c < 8; ++c) {
      const __m512i v = load(at + 2 * kRows + c * 4 * kRows);
      float* o = out + (b * 32 + 4 * c) * nr;
      _mm512_storeu_ps(o, _mm512_mul_ps(q8_code<0>(v), d));
      _mm512_storeu_ps(o + nr, _mm512_mul_ps(q8_code<1>(v), d));
      _mm512_storeu_ps(o + 2 * nr, _mm512_mul_ps(q8_code<2>(v), d));
      _mm512_storeu_ps(o + 3 * nr, _mm512_mul_ps(q8_code<3>(v), d));
    }
  }
}

}  // namespace

extern const F32QGemmConfig kF32QGemmAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuF16c | kCpuOsYmm,
    gemv_q4_1, gemv_q8_0, unpack_q4_1, unpack_q8_0,
};

}  // namespace ember::kernels::optimized
