// Tests of the kernels in special_ops.cpp (copysign, hypot, erfinv, signbit),
// scan_ops.cpp (cumprod), stats_ops.cpp (var_mean), bag_ops.cpp
// (embedding_bag) and nonzero_op.cpp.
// Expected values were computed with PyTorch 2.x eager on CPU (torch.erfinv,
// torch.var_mean, torch.cumprod, torch.ops.aten._embedding_bag_forward_only,
// ... on float64 inputs unless a test says otherwise) and pasted with repr(),
// or are exact by hand.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

using testing::KernelCall;
using testing::OwnedTensor;
using testing::make;
using testing::Sizes;
using testing::Values;
using testing::values_of;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<int64_t> sizes_of(OwnedTensor& t) {
  std::vector<int64_t> s;
  for (int d = 0; d < t.tensor().dim(); ++d) s.push_back(t.tensor().size(d));
  return s;
}

// An output the kernel must resize: `rank` dims, room for `cap` elements.
OwnedTensor dyn_out(ScalarType dt, int rank, int32_t cap = 256) {
  Sizes s(static_cast<size_t>(rank), 1);
  if (rank > 0) s[0] = cap;
  return OwnedTensor(dt, s, TensorShapeDynamism::DynamicBound);
}

// NaNs must match NaNs; otherwise |got - want| <= atol + rtol * |want|
// (infinities must be equal).
void expect_close(const Values& got, const Values& want, double rtol, double atol = 0) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i << ": " << got[i];
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], atol + rtol * std::fabs(want[i])) << "at " << i;
    }
  }
}

// --- copysign --------------------------------------------------------------------

TEST(SpecialOpsCopysign, FloatKeepsMagnitudeTakesSign) {
  auto a = make(ScalarType::Float, {6}, {1.5, -2, 0, 3, -0.0, kNaN});
  auto b = make(ScalarType::Float, {6}, {-1, 2, -0.0, 0.0, 1, -1});
  OwnedTensor out(ScalarType::Float, {6});
  auto ctx = KernelCall().tensor(a.tensor()).tensor(b.tensor()).tensor(out.tensor())
                 .run("aten::copysign.out");
  ASSERT_FALSE(ctx.failed());
  const Values got = values_of(out);
  expect_close(got, {-1.5, 2, 0, 3, 0, kNaN}, 0);
  EXPECT_TRUE(std::signbit(got[2]));   // 0 with the sign of -0.0
  EXPECT_FALSE(std::signbit(got[4]));  // -0.0 with a positive sign
  EXPECT_TRUE(std::signbit(got[5]));   // NaN takes the sign too
}

TEST(SpecialOpsCopysign, IntegersPromoteToFloatAndBroadcast) {
  auto a = make(ScalarType::Int, {2, 1}, {3, -4});
  auto b = make(ScalarType::Bool, {3}, {1, 0, 1});
  OwnedTensor out(ScalarType::Float, {2, 3});
  auto ctx = KernelCall().tensor(a.tensor()).tensor(b.tensor()).tensor(out.tensor())
                 .run("aten::copysign.out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(out), {3, 3, 3, 4, 4, 4}, 0);

  // torch: copysign(int32, float64) is float64.
  auto c = make(ScalarType::Double, {3}, {-1, 1, -1});
  auto d = make(ScalarType::Short, {3}, {1, 2, 3});
  OwnedTensor out2(ScalarType::Double, {3});
  ctx = KernelCall().tensor(d.tensor()).tensor(c.tensor()).tensor(out2.tensor())
            .run("aten::copysign.out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(out2), {-1, 2, -3}, 0);

  // An integer out cannot hold the float result.
  OwnedTensor bad(ScalarType::Int, {2, 3});
  ctx = KernelCall().tensor(a.tensor()).tensor(b.tensor()).tensor(bad.tensor())
            .run("aten::copysign.out");
  EXPECT_TRUE(ctx.failed());
}

TEST(SpecialOpsCopysign, ScalarOther) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16}) {
    auto a = make(dt, {3}, {1.5, -2, 0});
    OwnedTensor out(dt, {3});
    auto ctx = KernelCall().tensor(a.tensor()).real(-1.0).tensor(out.tensor())
                   .run("aten::copysign.Scalar_out");
    ASSERT_FALSE(ctx.failed());
    const Values got = values_of(out);
    expect_close(got, {-1.5, -2, 0}, 0);
    EXPECT_TRUE(std::signbit(got[2]));
  }
  auto i = make(ScalarType::Long, {2}, {-5, 7});
  OwnedTensor out(ScalarType::Float, {2});
  auto ctx = KernelCall().tensor(i.tensor()).integer(1).tensor(out.tensor())
                 .run("aten::copysign.Scalar_out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(out), {5, 7}, 0);
}

