// Tester for the quantized GEMM family: every variant this CPU supports (with
// every f32-gemm variant it supports, for the panel path) against the
// portable qlinear reference, for Q4_1 and Q8_0 blocks, on edge sizes: one
// row (GEMV) and several (unpacked panels), output counts that leave partial
// weight panels (fewer than 16 rows) and partial GEMM tiles, K of one block
// and K past one unpacked block, and with a thread pool.
//
// Tolerance: both sides sum the same products of exactly representable
// weights in float in different orders, so they differ by rounding only:
// |got - want| <= 2^-21 sqrt(k) sum |x_k w_k| (random-walk rounding of two
// sums of k terms, with a margin). The integer GEMV (AVX512-VNNI, Q4_1) rounds
// each x to 2^-23 of its block's largest |x| instead, within the same bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/f32-gemm/f32_gemm.h"
#include "kernels/optimized/f32-qgemm/f32_qgemm.h"
#include "kernels/portable/llm_ops.h"
#include "runtime/core/half.h"

namespace ember::kernels::optimized {
namespace {

template <typename Config, typename Count, typename Get, typename Supported>
std::vector<const Config*> supported(Count count, Get get, Supported ok) {
  std::vector<const Config*> out;
  for (size_t i = 0; i < count(); ++i) {
    if (ok(get(i))) out.push_back(&get(i));
  }
  return out;
}

// Random blocks in panel order: scales and minimums as fp16, codes over
// their whole range.
std::vector<uint8_t> random_blocks(int bits, size_t n, size_t k, std::mt19937& rng) {
  const size_t block = f32_qgemm_block_bytes(bits), nb = k / 32;
  std::vector<uint8_t> w(n * nb * block);
  std::uniform_real_distribution<float> scale(0.001f, 0.05f), low(-0.4f, 0.0f);
  std::uniform_int_distribution<int> byte(0, 255);
  for (size_t first = 0; first < n; first += kF32QPanelRows) {
    const size_t h = std::min(kF32QPanelRows, n - first);
    for (size_t b = 0; b < nb; ++b) {
      uint8_t* at = w.data() + first * nb * block + b * h * block;
      const size_t scales = bits == 4 ? 2 * h : h;
      for (size_t r = 0; r < scales; ++r) {
        const uint16_t v = Half::from_float(r < h ? scale(rng) : low(rng));
        std::memcpy(at + 2 * r, &v, 2);
      }
      for (size_t j = 2 * scales; j < h * block; ++j) at[j] = static_cast<uint8_t>(byte(rng));
    }
  }
  return w;
}

// x[i][j] = value * scale(j), value uniform in [-1, 1].
using InputScale = float (*)(size_t input);
float unit_scale(size_t) { return 1.0f; }

void check(int bits, size_t m, size_t n, size_t k, ThreadPool* pool,
           InputScale scale = unit_scale) {
  std::mt19937 rng(static_cast<uint32_t>(bits * 1000003 + m * 101 + n * 7 + k));
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> x(m * k);
  for (size_t i = 0; i < x.size(); ++i) x[i] = value(rng) * scale(i % k);
  const std::vector<uint8_t> w = random_blocks(bits, n, k, rng);
  std::vector<float> want(m * n);
  portable::qlinear_reference(bits, m, n, k, x.data(), w.data(), want.data());
  // A bound on sum |x_k w_k| per row of x: |w| <= 0.05 * 15 + 0.4 (Q4_1) or
  // 0.05 * 127 (Q8_0).
  const double w_max = bits == 4 ? 1.15 : 6.35;
  std::vector<double> magnitude(m, 0.0);
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < k; ++j) magnitude[i] += std::fabs(x[i * k + j]) * w_max;
  }
  for (const F32QGemmConfig* cfg :
       supported<F32QGemmConfig>(f32_qgemm_num_variants, f32_qgemm_variant,
                                 f32_qgemm_variant_supported)) {
    for (const F32GemmConfig* gemm :
         supported<F32GemmConfig>(f32_gemm_num_variants, f32_gemm_variant,
                                  f32_gemm_variant_supported)) {
      std::vector<float> got(m * n, NAN);
      F32QGemmProblem p;
      p.bits = bits;
      p.m = m;
      p.n = n;
      p.k = k;
      p.x = x.data();
      p.w = w.data();
      p.y = got.data();
      f32_qgemm(*cfg, *gemm, p, pool);
      for (size_t i = 0; i < m * n; ++i) {
        // Rounding of two float sums of k terms in different orders.
        const double tol = 0x1p-21 * std::sqrt(static_cast<double>(k)) * magnitude[i / n];
        ASSERT_NEAR(got[i], want[i], tol)
            << cfg->name << " + " << gemm->name << ": bits " << bits << " m " << m << " n " << n
            << " k " << k << " element " << i;
      }
    }
  }
}

