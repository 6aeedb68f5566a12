// Tests of the kernels in upsample_ops.cpp: upsample_nearest2d,
// upsample_bilinear2d and grid_sampler_2d.
// Expected values were generated with PyTorch 2.13 (torch.ops.aten.* on
// float64 inputs) and pasted; inputs are seq() (kernel_expect.h), which 16-bit
// floats hold exactly. Grid coordinates are not, hence grid_tol.
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/kernels/kernel_expect.h"

namespace ember::testing {
namespace {

using OutputSize = std::vector<int64_t>;
using Scales = std::vector<double>;

// One call of an upsample .vec overload, which takes the size either as
// output_size or as scale factors (the other is None).
struct UpsampleCase {
  const char* name;
  Sizes in_shape;
  std::optional<OutputSize> output_size;
  std::optional<Scales> scales;
  Sizes out_shape;
  Values want;
};

const UpsampleCase kNearestCases[] = {
    {"Nearest2dOutputSize", {2, 2, 3, 4}, OutputSize{5, 7}, std::nullopt, {2, 2, 5, 7},
     {-2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, -2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, 1.5, 1.5, -2.0, -2.0, -1.25, -1.25, -0.5, 1.5, 1.5, -2.0, -2.0, -1.25, -1.25, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 0.75, 0.75, 1.5, 1.5, -2.0, -2.0, -1.25, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 1.25, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75}},
    {"Nearest2dScales", {2, 2, 3, 4}, std::nullopt, Scales{1.5, 2.0}, {2, 2, 4, 8},
     {-2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 0.25, -2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, 0.75, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, 0.75, 1.5, 1.5, -2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, 0.75, 1.5, 1.5, -2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75}},
    {"Nearest2dDownsample", {1, 1, 3, 4}, OutputSize{2, 3}, std::nullopt, {1, 1, 2, 3},
     {-2.0, -1.25, -0.5, 1.0, 1.75, -1.75}},
};

struct BilinearCase {
  bool align_corners;
  UpsampleCase c;
};

const BilinearCase kBilinearCases[] = {
    {false, {"Bilinear2dSizeAlign0", {1, 2, 3, 4}, OutputSize{5, 7}, std::nullopt, {1, 2, 5, 7},
      {-2.0, -1.7321428571428572, -1.3035714285714286, -0.875, -0.4464285714285716, -0.017857142857142905, 0.25, -0.8000000000000003, -0.5321428571428576, -0.10357142857142874, -0.5250000000000001, -0.9464285714285716, -0.5178571428571429, -0.24999999999999994, 1.0, 1.2678571428571428, 1.6964285714285712, 0.0, -1.6964285714285716, -1.2678571428571428, -1.0, 0.25000000000000017, 0.517857142857143, 0.9464285714285715, 0.5249999999999999, 0.10357142857142791, 0.5321428571428566, 0.7999999999999996, -0.25, 0.01785714285714282, 0.4464285714285714, 0.875, 1.3035714285714286, 1.7321428571428572, 2.0, -1.5, -1.2321428571428572, -0.8035714285714286, -0.375, 0.05357142857142838, 0.4821428571428571, 0.75, -0.30000000000000016, -0.6392857142857145, -1.1821428571428572, -0.875, -0.44642857142857156, -0.01785714285714285, 0.2500000000000001, 1.5, 0.25000000000000017, -1.7499999999999998, -1.625, -1.1964285714285716, -0.7678571428571429, -0.5, 0.7500000000000002, 0.4107142857142857, -0.13214285714285745, 0.17499999999999957, 0.4214285714285715, -0.607142857142857, -1.25, 0.25, 0.5178571428571428, 0.9464285714285714, 1.375, 1.5000000000000009, -0.49999999999999994, -1.7499999999999998}}},
    {false, {"Bilinear2dScalesAlign0", {1, 2, 3, 4}, std::nullopt, Scales{1.7, 2.5}, {1, 2, 5, 10},
      {-2.0, -1.9249999999999998, -1.625, -1.325, -1.025, -0.7249999999999999, -0.42499999999999993, -0.125, 0.17500000000000027, 0.25, -0.8529411764705883, -0.7779411764705882, -0.4779411764705882, -0.17794117647058816, -0.3654411764705884, -0.7154411764705885, -0.9029411764705884, -0.6029411764705883, -0.302941176470588, -0.22794117647058826, 0.9117647058823533, 0.9867647058823532, 1.2867647058823533, 1.5867647058823533, 0.6492647058823529, -0.7007352941176477, -1.638235294117647, -1.3382352941176472, -1.038235294117647, -0.9632352941176472, 0.3014705882352941, 0.3764705882352941, 0.6764705882352942, 0.9764705882352942, 0.713970588235294, 0.26397058823529396, 0.001470588235294279, 0.30147058823529416, 0.6014705882352944, 0.6764705882352942, -0.25, -0.17499999999999996, 0.125, 0.4250000000000001, 0.725, 1.0250000000000001, 1.3250000000000002, 1.625, 1.9250000000000003, 2.0, -1.5, -1.4249999999999998, -1.125, -0.8249999999999998, -0.5249999999999999, -0.22499999999999987, 0.07500000000000007, 0.375, 0.6750000000000003, 0.75, -0.3529411764705882, -0.44044117647058834, -0.7904411764705882, -1.1404411764705884, -1.0029411764705882, -0.7029411764705882, -0.40294117647058825, -0.10294117647058826, 0.19705882352941204, 0.27205882352941174, 1.4117647058823533, 1.074264705882353, -0.27573529411764697, -1.6257352941176477, -1.738235294117647, -1.438235294117647, -1.138235294117647, -0.8382352941176472, -0.5382352941176469, -0.4632352941176472, 0.8014705882352942, 0.688970588235294, 0.23897058823529413, -0.21102941176470602, -0.09852941176470574, 0.2014705882352943, 0.26397058823529407, -0.38602941176470584, -1.0360294117647064, -1.1985294117647058, 0.25, 0.325, 0.625, 0.925, 1.2249999999999999, 1.525, 1.4, 5.551115123125783e-17, -1.4000000000000012, -1.75}}},
    {false, {"Bilinear2dDownsampleAlign0", {1, 1, 3, 4}, OutputSize{2, 3}, std::nullopt, {1, 1, 2, 3},
      {-1.125, -0.65625, -0.18750000000000022, 0.1875, 0.65625, 1.1249999999999998}}},
    {true, {"Bilinear2dSizeAlign1", {1, 2, 3, 4}, OutputSize{5, 7}, std::nullopt, {1, 2, 5, 7},
      {-2.0, -1.625, -1.25, -0.875, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.4375, -1.125, -0.75, -0.375, 1.0, 1.375, 1.75, 0.0, -1.75, -1.375, -1.0, 0.375, 0.75, 1.125, 0.4375, -0.25, 0.125, 0.5, -0.25, 0.125, 0.5, 0.875, 1.25, 1.625, 2.0, -1.5, -1.125, -0.75, -0.375, 0.0, 0.375, 0.75, 0.0, -0.6875, -1.375, -1.0, -0.625, -0.25, 0.125, 1.5, -0.25, -2.0, -1.625, -1.25, -0.875, -0.5, 0.875, 0.1875, -0.5, -0.125, 0.25, -0.4375, -1.125, 0.25, 0.625, 1.0, 1.375, 1.75, 0.0, -1.75}}},
    {true, {"Bilinear2dScalesAlign1", {1, 2, 3, 4}, std::nullopt, Scales{1.7, 2.5}, {1, 2, 5, 10},
      {-2.0, -1.75, -1.5, -1.25, -1.0, -0.7500000000000001, -0.5, -0.2500000000000002, -1.1102230246251565e-16, 0.25, -0.5, -0.24999999999999997, 4.163336342344337e-17, 0.25, -0.2083333333333332, -0.6666666666666665, -1.125, -0.8750000000000002, -0.6250000000000001, -0.375, 1.0, 1.25, 1.5, 1.75, 0.5833333333333335, -0.5833333333333329, -1.75, -1.5000000000000002, -1.25, -1.0, 0.375, 0.625, 0.875, 1.125, 0.6666666666666667, 0.20833333333333348, -0.25, -2.220446049250313e-16, 0.24999999999999994, 0.5, -0.25, -2.7755575615628914e-17, 0.24999999999999997, 0.5, 0.75, 0.9999999999999999, 1.25, 1.4999999999999998, 1.75, 2.0, -1.5, -1.25, -1.0, -0.75, -0.5, -0.2500000000000001, 0.0, 0.24999999999999978, 0.4999999999999999, 0.75, 0.0, -0.45833333333333326, -0.9166666666666666, -1.375, -1.125, -0.8750000000000001, -0.625, -0.3750000000000002, -0.1250000000000001, 0.125, 1.5, 0.3333333333333335, -0.8333333333333333, -2.0, -1.75, -1.5, -1.25, -1.0000000000000002, -0.7500000000000001, -0.5, 0.875, 0.41666666666666674, -0.04166666666666663, -0.5, -0.25, -5.551115123125783e-17, 0.25, -0.20833333333333293, -0.6666666666666665, -1.125, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 0.5833333333333344, -0.5833333333333329, -1.75}}},
    {true, {"Bilinear2dDownsampleAlign1", {1, 1, 3, 4}, OutputSize{2, 3}, std::nullopt, {1, 1, 2, 3},
      {-2.0, -0.875, 0.25, -0.25, 0.875, 2.0}}},
    {true, {"Bilinear2dToOnePixel", {1, 1, 3, 4}, OutputSize{1, 1}, std::nullopt, {1, 1, 1, 1},
      {-2.0}}},
};

// Runs `op` on seq() input in every float type; align_corners, where the op
// has it, goes between the two size arguments.
void expect_upsample(const char* op, const UpsampleCase& c, std::optional<bool> align_corners) {
  SCOPED_TRACE(c.name);
  const Values in = seq(numel_of(c.in_shape), 0.25);
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, c.in_shape, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor());
    ints_or_none(call, c.output_size);
    if (align_corners) call.boolean(*align_corners);
    doubles_or_none(call, c.scales);
    call.tensor(out.tensor());
    expect_ok(call.run(op), out, c.out_shape, c.want, tol(dt));
  }
}

