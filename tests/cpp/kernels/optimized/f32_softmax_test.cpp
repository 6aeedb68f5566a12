// Tester for the f32 softmax family: every variant this CPU supports against
// softmax and log-softmax computed in double, along contiguous rows and
// along a middle dim, on edge sizes, in place, and on rows holding NaN,
// +-inf and values far below the max (whose exp flushes to 0).
//
// Tolerance: x - max rounds (by up to u |x - max|, u = 2^-24, which exp
// turns into a relative error of that size), the exp is within 2 ULP, and the
// sum of n positive terms kept in k partial sums is within (n / k + 2) u of
// the exact one, k = 4 for the scalar variant, more for the vector ones; so
// softmax is within (8 + n / 4 + |x - max|) u relative, plus 2^-126 absolute
// (flushed exp), and log-softmax within 4 u (|x - max| + |y|) + (8 + n / 4) u
// absolute. A reference beyond the float range is met by an infinity.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/optimized/f32-softmax/f32_softmax.h"

namespace ember::kernels::optimized {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr double kU = 0x1p-24;

std::vector<const F32SoftmaxConfig*> supported_variants() {
  std::vector<const F32SoftmaxConfig*> out;
  for (size_t i = 0; i < f32_softmax_num_variants(); ++i) {
    const F32SoftmaxConfig& cfg = f32_softmax_variant(i);
    if (f32_softmax_variant_supported(cfg)) out.push_back(&cfg);
  }
  return out;
}

// Softmax of n values `stride` apart, in double: NaN for a row with a NaN,
// +inf, or only -inf (the max then meets inf - inf).
void reference(size_t n, const float* x, size_t stride, bool log, double* y) {
  double m = -INFINITY;
  for (size_t k = 0; k < n; ++k) m = x[k * stride] > m ? x[k * stride] : m;
  double sum = 0;
  for (size_t k = 0; k < n; ++k) sum += std::exp(x[k * stride] - m);
  for (size_t k = 0; k < n; ++k) {
    const double d = x[k * stride] - m;
    y[k] = log ? d - std::log(sum) : std::exp(d) / sum;
  }
}

void expect_close(const char* name, size_t n, const float* x, size_t stride, bool log,
                  const float* got, const char* what) {
  std::vector<double> want(n);
  reference(n, x, stride, log, want.data());
  double m = -INFINITY;
  for (size_t k = 0; k < n; ++k) m = x[k * stride] > m ? x[k * stride] : m;
  int reported = 0;
  for (size_t k = 0; k < n; ++k) {
    const double g = got[k * stride];
    const double w = want[k];
    bool ok;
    double tol = 0;
    if (std::isnan(w) || std::fabs(w) > std::numeric_limits<float>::max()) {
      ok = std::isnan(w) ? std::isnan(g) : (std::isinf(g) && (g < 0) == (w < 0));
    } else if (log) {
      tol = 4 * kU * (std::fabs(x[k * stride] - m) + std::fabs(w)) + (8 + n / 4.0) * kU;
      ok = std::fabs(g - w) <= tol;
    } else {
      tol = (8 + n / 4.0 + std::fabs(x[k * stride] - m)) * kU * std::fabs(w) + 0x1p-126;
      ok = g == w || std::fabs(g - w) <= tol;  // == for exp(-inf) = 0, where tol is NaN
    }
    if (!ok && reported++ < 3) {
      ADD_FAILURE() << name << " " << what << (log ? " log_softmax" : " softmax") << " n=" << n
                    << " [" << k << "] x=" << x[k * stride] << " got " << g << " want " << w
                    << " tolerance " << tol;
    }
  }
}

std::vector<float> random_row(size_t n, uint32_t seed, float spread) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-spread, spread);
  std::vector<float> x(n);
  for (auto& v : x) v = dist(gen);
  return x;
}