TEST(F32QGemm, GemvMatchesReference) {
  for (int bits : {4, 8}) {
    for (size_t n : {1, 3, 4, 5, 33, 64, 100}) {
      for (size_t k : {32, 96, 576}) check(bits, 1, n, k, nullptr);
    }
  }
}

// Blocks of x from 2^-120 (under the integer GEMV's range: that call runs in
// float) through zero to 2^100, and within a block magnitudes 2^20 apart.
TEST(F32QGemm, GemvOverEveryMagnitudeMatchesReference) {
  check(4, 1, 48, 256, nullptr, [](size_t j) {
    const float scales[] = {1.0f, 0x1p100f, 0.0f, 0x1p-60f, 3.0f, 0x1p-20f, 1e-3f, 7.5f};
    return scales[j / 32];
  });
  check(4, 1, 48, 96, nullptr, [](size_t j) { return j / 32 == 1 ? 0x1p-120f : 1.0f; });
  check(4, 1, 32, 32, nullptr, [](size_t) { return 0.0f; });
}

TEST(F32QGemm, GemvWithinABlockOfWideRangeMatchesReference) {
  for (int bits : {4, 8}) {
    // Every 8th input 2^20 times the rest: the small ones keep 3 bits in digits.
    check(bits, 1, 64, 576, nullptr, [](size_t j) { return j % 8 == 0 ? 0x1p20f : 1.0f; });
  }
}

// An infinity or a NaN in x reaches y as the float GEMV carries it: every
// variant gives the scalar one's result (which, summing Q4_1 as d sum q x + m
// sum x, turns an infinity into NaN where the reference's sum of x w keeps it).
void check_special(int bits, float special) {
  const size_t n = 32, k = 64;
  std::mt19937 rng(3);
  const std::vector<uint8_t> w = random_blocks(bits, n, k, rng);
  std::vector<float> x(k, 0.5f), want(n), got(n);
  x[40] = special;
  const F32QGemmConfig& scalar = f32_qgemm_variant(f32_qgemm_num_variants() - 1);
  ASSERT_STREQ(scalar.name, "scalar");
  F32QGemmProblem p;
  p.bits = bits;
  p.m = 1;
  p.n = n;
  p.k = k;
  p.x = x.data();
  p.w = w.data();
  p.y = want.data();
  f32_qgemm(scalar, f32_gemm_config(), p, nullptr);
  p.y = got.data();
  for (const F32QGemmConfig* cfg :
       supported<F32QGemmConfig>(f32_qgemm_num_variants, f32_qgemm_variant,
                                 f32_qgemm_variant_supported)) {
    f32_qgemm(*cfg, f32_gemm_config(), p, nullptr);
    for (size_t i = 0; i < n; ++i) {
      if (std::isnan(want[i])) {
        EXPECT_TRUE(std::isnan(got[i])) << cfg->name << " bits " << bits << " row " << i;
      } else {
        EXPECT_EQ(got[i], want[i]) << cfg->name << " bits " << bits << " row " << i;
      }
    }
  }
}

TEST(F32QGemm, GemvCarriesInfinitiesAndNaNs) {
  for (int bits : {4, 8}) {
    for (float special : {INFINITY, -INFINITY, NAN}) check_special(bits, special);
  }
}

TEST(F32QGemm, PanelsMatchReference) {
  for (int bits : {4, 8}) {
    for (size_t m : {2, 5, 7, 13}) {
      for (size_t n : {1, 8, 17, 40, 48}) {
        for (size_t k : {32, 288, 544}) check(bits, m, n, k, nullptr);
      }
    }
  }
}

TEST(F32QGemm, ThreadedMatchesReference) {
  WorkerPool pool(3);
  for (int bits : {4, 8}) {
    check(bits, 1, 1000, 576, &pool);
    check(bits, 9, 300, 1536, &pool);
  }
}

TEST(F32QGemm, EmptyKGivesZeros) {
  std::vector<float> y(6, 1.0f);
  F32QGemmProblem p;
  p.m = 2;
  p.n = 3;
  p.k = 0;
  p.y = y.data();
  f32_qgemm(f32_qgemm_config(), f32_gemm_config(), p, nullptr);
  for (float v : y) EXPECT_EQ(v, 0.0f);
}

}  // namespace
}  // namespace ember::kernels::optimized