TEST(Upsample, Nearest2dMatchesTorch) {
  for (const UpsampleCase& c : kNearestCases) {
    expect_upsample("aten::upsample_nearest2d.vec_out", c, std::nullopt);
  }
}

TEST(Upsample, Bilinear2dMatchesTorch) {
  for (const BilinearCase& b : kBilinearCases) {
    expect_upsample("aten::upsample_bilinear2d.vec_out", b.c, b.align_corners);
  }
}

TEST(Upsample, Nearest2dByte) {
  OwnedTensor input = make(ScalarType::Byte, {1, 1, 2, 2}, {1, 2, 250, 4});
  OwnedTensor out = dyn_out(ScalarType::Byte, 4);
  Call call;
  call.tensor(input.tensor()).none().doubles({2.0, 1.5}).tensor(out.tensor());
  expect_ok(call.run("aten::upsample_nearest2d.vec_out"), out, {1, 1, 4, 3},
            {1, 1, 2, 1, 1, 2, 250, 250, 4, 250, 250, 4}, 0);
}

TEST(Upsample, EmptyBatch) {
  OwnedTensor input(ScalarType::Float, {0, 2, 3, 3});
  OwnedTensor out = dyn_out(ScalarType::Float, 4);
  Call call;
  call.tensor(input.tensor()).ints({4, 5}).boolean(false).none().tensor(out.tensor());
  expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {0, 2, 4, 5}, {}, 0);
}

