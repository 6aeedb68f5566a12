// f32 unary microkernels for AVX2 + FMA, compiled with -mavx2 -mfma for this
// file only: two independent vectors (16 floats) per iteration so that the
// long dependency chains of the polynomials overlap, the tail through masked
// loads and stores (never reading past the end).
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vunary/f32_vmath_constants.h"
#include "kernels/optimized/f32-vunary/f32_vunary.h"
#include "kernels/optimized/simd/avx2_math.h"

namespace ember::kernels::optimized {
namespace {

namespace vm = vmath;

using avx2::exp_nonpositive;
using avx2::exp_poly;
using avx2::pow2_from_biased;
using avx2::reduce_ln2;
using avx2::sign_bit;
using avx2::splat;
using avx2::tail_mask;

// 1 / (1 + exp(-x)) from e = exp(-|x|): e / (1 + e), reflected for x > 0.
inline __m256 sigmoid(__m256 x) {
  const __m256 e = exp_nonpositive(_mm256_or_ps(x, sign_bit()));
  const __m256 f = _mm256_div_ps(e, _mm256_add_ps(e, splat(1.0f)));
  return _mm256_blendv_ps(_mm256_sub_ps(splat(1.0f), f), f, x);
}

struct ClampOp {
  static __m256 f(__m256 x) { return x; }
};

struct ExpOp {
  // x clamped to [kExpMinX, kExpMaxX] (NaN kept), 2^n applied as 2^(n/2) *
  // 2^(n - n/2) so that results down to subnormals and up to overflow need
  // no special case.
  static __m256 f(__m256 x) {
    const __m256 xc =
        _mm256_min_ps(splat(vm::kExpMaxX), _mm256_max_ps(splat(vm::kExpMinX), x));
    __m256 n = _mm256_fmadd_ps(xc, splat(vm::kLog2e), splat(vm::kRoundMagic));
    const __m256i ni =
        _mm256_sub_epi32(_mm256_castps_si256(n), _mm256_castps_si256(splat(vm::kRoundMagic)));
    n = _mm256_sub_ps(n, splat(vm::kRoundMagic));
    const __m256 t = reduce_ln2(xc, n);
    const __m256 v = _mm256_fmadd_ps(t, exp_poly(t), splat(1.0f));
    const __m256i n1 = _mm256_srai_epi32(ni, 1);
    const __m256i n2 = _mm256_sub_epi32(ni, n1);
    const __m256i bias = _mm256_set1_epi32(127);
    const __m256 s1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n1, bias), 23));
    const __m256 s2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n2, bias), 23));
    return _mm256_mul_ps(_mm256_mul_ps(v, s1), s2);
  }
};

struct SigmoidOp {
  static __m256 f(__m256 x) { return sigmoid(x); }
};

struct TanhOp {
  // tanh(|x|) = -m / (2 + m), m = expm1(-2|x|) = 2^n expm1(t) + (2^n - 1).
  static __m256 f(__m256 x) {
    const __m256 ax = _mm256_andnot_ps(sign_bit(), x);
    const __m256 z = _mm256_mul_ps(_mm256_min_ps(splat(vm::kTanhSaturation), ax), splat(-2.0f));
    __m256 n = _mm256_fmadd_ps(z, splat(vm::kLog2e), splat(vm::kRoundMagicBiased));
    const __m256 s = pow2_from_biased(n);
    n = _mm256_sub_ps(n, splat(vm::kRoundMagicBiased));
    const __m256 t = reduce_ln2(z, n);
    __m256 q = _mm256_fmadd_ps(splat(vm::kExpm1D6), t, splat(vm::kExpm1D5));
    q = _mm256_fmadd_ps(q, t, splat(vm::kExpm1D4));
    q = _mm256_fmadd_ps(q, t, splat(vm::kExpm1D3));
    q = _mm256_fmadd_ps(q, t, splat(vm::kExpm1D2));
    const __m256 em1_t = _mm256_fmadd_ps(_mm256_mul_ps(t, t), q, t);
    const __m256 m = _mm256_fmadd_ps(s, em1_t, _mm256_sub_ps(s, splat(1.0f)));
    const __m256 r = _mm256_div_ps(_mm256_xor_ps(m, sign_bit()), _mm256_add_ps(m, splat(2.0f)));
    return _mm256_or_ps(r, _mm256_and_ps(x, sign_bit()));
  }
};