// --- hypot -----------------------------------------------------------------------

TEST(SpecialOpsHypot, FloatTypes) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16}) {
    auto a = make(dt, {5}, {3, 5, kNaN, kInf, -8});
    auto b = make(dt, {5}, {4, 12, kInf, kNaN, 6});
    OwnedTensor out(dt, {5});
    auto ctx = KernelCall().tensor(a.tensor()).tensor(b.tensor()).tensor(out.tensor())
                   .run("aten::hypot.out");
    ASSERT_FALSE(ctx.failed());
    // hypot(nan, inf) and hypot(inf, nan) are inf, as in C and torch.
    expect_close(values_of(out), {5, 13, kInf, kInf, 10}, 0);
  }
}

TEST(SpecialOpsHypot, BroadcastsAndRejectsIntegers) {
  auto a = make(ScalarType::Double, {2, 1}, {3, 6});
  auto b = make(ScalarType::Double, {2}, {4, 8});
  OwnedTensor out(ScalarType::Double, {2, 2});
  auto ctx = KernelCall().tensor(a.tensor()).tensor(b.tensor()).tensor(out.tensor())
                 .run("aten::hypot.out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(out), {5, std::hypot(3.0, 8.0), std::hypot(6.0, 4.0), 10}, 1e-15);

  auto i = make(ScalarType::Int, {2}, {3, 4});
  OwnedTensor iout(ScalarType::Int, {2});
  ctx = KernelCall().tensor(i.tensor()).tensor(i.tensor()).tensor(iout.tensor())
            .run("aten::hypot.out");
  EXPECT_TRUE(ctx.failed());
}

// --- erfinv ----------------------------------------------------------------------

TEST(SpecialOpsErfinv, Float64MatchesTorch) {
  auto x = make(ScalarType::Double, {17},
                {-1, 1, 1.5, -1.5, kNaN, 0.0, -0.0, 0.5, -0.9, 0.999999, 1e-10,
                 0.9999999999999999, -0.75, 0.25, 0.1, 0.99, 1e-300});
  OwnedTensor out(ScalarType::Double, {17});
  auto ctx = KernelCall().tensor(x.tensor()).tensor(out.tensor()).run("aten::erfinv.out");
  ASSERT_FALSE(ctx.failed());
  // torch.erfinv on these float64 values.
  const Values want = {-kInf, kInf, kNaN, kNaN, kNaN, 0.0, -0.0, 0.4769362762044699,
                       -1.1630871536766743, 3.458910737275499, 8.862269254527581e-11,
                       5.8635847487551676, -0.8134198475976185, 0.2253120550121781,
                       0.08885599049425769, 1.8213863677184494, 8.86226925452758e-301};
  const Values got = values_of(out);
  expect_close(got, want, 1e-12);
  EXPECT_TRUE(std::signbit(got[6]));
}

TEST(SpecialOpsErfinv, OtherDtypes) {
  // torch.erfinv in float32, float16 and bfloat16 on the same inputs.
  auto f = make(ScalarType::Float, {5}, {0.5, -0.9, 0.999, 0.3, -0.01});
  OwnedTensor fout(ScalarType::Float, {5});
  auto ctx = KernelCall().tensor(f.tensor()).tensor(fout.tensor()).run("aten::erfinv.out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(fout),
               {0.4769362807273865, -1.1630871295928955, 2.326756238937378, 0.27246272563934326,
                -0.008862501010298729},
               1e-6);

  auto h = make(ScalarType::Half, {2}, {0.5, -0.9});
  OwnedTensor hout(ScalarType::Half, {2});
  ctx = KernelCall().tensor(h.tensor()).tensor(hout.tensor()).run("aten::erfinv.out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(hout), {0.47705078125, -1.1630859375}, 1e-3);

  auto bf = make(ScalarType::BFloat16, {2}, {0.5, -0.9});
  OwnedTensor bfout(ScalarType::BFloat16, {2});
  ctx = KernelCall().tensor(bf.tensor()).tensor(bfout.tensor()).run("aten::erfinv.out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(bfout), {0.4765625, -1.15625}, 1e-2);

  // Integers and Bool give Float: erfinv(0) = 0, erfinv(+-1) = +-inf, beyond is NaN.
  auto i = make(ScalarType::Char, {4}, {0, 1, -1, 2});
  OwnedTensor iout(ScalarType::Float, {4});
  ctx = KernelCall().tensor(i.tensor()).tensor(iout.tensor()).run("aten::erfinv.out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(iout), {0, kInf, -kInf, kNaN}, 0);

  auto b = make(ScalarType::Bool, {2}, {0, 1});
  OwnedTensor bout(ScalarType::Float, {2});
  ctx = KernelCall().tensor(b.tensor()).tensor(bout.tensor()).run("aten::erfinv.out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(bout), {0, kInf}, 0);
}

TEST(SpecialOpsErfinv, InvertsErfAcrossTheRange) {
  // erf(erfinv(y)) == y to within a few ulps of y, including near +-1.
  Values ys;
  for (int k = -999; k <= 999; k += 7) ys.push_back(k / 1000.0);
  for (double e = 1e-3; e > 1e-15; e /= 10) ys.push_back(1.0 - e);
  auto x = make(ScalarType::Double, {static_cast<int32_t>(ys.size())}, ys);
  OwnedTensor out(ScalarType::Double, {static_cast<int32_t>(ys.size())});
  auto ctx = KernelCall().tensor(x.tensor()).tensor(out.tensor()).run("aten::erfinv.out");
  ASSERT_FALSE(ctx.failed());
  const Values got = values_of(out);
  for (size_t i = 0; i < ys.size(); ++i) {
    if (ys[i] > 0.5) {
      // Compare the distance to 1, which is what erfinv resolves near 1.
      EXPECT_NEAR(std::erfc(got[i]), 1.0 - ys[i], 1e-12 * (1.0 - ys[i])) << ys[i];
    } else {
      EXPECT_NEAR(std::erf(got[i]), ys[i], 4e-16 + 1e-15 * std::fabs(ys[i])) << ys[i];
    }
  }
}

// --- signbit ---------------------------------------------------------------------

TEST(SpecialOpsSignbit, AllDtypes) {
  auto f = make(ScalarType::Float, {7}, {-1, 0, -0.0, kNaN, -kNaN, -kInf, kInf});
  OwnedTensor out(ScalarType::Bool, {7});
  auto ctx = KernelCall().tensor(f.tensor()).tensor(out.tensor()).run("aten::signbit.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(values_of(out), (Values{1, 0, 1, 0, 1, 1, 0}));

  for (ScalarType dt : {ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
                        ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long}) {
    auto x = make(dt, {3}, {-3, 0, 4});
    OwnedTensor o(ScalarType::Bool, {3});
    ctx = KernelCall().tensor(x.tensor()).tensor(o.tensor()).run("aten::signbit.out");
    ASSERT_FALSE(ctx.failed());
    EXPECT_EQ(values_of(o), (Values{1, 0, 0})) << scalar_type_name(dt);
  }
  // Unsigned and Bool values are never negative.
  auto u = make(ScalarType::Byte, {2}, {255, 0});
  auto b = make(ScalarType::Bool, {2}, {1, 0});
  for (OwnedTensor* x : {&u, &b}) {
    OwnedTensor o(ScalarType::Bool, {2});
    ctx = KernelCall().tensor(x->tensor()).tensor(o.tensor()).run("aten::signbit.out");
    ASSERT_FALSE(ctx.failed());
    EXPECT_EQ(values_of(o), (Values{0, 0}));
  }
  // The result is Bool only.
  OwnedTensor fout(ScalarType::Float, {7});
  ctx = KernelCall().tensor(f.tensor()).tensor(fout.tensor()).run("aten::signbit.out");
  EXPECT_TRUE(ctx.failed());
}

// --- cumprod ---------------------------------------------------------------------

const Values kMatrix = {1.5, -2, 0.25, 3, 4, 0.5, -1, 2, -3, 1, 2, -0.5};  // [3, 4]

TEST(ScanOpsCumprod, FloatAlongEachDim) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16}) {
    auto x = make(dt, {3, 4}, kMatrix);
    OwnedTensor out(dt, {3, 4});
    auto ctx = KernelCall().tensor(x.tensor()).integer(1).none().tensor(out.tensor())
                   .run("aten::cumprod.out");
    ASSERT_FALSE(ctx.failed());
    // torch.cumprod(x, 1); every value is exact in each dtype.
    expect_close(values_of(out), {1.5, -3.0, -0.75, -2.25, 4.0, 2.0, -2.0, -4.0, -3.0, -3.0,
                                  -6.0, 3.0}, 0);
    ctx = KernelCall().tensor(x.tensor()).integer(-2).none().tensor(out.tensor())
              .run("aten::cumprod.out");
    ASSERT_FALSE(ctx.failed());
    expect_close(values_of(out), {1.5, -2.0, 0.25, 3.0, 6.0, -1.0, -0.25, 6.0, -18.0, -1.0,
                                  -0.5, -3.0}, 0);
  }
}

TEST(ScanOpsCumprod, IntegersAndDtypeArgument) {
  auto x = make(ScalarType::Int, {2, 3}, {1, -2, 3, 4, 5, -6});
  OwnedTensor out(ScalarType::Long, {2, 3});
  auto ctx = KernelCall().tensor(x.tensor()).integer(1).none().tensor(out.tensor())
                 .run("aten::cumprod.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(values_of(out), (Values{1, -2, -6, 4, 20, -120}));

  // torch.cumprod(int8 [100, 100, 100], 0, dtype=torch.int8) wraps: [100, 16, 64].
  auto y = make(ScalarType::Char, {3}, {100, 100, 100});
  OwnedTensor yout(ScalarType::Char, {3});
  ctx = KernelCall().tensor(y.tensor()).integer(0).integer(static_cast<int64_t>(ScalarType::Char))
            .tensor(yout.tensor()).run("aten::cumprod.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(values_of(yout), (Values{100, 16, 64}));

  // dtype= must agree with out.
  OwnedTensor lout(ScalarType::Long, {3});
  ctx = KernelCall().tensor(y.tensor()).integer(0).integer(static_cast<int64_t>(ScalarType::Char))
            .tensor(lout.tensor()).run("aten::cumprod.out");
  EXPECT_TRUE(ctx.failed());

  auto b = make(ScalarType::Bool, {3}, {1, 1, 0});
  ctx = KernelCall().tensor(b.tensor()).integer(0).none().tensor(lout.tensor())
            .run("aten::cumprod.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(values_of(lout), (Values{1, 1, 0}));
}

TEST(ScanOpsCumprod, EdgeCases) {
  // A 0-d input is its own cumprod; an empty one stays empty; a bad dim fails.
  auto s = make(ScalarType::Float, {}, {2.5});
  OwnedTensor sout(ScalarType::Float, {});
  auto ctx = KernelCall().tensor(s.tensor()).integer(0).none().tensor(sout.tensor())
                 .run("aten::cumprod.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(values_of(sout), (Values{2.5}));

  OwnedTensor e(ScalarType::Float, {0, 3});
  OwnedTensor eout(ScalarType::Float, {0, 3});
  ctx = KernelCall().tensor(e.tensor()).integer(1).none().tensor(eout.tensor())
            .run("aten::cumprod.out");
  EXPECT_FALSE(ctx.failed());

  ctx = KernelCall().tensor(e.tensor()).integer(2).none().tensor(eout.tensor())
            .run("aten::cumprod.out");
  EXPECT_TRUE(ctx.failed());
}

// --- var_mean --------------------------------------------------------------------

TEST(StatsOpsVarMean, AlongDimWithCorrection) {
  auto x = make(ScalarType::Double, {3, 4}, kMatrix);
  OwnedTensor var(ScalarType::Double, {3});
  OwnedTensor mean(ScalarType::Double, {3});
  // torch.var_mean(x, dim=1, correction=0) and correction=1 (the default, None).
  auto ctx = KernelCall().tensor(x.tensor()).ints({1}).real(0.0).boolean(false)
                 .tensor(var.tensor()).tensor(mean.tensor()).run("aten::var_mean.correction_out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(var), {3.35546875, 3.4218750000000004, 3.546875}, 1e-14);
  expect_close(values_of(mean), {0.6875, 1.375, -0.125}, 1e-14);

  ctx = KernelCall().tensor(x.tensor()).ints({-1}).none().boolean(false)
            .tensor(var.tensor()).tensor(mean.tensor()).run("aten::var_mean.correction_out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(var), {4.473958333333333, 4.562500000000001, 4.729166666666667}, 1e-14);
  expect_close(values_of(mean), {0.6875, 1.375, -0.125}, 1e-14);
}

TEST(StatsOpsVarMean, AllDimsKeepdimAndFractionalCorrection) {
  auto x = make(ScalarType::Double, {3, 4}, kMatrix);
  OwnedTensor var(ScalarType::Double, {});
  OwnedTensor mean(ScalarType::Double, {});
  auto ctx = KernelCall().tensor(x.tensor()).none().none().boolean(false)
                 .tensor(var.tensor()).tensor(mean.tensor()).run("aten::var_mean.correction_out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(var), {4.164299242424242}, 1e-14);
  expect_close(values_of(mean), {0.6458333333333335}, 1e-14);

  // torch.var_mean(x, dim=0, correction=2.5, keepdim=True).
  OwnedTensor var2(ScalarType::Double, {1, 4});
  OwnedTensor mean2(ScalarType::Double, {1, 4});
  ctx = KernelCall().tensor(x.tensor()).ints({0}).real(2.5).boolean(true)
            .tensor(var2.tensor()).tensor(mean2.tensor()).run("aten::var_mean.correction_out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(sizes_of(var2), (std::vector<int64_t>{1, 4}));
  expect_close(values_of(var2), {50.33333333333333, 10.333333333333332, 9.083333333333334, 13.0},
               1e-14);
  expect_close(values_of(mean2),
               {0.8333333333333333, -0.16666666666666663, 0.41666666666666663, 1.5}, 1e-14);
}

TEST(StatsOpsVarMean, LowPrecisionAndErrors) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Half, ScalarType::BFloat16}) {
    auto x = make(dt, {3, 4}, kMatrix);
    OwnedTensor var(dt, {3});
    OwnedTensor mean(dt, {3});
    auto ctx = KernelCall().tensor(x.tensor()).ints({1}).real(0.0).boolean(false)
                   .tensor(var.tensor()).tensor(mean.tensor())
                   .run("aten::var_mean.correction_out");
    ASSERT_FALSE(ctx.failed());
    expect_close(values_of(var), {3.35546875, 3.4218750000000004, 3.546875}, 1e-2);
    expect_close(values_of(mean), {0.6875, 1.375, -0.125}, 1e-2);
  }
  // One element with correction 1 divides by zero: var NaN (0/0), mean the value.
  auto one = make(ScalarType::Float, {1}, {2});
  OwnedTensor v(ScalarType::Float, {});
  OwnedTensor m(ScalarType::Float, {});
  auto ctx = KernelCall().tensor(one.tensor()).none().none().boolean(false).tensor(v.tensor())
                 .tensor(m.tensor()).run("aten::var_mean.correction_out");
  ASSERT_FALSE(ctx.failed());
  expect_close(values_of(v), {kNaN}, 0);
  expect_close(values_of(m), {2}, 0);

  // torch has no var_mean of integers; outs must match the input dtype.
  auto i = make(ScalarType::Int, {2}, {1, 2});
  OwnedTensor iv(ScalarType::Int, {});
  OwnedTensor im(ScalarType::Int, {});
  ctx = KernelCall().tensor(i.tensor()).none().none().boolean(false).tensor(iv.tensor())
            .tensor(im.tensor()).run("aten::var_mean.correction_out");
  EXPECT_TRUE(ctx.failed());
  OwnedTensor dm(ScalarType::Double, {});
  ctx = KernelCall().tensor(one.tensor()).none().none().boolean(false).tensor(v.tensor())
            .tensor(dm.tensor()).run("aten::var_mean.correction_out");
  EXPECT_TRUE(ctx.failed());
}

// --- embedding_bag ---------------------------------------------------------------

// weight = arange(15).reshape(5, 3), indices = [1, 3, 0, 4, 2], offsets = [0, 2, 2]:
// bags {1, 3}, {}, {0, 4, 2}.
struct BagCase {
  OwnedTensor weight = make(ScalarType::Float, {5, 3},
                            {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
  OwnedTensor indices = make(ScalarType::Long, {5}, {1, 3, 0, 4, 2});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0, 2, 2});
  OwnedTensor out0 = dyn_out(ScalarType::Float, 2);
  OwnedTensor out1 = dyn_out(ScalarType::Long, 1);
  OwnedTensor out2 = dyn_out(ScalarType::Long, 1);
  OwnedTensor out3 = dyn_out(ScalarType::Long, 2);
  OwnedTensor out3_1d = dyn_out(ScalarType::Long, 1);

  KernelContext run(const char* op, int64_t mode, bool include_last_offset, int64_t padding_idx,
                    Tensor* per_sample_weights = nullptr) {
    KernelCall call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor())
        .boolean(false).integer(mode).boolean(false);
    if (per_sample_weights != nullptr) {
      call.tensor(*per_sample_weights);
    } else {
      call.none();
    }
    call.boolean(include_last_offset).integer(padding_idx).tensor(out0.tensor())
        .tensor(out1.tensor()).tensor(out2.tensor())
        .tensor(mode == 2 ? out3.tensor() : out3_1d.tensor());
    return call.run(op);
  }
  OwnedTensor& max_indices(int64_t mode) { return mode == 2 ? out3 : out3_1d; }
};

constexpr const char* kBagFwd = "aten::_embedding_bag_forward_only.out";

TEST(BagOpsEmbeddingBag, SumMeanMax) {
  // torch.ops.aten._embedding_bag_forward_only(w, i, o, False, mode, False, None, False, -1).
  struct Want {
    int64_t mode;
    Values out, offset2bag, bag_size, max_indices;
  };
  const Want wants[] = {
      {0, {12, 14, 16, 0, 0, 0, 18, 21, 24}, {}, {0, 0, 0}, {0, 0, 0}},
      {1, {6, 7, 8, 0, 0, 0, 6, 7, 8}, {0, 0, 2, 2, 2}, {2, 0, 3}, {2, 0, 3}},
      {2, {9, 10, 11, 0, 0, 0, 12, 13, 14}, {0, 0, 2, 2, 2}, {2, 0, 3},
       {3, 3, 3, 0, 0, 0, 4, 4, 4}},
  };
  for (const Want& w : wants) {
    const char* op = kBagFwd;
    BagCase c;
    auto ctx = c.run(op, w.mode, false, -1);
    ASSERT_FALSE(ctx.failed()) << op << " mode " << w.mode;
    EXPECT_EQ(sizes_of(c.out0), (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(values_of(c.out0), w.out) << op << " mode " << w.mode;
    EXPECT_EQ(values_of(c.out1), w.offset2bag) << op << " mode " << w.mode;
    EXPECT_EQ(values_of(c.out2), w.bag_size) << op << " mode " << w.mode;
    EXPECT_EQ(values_of(c.max_indices(w.mode)), w.max_indices) << op << " mode " << w.mode;
  }
}

TEST(BagOpsEmbeddingBag, PaddingIdxAndNaN) {
  // indices [3, 3, 0, 2, 4], padding_idx 3, weight[2][1] = NaN: bag 0 is all padding.
  struct Want {
    int64_t mode;
    Values out, bag_size, max_indices;
  };
  const Want wants[] = {
      {0, {0, 0, 0, 0, 0, 0, 18, kNaN, 24}, {0, 0, 0}, {0, 0, 0}},
      {1, {0, 0, 0, 0, 0, 0, 6, kNaN, 8}, {0, 0, 3}, {0, 0, 3}},
      {2, {0, 0, 0, 0, 0, 0, 12, 13, 14}, {0, 0, 3}, {0, 0, 0, 0, 0, 0, 4, 4, 4}},
  };
  for (const Want& w : wants) {
    BagCase c;
    c.weight.data<float>()[7] = std::numeric_limits<float>::quiet_NaN();
    c.indices = make(ScalarType::Long, {5}, {3, 3, 0, 2, 4});
    auto ctx = c.run(kBagFwd, w.mode, false, 3);
    ASSERT_FALSE(ctx.failed());
    expect_close(values_of(c.out0), w.out, 0);
    // With a padding_idx, sum leaves torch's fast path and fills offset2bag too.
    EXPECT_EQ(values_of(c.out1), (Values{0, 0, 2, 2, 2}));
    EXPECT_EQ(values_of(c.out2), w.bag_size);
    EXPECT_EQ(values_of(c.max_indices(w.mode)), w.max_indices);
  }
}

TEST(BagOpsEmbeddingBag, IncludeLastOffsetShapes) {
  // offsets [0, 2, 5] with include_last_offset: two bags {1, 3} and {0, 4, 2}.
  // Shapes as torch's meta function gives them: bag_size has one entry per
  // offset (eager torch gives one per bag for mean and max).
  for (int64_t mode : {0, 1, 2}) {
    const char* op = kBagFwd;
    BagCase c;
    c.offsets = make(ScalarType::Long, {3}, {0, 2, 5});
    auto ctx = c.run(op, mode, true, -1);
    ASSERT_FALSE(ctx.failed());
    const Values want_out[] = {{12, 14, 16, 18, 21, 24}, {6, 7, 8, 6, 7, 8},
                               {9, 10, 11, 12, 13, 14}};
    EXPECT_EQ(values_of(c.out0), want_out[mode]) << op << " mode " << mode;
    EXPECT_EQ(sizes_of(c.out1), (std::vector<int64_t>{mode == 0 ? 0 : 5}));
    EXPECT_EQ(sizes_of(c.out2), (std::vector<int64_t>{3}));
    EXPECT_EQ(sizes_of(c.max_indices(mode)),
              (mode == 2 ? std::vector<int64_t>{2, 3} : std::vector<int64_t>{2}));
    if (mode == 1) {
      EXPECT_EQ(values_of(c.out1), (Values{0, 0, 1, 1, 1}));
    }
  }
}

TEST(BagOpsEmbeddingBag, PerSampleWeightsAndOtherDtypes) {
  // torch: indices [3, 3, 0, 2, 4], per_sample_weights [1, 2, 3, 4, 5], mode sum.
  BagCase c;
  c.indices = make(ScalarType::Long, {5}, {3, 3, 0, 2, 4});
  auto psw = make(ScalarType::Float, {5}, {1, 2, 3, 4, 5});
  auto ctx = c.run(kBagFwd, 0, false, -1, &psw.tensor());
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(values_of(c.out0), (Values{27, 30, 33, 0, 0, 0, 84, 96, 108}));

  // Double and bfloat16 weights take torch's slow path, which fills offset2bag; int32
  // indices and offsets give int32 index outputs.
  for (ScalarType dt : {ScalarType::Double, ScalarType::Half, ScalarType::BFloat16}) {
    BagCase d;
    d.weight = make(dt, {5, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
    d.out0 = dyn_out(dt, 2);
    d.indices = make(ScalarType::Int, {5}, {1, 3, 0, 4, 2});
    d.offsets = make(ScalarType::Int, {3}, {0, 2, 2});
    d.out1 = dyn_out(ScalarType::Int, 1);
    d.out2 = dyn_out(ScalarType::Int, 1);
    d.out3_1d = dyn_out(ScalarType::Int, 1);
    ctx = d.run(kBagFwd, 0, false, -1);
    ASSERT_FALSE(ctx.failed()) << scalar_type_name(dt) << ": " << ctx.message();
    EXPECT_EQ(values_of(d.out0), (Values{12, 14, 16, 0, 0, 0, 18, 21, 24}));
    EXPECT_EQ(sizes_of(d.out1), (std::vector<int64_t>{dt == ScalarType::Half ? 0 : 5}));
    if (dt != ScalarType::Half) {
      EXPECT_EQ(values_of(d.out1), (Values{0, 0, 2, 2, 2}));
    }
  }
}

TEST(BagOpsEmbeddingBag, RejectsBadInput) {
  {
    BagCase c;
    c.indices = make(ScalarType::Long, {5}, {1, 3, 0, 5, 2});  // 5 is out of range
    EXPECT_TRUE(c.run(kBagFwd, 0, false, -1).failed());
  }
  {
    BagCase c;
    c.offsets = make(ScalarType::Long, {3}, {0, 3, 2});  // decreasing
    EXPECT_TRUE(c.run(kBagFwd, 1, false, -1).failed());
  }
  {
    BagCase c;
    EXPECT_TRUE(c.run(kBagFwd, 3, false, -1).failed());  // no such mode
  }
  {
    BagCase c;
    auto psw = make(ScalarType::Float, {5}, {1, 2, 3, 4, 5});
    EXPECT_TRUE(c.run(kBagFwd, 1, false, -1, &psw.tensor()).failed());  // mean with weights
  }
}

// --- nonzero ---------------------------------------------------------------------

TEST(NonzeroOp, CoordinatesInRowMajorOrder) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16, ScalarType::Int, ScalarType::Byte,
                        ScalarType::Bool}) {
    auto x = make(dt, {2, 3}, {0, 1, 0, 1, 0, 1});
    OwnedTensor out = dyn_out(ScalarType::Long, 2, 16);
    auto ctx = KernelCall().tensor(x.tensor()).tensor(out.tensor()).run("aten::nonzero.out");
    ASSERT_FALSE(ctx.failed());
    EXPECT_EQ(sizes_of(out), (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(values_of(out), (Values{0, 1, 1, 0, 1, 2})) << scalar_type_name(dt);
  }
  // NaN is non-zero, -0.0 is zero.
  auto f = make(ScalarType::Float, {4}, {kNaN, -0.0, 0, -2});
  OwnedTensor out = dyn_out(ScalarType::Long, 2, 16);
  auto ctx = KernelCall().tensor(f.tensor()).tensor(out.tensor()).run("aten::nonzero.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(sizes_of(out), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values_of(out), (Values{0, 3}));
}

TEST(NonzeroOp, ZeroDimEmptyAndDimOrder) {
  auto s = make(ScalarType::Int, {}, {7});
  OwnedTensor out = dyn_out(ScalarType::Long, 2, 16);
  auto ctx = KernelCall().tensor(s.tensor()).tensor(out.tensor()).run("aten::nonzero.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(sizes_of(out), (std::vector<int64_t>{1, 0}));

  auto z = make(ScalarType::Float, {2, 2}, {0, 0, 0, 0});
  ctx = KernelCall().tensor(z.tensor()).tensor(out.tensor()).run("aten::nonzero.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(sizes_of(out), (std::vector<int64_t>{0, 2}));

  // A channels-last-like [2, 3] tensor stored as its transpose: logical
  // [[1, 0, 2], [0, 3, 0]] is memory [1, 0, 0, 3, 2, 0].
  OwnedTensor t(ScalarType::Float, {2, 3}, TensorShapeDynamism::Static, {1, 0});
  t.fill<float>({1, 0, 0, 3, 2, 0});
  ctx = KernelCall().tensor(t.tensor()).tensor(out.tensor()).run("aten::nonzero.out");
  ASSERT_FALSE(ctx.failed());
  EXPECT_EQ(values_of(out), (Values{0, 0, 0, 2, 1, 1}));

  // The result is Long and must fit the planned capacity.
  OwnedTensor iout = dyn_out(ScalarType::Int, 2, 16);
  ctx = KernelCall().tensor(z.tensor()).tensor(iout.tensor()).run("aten::nonzero.out");
  EXPECT_TRUE(ctx.failed());
  auto big = make(ScalarType::Float, {40}, Values(40, 1.0));
  ctx = KernelCall().tensor(big.tensor()).tensor(out.tensor()).run("aten::nonzero.out");
  EXPECT_TRUE(ctx.failed());
}

}  // namespace
}  // namespace ember