TEST(Upsample, BadInputsFail) {
  OwnedTensor in3(ScalarType::Float, {2, 3, 3});
  OwnedTensor in4(ScalarType::Float, {1, 1, 3, 3});
  OwnedTensor out = dyn_out(ScalarType::Float, 4);
  OwnedTensor out_d = dyn_out(ScalarType::Double, 4);
  OwnedTensor small(ScalarType::Float, {1, 1, 2, 2});
  {
    Call c;
    c.tensor(in3.tensor()).ints({4, 4}).none().tensor(out.tensor());
    expect_fail(c.run("aten::upsample_nearest2d.vec_out"), "upsample_nearest2d");
  }
  {
    Call c;  // both output_size and scale_factors
    c.tensor(in4.tensor()).ints({4, 4}).doubles({2, 2}).tensor(out.tensor());
    expect_fail(c.run("aten::upsample_nearest2d.vec_out"), "upsample_nearest2d");
  }
  {
    Call c;  // neither
    c.tensor(in4.tensor()).none().boolean(false).none().tensor(out.tensor());
    expect_fail(c.run("aten::upsample_bilinear2d.vec_out"), "upsample_bilinear2d");
  }
  {
    Call c;
    c.tensor(in4.tensor()).ints({0, 4}).boolean(false).none().tensor(out.tensor());
    expect_fail(c.run("aten::upsample_bilinear2d.vec_out"), "upsample_bilinear2d");
  }
  {
    Call c;
    c.tensor(in4.tensor()).none().boolean(true).doubles({-1.0, 2.0}).tensor(out.tensor());
    expect_fail(c.run("aten::upsample_bilinear2d.vec_out"), "upsample_bilinear2d");
  }
  {
    Call c;
    c.tensor(in4.tensor()).none().doubles({kNaN, 2.0}).tensor(out.tensor());
    expect_fail(c.run("aten::upsample_nearest2d.vec_out"), "upsample_nearest2d");
  }
  {
    Call c;  // dtype mismatch
    c.tensor(in4.tensor()).ints({4, 4}).boolean(false).none().tensor(out_d.tensor());
    expect_fail(c.run("aten::upsample_bilinear2d.vec_out"), "upsample_bilinear2d");
  }
  {
    Call c;  // static output of the wrong shape
    c.tensor(in4.tensor()).ints({4, 4}).none().tensor(small.tensor());
    expect_fail(c.run("aten::upsample_nearest2d.vec_out"), "upsample_nearest2d");
  }
  {
    OwnedTensor in_i(ScalarType::Int, {1, 1, 2, 2});
    OwnedTensor out_i = dyn_out(ScalarType::Int, 4);
    Call c;
    c.tensor(in_i.tensor()).ints({4, 4}).boolean(false).none().tensor(out_i.tensor());
    const KernelContext ctx = c.run("aten::upsample_bilinear2d.vec_out");
    ASSERT_TRUE(ctx.failed());
    EXPECT_EQ(ctx.error(), Error::NotSupported);
  }
}

