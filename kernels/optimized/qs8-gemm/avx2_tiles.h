// The int8 GEMM tiles of the 256-bit x86 variants (avx2.cpp: vpmaddwd on
// int16 k-pairs; avxvnni.cpp: vpdpbusd on u8 x s8 k-quads), 6 rows x 16
// columns in two ymm vectors per row: the start of the sums from the panel's
// head, the requantization to int8 and the float epilogue, around the inner
// loop each variant supplies.
//
// The exception to "headers a variant includes define no functions", as
// simd/avx2_math.h is: the #error keeps files compiled without AVX2 from
// including it, and everything is in an unnamed namespace, so each variant
// file (avxvnni.cpp has more ISA flags than avx2.cpp) keeps its own copy and
// the linker never picks one file's for the other.
#pragma once

#if !defined(__AVX2__) || !defined(__FMA__)
#error "qs8-gemm/avx2_tiles.h is for files compiled with -mavx2 -mfma only"
#endif

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qs8-gemm/qs8_gemm.h"

namespace ember::kernels::optimized::qs8_avx2 {
namespace {

constexpr size_t kMr = 6;
constexpr size_t kNr = 16;

// The first n (< 8, or 8) lanes on.
inline __m256i lanes(size_t n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

inline uint32_t load_u32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// Bytes [0, n) of v to p, n <= 16.
inline void store_bytes(int8_t* p, __m128i v, size_t n) {
  if (n == 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
    return;
  }
  alignas(16) int8_t buf[16];
  _mm_store_si128(reinterpret_cast<__m128i*>(buf), v);
  std::memcpy(p, buf, n);
}

// A panel's parts (qs8_gemm.h): the head, the weights, the tail.
struct Panel {
  const int32_t* head;
  const int8_t* w;
  const float* tail;
  Panel(const void* panel, size_t kp)
      : head(static_cast<const int32_t*>(panel)),
        w(static_cast<const int8_t*>(panel) + kNr * sizeof(int32_t)),
        tail(reinterpret_cast<const float*>(w + kp * kNr)) {}
};

// Inner supplies: AValue (the packed A's element type), kShift (its a_shift)
// and accumulate<MR, NV>(kp, a rows, w, acc), which adds the products of all
// kp values of each row into acc[i][0..NV).
template <typename Inner, size_t MR, size_t NV>
void qs8_tile(size_t nr, size_t kp, const typename Inner::AValue* a, const void* panel, int8_t* c,
              size_t c_stride, const Qs8RequantParams* params) {
  const Panel p(panel, kp);
  __m256i acc[MR][2];
  const __m256i h0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.head));
  const __m256i h1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.head + 8));
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) {
    acc[i][0] = h0;
    acc[i][1] = h1;
  }
  Inner::template accumulate<MR, NV>(kp, a, p.w, acc);

  const __m256 s0 = _mm256_loadu_ps(p.tail);
  const __m256 s1 = _mm256_loadu_ps(p.tail + 8);
  const __m256 low = _mm256_set1_ps(static_cast<float>(params->min - params->zero));
  const __m256 high = _mm256_set1_ps(static_cast<float>(params->max - params->zero));
  const __m256i zero = _mm256_set1_epi32(params->zero);
  for (size_t i = 0; i < MR; ++i) {
    // Scale, clamp (bounds less the zero point: integers, so clamping before
    // rounding is the same), round half to even (vcvtps2dq in the default
    // mode), add the zero point.
    __m256 f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[i][0]), s0);
    __m256 f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[i][1]), s1);
    f0 = _mm256_min_ps(_mm256_max_ps(f0, low), high);
    f1 = _mm256_min_ps(_mm256_max_ps(f1, low), high);
    const __m256i q0 = _mm256_add_epi32(_mm256_cvtps_epi32(f0), zero);
    const __m256i q1 = NV == 2 ? _mm256_add_epi32(_mm256_cvtps_epi32(f1), zero) : q0;
    // In [-128, 127] now: the packs only narrow. packs works per 128-bit
    // half; the permute puts the columns back in order.
    const __m256i w16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(q0, q1), 0xD8);
    const __m128i bytes =
        _mm_packs_epi16(_mm256_castsi256_si128(w16), _mm256_extracti128_si256(w16, 1));
    store_bytes(c + i * c_stride, bytes, nr);
  }
}

