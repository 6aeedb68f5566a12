// int8 add and mul for AVX2: 16 elements per step, widened to int32 lanes,
// the arithmetic of qs8_vbinary.h in float (vfmadd for add), narrowed back;
// a partial step goes through zero-padded stack buffers. Compiled with
// -mavx2 -mfma for this file only.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/qs8-vbinary/blocks_body.h"
#include "kernels/optimized/qs8-vbinary/qs8_vbinary.h"

namespace ember::kernels::optimized {
namespace {

struct Consts {
  __m256i a_zero, b_zero, out_zero;
  __m256 a_mult, b_mult, lo, hi;
  explicit Consts(const Qs8BinaryParams* p)
      : a_zero(_mm256_set1_epi32(p->a_zero)),
        b_zero(_mm256_set1_epi32(p->b_zero)),
        out_zero(_mm256_set1_epi32(p->out_zero)),
        a_mult(_mm256_set1_ps(p->a_mult)),
        b_mult(_mm256_set1_ps(p->b_mult)),
        lo(_mm256_set1_ps(static_cast<float>(p->out_min - p->out_zero))),
        hi(_mm256_set1_ps(static_cast<float>(p->out_max - p->out_zero))) {}
};

// 8 results as int32 (clamped, rounded half to even, zero point added).
template <Qs8BinaryOp Op>
inline __m256i compute(__m256i a, __m256i b, const Consts& k) {
  const __m256i da = _mm256_sub_epi32(a, k.a_zero);
  const __m256i db = _mm256_sub_epi32(b, k.b_zero);
  __m256 v;
  if (Op == Qs8BinaryOp::Add) {
    v = _mm256_fmadd_ps(_mm256_cvtepi32_ps(da), k.a_mult,
                        _mm256_mul_ps(_mm256_cvtepi32_ps(db), k.b_mult));
  } else {
    v = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_mullo_epi32(da, db)), k.a_mult);
  }
  v = _mm256_min_ps(_mm256_max_ps(v, k.lo), k.hi);
  return _mm256_add_epi32(_mm256_cvtps_epi32(v), k.out_zero);
}

// 16 outputs from 16 bytes of a and of b (b_bytes: the same 16 for a
// repeated b).
template <Qs8BinaryOp Op>
inline void block(const int8_t* a, const int8_t* b, int8_t* y, const Consts& k) {
  const __m128i av = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
  const __m128i bv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
  const __m256i q0 = compute<Op>(_mm256_cvtepi8_epi32(av), _mm256_cvtepi8_epi32(bv), k);
  const __m256i q1 = compute<Op>(_mm256_cvtepi8_epi32(_mm_srli_si128(av, 8)),
                                 _mm256_cvtepi8_epi32(_mm_srli_si128(bv, 8)), k);
  // In range: packs only narrow; the permute undoes their per-half order.
  const __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(q0, q1), 0xD8);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(y),
                   _mm_packs_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1)));
}

template <Qs8BinaryOp Op>
struct Block {
  Consts k;
  explicit Block(const Qs8BinaryParams* p) : k(p) {}
  void operator()(const int8_t* a, const int8_t* b, int8_t* y) const { block<Op>(a, b, y, k); }
};

}  // namespace

extern const Qs8VBinaryConfig kQs8VBinaryAvx2Config = {
    "avx2", kCpuAvx2 | kCpuFma | kCpuOsYmm,
    {vv_blocks<Block<Qs8BinaryOp::Add>>, vv_blocks<Block<Qs8BinaryOp::Mul>>},
    {vs_blocks<Block<Qs8BinaryOp::Add>>, vs_blocks<Block<Qs8BinaryOp::Mul>>},
};

}  // namespace ember::kernels::optimized