// grid_sampler_2d over one input and grid, in every mode (0 bilinear,
// 1 nearest), padding mode (0 zeros, 1 border, 2 reflection) and alignment.
const Values kGridInput = seq(48, 0.5);
const Values kGrid = {-1.4, 1.0, 0.5, 0.0, -0.5, -1.0, 1.4, 0.9, 0.4, -0.1, -0.6, -1.1, 1.3, 0.8, 0.3, -0.2, -0.7, -1.2, 1.2, 0.7, 0.2, -0.3, -0.8, -1.3};

struct GridCase {
  int64_t mode;
  int64_t padding_mode;
  bool align_corners;
  Values want;
};

const GridCase kGridCases[] = {
    {0, 0, false,
     {0.0, -2.75, -1.625, 0.0, -2.6750000000000003, -1.2424999999999995, 0.0, -1.75, -1.125, 0.0, -1.6750000000000005, -0.8924999999999996, 0.0, -0.6000000000000001, -0.3700000000000001, -0.2374999999999992, -0.5249999999999999, -0.08999999999999987, 0.0, 0.39999999999999997, -0.17000000000000004, -0.14249999999999952, 0.4750000000000001, -0.044999999999999936}},
    {0, 0, true,
     {-0.20000000000000007, -3.125, -2.875, 1.360000000000001, -3.1000000000000005, -2.7899999999999996, 0.20000000000000007, -2.125, -1.875, -1.300000000000001, -2.100000000000001, -1.8899999999999997, -1.1000000000000005, -1.075, -1.06, -1.2249999999999994, -1.0500000000000003, -1.085, -0.5500000000000003, -0.07499999999999984, -0.2599999999999999, -0.5249999999999997, -0.050000000000000155, -0.385}},
    {0, 1, false,
     {-0.5, -2.75, -3.25, 4.0, -2.6750000000000003, -3.55, 0.5, -1.75, -2.25, -3.5, -1.6750000000000005, -2.55, -2.5, -0.6000000000000001, -1.8499999999999999, -2.5, -0.5249999999999999, -2.0, -1.5, 0.39999999999999997, -0.8499999999999999, -1.5, 0.4750000000000001, -1.0}},
    {0, 1, true,
     {-0.5, -3.125, -2.875, 3.3999999999999995, -3.1000000000000005, -3.0999999999999996, 0.5, -2.125, -1.875, -3.25, -2.100000000000001, -2.0999999999999996, -2.0, -1.075, -1.325, -1.75, -1.0500000000000003, -1.55, -1.0, -0.07499999999999984, -0.3249999999999999, -0.7499999999999999, -0.050000000000000155, -0.55}},
    {0, 2, false,
     {-0.050000000000000266, -2.75, -3.25, 3.5500000000000003, -2.6750000000000003, -3.55, 0.9499999999999997, -1.75, -2.25, -1.4000000000000012, -1.6750000000000005, -2.55, -2.6499999999999995, -0.6000000000000003, -1.8499999999999999, -2.5, -0.5249999999999997, -2.0, -1.6499999999999995, 0.3999999999999996, -0.8499999999999999, -1.5, 0.47500000000000037, -1.0}},
    {0, 2, true,
     {0.3999999999999998, -3.125, -2.875, 2.5, -3.1000000000000005, -2.499999999999999, 1.4, -2.125, -1.875, 0.4399999999999975, -2.100000000000001, -2.01, -2.675, -1.075, -0.8900000000000002, -2.2, -1.0500000000000003, -0.5149999999999998, -1.6749999999999998, -0.07499999999999984, -0.8249999999999997, -1.2000000000000002, -0.050000000000000155, -1.3}},
    {1, 0, false,
     {0.0, -3.5, -4.0, 0.0, -3.5, 0.0, 0.0, -2.5, -3.0, 0.0, -2.5, 0.0, 0.0, -1.5, 0.0, 0.0, -1.5, 0.0, 0.0, -0.5, 0.0, 0.0, -0.5, 0.0}},
    {1, 0, true,
     {0.0, -3.5, -2.5, 0.0, -3.5, -2.5, 0.0, -2.5, -1.5, 0.0, -2.5, -1.5, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0}},
    {1, 1, false,
     {-0.5, -3.5, -4.0, 4.0, -3.5, -4.0, 0.5, -2.5, -3.0, -3.5, -2.5, -3.0, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0}},
    {1, 1, true,
     {-0.5, -3.5, -2.5, 4.0, -3.5, -2.5, 0.5, -2.5, -1.5, -3.5, -2.5, -1.5, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0}},
    {1, 2, false,
     {-0.5, -3.5, -4.0, 4.0, -3.5, -4.0, 0.5, -2.5, -3.0, -3.5, -2.5, -3.0, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0}},
    {1, 2, true,
     {1.0, -3.5, -2.5, 2.5, -3.5, -2.5, 2.0, -2.5, -1.5, 3.5, -2.5, -1.5, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0}},
};