template <typename Inner, size_t MR, size_t NV>
void qd8_tile(size_t nr, size_t kp, const typename Inner::AValue* a, const void* panel, float* c,
              size_t c_stride, const int32_t* row_zero, const float* row_scale,
              const Qd8F32Params* params) {
  const Panel p(panel, kp);
  __m256i acc[MR][2];
  const __m256i cs0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.head));
  const __m256i cs1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.head + 8));
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) {
    // The zero point's share, -(zero + shift) * colsum, modulo 2^32.
    const __m256i nz = _mm256_set1_epi32(-(row_zero[i] + Inner::kShift));
    acc[i][0] = _mm256_mullo_epi32(cs0, nz);
    acc[i][1] = _mm256_mullo_epi32(cs1, nz);
  }
  Inner::template accumulate<MR, NV>(kp, a, p.w, acc);

  const __m256 ws[2] = {_mm256_loadu_ps(p.tail), _mm256_loadu_ps(p.tail + 8)};
  const __m256 bs[2] = {_mm256_loadu_ps(p.tail + kNr), _mm256_loadu_ps(p.tail + kNr + 8)};
  const __m256 low = _mm256_set1_ps(params->min);
  const __m256 high = _mm256_set1_ps(params->max);
  for (size_t i = 0; i < MR; ++i) {
    const __m256 rs = _mm256_set1_ps(row_scale[i]);
    float* c_row = c + i * c_stride;
    for (size_t v = 0; v < NV; ++v) {
      __m256 f = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(acc[i][v]), rs), ws[v], bs[v]);
      f = _mm256_min_ps(_mm256_max_ps(f, low), high);
      const size_t cols = nr - v * 8;
      if (cols >= 8) {
        _mm256_storeu_ps(c_row + v * 8, f);
      } else {
        _mm256_maskstore_ps(c_row + v * 8, lanes(cols), f);
      }
    }
  }
}

// Calls the tile instance for mr <= 6 rows and nr <= 16 columns (one vector
// per row when nr <= 8): one instance per count, so that the sums stay in
// registers.
#define EMBER_QS8_AVX2_CASES(call)  \
  if (nr <= 8) {                    \
    switch (mr) {                   \
      case 6: return call(6, 1);    \
      case 5: return call(5, 1);    \
      case 4: return call(4, 1);    \
      case 3: return call(3, 1);    \
      case 2: return call(2, 1);    \
      default: return call(1, 1);   \
    }                               \
  }                                 \
  switch (mr) {                     \
    case 6: return call(6, 2);      \
    case 5: return call(5, 2);      \
    case 4: return call(4, 2);      \
    case 3: return call(3, 2);      \
    case 2: return call(2, 2);      \
    default: return call(1, 2);     \
  }

template <typename Inner>
void qs8_ukernel(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, int8_t* c,
              size_t c_stride, const Qs8RequantParams* params) {
  const auto* as = static_cast<const typename Inner::AValue*>(a);
#define EMBER_CALL(R, NV) qs8_tile<Inner, R, NV>(nr, kp, as, panel, c, c_stride, params)
  EMBER_QS8_AVX2_CASES(EMBER_CALL)
#undef EMBER_CALL
}

template <typename Inner>
void qd8_ukernel(size_t mr, size_t nr, size_t kp, const void* a, const void* panel, float* c,
              size_t c_stride, const int32_t* row_zero, const float* row_scale,
              const Qd8F32Params* params) {
  const auto* as = static_cast<const typename Inner::AValue*>(a);
#define EMBER_CALL(R, NV) \
  qd8_tile<Inner, R, NV>(nr, kp, as, panel, c, c_stride, row_zero, row_scale, params)
  EMBER_QS8_AVX2_CASES(EMBER_CALL)
#undef EMBER_CALL
}

#undef EMBER_QS8_AVX2_CASES

}  // namespace
}  // namespace ember::kernels::optimized::qs8_avx2
