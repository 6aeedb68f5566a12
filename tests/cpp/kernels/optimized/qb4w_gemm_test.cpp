// Tester for the 4-bit grouped-weight GEMM family: every variant this CPU
// supports, through the driver (weights packed once, A gathered per tile,
// threads), against the dequantized product computed in double: c = a_scale
// * sum over k of (a - a_zero) * w * scale[n][k / group] + bias, on edge
// sizes (M 1 to 13 around every tile height, N around every panel width,
// groups of 16, 32, 64 and 128, K of one to many groups), extreme weights
// (-8 and 7) and zero points, clamps; and the packing's refusals.
//
// Tolerance: |ours - exact| <= (groups + 4) * 2^-23 * (a_scale * sum over k
// of (|a| + |a_zero| + 128) * |w| * scale + |bias|): each group's exact
// int32 sum is converted and accumulated in float (one rounding per group),
// and the zero-point correction (the u8 shift of 128 included) and the
// row's scale and bias add a few more, each at most that magnitude.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "kernels/optimized/qd8-f32-qb4w-gemm/qd8_f32_qb4w_gemm.h"
#include "runtime/kernel/kernel_context.h"
#include "tests/cpp/kernels/optimized/int8_test_util.h"

namespace ember::kernels::optimized {
namespace {

using testing::random_float;
using testing::random_int32;
using testing::random_int8;

std::vector<const Qb4wGemmConfig*> supported_variants() {
  std::vector<const Qb4wGemmConfig*> out;
  for (size_t i = 0; i < qb4w_gemm_num_variants(); ++i) {
    const Qb4wGemmConfig& v = qb4w_gemm_variant(i);
    if (qb4w_gemm_variant_supported(v)) out.push_back(&v);
  }
  return out;
}

struct Case {
  int m, n, k, group;
  bool bias = true;
  bool extreme = false;  // weights only -8 and 7, A far from its zero points
  bool clamp = false;
};

void check(const Qb4wGemmConfig& cfg, const Case& c, ThreadPool* pool) {
  char what[120];
  std::snprintf(what, sizeof(what), "%s: m %d n %d k %d group %d bias %d extreme %d clamp %d",
                cfg.name, c.m, c.n, c.k, c.group, c.bias, c.extreme, c.clamp);
  SCOPED_TRACE(what);
  const size_t m = c.m, n = c.n, k = c.k, groups = k / c.group;
  const uint32_t seed = static_cast<uint32_t>(c.m * 3 + c.n * 5 + c.k * 7 + c.group);
  std::vector<int8_t> a = random_int8(m * k, seed);
  std::vector<int32_t> a_zero = random_int32(m, seed + 1, -128, 127);
  std::vector<int8_t> w = random_int8(n * k, seed + 2, -8, 7);  // torchao's [n, k]
  if (c.extreme) {
    for (size_t i = 0; i < w.size(); ++i) w[i] = i % 3 == 0 ? -8 : 7;
    for (size_t i = 0; i < m; ++i) a_zero[i] = i % 2 ? 127 : -128;
    for (size_t i = 0; i < a.size(); ++i) a[i] = a_zero[i / k] == 127 ? -128 : 127;
  }
  const std::vector<float> scale = random_float(n * groups, seed + 3, 0.001f, 0.05f);
  const std::vector<float> a_scale = random_float(m, seed + 4, 0.005f, 0.05f);
  const std::vector<float> bias = random_float(n, seed + 5, -1.0f, 1.0f);

  Qb4wWeights weights;
  weights.data = w.data();
  weights.k = k;
  weights.n = n;
  weights.k_stride = 1;
  weights.n_stride = static_cast<ptrdiff_t>(k);
  weights.group = c.group;
  weights.scale = scale.data();
  std::vector<uint32_t> packed(qb4w_gemm_packed_size(cfg, k, n, c.group) / 4 + 1);
  ASSERT_TRUE(qb4w_gemm_pack_weights(cfg, weights, c.bias ? bias.data() : nullptr,
                                     packed.data()));

  const size_t ldc = n + 1;
  std::vector<float> out(m * ldc, -7.0f);
  Qb4wGemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.group = c.group;
  p.a = a.data();
  p.lda = k;
  p.a_zero = a_zero.data();
  p.a_scale = a_scale.data();
  p.packed_w = packed.data();
  p.c = out.data();
  p.ldc = ldc;
  if (c.clamp) p.params = {-0.25f, 0.5f};
  KernelContext ctx(nullptr, pool);
  ASSERT_TRUE(qd8_f32_qb4w_gemm(cfg, p, &ctx));

  int reported = 0;
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      double sum = 0.0, magnitude = 0.0;
      for (size_t q = 0; q < k; ++q) {
        const double s = scale[j * groups + q / c.group];
        const double wv = w[j * k + q];
        sum += (a[i * k + q] - a_zero[i]) * wv * s;
        magnitude += (std::abs(a[i * k + q]) + std::abs(a_zero[i]) + 128.0) * std::fabs(wv) * s;
      }
      const double b = c.bias ? bias[j] : 0.0;
      double want = a_scale[i] * sum + b;
      if (c.clamp) want = want < -0.25 ? -0.25 : (want > 0.5 ? 0.5 : want);
      const double tol =
          (groups + 4) * std::ldexp(1.0, -23) * (a_scale[i] * magnitude + std::fabs(b));
      const double got = out[i * ldc + j];
      if (!(std::fabs(got - want) <= tol) && reported++ < 5) {
        ADD_FAILURE() << "c[" << i << "][" << j << "] = " << got << ", want " << want
                      << " (tol " << tol << ")";
      }
    }
    ASSERT_EQ(out[i * ldc + n], -7.0f) << "wrote past row " << i;
  }
}