TEST(GridSampler, MatchesTorch) {
  for (const GridCase& c : kGridCases) {
    SCOPED_TRACE(::testing::Message() << "mode " << c.mode << " padding_mode " << c.padding_mode
                                      << " align_corners " << c.align_corners);
    for (ScalarType dt : kFloatTypes) {
      OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
      OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
      OwnedTensor out = dyn_out(dt, 4);
      Call call;
      call.tensor(input.tensor()).tensor(grid.tensor()).integer(c.mode).integer(c.padding_mode)
          .boolean(c.align_corners).tensor(out.tensor());
      expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, c.want, grid_tol(dt));
    }
  }
}

TEST(GridSampler, BadInputsFail) {
  OwnedTensor in(ScalarType::Float, {2, 1, 3, 3});
  OwnedTensor grid(ScalarType::Float, {2, 2, 2, 2});
  OwnedTensor grid_b(ScalarType::Float, {1, 2, 2, 2});
  OwnedTensor grid_3(ScalarType::Float, {2, 2, 2, 3});
  OwnedTensor grid_d(ScalarType::Double, {2, 2, 2, 2});
  OwnedTensor out = dyn_out(ScalarType::Float, 4);
  auto run = [&](Tensor& g, int64_t mode, int64_t pad) {
    Call c;
    c.tensor(in.tensor()).tensor(g).integer(mode).integer(pad).boolean(false).tensor(out.tensor());
    return c.run("aten::grid_sampler_2d.out");
  };
  expect_fail(run(grid_b.tensor(), 0, 0), "grid_sampler_2d");
  expect_fail(run(grid_3.tensor(), 0, 0), "grid_sampler_2d");
  expect_fail(run(grid_d.tensor(), 0, 0), "grid_sampler_2d");
  expect_fail(run(grid.tensor(), 3, 0), "grid_sampler_2d");
  expect_fail(run(grid.tensor(), 0, 3), "grid_sampler_2d");
  // Bicubic (mode 2) is supported; its values are checked against torch in
  // tests/python (op_specs grid_sample_bicubic).
  EXPECT_FALSE(run(grid.tensor(), 2, 0).failed());
}

TEST(GridSampler, FarAndNaNCoordinatesReadZeros) {
  OwnedTensor in = make(ScalarType::Float, {1, 1, 2, 2}, {1, 2, 3, 4});
  OwnedTensor grid = make(ScalarType::Float, {1, 1, 3, 2}, {1e30, 0, kNaN, 0.5, -kInf, kInf});
  for (int64_t mode : {0, 1}) {
    OwnedTensor out = dyn_out(ScalarType::Float, 4);
    Call c;
    c.tensor(in.tensor()).tensor(grid.tensor()).integer(mode).integer(0).boolean(false)
        .tensor(out.tensor());
    const KernelContext ctx = c.run("aten::grid_sampler_2d.out");
    ASSERT_FALSE(ctx.failed()) << ctx.message();
    for (double v : values_of(out)) EXPECT_TRUE(v == 0 || std::isnan(v)) << v;
  }
}

}  // namespace
}  // namespace ember::testing
