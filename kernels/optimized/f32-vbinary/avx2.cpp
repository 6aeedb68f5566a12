// f32 binary microkernels for AVX2 (+ FMA, required with it by the config),
// compiled with -mavx2 -mfma for this file only. Memory-bound: 16 floats per
// iteration, the tail through masked loads and stores.
#include <immintrin.h>

#include "kernels/optimized/cpu_features.h"
#include "kernels/optimized/f32-vbinary/f32_vbinary.h"
#include "kernels/optimized/simd/avx2_math.h"

namespace ember::kernels::optimized {
namespace {

using avx2::tail_mask;

template <F32BinaryOp Op>
inline __m256 apply(__m256 a, __m256 b) {
  if constexpr (Op == F32BinaryOp::Add) return _mm256_add_ps(a, b);
  if constexpr (Op == F32BinaryOp::Sub) return _mm256_sub_ps(a, b);
  if constexpr (Op == F32BinaryOp::Mul) return _mm256_mul_ps(a, b);
  if constexpr (Op == F32BinaryOp::Div) return _mm256_div_ps(a, b);
  if constexpr (Op == F32BinaryOp::RSub) return _mm256_sub_ps(b, a);
  if constexpr (Op == F32BinaryOp::RDiv) return _mm256_div_ps(b, a);
  // MAXPS/MINPS return b when either is NaN; a + b makes it NaN from a too.
  if constexpr (Op == F32BinaryOp::Max) {
    return _mm256_blendv_ps(_mm256_max_ps(a, b), _mm256_add_ps(a, b),
                            _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
  }
  if constexpr (Op == F32BinaryOp::Min) {
    return _mm256_blendv_ps(_mm256_min_ps(a, b), _mm256_add_ps(a, b),
                            _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
  }
}

// y[i] = clamp(a[i] op b[i]) for i < n; B(i) loads b's vector at i (a
// stream or one broadcast number).
template <F32BinaryOp Op, typename LoadB>
inline void run(size_t n, const float* a, LoadB load_b, float* y, __m256 lo, __m256 hi) {
  // max(lo, v) and min(hi, v) return v when it is NaN.
  auto clamp = [&](__m256 v) { return _mm256_min_ps(hi, _mm256_max_ps(lo, v)); };
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256 v0 = apply<Op>(_mm256_loadu_ps(a + i), load_b(i));
    const __m256 v1 = apply<Op>(_mm256_loadu_ps(a + i + 8), load_b(i + 8));
    _mm256_storeu_ps(y + i, clamp(v0));
    _mm256_storeu_ps(y + i + 8, clamp(v1));
  }
  if (i + 8 <= n) {
    _mm256_storeu_ps(y + i, clamp(apply<Op>(_mm256_loadu_ps(a + i), load_b(i))));
    i += 8;
  }
  if (i < n) {
    const __m256i mask = tail_mask(n - i);
    const __m256 v = apply<Op>(_mm256_maskload_ps(a + i, mask), load_b.masked(i, mask));
    _mm256_maskstore_ps(y + i, mask, clamp(v));
  }
}

struct StreamB {
  const float* b;
  __m256 operator()(size_t i) const { return _mm256_loadu_ps(b + i); }
  __m256 masked(size_t i, __m256i mask) const { return _mm256_maskload_ps(b + i, mask); }
};

struct ScalarB {
  __m256 b;
  __m256 operator()(size_t) const { return b; }
  __m256 masked(size_t, __m256i) const { return b; }
};

template <F32BinaryOp Op>
void vv(size_t n, const float* a, const float* b, float* y, const F32VBinaryParams* p) {
  run<Op>(n, a, StreamB{b}, y, _mm256_set1_ps(p->min), _mm256_set1_ps(p->max));
}

template <F32BinaryOp Op>
void vs(size_t n, const float* a, float b, float* y, const F32VBinaryParams* p) {
  run<Op>(n, a, ScalarB{_mm256_set1_ps(b)}, y, _mm256_set1_ps(p->min), _mm256_set1_ps(p->max));
}

template <F32BinaryOp Op>
void rows(size_t rows, size_t c, const float* a, const float* b, float* y,
          const F32VBinaryParams* p) {
  const __m256 lo = _mm256_set1_ps(p->min);
  const __m256 hi = _mm256_set1_ps(p->max);
  if (c == 8) {
    // One vector per row (8 channels): b stays in a register.
    const __m256 bv = _mm256_loadu_ps(b);
    for (size_t r = 0; r < rows; ++r) {
      const __m256 v = apply<Op>(_mm256_loadu_ps(a + r * 8), bv);
      _mm256_storeu_ps(y + r * 8, _mm256_min_ps(hi, _mm256_max_ps(lo, v)));
    }
    return;
  }
  for (size_t r = 0; r < rows; ++r) run<Op>(c, a + r * c, StreamB{b}, y + r * c, lo, hi);
}

}  // namespace

extern const F32VBinaryConfig kF32VBinaryAvx2Config = {
    "avx2",
    kCpuAvx2 | kCpuFma | kCpuOsYmm,
    EMBER_F32_VBINARY_OPS(vv),
    EMBER_F32_VBINARY_OPS(vs),
    EMBER_F32_VBINARY_OPS(rows),
};

}  // namespace ember::kernels::optimized
