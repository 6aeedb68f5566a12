// Tester for the f32 reduction family: every variant this CPU supports
// against sums, means and maxima computed in double, over contiguous rows
// (inner 1) and over a middle dim (inner > 1), on edge sizes, with output
// ranges split as threads split them, NaN (max propagates it) and empty
// reductions.
//
// Tolerance: a sum of n terms kept in k >= 4 partial sums (rows) is within
// (n / 4 + 2) u sum |x| of the exact one (u = 2^-24); the middle-dim sum adds
// the rows in order, within (size + 2) u sum |x|. Max is exact.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/optimized/f32-reduce/f32_reduce.h"

namespace ember::kernels::optimized {
namespace {

constexpr double kU = 0x1p-24;
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

std::vector<const F32ReduceConfig*> supported_variants() {
  std::vector<const F32ReduceConfig*> out;
  for (size_t i = 0; i < f32_reduce_num_variants(); ++i) {
    if (f32_reduce_variant_supported(f32_reduce_variant(i))) out.push_back(&f32_reduce_variant(i));
  }
  return out;
}

const char* op_name(F32ReduceOp op) {
  return op == F32ReduceOp::Sum ? "sum" : (op == F32ReduceOp::Mean ? "mean" : "max");
}

void check(const F32ReduceConfig& cfg, F32ReduceOp op, size_t outer, size_t size, size_t inner,
           const std::vector<float>& x) {
  const size_t outputs = outer * inner;
  std::vector<float> y(outputs + 4, 777.0f);
  // Two uneven ranges, as two threads would take them.
  const size_t cut = outputs / 3;
  f32_reduce(cfg, op, size, inner, x.data(), y.data(), 0, cut);
  f32_reduce(cfg, op, size, inner, x.data(), y.data(), cut, outputs);
  for (size_t i = outputs; i < outputs + 4; ++i) ASSERT_EQ(y[i], 777.0f) << "past the end";
  for (size_t o = 0; o < outer; ++o) {
    for (size_t j = 0; j < inner; ++j) {
      double sum = 0, mag = 0, max = -INFINITY;
      bool nan = false;
      for (size_t k = 0; k < size; ++k) {
        const double v = x[(o * size + k) * inner + j];
        sum += v;
        mag += std::fabs(v);
        nan = nan || std::isnan(v);
        max = v > max ? v : max;
      }
      double want = op == F32ReduceOp::Max ? (nan ? NAN : max)
                                           : (op == F32ReduceOp::Mean ? sum / size : sum);
      double tol = (inner == 1 ? size / 4.0 + 2 : size + 2.0) * kU * mag;
      if (op == F32ReduceOp::Mean) tol = tol / size + 2 * kU * std::fabs(want);
      if (op == F32ReduceOp::Max) tol = 0;
      if (size == 0) {
        want = op == F32ReduceOp::Sum ? 0.0 : (op == F32ReduceOp::Mean ? NAN : -INFINITY);
      }
      const double got = y[o * inner + j];
      const bool ok = std::isnan(want) ? std::isnan(got)
                                       : (got == want || std::fabs(got - want) <= tol);
      ASSERT_TRUE(ok) << cfg.name << " " << op_name(op) << " outer " << outer << " size " << size
                      << " inner " << inner << " at [" << o << "," << j << "]: got " << got
                      << " want " << want << " tolerance " << tol;
    }
  }
}

TEST(F32Reduce, RowsAndMiddleDimsOfEdgeSizes) {
  // Around the vector widths (8 AVX2, 16 AVX-512) and the 4-vector steps (32, 64).
  const size_t sizes[] = {0,  1,  2,  7,  8,  9,   15,  16,  17,  31,   32,  33,
                          47, 48, 63, 64, 65, 100, 127, 128, 129, 1023, 1025};
  // Middle-dim widths around the column kernels' chunks (64 on AVX-512, 32 on
  // AVX2, 16 on NEON) and their vectors.
  const size_t inners[] = {1,  2,  3,  8,  9,  15, 16, 17, 31,  32,  33,
                           40, 48, 63, 64, 65, 96, 100, 127, 128, 129};
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  for (const F32ReduceConfig* cfg : supported_variants()) {
    for (F32ReduceOp op : {F32ReduceOp::Sum, F32ReduceOp::Mean, F32ReduceOp::Max}) {
      for (size_t inner : inners) {
        for (size_t size : sizes) {
          if (inner > 9 && size > 100) continue;
          const size_t outer = 3;
          std::vector<float> x(outer * size * inner);
          for (auto& v : x) v = dist(gen);
          check(*cfg, op, outer, size, inner, x);
          if (!x.empty()) {
            x[x.size() / 2] = kNan;  // one output goes NaN, for every op
            check(*cfg, op, outer, size, inner, x);
          }
        }
      }
    }
  }
}

TEST(F32Reduce, MaxOfInfinitiesAndSignedZeros) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const F32ReduceConfig* cfg : supported_variants()) {
    for (size_t n : {1u, 5u, 8u, 13u, 16u, 40u, 64u, 70u}) {
      std::vector<float> x(n, -inf);
      float y = 0;
      f32_reduce(*cfg, F32ReduceOp::Max, n, 1, x.data(), &y, 0, 1);
      EXPECT_EQ(y, -inf) << cfg->name;
      x[n - 1] = inf;
      f32_reduce(*cfg, F32ReduceOp::Max, n, 1, x.data(), &y, 0, 1);
      EXPECT_EQ(y, inf) << cfg->name;
      x[0] = kNan;
      f32_reduce(*cfg, F32ReduceOp::Max, n, 1, x.data(), &y, 0, 1);
      EXPECT_TRUE(std::isnan(y)) << cfg->name << " n=" << n;
    }
  }
}

}  // namespace
}  // namespace ember::kernels::optimized