TEST(Qb4wGemm, EveryVariantMatchesReferenceOnEdgeSizes) {
  for (const Qb4wGemmConfig* cfg : supported_variants()) {
    for (int m : {1, 2, 3, 5, 6, 7, 13}) {
      for (int n : {1, 4, 15, 16, 17, 32, 33, 70}) check(*cfg, {m, n, 64, 32}, nullptr);
    }
    for (int group : {16, 32, 64, 128}) {
      check(*cfg, {5, 40, group, group}, nullptr);       // one group
      check(*cfg, {9, 35, 6 * group, group}, nullptr);   // several
    }
    check(*cfg, {4, 48, 768, 128, false}, nullptr);
    check(*cfg, {3, 33, 256, 32, true, false, true}, nullptr);
  }
}

TEST(Qb4wGemm, ExtremeWeightsAndZeroPointsStayExact) {
  for (const Qb4wGemmConfig* cfg : supported_variants()) {
    check(*cfg, {6, 37, 512, 128, true, true}, nullptr);
    check(*cfg, {7, 20, 96, 32, false, true}, nullptr);
  }
}

TEST(Qb4wGemm, ThreadsSplitTheWork) {
  WorkerPool pool(2);
  for (const Qb4wGemmConfig* cfg : supported_variants()) {
    check(*cfg, {1, 700, 512, 32}, &pool);   // decode: one token, wide N
    check(*cfg, {64, 256, 384, 64}, &pool);  // prefill
  }
}

TEST(Qb4wGemm, PackingRefusesWhatItCannotHold) {
  for (const Qb4wGemmConfig* cfg : supported_variants()) {
    EXPECT_FALSE(qb4w_gemm_supports(*cfg, 100, 32));  // K not a multiple of the group
    EXPECT_FALSE(qb4w_gemm_supports(*cfg, 96, 24));   // group not a multiple of 16
    EXPECT_FALSE(qb4w_gemm_supports(*cfg, 64, 0));
    EXPECT_TRUE(qb4w_gemm_supports(*cfg, 4096, 128));
    std::vector<int8_t> w(64 * 4, 3);
    w[77] = 8;  // outside int4
    std::vector<float> scale(4 * 2, 0.1f);
    Qb4wWeights weights;
    weights.data = w.data();
    weights.k = 64;
    weights.n = 4;
    weights.k_stride = 1;
    weights.n_stride = 64;
    weights.group = 32;
    weights.scale = scale.data();
    std::vector<uint32_t> packed(qb4w_gemm_packed_size(*cfg, 64, 4, 32) / 4 + 1);
    EXPECT_FALSE(qb4w_gemm_pack_weights(*cfg, weights, nullptr, packed.data()));
    Qb4wGemmProblem p;
    p.m = 1;
    p.n = 4;
    p.k = 100;
    p.group = 32;
    EXPECT_FALSE(qd8_f32_qb4w_gemm(*cfg, p, nullptr));
  }
}

TEST(Qb4wGemm, ChosenVariantIsSupported) {
  EXPECT_TRUE(qb4w_gemm_variant_supported(qb4w_gemm_config()));
  std::string names;
  for (const Qb4wGemmConfig* cfg : supported_variants()) names += std::string(" ") + cfg->name;
  std::printf("qd8-f32-qb4w-gemm variants tested:%s\n", names.c_str());
}

}  // namespace
}  // namespace ember::kernels::optimized