struct GeluOp {
  static __m256 f(__m256 x) {
    const __m256 ax = _mm256_andnot_ps(sign_bit(), x);
    const __m256 a = _mm256_min_ps(splat(vm::kGeluSaturation), ax);
    const __m256 a2 = _mm256_mul_ps(a, a);
    __m256 p = _mm256_fmadd_ps(splat(vm::kGeluP5), a2, splat(vm::kGeluP4));
    p = _mm256_fmadd_ps(p, a2, splat(vm::kGeluP3));
    p = _mm256_fmadd_ps(p, a2, splat(vm::kGeluP2));
    p = _mm256_fmadd_ps(p, a2, splat(vm::kGeluP1));
    p = _mm256_fmadd_ps(p, a2, splat(vm::kGeluP0));
    __m256 q = _mm256_fmadd_ps(splat(vm::kGeluQ5), a2, splat(vm::kGeluQ4));
    q = _mm256_fmadd_ps(q, a2, splat(vm::kGeluQ3));
    q = _mm256_fmadd_ps(q, a2, splat(vm::kGeluQ2));
    q = _mm256_fmadd_ps(q, a2, splat(vm::kGeluQ1));
    q = _mm256_fmadd_ps(q, a2, splat(1.0f));
    __m256 g = _mm256_min_ps(splat(1.0f), _mm256_div_ps(_mm256_mul_ps(a, p), q));
    g = _mm256_blendv_ps(g, splat(1.0f), _mm256_cmp_ps(ax, splat(vm::kGeluSaturation), _CMP_GE_OQ));
    const __m256 erf = _mm256_or_ps(g, _mm256_and_ps(x, sign_bit()));
    return _mm256_mul_ps(_mm256_mul_ps(x, splat(0.5f)), _mm256_add_ps(erf, splat(1.0f)));
  }
};

struct GeluTanhOp {
  static __m256 f(__m256 x) {
    const __m256 x2 = _mm256_mul_ps(x, x);
    const __m256 z =
        _mm256_mul_ps(x, _mm256_fmadd_ps(x2, splat(vm::kGeluTanhC1), splat(vm::kGeluTanhC0)));
    return _mm256_mul_ps(x, sigmoid(z));
  }
};

struct SiluOp {
  static __m256 f(__m256 x) { return _mm256_mul_ps(x, sigmoid(x)); }
};

inline __m256 relu6_of_x_plus_3(__m256 x) {
  const __m256 x3 = _mm256_add_ps(x, splat(3.0f));
  return _mm256_min_ps(splat(6.0f), _mm256_max_ps(_mm256_setzero_ps(), x3));
}

struct HardSwishOp {
  static __m256 f(__m256 x) {
    return _mm256_mul_ps(_mm256_mul_ps(x, relu6_of_x_plus_3(x)), splat(1.0f / 6.0f));
  }
};

struct HardSigmoidOp {
  static __m256 f(__m256 x) { return _mm256_mul_ps(relu6_of_x_plus_3(x), splat(1.0f / 6.0f)); }
};

struct NegOp {
  static __m256 f(__m256 x) { return _mm256_xor_ps(x, sign_bit()); }
};

struct SqrtOp {
  static __m256 f(__m256 x) { return _mm256_sqrt_ps(x); }
};

struct RsqrtOp {
  static __m256 f(__m256 x) { return _mm256_div_ps(splat(1.0f), _mm256_sqrt_ps(x)); }
};

struct AbsOp {
  static __m256 f(__m256 x) { return _mm256_andnot_ps(sign_bit(), x); }
};

template <typename Op>
void ukernel(size_t n, const float* x, float* y, const F32VUnaryParams* params) {
  const __m256 lo = splat(params->min);
  const __m256 hi = splat(params->max);
  // max(lo, v) and min(hi, v) return v when it is NaN.
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
    const __m256i mask = tail_mask(n - i);
    const __m256 v = clamp(Op::f(_mm256_maskload_ps(x + i, mask)));
    _mm256_maskstore_ps(y + i, mask, v);
  }
}

}  // namespace

extern const F32VUnaryConfig kF32VUnaryAvx2Config = {
    "avx2",
    kCpuAvx2 | kCpuFma | kCpuOsYmm,
    {
        ukernel<ClampOp>, ukernel<ExpOp>, ukernel<SigmoidOp>, ukernel<TanhOp>,
        ukernel<GeluOp>, ukernel<GeluTanhOp>, ukernel<SiluOp>, ukernel<HardSwishOp>,
        ukernel<HardSigmoidOp>, ukernel<NegOp>, ukernel<SqrtOp>, ukernel<RsqrtOp>,
        ukernel<AbsOp>,
    },
};

}  // namespace ember::kernels::optimized
