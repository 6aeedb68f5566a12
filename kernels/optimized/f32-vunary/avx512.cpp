// f32 unary microkernels for AVX-512, compiled with ${EMBER_AVX512_FLAGS} for
// this file only: avx2.cpp's algorithms 16 lanes wide, operation for
// operation (so the results are the AVX2 variant's, bit for bit), two
// independent vectors (32 floats) per iteration so that the long dependency
// chains of the polynomials overlap, the tail through one masked load and
// store (never touching memory past the end).
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/simd/avx512_math.h"

namespace ember::kernels::optimized {
namespace {

namespace vm = vmath;

using avx512::exp_nonpositive;
using avx512::exp_poly;
using avx512::pow2_from_biased;
using avx512::reduce_ln2;
using avx512::sign_bit;
using avx512::sign_mask;
using avx512::splat;
using avx512::tail_mask;

// 1 / (1 + exp(-x)) from e = exp(-|x|): e / (1 + e), reflected for x > 0
// (the sign bit decides, as AVX2's blendv does, NaNs included).
inline __m512 sigmoid(__m512 x) {
  const __m512 e = exp_nonpositive(_mm512_or_ps(x, sign_bit()));
  const __m512 f = _mm512_div_ps(e, _mm512_add_ps(e, splat(1.0f)));
  return _mm512_mask_blend_ps(sign_mask(x), _mm512_sub_ps(splat(1.0f), f), f);
}

// The ops that also have a 256-bit form (f(__m256)) run through ukernel_ymm
// (see there).
struct ClampOp {
  static __m512 f(__m512 x) { return x; }
  static __m256 f(__m256 x) { return x; }
};

struct ExpOp {
  // x clamped to [kExpMinX, kExpMaxX] (NaN kept), 2^n applied as 2^(n/2) *
  // 2^(n - n/2) so that results down to subnormals and up to overflow need
  // no special case.
  static __m512 f(__m512 x) {
    const __m512 xc =
        _mm512_min_ps(splat(vm::kExpMaxX), _mm512_max_ps(splat(vm::kExpMinX), x));
    __m512 n = _mm512_fmadd_ps(xc, splat(vm::kLog2e), splat(vm::kRoundMagic));
    const __m512i ni =
        _mm512_sub_epi32(_mm512_castps_si512(n), _mm512_castps_si512(splat(vm::kRoundMagic)));
    n = _mm512_sub_ps(n, splat(vm::kRoundMagic));
    const __m512 t = reduce_ln2(xc, n);
    const __m512 v = _mm512_fmadd_ps(t, exp_poly(t), splat(1.0f));
    const __m512i n1 = _mm512_srai_epi32(ni, 1);
    const __m512i n2 = _mm512_sub_epi32(ni, n1);
    const __m512i bias = _mm512_set1_epi32(127);
    const __m512 s1 = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(n1, bias), 23));
    const __m512 s2 = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(n2, bias), 23));
    return _mm512_mul_ps(_mm512_mul_ps(v, s1), s2);
  }
};

struct SigmoidOp {
  static __m512 f(__m512 x) { return sigmoid(x); }
};

struct TanhOp {
  // tanh(|x|) = -m / (2 + m), m = expm1(-2|x|) = 2^n expm1(t) + (2^n - 1).
  static __m512 f(__m512 x) {
    const __m512 ax = _mm512_andnot_ps(sign_bit(), x);
    const __m512 z = _mm512_mul_ps(_mm512_min_ps(splat(vm::kTanhSaturation), ax), splat(-2.0f));
    __m512 n = _mm512_fmadd_ps(z, splat(vm::kLog2e), splat(vm::kRoundMagicBiased));
    const __m512 s = pow2_from_biased(n);
    n = _mm512_sub_ps(n, splat(vm::kRoundMagicBiased));
    const __m512 t = reduce_ln2(z, n);
    __m512 q = _mm512_fmadd_ps(splat(vm::kExpm1D6), t, splat(vm::kExpm1D5));
    q = _mm512_fmadd_ps(q, t, splat(vm::kExpm1D4));
    q = _mm512_fmadd_ps(q, t, splat(vm::kExpm1D3));
    q = _mm512_fmadd_ps(q, t, splat(vm::kExpm1D2));
    const __m512 em1_t = _mm512_fmadd_ps(_mm512_mul_ps(t, t), q, t);
    const __m512 m = _mm512_fmadd_ps(s, em1_t, _mm512_sub_ps(s, splat(1.0f)));
    const __m512 r = _mm512_div_ps(_mm512_xor_ps(m, sign_bit()), _mm512_add_ps(m, splat(2.0f)));
    return _mm512_or_ps(r, _mm512_and_ps(x, sign_bit()));
  }
};

