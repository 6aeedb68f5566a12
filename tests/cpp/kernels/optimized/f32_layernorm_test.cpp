// Tester for the f32 layer-norm family: every variant this CPU supports
// against layer norm and RMS norm computed in double, on edge row lengths,
// with and without weight and bias, in place, on rows whose mean is large
// against their spread (where a one-pass variance would cancel), constant
// rows, and rows holding NaN or inf.
//
// Tolerance, from the kernels' error: the statistics are sums of n terms in
// k >= 4 partial sums, within (n / 4 + 8) u relative (u = 2^-24); the
// normalised value z = (x - mean) * rstd then errs by that times (|z| + 1)
// plus the rounding of the mean, u |mean| rstd; weight and bias add two
// roundings. So |y - ref| <= (n / 4 + 8) u (|w| (|z| + 1 + |mean| rstd)) + 2 u |ref|.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/optimized/f32-layernorm/f32_layernorm.h"

namespace ember::kernels::optimized {
namespace {

constexpr double kU = 0x1p-24;

std::vector<const F32LayerNormConfig*> supported_variants() {
  std::vector<const F32LayerNormConfig*> out;
  for (size_t i = 0; i < f32_layernorm_num_variants(); ++i) {
    if (f32_layernorm_variant_supported(f32_layernorm_variant(i))) {
      out.push_back(&f32_layernorm_variant(i));
    }
  }
  return out;
}

std::vector<float> random_values(size_t n, uint32_t seed, float offset, float spread) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(offset, spread);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

// Checks one row of `got` against the double-precision norm of x.
void expect_row(const char* name, size_t n, const float* x, const float* w, const float* b,
                float eps, bool rms, const float* got) {
  double mean = 0, var = 0;
  if (!rms) {
    for (size_t i = 0; i < n; ++i) mean += x[i];
    mean /= static_cast<double>(n);
    for (size_t i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
    var /= static_cast<double>(n);
  } else {
    for (size_t i = 0; i < n; ++i) var += static_cast<double>(x[i]) * x[i];
    var /= static_cast<double>(n);
  }
  const double rstd = 1.0 / std::sqrt(var + eps);
  int reported = 0;
  for (size_t i = 0; i < n; ++i) {
    const double z = (x[i] - mean) * rstd;
    const double wi = w != nullptr ? w[i] : 1.0;
    const double bi = b != nullptr && !rms ? b[i] : 0.0;
    const double want = z * wi + bi;
    const double scale = std::fabs(z) + 1 + std::fabs(mean) * rstd;
    const double tol = (n / 4.0 + 8) * kU * std::fabs(wi) * scale + 2 * kU * std::fabs(want);
    const bool ok = std::isnan(want) ? std::isnan(got[i]) : std::fabs(got[i] - want) <= tol;
    if (!ok && reported++ < 3) {
      ADD_FAILURE() << name << (rms ? " rms" : " layer") << " norm n=" << n << " [" << i
                    << "] got " << got[i] << " want " << want << " tolerance " << tol;
    }
  }
}

TEST(F32LayerNorm, EdgeRowLengthsWeightsAndBiases) {
  // Around the vector widths (8 AVX2, 16 AVX-512) and the 4-vector steps (32, 64).
  const size_t sizes[] = {1,  2,  3,   7,   8,   9,   15,  16,  17,   31,   32,   33,  47,
                          48, 63, 64,  65,  100, 127, 128, 129, 768, 1023, 1025, 4096};
  for (const F32LayerNormConfig* cfg : supported_variants()) {
    for (bool rms : {false, true}) {
      for (size_t n : sizes) {
        const size_t rows = 3;
        const std::vector<float> x = random_values(rows * n, static_cast<uint32_t>(n), 0.5f, 2.0f);
        const std::vector<float> w = random_values(n, static_cast<uint32_t>(n + 1), 1.0f, 0.5f);
        const std::vector<float> b = random_values(n, static_cast<uint32_t>(n + 2), 0.0f, 0.5f);
        for (int with = 0; with < 4; ++with) {
          const float* wp = (with & 1) ? w.data() : nullptr;
          const float* bp = (with & 2) ? b.data() : nullptr;
          std::vector<float> y(rows * n + 16, 777.0f);
          f32_layernorm_rows(*cfg, n, x.data(), wp, bp, 1e-5f, rms, y.data(), 1, rows);
          for (size_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 777.0f) << "row 0 was written";
          for (size_t r = 1; r < rows; ++r) {
            expect_row(cfg->name, n, x.data() + r * n, wp, bp, 1e-5f, rms, y.data() + r * n);
          }
          for (size_t i = rows * n; i < rows * n + 16; ++i) ASSERT_EQ(y[i], 777.0f) << "past end";
          std::vector<float> in_place = x;
          float* ip = in_place.data();
          f32_layernorm_rows(*cfg, n, ip, wp, bp, 1e-5f, rms, ip, 0, rows);
          for (size_t i = n; i < rows * n; ++i) {
            ASSERT_EQ(in_place[i], y[i]) << cfg->name << " in place differs at " << i;
          }
        }
      }
    }
  }
}

TEST(F32LayerNorm, EmptyRowsWriteNothing) {
  float x[2] = {1.0f, 2.0f}, y[2] = {7.0f, 7.0f};
  for (const F32LayerNormConfig* cfg : supported_variants()) {
    for (bool rms : {false, true}) {
      f32_layernorm_rows(*cfg, 0, x, nullptr, nullptr, 1e-5f, rms, y, 0, 2);
      EXPECT_EQ(y[0], 7.0f);
      EXPECT_EQ(y[1], 7.0f);
    }
  }
}

TEST(F32LayerNorm, LargeMeanConstantRowsAndSpecials) {
  for (const F32LayerNormConfig* cfg : supported_variants()) {
    for (size_t n : {8u, 33u, 768u}) {
      // Mean 1000, spread 1: E[x^2] - mean^2 would lose every digit.
      std::vector<float> x = random_values(n, 9, 1000.0f, 1.0f);
      std::vector<float> y(n);
      f32_layernorm_rows(*cfg, n, x.data(), nullptr, nullptr, 1e-5f, false, y.data(), 0, 1);
      expect_row(cfg->name, n, x.data(), nullptr, nullptr, 1e-5f, false, y.data());
      // A constant row: variance 0, output 0 (then the bias).
      std::vector<float> c(n, 3.25f);
      f32_layernorm_rows(*cfg, n, c.data(), nullptr, nullptr, 1e-5f, false, y.data(), 0, 1);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 0.0f) << cfg->name;
      // NaN or inf in a row: the whole row is NaN.
      for (float bad : {std::numeric_limits<float>::quiet_NaN(),
                        std::numeric_limits<float>::infinity()}) {
        std::vector<float> s = random_values(n, 3, 0.0f, 1.0f);
        s[n / 2] = bad;
        for (bool rms : {false, true}) {
          f32_layernorm_rows(*cfg, n, s.data(), nullptr, nullptr, 1e-5f, rms, y.data(), 0, 1);
          for (size_t i = 0; i < n; ++i) {
            if (rms && std::isinf(bad) && i == n / 2) continue;  // inf * 0: NaN, like the rest
            ASSERT_TRUE(std::isnan(y[i]) || (rms && y[i] == 0.0f))
                << cfg->name << (rms ? " rms" : "") << " [" << i << "] = " << y[i];
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
