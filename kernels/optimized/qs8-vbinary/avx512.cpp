// int8 add and mul for AVX-512 (Skylake-server level): 16 elements per
// vector of int32 lanes, the arithmetic of qs8_vbinary.h in float (vfmadd
// for add); a partial vector is loaded and stored under a mask. Compiled
// with the AVX-512 flags for this file only.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"

namespace ember::kernels::optimized {
namespace {

inline __mmask16 lanes(size_t n) {
  return n >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << n) - 1u);
}

// b_advances: false for one repeated value (b points at it).
template <Qs8BinaryOp Op>
void run(size_t n, const int8_t* a, const int8_t* b, bool b_advances, int8_t* y,
         const Qs8BinaryParams* p) {
  const __m512i a_zero = _mm512_set1_epi32(p->a_zero);
  const __m512i b_zero = _mm512_set1_epi32(p->b_zero);
  const __m512i out_zero = _mm512_set1_epi32(p->out_zero);
  const __m512 a_mult = _mm512_set1_ps(p->a_mult);
  const __m512 b_mult = _mm512_set1_ps(p->b_mult);
  const __m512 lo = _mm512_set1_ps(static_cast<float>(p->out_min - p->out_zero));
  const __m512 hi = _mm512_set1_ps(static_cast<float>(p->out_max - p->out_zero));
  const __m512i b_repeated = _mm512_set1_epi32(*b);
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    const __m512i av = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, a + i));
    const __m512i bv =
        b_advances ? _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, b + i)) : b_repeated;
    const __m512i da = _mm512_sub_epi32(av, a_zero);
    const __m512i db = _mm512_sub_epi32(bv, b_zero);
    __m512 v;
    if (Op == Qs8BinaryOp::Add) {
      v = _mm512_fmadd_ps(_mm512_cvtepi32_ps(da), a_mult,
                          _mm512_mul_ps(_mm512_cvtepi32_ps(db), b_mult));
    } else {
      v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_mullo_epi32(da, db)), a_mult);
    }
    v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
    const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(v), out_zero);
    _mm_mask_storeu_epi8(y + i, m, _mm512_cvtepi32_epi8(q));
  }
}

template <Qs8BinaryOp Op>
void vv(size_t n, const int8_t* a, const int8_t* b, int8_t* y, const Qs8BinaryParams* p) {
  run<Op>(n, a, b, true, y, p);
}

template <Qs8BinaryOp Op>
void vs(size_t n, const int8_t* a, int8_t b, int8_t* y, const Qs8BinaryParams* p) {
  run<Op>(n, a, &b, false, y, p);
}

}  // namespace

extern const Qs8VBinaryConfig kQs8VBinaryAvx512Config = {
    "avx512", kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    {vv<Qs8BinaryOp::Add>, vv<Qs8BinaryOp::Mul>}, {vs<Qs8BinaryOp::Add>, vs<Qs8BinaryOp::Mul>},
};

}  // namespace ember::kernels::optimized