struct GeluOp {
  static __m512 f(__m512 x) {
    const __m512 ax = _mm512_andnot_ps(sign_bit(), x);
    const __m512 a = _mm512_min_ps(splat(vm::kGeluSaturation), ax);
    const __m512 a2 = _mm512_mul_ps(a, a);
    __m512 p = _mm512_fmadd_ps(splat(vm::kGeluP5), a2, splat(vm::kGeluP4));
    p = _mm512_fmadd_ps(p, a2, splat(vm::kGeluP3));
    p = _mm512_fmadd_ps(p, a2, splat(vm::kGeluP2));
    p = _mm512_fmadd_ps(p, a2, splat(vm::kGeluP1));
    p = _mm512_fmadd_ps(p, a2, splat(vm::kGeluP0));
    __m512 q = _mm512_fmadd_ps(splat(vm::kGeluQ5), a2, splat(vm::kGeluQ4));
    q = _mm512_fmadd_ps(q, a2, splat(vm::kGeluQ3));
    q = _mm512_fmadd_ps(q, a2, splat(vm::kGeluQ2));
    q = _mm512_fmadd_ps(q, a2, splat(vm::kGeluQ1));
    q = _mm512_fmadd_ps(q, a2, splat(1.0f));
    __m512 g = _mm512_min_ps(splat(1.0f), _mm512_div_ps(_mm512_mul_ps(a, p), q));
    g = _mm512_mask_mov_ps(g, _mm512_cmp_ps_mask(ax, splat(vm::kGeluSaturation), _CMP_GE_OQ),
                           splat(1.0f));
    const __m512 erf = _mm512_or_ps(g, _mm512_and_ps(x, sign_bit()));
    return _mm512_mul_ps(_mm512_mul_ps(x, splat(0.5f)), _mm512_add_ps(erf, splat(1.0f)));
  }
};

struct GeluTanhOp {
  static __m512 f(__m512 x) {
    const __m512 x2 = _mm512_mul_ps(x, x);
    const __m512 z =
        _mm512_mul_ps(x, _mm512_fmadd_ps(x2, splat(vm::kGeluTanhC1), splat(vm::kGeluTanhC0)));
    return _mm512_mul_ps(x, sigmoid(z));
  }
};

struct SiluOp {
  static __m512 f(__m512 x) { return _mm512_mul_ps(x, sigmoid(x)); }
};

inline __m256 relu6_of_x_plus_3(__m256 x) {
  const __m256 x3 = _mm256_add_ps(x, _mm256_set1_ps(3.0f));
  return _mm256_min_ps(_mm256_set1_ps(6.0f), _mm256_max_ps(_mm256_setzero_ps(), x3));
}

struct HardSwishOp {
  static __m256 f(__m256 x) {
    return _mm256_mul_ps(_mm256_mul_ps(x, relu6_of_x_plus_3(x)), _mm256_set1_ps(1.0f / 6.0f));
  }
};

struct HardSigmoidOp {
  static __m256 f(__m256 x) {
    return _mm256_mul_ps(relu6_of_x_plus_3(x), _mm256_set1_ps(1.0f / 6.0f));
  }
};

struct NegOp {
  static __m256 f(__m256 x) { return _mm256_xor_ps(x, _mm256_set1_ps(-0.0f)); }
};

struct SqrtOp {
  static __m256 f(__m256 x) { return _mm256_sqrt_ps(x); }
};