TEST(F32Softmax, RowsOfEdgeSizes) {
  // Around the vector widths (8 AVX2, 16 AVX-512) and the 4-vector steps (32, 64).
  const size_t sizes[] = {1,  2,  3,  7,  8,  9,  15,  16,  17,  31,  32,   33,
                          47, 48, 63, 64, 65, 100, 127, 128, 129, 1023, 1025};
  for (const F32SoftmaxConfig* cfg : supported_variants()) {
    for (bool log : {false, true}) {
      for (size_t n : sizes) {
        for (float spread : {1.0f, 20.0f, 200.0f}) {
          const size_t rows = 3;
          const std::vector<float> x = random_row(rows * n, static_cast<uint32_t>(n * 13), spread);
          std::vector<float> y(rows * n + 16, 777.0f);
          // Rows 1 and 2 only: row 0 must stay untouched.
          f32_softmax_rows(*cfg, n, x.data(), y.data(), log, 1, rows);
          for (size_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 777.0f) << "row 0 was written";
          for (size_t r = 1; r < rows; ++r) {
            expect_close(cfg->name, n, x.data() + r * n, 1, log, y.data() + r * n, "rows");
          }
          for (size_t i = rows * n; i < rows * n + 16; ++i) ASSERT_EQ(y[i], 777.0f) << "past end";
          std::vector<float> in_place = x;
          f32_softmax_rows(*cfg, n, in_place.data(), in_place.data(), log, 0, rows);
          for (size_t r = 0; r < rows; ++r) {
            const float* got = in_place.data() + r * n;
            expect_close(cfg->name, n, x.data() + r * n, 1, log, got, "in place");
          }
        }
      }
    }
  }
}

TEST(F32Softmax, EmptyRowsWriteNothing) {
  float x[2] = {1.0f, 2.0f}, y[2] = {7.0f, 7.0f};
  for (const F32SoftmaxConfig* cfg : supported_variants()) {
    f32_softmax_rows(*cfg, 0, x, y, false, 0, 2);
    f32_softmax_columns(*cfg, 0, 2, x, y, true, 0, 0, 2);
    f32_softmax_columns(*cfg, 1, 2, x, y, true, 0, 1, 1);
    EXPECT_EQ(y[0], 7.0f);
    EXPECT_EQ(y[1], 7.0f);
  }
}

TEST(F32Softmax, SpecialValuesInRows) {
  const std::vector<std::vector<float>> rows = {
      {1.0f, kNan, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f},  // NaN: all NaN
      {1.0f, kInf, 2.0f},                                             // +inf: all NaN
      {-kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf},  // all -inf: NaN
      {-kInf, 0.0f, 1.0f, -kInf, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, -kInf},  // -inf: 0 (log: -inf)
      {0.0f, -100.0f, -200.0f, -1e30f, 0.0f, -87.0f, -88.0f, -104.0f, 1e-40f},  // flushed exps
      {3e38f, -3e38f, 3e38f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f},  // huge
      {1e-45f, -1e-45f, 0.0f, -0.0f, 1e-40f, 0.0f, 0.0f, 0.0f, 0.0f},
  };
  for (const F32SoftmaxConfig* cfg : supported_variants()) {
    for (bool log : {false, true}) {
      for (const auto& x : rows) {
        std::vector<float> y(x.size());
        f32_softmax_rows(*cfg, x.size(), x.data(), y.data(), log, 0, 1);
        expect_close(cfg->name, x.size(), x.data(), 1, log, y.data(), "specials");
      }
    }
  }
}

TEST(F32Softmax, AlongAMiddleDim) {
  const size_t inners[] = {2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 100};
  const size_t sizes[] = {1, 2, 5, 17};
  for (const F32SoftmaxConfig* cfg : supported_variants()) {
    for (bool log : {false, true}) {
      for (size_t inner : inners) {
        for (size_t size : sizes) {
          const size_t outer = 2;
          const size_t numel = outer * size * inner;
          std::vector<float> x = random_row(numel, static_cast<uint32_t>(inner * 31 + size), 10.0f);
          x[inner] = kNan;  // column 0 of block 0 comes out NaN (when size > 1)
          std::vector<float> y(numel, 777.0f);
          // Block 0 in one call, block 1 in two slices (as threads split it).
          f32_softmax_columns(*cfg, size, inner, x.data(), y.data(), log, 0, 0, inner);
          f32_softmax_columns(*cfg, size, inner, x.data(), y.data(), log, 1, 0, inner / 2);
          f32_softmax_columns(*cfg, size, inner, x.data(), y.data(), log, 1, inner / 2, inner);
          for (size_t o = 0; o < outer; ++o) {
            for (size_t j = 0; j < inner; ++j) {
              const size_t at = o * size * inner + j;
              expect_close(cfg->name, size, x.data() + at, inner, log, y.data() + at, "columns");
            }
          }
          std::vector<float> in_place = x;
          for (size_t o = 0; o < outer; ++o) {
            float* ip = in_place.data();
            f32_softmax_columns(*cfg, size, inner, ip, ip, log, o, 0, inner);
          }
          for (size_t i = 0; i < numel; ++i) {
            ASSERT_TRUE((std::isnan(in_place[i]) && std::isnan(y[i])) || in_place[i] == y[i])
                << cfg->name << " in place differs at " << i;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
