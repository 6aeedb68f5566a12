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

// 16 int8 values sign-extended to int32 lanes.
inline __m512i widen16(const int8_t* p) {
  return _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// The operation's parameters, broadcast once per call.
struct Consts {
  __m512i a_zero, b_zero, out_zero;
  __m512 a_mult, b_mult, lo, hi;
  explicit Consts(const Qs8BinaryParams* p)
      : a_zero(_mm512_set1_epi32(p->a_zero)),
        b_zero(_mm512_set1_epi32(p->b_zero)),
        out_zero(_mm512_set1_epi32(p->out_zero)),
        a_mult(_mm512_set1_ps(p->a_mult)),
        b_mult(_mm512_set1_ps(p->b_mult)),
        lo(_mm512_set1_ps(static_cast<float>(p->out_min - p->out_zero))),
        hi(_mm512_set1_ps(static_cast<float>(p->out_max - p->out_zero))) {}
};

// The result of 16 elements relative to the output zero point, as int32:
// within [out_min - out_zero, out_max - out_zero] (at most 255 apart).
template <Qs8BinaryOp Op>
__attribute__((always_inline)) inline __m512i relative(__m512i av, __m512i bv, const Consts& c) {
  const __m512i da = _mm512_sub_epi32(av, c.a_zero);
  const __m512i db = _mm512_sub_epi32(bv, c.b_zero);
  __m512 v;
  if (Op == Qs8BinaryOp::Add) {
    v = _mm512_fmadd_ps(_mm512_cvtepi32_ps(da), c.a_mult,
                        _mm512_mul_ps(_mm512_cvtepi32_ps(db), c.b_mult));
  } else {
    v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_mullo_epi32(da, db)), c.a_mult);
  }
  return _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(v, c.lo), c.hi));
}

// b_advances: false for one repeated value (b points at it).
template <Qs8BinaryOp Op>
void run(size_t n, const int8_t* a, const int8_t* b, bool b_advances, int8_t* y,
         const Qs8BinaryParams* p) {
  const Consts c(p);
  const __m512i b_repeated = _mm512_set1_epi32(*b);
  // 64 elements a step, narrowed with two saturating packs (exact: the
  // values are in range) rather than four vpmovdb, two shuffle uops each;
  // the zero point is added to int16 lanes, and one permute undoes the packs'
  // per-128-bit-lane order (dword l * 4 + s of the packed vector is bytes
  // 4l..4l+3 of the s-th group of 16).
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i out_zero16 = _mm512_set1_epi16(static_cast<int16_t>(p->out_zero));
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512i q[4];
#pragma GCC unroll 4
    for (size_t g = 0; g < 4; ++g) {
      const __m512i av = widen16(a + i + 16 * g);
      const __m512i bv = b_advances ? widen16(b + i + 16 * g) : b_repeated;
      q[g] = relative<Op>(av, bv, c);
    }
    const __m512i w01 = _mm512_add_epi16(_mm512_packs_epi32(q[0], q[1]), out_zero16);
    const __m512i w23 = _mm512_add_epi16(_mm512_packs_epi32(q[2], q[3]), out_zero16);
    _mm512_storeu_si512(y + i, _mm512_permutexvar_epi32(order, _mm512_packs_epi16(w01, w23)));
  }
  for (; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    const __m512i av = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, a + i));
    const __m512i bv =
        b_advances ? _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, b + i)) : b_repeated;
    const __m512i q = _mm512_add_epi32(relative<Op>(av, bv, c), c.out_zero);
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
