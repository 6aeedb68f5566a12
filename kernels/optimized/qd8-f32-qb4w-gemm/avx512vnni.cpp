// 4-bit grouped-weight GEMM for AVX512-VNNI (6x32 tile, k-quads): 64 bytes
// of nibbles per k-quad become two vectors of 16 * w as int8 (columns 0-15
// from the low nibbles, 16-31 from the high ones: a shift and two ands),
// each multiplied against A's u8 quads (a + 128) by vpdpbusd. Per row and
// vector an int32 sum per group and a float one across groups: 24
// accumulators, so 6 rows. Compiled with the AVX-512 flags plus
// -mavx512vnni for this file only.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qd8-f32-qb4w-gemm/qd8_f32_qb4w_gemm.h"

#if !defined(__AVX512VNNI__) || !defined(__AVX512BW__)
#error "qd8-f32-qb4w-gemm/avx512vnni.cpp needs -mavx512vnni and the AVX-512 flags"
#endif

namespace ember::kernels::optimized {
namespace {

constexpr size_t kMr = 6;
constexpr size_t kNr = 32;
constexpr size_t kKr = 4;
constexpr int32_t kShift = 128;

inline uint32_t load_u32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

template <size_t MR>
void tile(size_t nr, size_t k, size_t group, const uint8_t* a, const uint8_t* panel, float* c,
          size_t c_stride, const int32_t* row_zero, const float* row_scale,
          const Qd8F32Params* params) {
  const float* corr = reinterpret_cast<const float*>(panel);
  const float* bias = corr + kNr;
  const uint8_t* g = panel + 2 * kNr * sizeof(float);
  const size_t group_bytes = kNr * sizeof(float) + group * kNr / 2;
  const __m512i mask = _mm512_set1_epi8(static_cast<char>(0xF0));
  __m512 acc[MR][2];
#pragma GCC unroll 6
  for (size_t i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
  for (size_t k0 = 0; k0 < k; k0 += group, g += group_bytes) {
    const float* scale = reinterpret_cast<const float*>(g);
    const uint8_t* bytes = g + kNr * sizeof(float);
    __m512i dot[MR][2];
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; ++i) dot[i][0] = dot[i][1] = _mm512_setzero_si512();
#pragma GCC unroll 2
    for (size_t q = k0; q < k0 + group; q += kKr, bytes += kNr * kKr / 2) {
      const __m512i v = _mm512_loadu_si512(bytes);
      const __m512i b0 = _mm512_and_si512(_mm512_slli_epi16(v, 4), mask);
      const __m512i b1 = _mm512_and_si512(v, mask);
#pragma GCC unroll 6
      for (size_t i = 0; i < MR; ++i) {
        const __m512i av = _mm512_set1_epi32(static_cast<int>(load_u32(a + i * k + q)));
        dot[i][0] = _mm512_dpbusd_epi32(dot[i][0], av, b0);
        dot[i][1] = _mm512_dpbusd_epi32(dot[i][1], av, b1);
      }
    }
    const __m512 s0 = _mm512_loadu_ps(scale);
    const __m512 s1 = _mm512_loadu_ps(scale + 16);
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; ++i) {
      acc[i][0] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot[i][0]), s0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot[i][1]), s1, acc[i][1]);
    }
  }
  const __m512 low = _mm512_set1_ps(params->min);
  const __m512 high = _mm512_set1_ps(params->max);
  const __mmask16 m0 = nr >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << nr) - 1u);
  const __mmask16 m1 =
      nr >= 32 ? 0xFFFF : (nr > 16 ? static_cast<__mmask16>((1u << (nr - 16)) - 1u) : 0);
  for (size_t i = 0; i < MR; ++i) {
    const __m512 zero = _mm512_set1_ps(static_cast<float>(row_zero[i] + kShift));
    const __m512 rs = _mm512_set1_ps(row_scale[i]);
    for (size_t v = 0; v < 2; ++v) {
      const __m512 t = _mm512_fnmadd_ps(zero, _mm512_loadu_ps(corr + 16 * v), acc[i][v]);
      __m512 y = _mm512_fmadd_ps(t, rs, _mm512_loadu_ps(bias + 16 * v));
      y = _mm512_min_ps(_mm512_max_ps(y, low), high);
      _mm512_mask_storeu_ps(c + i * c_stride + 16 * v, v == 0 ? m0 : m1, y);
    }
  }
}

void gemm_6x32(size_t mr, size_t nr, size_t k, size_t group, const void* a, const void* panel,
               float* c, size_t c_stride, const int32_t* row_zero, const float* row_scale,
               const Qd8F32Params* params) {
  const uint8_t* as = static_cast<const uint8_t*>(a);
  const uint8_t* pw = static_cast<const uint8_t*>(panel);
  switch (mr) {
    case 6: return tile<6>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
    case 5: return tile<5>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
    case 4: return tile<4>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
    case 3: return tile<3>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
    case 2: return tile<2>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
    default: return tile<1>(nr, k, group, as, pw, c, c_stride, row_zero, row_scale, params);
  }
}

}  // namespace

extern const Qb4wGemmConfig kQb4wGemmAvx512VnniConfig = {
    "avx512vnni",
    kCpuAvx512Vnni | kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    kMr, kNr, kKr, Qs8AFormat::U8, kShift, gemm_6x32,
};

}  // namespace ember::kernels::optimized
