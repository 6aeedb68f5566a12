// Tests of the kernels in misc_ops.cpp whose outputs are random or unset:
// native_dropout (inference only), rand, randn, randperm and empty_strided.
// The random fills are checked by their statistics.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "tests/cpp/kernels/kernel_expect.h"

namespace ember::testing {
namespace {

TEST(Dropout, InferenceCopiesAndMasksAll) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor in = make(dt, {2, 3}, {1, -2, 3.5, 0, 5, -6});
    OwnedTensor out = dyn_out(dt, 2);
    OwnedTensor mask = dyn_out(ScalarType::Bool, 2);
    Call c;
    c.tensor(in.tensor()).real(0.5).boolean(false).tensor(out.tensor()).tensor(mask.tensor());
    expect_ok(c.run("aten::native_dropout.out"), out, {2, 3}, {1, -2, 3.5, 0, 5, -6}, 0);
    EXPECT_EQ(values_of(mask), Values(6, 1.0));
  }
  // Training with p == 0 drops nothing, so it is exact too.
  OwnedTensor in = make(ScalarType::Float, {3}, {1, 2, 3});
  OwnedTensor out = dyn_out(ScalarType::Float, 1);
  OwnedTensor mask = dyn_out(ScalarType::Bool, 1);
  Call c;
  c.tensor(in.tensor()).real(0.0).none().tensor(out.tensor()).tensor(mask.tensor());
  expect_ok(c.run("aten::native_dropout.out"), out, {3}, {1, 2, 3}, 0);
}

TEST(Dropout, TrainingAndBadInputsFail) {
  OwnedTensor in(ScalarType::Float, {3});
  OwnedTensor out = dyn_out(ScalarType::Float, 1);
  OwnedTensor mask = dyn_out(ScalarType::Bool, 1);
  OwnedTensor mask_u8 = dyn_out(ScalarType::Byte, 1);
  {
    Call c;
    c.tensor(in.tensor()).real(0.5).boolean(true).tensor(out.tensor()).tensor(mask.tensor());
    const KernelContext ctx = c.run("aten::native_dropout.out");
    ASSERT_TRUE(ctx.failed());
    EXPECT_EQ(ctx.error(), Error::NotSupported);
  }
  {
    Call c;  // train=None means training
    c.tensor(in.tensor()).real(0.5).none().tensor(out.tensor()).tensor(mask.tensor());
    EXPECT_EQ(c.run("aten::native_dropout.out").error(), Error::NotSupported);
  }
  {
    Call c;
    c.tensor(in.tensor()).real(1.5).boolean(false).tensor(out.tensor()).tensor(mask.tensor());
    expect_fail(c.run("aten::native_dropout.out"), "native_dropout");
  }
  {
    Call c;
    c.tensor(in.tensor()).real(0.5).boolean(false).tensor(out.tensor()).tensor(mask_u8.tensor());
    expect_fail(c.run("aten::native_dropout.out"), "native_dropout");
  }
}

TEST(EmptyStrided, ResizesOnly) {
  OwnedTensor out = dyn_out(ScalarType::Float, 3);
  Call c;
  c.ints({2, 3, 4}).ints({12, 4, 1}).tensor(out.tensor());
  const KernelContext ctx = c.run("aten::empty_strided.out");
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(Sizes(out.tensor().sizes().begin(), out.tensor().sizes().end()), Sizes({2, 3, 4}));
  Call bad;
  bad.ints({2, 3}).ints({1}).tensor(out.tensor());
  expect_fail(bad.run("aten::empty_strided.out"), "empty_strided");
  Call neg;
  neg.ints({2, -3, 1}).ints({1, 1, 1}).tensor(out.tensor());
  expect_fail(neg.run("aten::empty_strided.out"), "empty_strided");
}

TEST(Random, RandIsUniform) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor out = dyn_out(dt, 2, 1 << 16);
    Call c;
    c.ints({200, 100}).tensor(out.tensor());
    const KernelContext ctx = c.run("aten::rand.out");
    ASSERT_FALSE(ctx.failed()) << ctx.message();
    const Values v = values_of(out);
    ASSERT_EQ(v.size(), 20000u);
    double sum = 0, sq = 0;
    for (double x : v) {
      ASSERT_GE(x, 0.0);
      ASSERT_LT(x, 1.0);
      sum += x;
      sq += x * x;
    }
    const double mean = sum / v.size(), var = sq / v.size() - mean * mean;
    EXPECT_NEAR(mean, 0.5, 0.01) << scalar_type_name(dt);
    EXPECT_NEAR(var, 1.0 / 12, 0.005) << scalar_type_name(dt);
  }
}

TEST(Random, RandnIsNormal) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor out = dyn_out(dt, 1, 1 << 16);
    Call c;
    c.ints({20001}).tensor(out.tensor());
    const KernelContext ctx = c.run("aten::randn.out");
    ASSERT_FALSE(ctx.failed()) << ctx.message();
    const Values v = values_of(out);
    double sum = 0, sq = 0;
    int64_t within_one = 0;
    for (double x : v) {
      ASSERT_TRUE(std::isfinite(x));
      sum += x;
      sq += x * x;
      within_one += std::fabs(x) < 1.0 ? 1 : 0;
    }
    const double mean = sum / v.size(), var = sq / v.size() - mean * mean;
    EXPECT_NEAR(mean, 0.0, 0.03) << scalar_type_name(dt);
    EXPECT_NEAR(var, 1.0, 0.05) << scalar_type_name(dt);
    EXPECT_NEAR(static_cast<double>(within_one) / v.size(), 0.6827, 0.02);
  }
}

TEST(Random, RandpermIsPermutation) {
  const ScalarType types[] = {ScalarType::Long, ScalarType::Int, ScalarType::Float,
                              ScalarType::Half, ScalarType::Byte};
  for (ScalarType dt : types) {
    const int n = dt == ScalarType::Byte ? 200 : 1000;
    OwnedTensor out = dyn_out(dt, 1, 4096);
    Call c;
    c.integer(n).tensor(out.tensor());
    const KernelContext ctx = c.run("aten::randperm.out");
    ASSERT_FALSE(ctx.failed()) << ctx.message();
    Values v = values_of(out);
    ASSERT_EQ(v.size(), static_cast<size_t>(n));
    int fixed = 0;
    for (int i = 0; i < n; ++i) fixed += v[i] == i ? 1 : 0;
    EXPECT_LT(fixed, 10) << "not shuffled";
    std::sort(v.begin(), v.end());
    for (int i = 0; i < n; ++i) ASSERT_EQ(v[i], i);
  }
  OwnedTensor out = dyn_out(ScalarType::Long, 1, 16);
  Call zero;
  zero.integer(0).tensor(out.tensor());
  expect_ok(zero.run("aten::randperm.out"), out, {0}, {}, 0);
  Call neg;
  neg.integer(-1).tensor(out.tensor());
  expect_fail(neg.run("aten::randperm.out"), "randperm");
  OwnedTensor out_u8 = dyn_out(ScalarType::Byte, 1, 1024);
  Call big;
  big.integer(300).tensor(out_u8.tensor());
  expect_fail(big.run("aten::randperm.out"), "randperm");
  Call bad_rand;
  OwnedTensor out_i = dyn_out(ScalarType::Int, 1);
  bad_rand.ints({3}).tensor(out_i.tensor());
  EXPECT_EQ(bad_rand.run("aten::rand.out").error(), Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