struct RsqrtOp {
  static __m256 f(__m256 x) { return _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(x)); }
};

struct AbsOp {
  static __m256 f(__m256 x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }
};

template <typename Op>
void ukernel(size_t n, const float* x, float* y, const F32VUnaryParams* params) {
  const __m512 lo = splat(params->min);
  const __m512 hi = splat(params->max);
  // max(lo, v) and min(hi, v) return v when it is NaN.
  auto clamp = [&](__m512 v) { return _mm512_min_ps(hi, _mm512_max_ps(lo, v)); };
  size_t i = 0;
  {
    const size_t head = ((64 - (reinterpret_cast<uintptr_t>(y) & 63)) & 63) / 4;
    if (head != 0 && head < n) {
      const __mmask16 mask = tail_mask(head);
      _mm512_mask_storeu_ps(y, mask, clamp(Op::f(_mm512_maskz_loadu_ps(mask, x))));
      i = head;
    }
  }
  for (; i + 32 <= n; i += 32) {
    const __m512 a = Op::f(_mm512_loadu_ps(x + i));
    const __m512 b = Op::f(_mm512_loadu_ps(x + i + 16));
    _mm512_storeu_ps(y + i, clamp(a));
    _mm512_storeu_ps(y + i + 16, clamp(b));
  }
  if (i + 16 <= n) {
    _mm512_storeu_ps(y + i, clamp(Op::f(_mm512_loadu_ps(x + i))));
    i += 16;
  }
  if (i < n) {
    const __mmask16 mask = tail_mask(n - i);
    const __m512 v = clamp(Op::f(_mm512_maskz_loadu_ps(mask, x + i)));
    _mm512_mask_storeu_ps(y + i, mask, v);
  }
}

// The same loop 8 lanes wide, the tail through an AVX-512VL masked load and
// store: for the ops that are a few instructions per element (clamp, neg,
// abs, the hard functions: their speed is the cache's) and for sqrt and
// rsqrt (a 512-bit sqrt or divide yields no more lanes per cycle than a
// 256-bit one), the 512-bit loop measured slower on data in L2 (up to 25%)
// and no faster from memory; its gain in L1 (~30%) is on sizes too small to
// matter.
template <typename Op>
void ukernel_ymm(size_t n, const float* x, float* y, const F32VUnaryParams* params) {
  const __m256 lo = _mm256_set1_ps(params->min);
  const __m256 hi = _mm256_set1_ps(params->max);
  auto clamp = [&](__m256 v) { return _mm256_min_ps(hi, _mm256_max_ps(lo, v)); };
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256 a = Op::f(_mm256_loadu_ps(x + i));
    const __m256 b = Op::f(_mm256_loadu_ps(x + i + 8));
    _mm256_storeu_ps(y + i, clamp(a));
    _mm256_storeu_ps(y + i + 8, clamp(b));
  }
  if (i + 8 <= n) {
    _mm256_storeu_ps(y + i, clamp(Op::f(_mm256_loadu_ps(x + i))));
    i += 8;
  }
  if (i < n) {
    const __mmask8 mask = static_cast<__mmask8>(tail_mask(n - i));
    _mm256_mask_storeu_ps(y + i, mask, clamp(Op::f(_mm256_maskz_loadu_ps(mask, x + i))));
  }
}

}  // namespace

extern const F32VUnaryConfig kF32VUnaryAvx512Config = {
    "avx512",
    kCpuAvx512 | kCpuOsZmm | kCpuAvx2 | kCpuFma | kCpuOsYmm,
    {
        ukernel_ymm<ClampOp>,     ukernel<ExpOp>,       ukernel<SigmoidOp>,
        ukernel<TanhOp>,          ukernel<GeluOp>,      ukernel<GeluTanhOp>,
        ukernel<SiluOp>,          ukernel_ymm<HardSwishOp>, ukernel_ymm<HardSigmoidOp>,
        ukernel_ymm<NegOp>,       ukernel_ymm<SqrtOp>,  ukernel_ymm<RsqrtOp>,
        ukernel_ymm<AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
