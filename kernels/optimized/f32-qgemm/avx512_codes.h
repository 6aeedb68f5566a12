// The AVX-512 width of qgemm_body.h (avx512.cpp, avx512vnni.cpp): a whole
// panel of 16 rows in one vector, so a 64-byte chunk load gives every row's
// codes at 4 (Q8_0) or 8 (Q4_1) inputs. Included only by files compiled with
// the AVX-512 flags, after their intrinsics; internal linkage, so each file's
// copy is compiled with its own flags.
#pragma once

#include <immintrin.h>

#include "kernels/optimized/simd/avx512_math.h"
#include "kernels/optimized/f32-qgemm/qgemm_body.h"

namespace ember::kernels::optimized {
namespace {

struct Q : avx512::Vec {
  using Codes = __m512i;
  static constexpr bool kPrefetchAhead = true;
  static Codes codes(const uint8_t* p) { return _mm512_loadu_si512(p); }
  static V halfs(const uint8_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  template <int kI>
  static void nibbles(Codes v, V* low, V* high16) {
    const __m512i t = kI == 0 ? v : _mm512_srli_epi32(v, 8 * kI);
    *low = _mm512_cvtepi32_ps(_mm512_and_si512(t, _mm512_set1_epi32(0x0F)));
    *high16 = _mm512_cvtepi32_ps(_mm512_and_si512(t, _mm512_set1_epi32(0xF0)));
  }
  // 4 bytes (4 inputs' digits) in every 32-bit lane.
  static Codes splat4(const int8_t* p) {
    int32_t v;
    __builtin_memcpy(&v, p, 4);
    return _mm512_set1_epi32(v);
  }
  template <int kI>
  static V signed_byte(Codes v) {
    const __m512i t = kI == 3 ? v : _mm512_slli_epi32(v, 24 - 8 * kI);
    return _mm512_cvtepi32_ps(_mm512_srai_epi32(t, 24));
  }
};

}  // namespace
}  // namespace ember::kernels::optimized
