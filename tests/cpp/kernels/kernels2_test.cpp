// Tests of the kernels in upsample_ops.cpp, sort_ops.cpp, padding_ops.cpp,
// pool3d_ops.cpp, misc_ops.cpp and backward_ops.cpp.
// Expected values were generated with PyTorch 2.13 (torch.ops.aten.* on
// float64 inputs) and pasted; inputs use seq(i) = ((i * 37) % 17 - 8) * scale
// or small integer ramps, which 16-bit floats hold exactly (grid coordinates
// do not, hence grid_tol). The random fills are checked by their statistics.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

using testing::OwnedTensor;
using testing::make;
using testing::Sizes;
using testing::Values;
using testing::values_of;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

const ScalarType kFloatTypes[] = {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                                  ScalarType::BFloat16};
const ScalarType kUpsampleTypes[] = {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                                     ScalarType::BFloat16};
const ScalarType kNearestTypes[] = {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                                    ScalarType::BFloat16};
const ScalarType kSignedTypes[] = {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                                   ScalarType::BFloat16, ScalarType::Char, ScalarType::Short,
                                   ScalarType::Int, ScalarType::Long};
const ScalarType kBoolType[] = {ScalarType::Bool};
const ScalarType kLongType[] = {ScalarType::Long};
const ScalarType kIntTypes[] = {ScalarType::Int, ScalarType::Long};
const ScalarType kFloatDoubleTypes[] = {ScalarType::Float, ScalarType::Double};
const ScalarType kPadTypes[] = {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                                ScalarType::BFloat16, ScalarType::Byte, ScalarType::Char,
                                ScalarType::Short, ScalarType::Int, ScalarType::Long};

// An output the kernel must resize: `rank` dims, room for `cap` elements.
OwnedTensor dyn_out(ScalarType dt, int rank, int32_t cap = 1 << 12) {
  Sizes s(static_cast<size_t>(rank), 1);
  if (rank > 0) s[0] = cap;
  return OwnedTensor(dt, s, TensorShapeDynamism::DynamicBound);
}

double tol(ScalarType dt) {
  switch (dt) {
    case ScalarType::Float: return 1e-5;
    case ScalarType::Double: return 1e-12;
    case ScalarType::Half: return 4e-3;
    case ScalarType::BFloat16: return 2e-2;
    default: return 0;
  }
}
// Grid coordinates such as 1.4 round in 16-bit types, which moves the sample.
double grid_tol(ScalarType dt) {
  return dt == ScalarType::BFloat16 ? 0.15 : dt == ScalarType::Half ? 2e-2 : tol(dt);
}
double var_tol(ScalarType dt) {
  return dt == ScalarType::BFloat16 ? 3e-2 : dt == ScalarType::Half ? 1e-2 : tol(dt);
}

using Call = testing::KernelCall;

// Checks that the call succeeded and `out` holds `want` (NaN matches NaN),
// within `tolerance` scaled by max(1, |want|).
void expect_ok(const KernelContext& ctx, OwnedTensor& out, const Sizes& shape, const Values& want,
               double tolerance) {
  const char* dt = scalar_type_name(out.tensor().scalar_type());
  ASSERT_FALSE(ctx.failed()) << dt << ": " << ctx.message();
  Sizes got_shape(out.tensor().sizes().begin(), out.tensor().sizes().end());
  ASSERT_EQ(got_shape, shape) << dt;
  const Values got = values_of(out);
  ASSERT_EQ(got.size(), want.size()) << dt;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << dt << " at " << i;
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << dt << " at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], tolerance * std::fmax(1.0, std::fabs(want[i])))
          << dt << " at " << i;
    }
  }
}

void expect_fail(const KernelContext& ctx, const char* op_name) {
  ASSERT_TRUE(ctx.failed());
  EXPECT_NE(std::strstr(ctx.message(), op_name), nullptr) << ctx.message();
}

TEST(Kernels2Upsample, Nearest2dOutputSize) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75};
  const Values want = {-2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, -2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, 1.5, 1.5, -2.0, -2.0, -1.25, -1.25, -0.5, 1.5, 1.5, -2.0, -2.0, -1.25, -1.25, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 0.75, 0.75, 1.5, 1.5, -2.0, -2.0, -1.25, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 1.25, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75};
  for (ScalarType dt : kNearestTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({5, 7}).none().tensor(out.tensor());
    expect_ok(call.run("aten::upsample_nearest2d.vec_out"), out, {2, 2, 5, 7}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Nearest2dScales) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75};
  const Values want = {-2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 0.25, -2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, 0.75, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, 0.75, 1.5, 1.5, -2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75, 0.0, 0.0, 0.75, 0.75, 1.5, 1.5, -2.0, -2.0, -1.25, -1.25, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -0.5, -0.5, 0.25, 0.25, 1.0, 1.0, 1.75, 1.75, -1.75, -1.75, -1.0, -1.0, -0.25, -0.25, 0.5, 0.5, 1.25, 1.25, 2.0, 2.0, -1.5, -1.5, -0.75, -0.75};
  for (ScalarType dt : kNearestTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).none().doubles({1.5, 2.0}).tensor(out.tensor());
    expect_ok(call.run("aten::upsample_nearest2d.vec_out"), out, {2, 2, 4, 8}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Nearest2dDownsample) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values want = {-2.0, -1.25, -0.5, 1.0, 1.75, -1.75};
  for (ScalarType dt : kNearestTypes) {
    OwnedTensor input = make(dt, {1, 1, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({2, 3}).none().tensor(out.tensor());
    expect_ok(call.run("aten::upsample_nearest2d.vec_out"), out, {1, 1, 2, 3}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Bilinear2dSizeAlign0) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75};
  const Values want = {-2.0, -1.7321428571428572, -1.3035714285714286, -0.875, -0.4464285714285716, -0.017857142857142905, 0.25, -0.8000000000000003, -0.5321428571428576, -0.10357142857142874, -0.5250000000000001, -0.9464285714285716, -0.5178571428571429, -0.24999999999999994, 1.0, 1.2678571428571428, 1.6964285714285712, 0.0, -1.6964285714285716, -1.2678571428571428, -1.0, 0.25000000000000017, 0.517857142857143, 0.9464285714285715, 0.5249999999999999, 0.10357142857142791, 0.5321428571428566, 0.7999999999999996, -0.25, 0.01785714285714282, 0.4464285714285714, 0.875, 1.3035714285714286, 1.7321428571428572, 2.0, -1.5, -1.2321428571428572, -0.8035714285714286, -0.375, 0.05357142857142838, 0.4821428571428571, 0.75, -0.30000000000000016, -0.6392857142857145, -1.1821428571428572, -0.875, -0.44642857142857156, -0.01785714285714285, 0.2500000000000001, 1.5, 0.25000000000000017, -1.7499999999999998, -1.625, -1.1964285714285716, -0.7678571428571429, -0.5, 0.7500000000000002, 0.4107142857142857, -0.13214285714285745, 0.17499999999999957, 0.4214285714285715, -0.607142857142857, -1.25, 0.25, 0.5178571428571428, 0.9464285714285714, 1.375, 1.5000000000000009, -0.49999999999999994, -1.7499999999999998};
  for (ScalarType dt : kUpsampleTypes) {
    OwnedTensor input = make(dt, {1, 2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({5, 7}).boolean(false).none().tensor(out.tensor());
    expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {1, 2, 5, 7}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Bilinear2dScalesAlign0) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75};
  const Values want = {-2.0, -1.9249999999999998, -1.625, -1.325, -1.025, -0.7249999999999999, -0.42499999999999993, -0.125, 0.17500000000000027, 0.25, -0.8529411764705883, -0.7779411764705882, -0.4779411764705882, -0.17794117647058816, -0.3654411764705884, -0.7154411764705885, -0.9029411764705884, -0.6029411764705883, -0.302941176470588, -0.22794117647058826, 0.9117647058823533, 0.9867647058823532, 1.2867647058823533, 1.5867647058823533, 0.6492647058823529, -0.7007352941176477, -1.638235294117647, -1.3382352941176472, -1.038235294117647, -0.9632352941176472, 0.3014705882352941, 0.3764705882352941, 0.6764705882352942, 0.9764705882352942, 0.713970588235294, 0.26397058823529396, 0.001470588235294279, 0.30147058823529416, 0.6014705882352944, 0.6764705882352942, -0.25, -0.17499999999999996, 0.125, 0.4250000000000001, 0.725, 1.0250000000000001, 1.3250000000000002, 1.625, 1.9250000000000003, 2.0, -1.5, -1.4249999999999998, -1.125, -0.8249999999999998, -0.5249999999999999, -0.22499999999999987, 0.07500000000000007, 0.375, 0.6750000000000003, 0.75, -0.3529411764705882, -0.44044117647058834, -0.7904411764705882, -1.1404411764705884, -1.0029411764705882, -0.7029411764705882, -0.40294117647058825, -0.10294117647058826, 0.19705882352941204, 0.27205882352941174, 1.4117647058823533, 1.074264705882353, -0.27573529411764697, -1.6257352941176477, -1.738235294117647, -1.438235294117647, -1.138235294117647, -0.8382352941176472, -0.5382352941176469, -0.4632352941176472, 0.8014705882352942, 0.688970588235294, 0.23897058823529413, -0.21102941176470602, -0.09852941176470574, 0.2014705882352943, 0.26397058823529407, -0.38602941176470584, -1.0360294117647064, -1.1985294117647058, 0.25, 0.325, 0.625, 0.925, 1.2249999999999999, 1.525, 1.4, 5.551115123125783e-17, -1.4000000000000012, -1.75};
  for (ScalarType dt : kUpsampleTypes) {
    OwnedTensor input = make(dt, {1, 2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).none().boolean(false).doubles({1.7, 2.5}).tensor(out.tensor());
    expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {1, 2, 5, 10}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Bilinear2dDownsampleAlign0) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values want = {-1.125, -0.65625, -0.18750000000000022, 0.1875, 0.65625, 1.1249999999999998};
  for (ScalarType dt : kUpsampleTypes) {
    OwnedTensor input = make(dt, {1, 1, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({2, 3}).boolean(false).none().tensor(out.tensor());
    expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {1, 1, 2, 3}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Bilinear2dSizeAlign1) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75};
  const Values want = {-2.0, -1.625, -1.25, -0.875, -0.5, -0.125, 0.25, -0.5, -0.125, 0.25, -0.4375, -1.125, -0.75, -0.375, 1.0, 1.375, 1.75, 0.0, -1.75, -1.375, -1.0, 0.375, 0.75, 1.125, 0.4375, -0.25, 0.125, 0.5, -0.25, 0.125, 0.5, 0.875, 1.25, 1.625, 2.0, -1.5, -1.125, -0.75, -0.375, 0.0, 0.375, 0.75, 0.0, -0.6875, -1.375, -1.0, -0.625, -0.25, 0.125, 1.5, -0.25, -2.0, -1.625, -1.25, -0.875, -0.5, 0.875, 0.1875, -0.5, -0.125, 0.25, -0.4375, -1.125, 0.25, 0.625, 1.0, 1.375, 1.75, 0.0, -1.75};
  for (ScalarType dt : kUpsampleTypes) {
    OwnedTensor input = make(dt, {1, 2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({5, 7}).boolean(true).none().tensor(out.tensor());
    expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {1, 2, 5, 7}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Bilinear2dScalesAlign1) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75};
  const Values want = {-2.0, -1.75, -1.5, -1.25, -1.0, -0.7500000000000001, -0.5, -0.2500000000000002, -1.1102230246251565e-16, 0.25, -0.5, -0.24999999999999997, 4.163336342344337e-17, 0.25, -0.2083333333333332, -0.6666666666666665, -1.125, -0.8750000000000002, -0.6250000000000001, -0.375, 1.0, 1.25, 1.5, 1.75, 0.5833333333333335, -0.5833333333333329, -1.75, -1.5000000000000002, -1.25, -1.0, 0.375, 0.625, 0.875, 1.125, 0.6666666666666667, 0.20833333333333348, -0.25, -2.220446049250313e-16, 0.24999999999999994, 0.5, -0.25, -2.7755575615628914e-17, 0.24999999999999997, 0.5, 0.75, 0.9999999999999999, 1.25, 1.4999999999999998, 1.75, 2.0, -1.5, -1.25, -1.0, -0.75, -0.5, -0.2500000000000001, 0.0, 0.24999999999999978, 0.4999999999999999, 0.75, 0.0, -0.45833333333333326, -0.9166666666666666, -1.375, -1.125, -0.8750000000000001, -0.625, -0.3750000000000002, -0.1250000000000001, 0.125, 1.5, 0.3333333333333335, -0.8333333333333333, -2.0, -1.75, -1.5, -1.25, -1.0000000000000002, -0.7500000000000001, -0.5, 0.875, 0.41666666666666674, -0.04166666666666663, -0.5, -0.25, -5.551115123125783e-17, 0.25, -0.20833333333333293, -0.6666666666666665, -1.125, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 0.5833333333333344, -0.5833333333333329, -1.75};
  for (ScalarType dt : kUpsampleTypes) {
    OwnedTensor input = make(dt, {1, 2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).none().boolean(true).doubles({1.7, 2.5}).tensor(out.tensor());
    expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {1, 2, 5, 10}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Bilinear2dDownsampleAlign1) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values want = {-2.0, -0.875, 0.25, -0.25, 0.875, 2.0};
  for (ScalarType dt : kUpsampleTypes) {
    OwnedTensor input = make(dt, {1, 1, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({2, 3}).boolean(true).none().tensor(out.tensor());
    expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {1, 1, 2, 3}, want, tol(dt));
  }
}
TEST(Kernels2Upsample, Bilinear2dToOnePixel) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values want = {-2.0};
  for (ScalarType dt : kUpsampleTypes) {
    OwnedTensor input = make(dt, {1, 1, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({1, 1}).boolean(true).none().tensor(out.tensor());
    expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {1, 1, 1, 1}, want, tol(dt));
  }
}
const Values kGridInput = {-4.0, -2.5, -1.0, 0.5, 2.0, 3.5, -3.5, -2.0, -0.5, 1.0, 2.5, 4.0, -3.0, -1.5, 0.0, 1.5, 3.0, -4.0, -2.5, -1.0, 0.5, 2.0, 3.5, -3.5, -2.0, -0.5, 1.0, 2.5, 4.0, -3.0, -1.5, 0.0, 1.5, 3.0, -4.0, -2.5, -1.0, 0.5, 2.0, 3.5, -3.5, -2.0, -0.5, 1.0, 2.5, 4.0, -3.0, -1.5};
const Values kGrid = {-1.4, 1.0, 0.5, 0.0, -0.5, -1.0, 1.4, 0.9, 0.4, -0.1, -0.6, -1.1, 1.3, 0.8, 0.3, -0.2, -0.7, -1.2, 1.2, 0.7, 0.2, -0.3, -0.8, -1.3};
TEST(Kernels2GridSampler, Mode0Pad0Align0) {
  const Values want = {0.0, -2.75, -1.625, 0.0, -2.6750000000000003, -1.2424999999999995, 0.0, -1.75, -1.125, 0.0, -1.6750000000000005, -0.8924999999999996, 0.0, -0.6000000000000001, -0.3700000000000001, -0.2374999999999992, -0.5249999999999999, -0.08999999999999987, 0.0, 0.39999999999999997, -0.17000000000000004, -0.14249999999999952, 0.4750000000000001, -0.044999999999999936};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(0).integer(0).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode0Pad0Align1) {
  const Values want = {-0.20000000000000007, -3.125, -2.875, 1.360000000000001, -3.1000000000000005, -2.7899999999999996, 0.20000000000000007, -2.125, -1.875, -1.300000000000001, -2.100000000000001, -1.8899999999999997, -1.1000000000000005, -1.075, -1.06, -1.2249999999999994, -1.0500000000000003, -1.085, -0.5500000000000003, -0.07499999999999984, -0.2599999999999999, -0.5249999999999997, -0.050000000000000155, -0.385};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(0).integer(0).boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode0Pad1Align0) {
  const Values want = {-0.5, -2.75, -3.25, 4.0, -2.6750000000000003, -3.55, 0.5, -1.75, -2.25, -3.5, -1.6750000000000005, -2.55, -2.5, -0.6000000000000001, -1.8499999999999999, -2.5, -0.5249999999999999, -2.0, -1.5, 0.39999999999999997, -0.8499999999999999, -1.5, 0.4750000000000001, -1.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(0).integer(1).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode0Pad1Align1) {
  const Values want = {-0.5, -3.125, -2.875, 3.3999999999999995, -3.1000000000000005, -3.0999999999999996, 0.5, -2.125, -1.875, -3.25, -2.100000000000001, -2.0999999999999996, -2.0, -1.075, -1.325, -1.75, -1.0500000000000003, -1.55, -1.0, -0.07499999999999984, -0.3249999999999999, -0.7499999999999999, -0.050000000000000155, -0.55};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(0).integer(1).boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode0Pad2Align0) {
  const Values want = {-0.050000000000000266, -2.75, -3.25, 3.5500000000000003, -2.6750000000000003, -3.55, 0.9499999999999997, -1.75, -2.25, -1.4000000000000012, -1.6750000000000005, -2.55, -2.6499999999999995, -0.6000000000000003, -1.8499999999999999, -2.5, -0.5249999999999997, -2.0, -1.6499999999999995, 0.3999999999999996, -0.8499999999999999, -1.5, 0.47500000000000037, -1.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(0).integer(2).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode0Pad2Align1) {
  const Values want = {0.3999999999999998, -3.125, -2.875, 2.5, -3.1000000000000005, -2.499999999999999, 1.4, -2.125, -1.875, 0.4399999999999975, -2.100000000000001, -2.01, -2.675, -1.075, -0.8900000000000002, -2.2, -1.0500000000000003, -0.5149999999999998, -1.6749999999999998, -0.07499999999999984, -0.8249999999999997, -1.2000000000000002, -0.050000000000000155, -1.3};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(0).integer(2).boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode1Pad0Align0) {
  const Values want = {0.0, -3.5, -4.0, 0.0, -3.5, 0.0, 0.0, -2.5, -3.0, 0.0, -2.5, 0.0, 0.0, -1.5, 0.0, 0.0, -1.5, 0.0, 0.0, -0.5, 0.0, 0.0, -0.5, 0.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(1).integer(0).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode1Pad0Align1) {
  const Values want = {0.0, -3.5, -2.5, 0.0, -3.5, -2.5, 0.0, -2.5, -1.5, 0.0, -2.5, -1.5, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(1).integer(0).boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode1Pad1Align0) {
  const Values want = {-0.5, -3.5, -4.0, 4.0, -3.5, -4.0, 0.5, -2.5, -3.0, -3.5, -2.5, -3.0, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(1).integer(1).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode1Pad1Align1) {
  const Values want = {-0.5, -3.5, -2.5, 4.0, -3.5, -2.5, 0.5, -2.5, -1.5, -3.5, -2.5, -1.5, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(1).integer(1).boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode1Pad2Align0) {
  const Values want = {-0.5, -3.5, -4.0, 4.0, -3.5, -4.0, 0.5, -2.5, -3.0, -3.5, -2.5, -3.0, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(1).integer(2).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2GridSampler, Mode1Pad2Align1) {
  const Values want = {1.0, -3.5, -2.5, 2.5, -3.5, -2.5, 2.0, -2.5, -1.5, 3.5, -2.5, -1.5, -2.5, -1.5, -2.0, -2.5, -1.5, -2.0, -1.5, -0.5, -1.0, -1.5, -0.5, -1.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 4}, kGridInput);
    OwnedTensor grid = make(dt, {2, 2, 3, 2}, kGrid);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).tensor(grid.tensor()).integer(1).integer(2).boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::grid_sampler_2d.out"), out, {2, 2, 2, 3}, want, grid_tol(dt));
  }
}
TEST(Kernels2Sort, TiesDim1Desc0) {
  const Values in = {3.0, 1.0, 2.0, 1.0, 0.0, 2.0, 2.0, -1.0, 5.0, 2.0, 0.0, 4.0, 4.0, 1.0, 3.0};
  const Values want = {0.0, 1.0, 1.0, 2.0, 3.0, -1.0, 2.0, 2.0, 2.0, 5.0, 0.0, 1.0, 3.0, 4.0, 4.0};
  const Values want_idx = {4.0, 1.0, 3.0, 2.0, 0.0, 2.0, 0.0, 1.0, 4.0, 3.0, 0.0, 3.0, 4.0, 1.0, 2.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 5}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(-1).boolean(false).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {3, 5}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, TiesDim1Desc1) {
  const Values in = {3.0, 1.0, 2.0, 1.0, 0.0, 2.0, 2.0, -1.0, 5.0, 2.0, 0.0, 4.0, 4.0, 1.0, 3.0};
  const Values want = {3.0, 2.0, 1.0, 1.0, 0.0, 5.0, 2.0, 2.0, 2.0, -1.0, 4.0, 4.0, 3.0, 1.0, 0.0};
  const Values want_idx = {0.0, 2.0, 1.0, 3.0, 4.0, 3.0, 0.0, 1.0, 4.0, 2.0, 1.0, 2.0, 4.0, 3.0, 0.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 5}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(-1).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {3, 5}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, TiesDim0Desc0) {
  const Values in = {3.0, 1.0, 2.0, 1.0, 0.0, 2.0, 2.0, -1.0, 5.0, 2.0, 0.0, 4.0, 4.0, 1.0, 3.0};
  const Values want = {0.0, 1.0, -1.0, 1.0, 0.0, 2.0, 2.0, 2.0, 1.0, 2.0, 3.0, 4.0, 4.0, 5.0, 3.0};
  const Values want_idx = {2.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 1.0, 2.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 5}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(0).boolean(false).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {3, 5}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, TiesDim0Desc1) {
  const Values in = {3.0, 1.0, 2.0, 1.0, 0.0, 2.0, 2.0, -1.0, 5.0, 2.0, 0.0, 4.0, 4.0, 1.0, 3.0};
  const Values want = {3.0, 4.0, 4.0, 5.0, 3.0, 2.0, 2.0, 2.0, 1.0, 2.0, 0.0, 1.0, -1.0, 1.0, 0.0};
  const Values want_idx = {0.0, 2.0, 2.0, 1.0, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 5}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(0).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {3, 5}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, BoolDesc) {
  const Values in = {1.0, 0.0, 1.0, 1.0, 0.0, 0.0};
  const Values want = {1.0, 1.0, 1.0, 0.0, 0.0, 0.0};
  const Values want_idx = {0.0, 2.0, 3.0, 1.0, 4.0, 5.0};
  for (ScalarType dt : kBoolType) {
    OwnedTensor input = make(dt, {1, 6}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(1).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {1, 6}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, Bool) {
  const Values in = {1.0, 0.0, 1.0, 1.0, 0.0, 0.0};
  const Values want = {0.0, 0.0, 0.0, 1.0, 1.0, 1.0};
  const Values want_idx = {1.0, 4.0, 5.0, 0.0, 2.0, 3.0};
  for (ScalarType dt : kBoolType) {
    OwnedTensor input = make(dt, {1, 6}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(1).boolean(false).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {1, 6}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, NaNLast) {
  const Values in = {1.5, kNaN, -2.0, kInf, 1.5, -kInf, kNaN, 0.0};
  const Values want = {-kInf, -2.0, 0.0, 1.5, 1.5, kInf, kNaN, kNaN};
  const Values want_idx = {5.0, 2.0, 7.0, 0.0, 4.0, 3.0, 1.0, 6.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {8}, in);
    OwnedTensor values = dyn_out(dt, 1);
    OwnedTensor indices = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(input.tensor()).integer(0).boolean(false).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {8}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, NaNFirstDescending) {
  const Values in = {1.5, kNaN, -2.0, kInf, 1.5, -kInf, kNaN, 0.0};
  const Values want = {kNaN, kNaN, kInf, 1.5, 1.5, 0.0, -2.0, -kInf};
  const Values want_idx = {1.0, 6.0, 3.0, 0.0, 4.0, 7.0, 2.0, 5.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {8}, in);
    OwnedTensor values = dyn_out(dt, 1);
    OwnedTensor indices = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(input.tensor()).integer(0).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {8}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, StableOverload) {
  const Values in = {3.0, 1.0, 2.0, 1.0, 0.0, 2.0, 2.0, -1.0, 5.0, 2.0, 0.0, 4.0, 4.0, 1.0, 3.0};
  const Values want = {3.0, 2.0, 1.0, 1.0, 0.0, 5.0, 2.0, 2.0, 2.0, -1.0, 4.0, 4.0, 3.0, 1.0, 0.0};
  const Values want_idx = {0.0, 2.0, 1.0, 3.0, 4.0, 3.0, 0.0, 1.0, 4.0, 2.0, 1.0, 2.0, 4.0, 3.0, 0.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 5}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).boolean(true).integer(1).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values_stable"), values, {3, 5}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Sort, Rank3Middle) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25};
  const Values want = {-2.0, -1.75, -2.0, -1.25, -0.5, 0.75, -1.25, -1.5, -0.75, 0.0, 1.25, 1.5, -1.0, -0.25, 0.5, 1.75, 2.0, -0.5, 0.25, 1.0, -1.25, -0.5, 0.25, -1.75, -2.0, -0.75, 0.0, 0.75, 1.0, -1.5, -0.25, 0.5, 1.25, 1.5, -1.0, 0.25, 1.0, 1.75, 2.0, 1.75, -1.75, -2.0, -1.75, -1.0, -0.25, 1.0, -1.5, -1.25, -0.5, 0.25, 1.5, -1.0, -0.75, 0.0, 0.75, 2.0, 1.75, -0.25, 0.5, 1.25};
  const Values want_idx = {0.0, 1.0, 3.0, 3.0, 3.0, 3.0, 0.0, 2.0, 2.0, 2.0, 2.0, 3.0, 1.0, 1.0, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 3.0, 3.0, 3.0, 0.0, 2.0, 2.0, 2.0, 2.0, 3.0, 1.0, 1.0, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0, 3.0, 0.0, 2.0, 3.0, 3.0, 3.0, 3.0, 1.0, 2.0, 2.0, 2.0, 2.0, 0.0, 1.0, 1.0, 1.0, 1.0, 3.0, 0.0, 0.0, 0.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {3, 4, 5}, in);
    OwnedTensor values = dyn_out(dt, 3);
    OwnedTensor indices = dyn_out(ScalarType::Long, 3);
    Call call;
    call.tensor(input.tensor()).integer(1).boolean(false).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::sort.values"), values, {3, 4, 5}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Topk, LargestLastDim) {
  const Values in = {7.0, 2.0, 9.0, 4.0, 0.0, 11.0, 5.0, 10.0, 1.0, 8.0, 3.0, 6.0, 12.0, -3.0, 14.0, 13.0, -1.0, 2.0};
  const Values want = {11.0, 9.0, 7.0, 10.0, 8.0, 6.0, 14.0, 13.0, 12.0};
  const Values want_idx = {5.0, 2.0, 0.0, 1.0, 3.0, 5.0, 2.0, 3.0, 0.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 6}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(3).integer(-1).boolean(true).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::topk.values"), values, {3, 3}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Topk, SmallestLastDim) {
  const Values in = {7.0, 2.0, 9.0, 4.0, 0.0, 11.0, 5.0, 10.0, 1.0, 8.0, 3.0, 6.0, 12.0, -3.0, 14.0, 13.0, -1.0, 2.0};
  const Values want = {0.0, 2.0, 1.0, 3.0, -3.0, -1.0};
  const Values want_idx = {4.0, 1.0, 2.0, 4.0, 1.0, 4.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 6}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(2).integer(1).boolean(false).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::topk.values"), values, {3, 2}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Topk, LargestDim0) {
  const Values in = {7.0, 2.0, 9.0, 4.0, 0.0, 11.0, 5.0, 10.0, 1.0, 8.0, 3.0, 6.0, 12.0, -3.0, 14.0, 13.0, -1.0, 2.0};
  const Values want = {12.0, 10.0, 14.0, 13.0, 3.0, 11.0, 7.0, 2.0, 9.0, 8.0, 0.0, 6.0};
  const Values want_idx = {2.0, 1.0, 2.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 6}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(2).integer(0).boolean(true).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::topk.values"), values, {2, 6}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Topk, AllOfDim) {
  const Values in = {7.0, 2.0, 9.0, 4.0, 0.0, 11.0, 5.0, 10.0, 1.0, 8.0, 3.0, 6.0, 12.0, -3.0, 14.0, 13.0, -1.0, 2.0};
  const Values want = {0.0, 2.0, 4.0, 7.0, 9.0, 11.0, 1.0, 3.0, 5.0, 6.0, 8.0, 10.0, -3.0, -1.0, 2.0, 12.0, 13.0, 14.0};
  const Values want_idx = {4.0, 1.0, 3.0, 0.0, 2.0, 5.0, 2.0, 4.0, 0.0, 5.0, 3.0, 1.0, 1.0, 4.0, 5.0, 0.0, 3.0, 2.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {3, 6}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(6).integer(1).boolean(false).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::topk.values"), values, {3, 6}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Topk, KZero) {
  const Values in = {7.0, 2.0, 9.0, 4.0, 0.0, 11.0, 5.0, 10.0, 1.0, 8.0, 3.0, 6.0, 12.0, -3.0, 14.0, 13.0, -1.0, 2.0};
  const Values want = {};
  const Values want_idx = {};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {3, 6}, in);
    OwnedTensor values = dyn_out(dt, 2);
    OwnedTensor indices = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(input.tensor()).integer(0).integer(1).boolean(true).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::topk.values"), values, {3, 0}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Topk, NaNIsLargest) {
  const Values in = {1.5, kNaN, -2.0, 3.0, 0.5};
  const Values want = {kNaN, 3.0};
  const Values want_idx = {1.0, 3.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {5}, in);
    OwnedTensor values = dyn_out(dt, 1);
    OwnedTensor indices = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(input.tensor()).integer(2).integer(0).boolean(true).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::topk.values"), values, {2}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Topk, NaNIsNotSmallest) {
  const Values in = {1.5, kNaN, -2.0, 3.0, 0.5};
  const Values want = {-2.0, 0.5};
  const Values want_idx = {2.0, 4.0};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {5}, in);
    OwnedTensor values = dyn_out(dt, 1);
    OwnedTensor indices = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(input.tensor()).integer(2).integer(0).boolean(false).boolean(true).tensor(values.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::topk.values"), values, {2}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Var, Dim1Unbiased) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75};
  const Values want = {2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 1.5625};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(input.tensor()).ints({1}).boolean(true).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::var.out"), out, {2, 4}, want, var_tol(dt));
  }
}
TEST(Kernels2Var, Dims02BiasedKeepdim) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75};
  const Values want = {0.765625, 1.9443359374999998, 1.2802734375};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(input.tensor()).ints({0, -1}).boolean(false).boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::var.out"), out, {1, 3, 1}, want, var_tol(dt));
  }
}
TEST(Kernels2Var, AllDims) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75};
  const Values want = {1.6625905797101448};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 0);
    Call call;
    call.tensor(input.tensor()).none().boolean(true).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::var.out"), out, {}, want, var_tol(dt));
  }
}
TEST(Kernels2Var, SingleElementUnbiasedIsNaN) {
  const Values in = {-2.0, -1.25, -0.5};
  const Values want = {kNaN, kNaN, kNaN};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {3, 1}, in);
    OwnedTensor out = dyn_out(dt, 1);
    Call call;
    call.tensor(input.tensor()).ints({1}).boolean(true).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::var.out"), out, {3}, want, var_tol(dt));
  }
}
TEST(Kernels2Padding, Reflection1d) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0};
  const Values want = {2.0, 1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 1.0, 7.0, 6.0, 5.0, 6.0, 7.0, 8.0, 9.0, 8.0, 7.0, 6.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 5}, in);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(input.tensor()).ints({2, 3}).tensor(out.tensor());
    expect_ok(call.run("aten::reflection_pad1d.out"), out, {2, 10}, want, 0);
  }
}
TEST(Kernels2Padding, Reflection1dNegative) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0};
  const Values want = {1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 6.0, 7.0, 8.0, 9.0, 8.0, 7.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 5}, in);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(input.tensor()).ints({-1, 2}).tensor(out.tensor());
    expect_ok(call.run("aten::reflection_pad1d.out"), out, {2, 6}, want, 0);
  }
}
TEST(Kernels2Padding, Reflection1dBatched) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0};
  const Values want = {1.0, 0.0, 1.0, 2.0, 3.0, 2.0, 1.0, 5.0, 4.0, 5.0, 6.0, 7.0, 6.0, 5.0, 9.0, 8.0, 9.0, 10.0, 11.0, 10.0, 9.0, 13.0, 12.0, 13.0, 14.0, 15.0, 14.0, 13.0, 17.0, 16.0, 17.0, 18.0, 19.0, 18.0, 17.0, 21.0, 20.0, 21.0, 22.0, 23.0, 22.0, 21.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(input.tensor()).ints({1, 2}).tensor(out.tensor());
    expect_ok(call.run("aten::reflection_pad1d.out"), out, {2, 3, 7}, want, 0);
  }
}
TEST(Kernels2Padding, Reflection2d) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0};
  const Values want = {9.0, 8.0, 9.0, 10.0, 11.0, 10.0, 9.0, 8.0, 5.0, 4.0, 5.0, 6.0, 7.0, 6.0, 5.0, 4.0, 1.0, 0.0, 1.0, 2.0, 3.0, 2.0, 1.0, 0.0, 5.0, 4.0, 5.0, 6.0, 7.0, 6.0, 5.0, 4.0, 9.0, 8.0, 9.0, 10.0, 11.0, 10.0, 9.0, 8.0, 5.0, 4.0, 5.0, 6.0, 7.0, 6.0, 5.0, 4.0, 21.0, 20.0, 21.0, 22.0, 23.0, 22.0, 21.0, 20.0, 17.0, 16.0, 17.0, 18.0, 19.0, 18.0, 17.0, 16.0, 13.0, 12.0, 13.0, 14.0, 15.0, 14.0, 13.0, 12.0, 17.0, 16.0, 17.0, 18.0, 19.0, 18.0, 17.0, 16.0, 21.0, 20.0, 21.0, 22.0, 23.0, 22.0, 21.0, 20.0, 17.0, 16.0, 17.0, 18.0, 19.0, 18.0, 17.0, 16.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(input.tensor()).ints({1, 3, 2, 1}).tensor(out.tensor());
    expect_ok(call.run("aten::reflection_pad2d.out"), out, {2, 6, 8}, want, 0);
  }
}
TEST(Kernels2Padding, Reflection2dBatched) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0};
  const Values want = {7.0, 6.0, 5.0, 4.0, 5.0, 6.0, 7.0, 11.0, 10.0, 9.0, 8.0, 9.0, 10.0, 11.0, 7.0, 6.0, 5.0, 4.0, 5.0, 6.0, 7.0, 3.0, 2.0, 1.0, 0.0, 1.0, 2.0, 3.0, 19.0, 18.0, 17.0, 16.0, 17.0, 18.0, 19.0, 23.0, 22.0, 21.0, 20.0, 21.0, 22.0, 23.0, 19.0, 18.0, 17.0, 16.0, 17.0, 18.0, 19.0, 15.0, 14.0, 13.0, 12.0, 13.0, 14.0, 15.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {1, 2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({3, 0, -1, 2}).tensor(out.tensor());
    expect_ok(call.run("aten::reflection_pad2d.out"), out, {1, 2, 4, 7}, want, 0);
  }
}
TEST(Kernels2Padding, Reflection3d) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0};
  const Values want = {10.0, 9.0, 10.0, 11.0, 10.0, 9.0, 13.0, 12.0, 13.0, 14.0, 13.0, 12.0, 16.0, 15.0, 16.0, 17.0, 16.0, 15.0, 13.0, 12.0, 13.0, 14.0, 13.0, 12.0, 10.0, 9.0, 10.0, 11.0, 10.0, 9.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0, 4.0, 3.0, 4.0, 5.0, 4.0, 3.0, 7.0, 6.0, 7.0, 8.0, 7.0, 6.0, 4.0, 3.0, 4.0, 5.0, 4.0, 3.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0, 10.0, 9.0, 10.0, 11.0, 10.0, 9.0, 13.0, 12.0, 13.0, 14.0, 13.0, 12.0, 16.0, 15.0, 16.0, 17.0, 16.0, 15.0, 13.0, 12.0, 13.0, 14.0, 13.0, 12.0, 10.0, 9.0, 10.0, 11.0, 10.0, 9.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0, 4.0, 3.0, 4.0, 5.0, 4.0, 3.0, 7.0, 6.0, 7.0, 8.0, 7.0, 6.0, 4.0, 3.0, 4.0, 5.0, 4.0, 3.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0, 28.0, 27.0, 28.0, 29.0, 28.0, 27.0, 31.0, 30.0, 31.0, 32.0, 31.0, 30.0, 34.0, 33.0, 34.0, 35.0, 34.0, 33.0, 31.0, 30.0, 31.0, 32.0, 31.0, 30.0, 28.0, 27.0, 28.0, 29.0, 28.0, 27.0, 19.0, 18.0, 19.0, 20.0, 19.0, 18.0, 22.0, 21.0, 22.0, 23.0, 22.0, 21.0, 25.0, 24.0, 25.0, 26.0, 25.0, 24.0, 22.0, 21.0, 22.0, 23.0, 22.0, 21.0, 19.0, 18.0, 19.0, 20.0, 19.0, 18.0, 28.0, 27.0, 28.0, 29.0, 28.0, 27.0, 31.0, 30.0, 31.0, 32.0, 31.0, 30.0, 34.0, 33.0, 34.0, 35.0, 34.0, 33.0, 31.0, 30.0, 31.0, 32.0, 31.0, 30.0, 28.0, 27.0, 28.0, 29.0, 28.0, 27.0, 19.0, 18.0, 19.0, 20.0, 19.0, 18.0, 22.0, 21.0, 22.0, 23.0, 22.0, 21.0, 25.0, 24.0, 25.0, 26.0, 25.0, 24.0, 22.0, 21.0, 22.0, 23.0, 22.0, 21.0, 19.0, 18.0, 19.0, 20.0, 19.0, 18.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {1, 2, 2, 3, 3}, in);
    OwnedTensor out = dyn_out(dt, 5);
    Call call;
    call.tensor(input.tensor()).ints({1, 2, 0, 2, 1, 1}).tensor(out.tensor());
    expect_ok(call.run("aten::reflection_pad3d.out"), out, {1, 2, 4, 5, 6}, want, 0);
  }
}
TEST(Kernels2Padding, Reflection3dUnbatched) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0};
  const Values want = {14.0, 13.0, 12.0, 13.0, 14.0, 11.0, 10.0, 9.0, 10.0, 11.0, 14.0, 13.0, 12.0, 13.0, 14.0, 17.0, 16.0, 15.0, 16.0, 17.0, 14.0, 13.0, 12.0, 13.0, 14.0, 5.0, 4.0, 3.0, 4.0, 5.0, 2.0, 1.0, 0.0, 1.0, 2.0, 5.0, 4.0, 3.0, 4.0, 5.0, 8.0, 7.0, 6.0, 7.0, 8.0, 5.0, 4.0, 3.0, 4.0, 5.0, 14.0, 13.0, 12.0, 13.0, 14.0, 11.0, 10.0, 9.0, 10.0, 11.0, 14.0, 13.0, 12.0, 13.0, 14.0, 17.0, 16.0, 15.0, 16.0, 17.0, 14.0, 13.0, 12.0, 13.0, 14.0, 32.0, 31.0, 30.0, 31.0, 32.0, 29.0, 28.0, 27.0, 28.0, 29.0, 32.0, 31.0, 30.0, 31.0, 32.0, 35.0, 34.0, 33.0, 34.0, 35.0, 32.0, 31.0, 30.0, 31.0, 32.0, 23.0, 22.0, 21.0, 22.0, 23.0, 20.0, 19.0, 18.0, 19.0, 20.0, 23.0, 22.0, 21.0, 22.0, 23.0, 26.0, 25.0, 24.0, 25.0, 26.0, 23.0, 22.0, 21.0, 22.0, 23.0, 32.0, 31.0, 30.0, 31.0, 32.0, 29.0, 28.0, 27.0, 28.0, 29.0, 32.0, 31.0, 30.0, 31.0, 32.0, 35.0, 34.0, 33.0, 34.0, 35.0, 32.0, 31.0, 30.0, 31.0, 32.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 3}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({2, 0, 1, 1, 1, 0}).tensor(out.tensor());
    expect_ok(call.run("aten::reflection_pad3d.out"), out, {2, 3, 5, 5}, want, 0);
  }
}
TEST(Kernels2Padding, Replication1d) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0};
  const Values want = {0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 4.0, 4.0, 4.0, 4.0, 5.0, 5.0, 5.0, 5.0, 6.0, 7.0, 8.0, 9.0, 9.0, 9.0, 9.0, 9.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 5}, in);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(input.tensor()).ints({3, 4}).tensor(out.tensor());
    expect_ok(call.run("aten::replication_pad1d.out"), out, {2, 12}, want, 0);
  }
}
TEST(Kernels2Padding, Replication1dNegative) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0};
  const Values want = {1.0, 2.0, 3.0, 4.0, 4.0, 4.0, 6.0, 7.0, 8.0, 9.0, 9.0, 9.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 5}, in);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(input.tensor()).ints({-1, 2}).tensor(out.tensor());
    expect_ok(call.run("aten::replication_pad1d.out"), out, {2, 6}, want, 0);
  }
}
TEST(Kernels2Padding, Replication1dBatched) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0};
  const Values want = {0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 4.0, 4.0, 5.0, 6.0, 7.0, 7.0, 7.0, 8.0, 8.0, 9.0, 10.0, 11.0, 11.0, 11.0, 12.0, 12.0, 13.0, 14.0, 15.0, 15.0, 15.0, 16.0, 16.0, 17.0, 18.0, 19.0, 19.0, 19.0, 20.0, 20.0, 21.0, 22.0, 23.0, 23.0, 23.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(input.tensor()).ints({1, 2}).tensor(out.tensor());
    expect_ok(call.run("aten::replication_pad1d.out"), out, {2, 3, 7}, want, 0);
  }
}
TEST(Kernels2Padding, Replication2d) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0};
  const Values want = {0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0, 0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0, 0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0, 4.0, 4.0, 5.0, 6.0, 7.0, 7.0, 7.0, 7.0, 8.0, 8.0, 9.0, 10.0, 11.0, 11.0, 11.0, 11.0, 8.0, 8.0, 9.0, 10.0, 11.0, 11.0, 11.0, 11.0, 12.0, 12.0, 13.0, 14.0, 15.0, 15.0, 15.0, 15.0, 12.0, 12.0, 13.0, 14.0, 15.0, 15.0, 15.0, 15.0, 12.0, 12.0, 13.0, 14.0, 15.0, 15.0, 15.0, 15.0, 16.0, 16.0, 17.0, 18.0, 19.0, 19.0, 19.0, 19.0, 20.0, 20.0, 21.0, 22.0, 23.0, 23.0, 23.0, 23.0, 20.0, 20.0, 21.0, 22.0, 23.0, 23.0, 23.0, 23.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(input.tensor()).ints({1, 3, 2, 1}).tensor(out.tensor());
    expect_ok(call.run("aten::replication_pad2d.out"), out, {2, 6, 8}, want, 0);
  }
}
TEST(Kernels2Padding, Replication2dBatched) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0};
  const Values want = {4.0, 4.0, 4.0, 4.0, 5.0, 6.0, 7.0, 8.0, 8.0, 8.0, 8.0, 9.0, 10.0, 11.0, 8.0, 8.0, 8.0, 8.0, 9.0, 10.0, 11.0, 8.0, 8.0, 8.0, 8.0, 9.0, 10.0, 11.0, 16.0, 16.0, 16.0, 16.0, 17.0, 18.0, 19.0, 20.0, 20.0, 20.0, 20.0, 21.0, 22.0, 23.0, 20.0, 20.0, 20.0, 20.0, 21.0, 22.0, 23.0, 20.0, 20.0, 20.0, 20.0, 21.0, 22.0, 23.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {1, 2, 3, 4}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({3, 0, -1, 2}).tensor(out.tensor());
    expect_ok(call.run("aten::replication_pad2d.out"), out, {1, 2, 4, 7}, want, 0);
  }
}
TEST(Kernels2Padding, Replication3d) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0};
  const Values want = {0.0, 0.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 4.0, 5.0, 5.0, 5.0, 6.0, 6.0, 7.0, 8.0, 8.0, 8.0, 6.0, 6.0, 7.0, 8.0, 8.0, 8.0, 6.0, 6.0, 7.0, 8.0, 8.0, 8.0, 0.0, 0.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 4.0, 5.0, 5.0, 5.0, 6.0, 6.0, 7.0, 8.0, 8.0, 8.0, 6.0, 6.0, 7.0, 8.0, 8.0, 8.0, 6.0, 6.0, 7.0, 8.0, 8.0, 8.0, 9.0, 9.0, 10.0, 11.0, 11.0, 11.0, 12.0, 12.0, 13.0, 14.0, 14.0, 14.0, 15.0, 15.0, 16.0, 17.0, 17.0, 17.0, 15.0, 15.0, 16.0, 17.0, 17.0, 17.0, 15.0, 15.0, 16.0, 17.0, 17.0, 17.0, 9.0, 9.0, 10.0, 11.0, 11.0, 11.0, 12.0, 12.0, 13.0, 14.0, 14.0, 14.0, 15.0, 15.0, 16.0, 17.0, 17.0, 17.0, 15.0, 15.0, 16.0, 17.0, 17.0, 17.0, 15.0, 15.0, 16.0, 17.0, 17.0, 17.0, 18.0, 18.0, 19.0, 20.0, 20.0, 20.0, 21.0, 21.0, 22.0, 23.0, 23.0, 23.0, 24.0, 24.0, 25.0, 26.0, 26.0, 26.0, 24.0, 24.0, 25.0, 26.0, 26.0, 26.0, 24.0, 24.0, 25.0, 26.0, 26.0, 26.0, 18.0, 18.0, 19.0, 20.0, 20.0, 20.0, 21.0, 21.0, 22.0, 23.0, 23.0, 23.0, 24.0, 24.0, 25.0, 26.0, 26.0, 26.0, 24.0, 24.0, 25.0, 26.0, 26.0, 26.0, 24.0, 24.0, 25.0, 26.0, 26.0, 26.0, 27.0, 27.0, 28.0, 29.0, 29.0, 29.0, 30.0, 30.0, 31.0, 32.0, 32.0, 32.0, 33.0, 33.0, 34.0, 35.0, 35.0, 35.0, 33.0, 33.0, 34.0, 35.0, 35.0, 35.0, 33.0, 33.0, 34.0, 35.0, 35.0, 35.0, 27.0, 27.0, 28.0, 29.0, 29.0, 29.0, 30.0, 30.0, 31.0, 32.0, 32.0, 32.0, 33.0, 33.0, 34.0, 35.0, 35.0, 35.0, 33.0, 33.0, 34.0, 35.0, 35.0, 35.0, 33.0, 33.0, 34.0, 35.0, 35.0, 35.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {1, 2, 2, 3, 3}, in);
    OwnedTensor out = dyn_out(dt, 5);
    Call call;
    call.tensor(input.tensor()).ints({1, 2, 0, 2, 1, 1}).tensor(out.tensor());
    expect_ok(call.run("aten::replication_pad3d.out"), out, {1, 2, 4, 5, 6}, want, 0);
  }
}
TEST(Kernels2Padding, Replication3dUnbatched) {
  const Values in = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0};
  const Values want = {0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0, 6.0, 6.0, 6.0, 7.0, 8.0, 6.0, 6.0, 6.0, 7.0, 8.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0, 6.0, 6.0, 6.0, 7.0, 8.0, 6.0, 6.0, 6.0, 7.0, 8.0, 9.0, 9.0, 9.0, 10.0, 11.0, 9.0, 9.0, 9.0, 10.0, 11.0, 12.0, 12.0, 12.0, 13.0, 14.0, 15.0, 15.0, 15.0, 16.0, 17.0, 15.0, 15.0, 15.0, 16.0, 17.0, 18.0, 18.0, 18.0, 19.0, 20.0, 18.0, 18.0, 18.0, 19.0, 20.0, 21.0, 21.0, 21.0, 22.0, 23.0, 24.0, 24.0, 24.0, 25.0, 26.0, 24.0, 24.0, 24.0, 25.0, 26.0, 18.0, 18.0, 18.0, 19.0, 20.0, 18.0, 18.0, 18.0, 19.0, 20.0, 21.0, 21.0, 21.0, 22.0, 23.0, 24.0, 24.0, 24.0, 25.0, 26.0, 24.0, 24.0, 24.0, 25.0, 26.0, 27.0, 27.0, 27.0, 28.0, 29.0, 27.0, 27.0, 27.0, 28.0, 29.0, 30.0, 30.0, 30.0, 31.0, 32.0, 33.0, 33.0, 33.0, 34.0, 35.0, 33.0, 33.0, 33.0, 34.0, 35.0};
  for (ScalarType dt : kPadTypes) {
    OwnedTensor input = make(dt, {2, 2, 3, 3}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({2, 0, 1, 1, 1, 0}).tensor(out.tensor());
    expect_ok(call.run("aten::replication_pad3d.out"), out, {2, 3, 5, 5}, want, 0);
  }
}
TEST(Kernels2Pool3d, MaxBasic) {
  const Values in = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0};
  const Values want = {1.0, 7.0, 8.0, 3.0, 8.0, 7.0, 8.0, 8.0, 6.0, 8.0, 2.0, 8.0, 4.0, 7.0, 8.0, 6.0, 8.0, 1.0, 8.0, 3.0, 8.0, 8.0, 5.0, 8.0, 7.0, 8.0, 2.0, 8.0, 7.0, 4.0, 8.0, 6.0, 8.0, 2.0, 8.0, 8.0, 7.0, 8.0, 5.0, 8.0, 1.0, 7.0, 3.0, 8.0, 7.0, 5.0, 8.0, 8.0};
  const Values want_idx = {37.0, 39.0, 11.0, 49.0, 45.0, 22.0, 96.0, 62.0, 101.0, 79.0, 111.0, 113.0, 37.0, 38.0, 10.0, 49.0, 44.0, 53.0, 61.0, 99.0, 95.0, 78.0, 111.0, 112.0, 37.0, 9.0, 41.0, 43.0, 20.0, 53.0, 60.0, 99.0, 94.0, 109.0, 111.0, 77.0, 36.0, 8.0, 41.0, 42.0, 51.0, 53.0, 97.0, 93.0, 70.0, 109.0, 110.0, 76.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {2, 2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 5);
    OwnedTensor indices = dyn_out(ScalarType::Long, 5);
    Call call;
    call.tensor(input.tensor()).ints({2, 2, 2}).ints({}).ints({0}).ints({1}).boolean(false).tensor(out.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::max_pool3d_with_indices.out"), out, {2, 2, 2, 2, 3}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Pool3d, MaxStridePadDilation) {
  const Values in = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0};
  const Values want = {1.0, 7.0, 8.0, 2.0, 8.0, 8.0, 3.0, 7.0, 8.0, 4.0, 8.0, 8.0, 3.0, 6.0, 7.0, 8.0, 7.0, 7.0, 7.0, 8.0, 8.0, 8.0, 8.0, 8.0, 7.0, 8.0, 8.0, 8.0, 8.0, 8.0, 4.0, 7.0, 8.0, 5.0, 8.0, 7.0, 6.0, 7.0, 8.0, 7.0, 8.0, 8.0, 6.0, 7.0, 7.0, 6.0, 7.0, 6.0, 8.0, 8.0, 8.0, 8.0, 7.0, 8.0, 7.0, 8.0, 7.0, 8.0, 6.0, 8.0, 7.0, 8.0, 8.0, 8.0, 8.0, 7.0, 7.0, 8.0, 8.0, 8.0, 8.0, 5.0, 6.0, 7.0, 4.0, 7.0, 7.0, 7.0, 8.0, 8.0, 8.0, 7.0, 8.0, 8.0, 8.0, 8.0, 8.0, 6.0, 8.0, 8.0, 7.0, 8.0, 5.0, 8.0, 7.0, 6.0, 7.0, 8.0, 7.0, 8.0, 8.0, 8.0, 7.0, 7.0, 7.0, 7.0, 6.0, 7.0, 8.0, 8.0, 8.0, 7.0, 8.0, 7.0, 8.0, 7.0, 8.0, 5.0, 8.0, 7.0};
  const Values want_idx = {37.0, 39.0, 11.0, 43.0, 45.0, 45.0, 49.0, 39.0, 11.0, 55.0, 45.0, 28.0, 49.0, 50.0, 22.0, 96.0, 39.0, 39.0, 73.0, 45.0, 45.0, 79.0, 79.0, 113.0, 73.0, 45.0, 45.0, 79.0, 79.0, 113.0, 37.0, 38.0, 10.0, 43.0, 44.0, 4.0, 49.0, 21.0, 10.0, 55.0, 27.0, 27.0, 49.0, 21.0, 21.0, 66.0, 38.0, 100.0, 61.0, 44.0, 95.0, 78.0, 38.0, 112.0, 55.0, 44.0, 89.0, 78.0, 49.0, 112.0, 37.0, 9.0, 9.0, 43.0, 43.0, 3.0, 37.0, 9.0, 9.0, 43.0, 26.0, 59.0, 48.0, 20.0, 53.0, 37.0, 37.0, 71.0, 43.0, 43.0, 77.0, 37.0, 111.0, 111.0, 43.0, 43.0, 77.0, 48.0, 111.0, 111.0, 36.0, 8.0, 41.0, 42.0, 2.0, 47.0, 19.0, 8.0, 53.0, 25.0, 25.0, 59.0, 19.0, 19.0, 53.0, 36.0, 98.0, 70.0, 42.0, 93.0, 76.0, 36.0, 110.0, 53.0, 42.0, 87.0, 59.0, 109.0, 110.0, 53.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {2, 2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 5);
    OwnedTensor indices = dyn_out(ScalarType::Long, 5);
    Call call;
    call.tensor(input.tensor()).ints({3, 2, 3}).ints({2, 1, 2}).ints({1, 1, 1}).ints({1, 2, 1}).boolean(false).tensor(out.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::max_pool3d_with_indices.out"), out, {2, 2, 2, 5, 3}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Pool3d, MaxCeilUnbatched) {
  const Values in = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0, -6.0, -3.0, 0.0, 3.0, 6.0, -8.0, -5.0};
  const Values want = {0.0, 6.0, 7.0, 2.0, 8.0, 8.0, 4.0, 7.0, 8.0, 7.0, 8.0, 5.0, 8.0, 1.0, 7.0, 8.0, 3.0, 8.0, 3.0, 6.0, 7.0, 5.0, 8.0, 8.0, 7.0, 8.0, 2.0, 8.0, 2.0, 8.0, 7.0, 4.0, 7.0, 8.0, 6.0, 8.0};
  const Values want_idx = {31.0, 33.0, 5.0, 43.0, 45.0, 11.0, 55.0, 56.0, 28.0, 90.0, 62.0, 95.0, 96.0, 105.0, 107.0, 79.0, 117.0, 113.0, 31.0, 32.0, 4.0, 43.0, 44.0, 10.0, 55.0, 27.0, 59.0, 61.0, 93.0, 95.0, 72.0, 105.0, 106.0, 78.0, 117.0, 112.0};
  for (ScalarType dt : kSignedTypes) {
    OwnedTensor input = make(dt, {2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 4);
    OwnedTensor indices = dyn_out(ScalarType::Long, 4);
    Call call;
    call.tensor(input.tensor()).ints({2, 2, 2}).ints({2, 2, 2}).ints({0, 1, 0}).ints({1}).boolean(true).tensor(out.tensor()).tensor(indices.tensor());
    expect_ok(call.run("aten::max_pool3d_with_indices.out"), out, {2, 2, 3, 3}, want, 0);
    EXPECT_EQ(values_of(indices), want_idx) << scalar_type_name(dt);
  }
}
TEST(Kernels2Pool3d, AvgBasic) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25};
  const Values want = {-0.875, 0.625, 0.0, -0.375, 0.59375, -0.5625, 0.5625, -0.59375, 0.375, 0.0, -0.625, 0.875, -0.125, 0.3125, -0.3125, 0.375, 0.28125, -0.875, -0.28125, -0.375, 0.59375, -0.3125, 0.125, 0.5625, 0.625, 0.0, -0.625, 0.59375, -0.5625, -0.125, -0.59375, 0.375, 0.28125, -0.625, 0.875, -0.28125, 0.3125, -0.3125, 0.125, 0.28125, -0.875, 0.625, -0.375, 0.59375, -0.5625, 0.125, 0.5625, -0.59375};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 5);
    Call call;
    call.tensor(input.tensor()).ints({2, 2, 2}).ints({}).ints({0}).boolean(false).boolean(true).none().tensor(out.tensor());
    expect_ok(call.run("aten::avg_pool3d.out"), out, {2, 2, 2, 2, 3}, want, tol(dt));
  }
}
TEST(Kernels2Pool3d, AvgPadIncludePad) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25};
  const Values want = {-0.2777777777777778, -0.3888888888888889, -0.05555555555555555, 0.2777777777777778, 0.1388888888888889, 0.0, 0.08333333333333333, -0.2916666666666667, -0.3333333333333333, 0.16666666666666666, 0.4305555555555556, 0.2222222222222222, -0.2222222222222222, -0.2222222222222222, -0.1111111111111111, -0.05555555555555555, 0.2777777777777778, 0.1388888888888889, 0.0, -0.1388888888888889, -0.2222222222222222, 0.20833333333333334, 0.19444444444444445, -0.013888888888888888, 0.013888888888888888, -0.19444444444444445, -0.16666666666666666, 0.041666666666666664, 0.027777777777777776, 0.19444444444444445, 0.0, -0.19444444444444445, -0.1527777777777778, 0.125, 0.25, -0.013888888888888888, -0.013888888888888888, 0.013888888888888888, -0.19444444444444445, -0.16666666666666666, 0.09722222222222222, 0.05555555555555555, -0.1111111111111111, -0.05555555555555555, 0.2777777777777778, 0.1388888888888889, 0.0, -0.1388888888888889, -0.2222222222222222, -0.041666666666666664, 0.16666666666666666, 0.4305555555555556, 0.2222222222222222, -0.2222222222222222, -0.4305555555555556, -0.20833333333333334, 0.05555555555555555, 0.2777777777777778, 0.1388888888888889, 0.0, -0.1388888888888889, -0.2777777777777778, -0.05555555555555555, -0.013888888888888888, -0.013888888888888888, 0.013888888888888888, -0.19444444444444445, -0.16666666666666666, 0.09722222222222222, 0.05555555555555555, 0.16666666666666666, 0.0, -0.19444444444444445, -0.1527777777777778, 0.125, 0.16666666666666666, -0.08333333333333333, 0.0, 0.013888888888888888, -0.19444444444444445, -0.16666666666666666, 0.09722222222222222, 0.125, 0.06944444444444445, 0.05555555555555555, 0.2777777777777778, 0.1388888888888889, 0.0, -0.1388888888888889, -0.2777777777777778, -0.05555555555555555, 0.20833333333333334, 0.4305555555555556, 0.2222222222222222, -0.2222222222222222, -0.4305555555555556, -0.16666666666666666, 0.041666666666666664, 0.2222222222222222, 0.1388888888888889, 0.0, -0.1388888888888889, -0.2777777777777778, 0.05555555555555555, 0.1111111111111111, 0.0, 0.013888888888888888, -0.19444444444444445, -0.16666666666666666, 0.09722222222222222, 0.125, 0.06944444444444445, -0.16666666666666666, -0.19444444444444445, -0.1527777777777778, 0.125, 0.16666666666666666, -0.027777777777777776, 0.05555555555555555, 0.013888888888888888, -0.19444444444444445, -0.16666666666666666, 0.09722222222222222, 0.125, -0.08333333333333333, -0.1527777777777778, 0.2222222222222222, 0.1388888888888889, 0.0, -0.1388888888888889, -0.2777777777777778, 0.05555555555555555, 0.1111111111111111, 0.2222222222222222, 0.2222222222222222, -0.2222222222222222, -0.4305555555555556, -0.16666666666666666, 0.3333333333333333, 0.2916666666666667, -0.08333333333333333, 0.0, -0.1388888888888889, -0.2777777777777778, 0.05555555555555555, 0.3888888888888889, 0.2777777777777778, 0.013888888888888888, -0.19444444444444445, -0.16666666666666666, 0.09722222222222222, 0.125, -0.08333333333333333, -0.1527777777777778, -0.027777777777777776, -0.1527777777777778, 0.125, 0.16666666666666666, -0.027777777777777776, 0.013888888888888888, -0.041666666666666664, -0.20833333333333334, -0.16666666666666666, 0.09722222222222222, 0.125, -0.08333333333333333, -0.05555555555555555, 0.09722222222222222};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 5);
    Call call;
    call.tensor(input.tensor()).ints({3, 3, 2}).ints({2, 2, 1}).ints({1, 1, 1}).boolean(false).boolean(true).none().tensor(out.tensor());
    expect_ok(call.run("aten::avg_pool3d.out"), out, {2, 2, 2, 3, 7}, want, tol(dt));
  }
}
TEST(Kernels2Pool3d, AvgPadExcludePadCeil) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25};
  const Values want = {-1.25, -0.125, 0.3125, 0.375, -0.875, 0.25, 0.3333333333333333, -0.6666666666666666, -0.5, 0.625, 0.0, -1.0, 0.625, -0.020833333333333332, -0.2916666666666667, 0.125, 0.05555555555555555, 0.0, -0.1527777777777778, 0.5, -0.041666666666666664, 0.020833333333333332, -0.25, 0.16666666666666666, 1.875, -1.25, 0.25, 1.375, -0.5833333333333334, -0.875, 0.625, 1.75, -1.625, -0.5, 1.0, 0.0, -0.5, 0.625, 0.0, -1.0, -0.125, 0.6458333333333334, -0.3333333333333333, -0.625, 0.25, 0.3125, -0.3125, -0.25, -0.041666666666666664, 0.020833333333333332, -0.25, 0.16666666666666666, 0.3333333333333333, -0.19444444444444445, 0.125, -0.16666666666666666, 0.0, -0.2916666666666667, 0.14583333333333334, 0.20833333333333334, -1.625, -0.5, 1.0, 0.0, -1.25, -0.125, 1.375, -1.75, -0.875, 0.25, 0.6875, -1.375, 0.25, 0.3125, -0.3125, -0.25, 0.625, 0.3333333333333333, -0.6458333333333334, 0.125, 1.0, 0.0, -0.625, 0.5, 0.0, -0.2916666666666667, 0.14583333333333334, 0.20833333333333334, -0.3333333333333333, -0.1527777777777778, 0.16666666666666666, 0.1111111111111111, 0.041666666666666664, -0.25, 0.1875, -0.4583333333333333, -0.875, 0.25, 0.6875, -1.375, -0.5, 0.625, 0.0, -1.0, -0.125, 1.0, -0.6875, -0.625, 1.0, 0.0, -0.625, 0.5, 0.6666666666666666, -0.3333333333333333, -0.25, 0.875, -0.375, -0.3125, 0.125, 1.25, 0.041666666666666664, -0.25, 0.1875, -0.4583333333333333, -0.05555555555555555, 0.125, -0.027777777777777776, -0.08333333333333333, -0.625, 0.14583333333333334, -0.125, 0.2916666666666667, -0.125, 1.0, -0.6875, -0.625, 0.25, 1.375, -1.375, -0.25, 0.625, 0.6875, -1.0, 0.125};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 5);
    Call call;
    call.tensor(input.tensor()).ints({3, 3, 2}).ints({2, 2, 2}).ints({1, 1, 1}).boolean(true).boolean(false).none().tensor(out.tensor());
    expect_ok(call.run("aten::avg_pool3d.out"), out, {2, 2, 3, 3, 4}, want, tol(dt));
  }
}
TEST(Kernels2Pool3d, AvgDivisorOverride) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25};
  const Values want = {-1.4, 1.0, 0.0, -1.2, 1.55, -0.8, -0.2, 0.5, -0.5, 0.6, 0.45, -1.4, 1.8, -0.55, -1.2, 0.95, -0.9, -0.2, 0.9, -0.95, 0.6, 0.55, -1.8, 1.8, -0.45, -0.6, 0.95, -0.2, 0.5, -0.5, 0.6, 0.8, -1.55, 1.0, 0.0, -1.0, 0.95, -0.9, -0.2, 1.05, -1.3, 0.6, 0.45, -1.4, 1.0, -0.45, -0.6, 0.95, -1.05, 0.0, 1.05, -0.95, 0.6, 0.45, 1.0, 0.0, -1.0, 1.55, -0.8, -0.6, 0.5, -0.5, 0.2, 0.45, -1.4, 1.0, -0.55, -1.2, 1.55, -0.9, -0.2, 0.5, -0.95, 0.6, 0.45, -1.8, 1.8, -0.55, -0.6, 0.95, -0.9, 0.5, -0.5, 0.2, 0.8, -1.55, 1.2, 0.0, -1.0, 1.4, -0.9, -0.2, 0.5, -1.3, 0.6, 0.8, -1.4, 1.0, 0.0, -0.6, 0.95, -0.9, 0.0, 1.05, -1.3, 0.6, 0.45, -1.4};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 5);
    Call call;
    call.tensor(input.tensor()).ints({2, 3, 2}).ints({1, 2, 2}).ints({0, 1, 0}).boolean(false).boolean(true).integer(5).tensor(out.tensor());
    expect_ok(call.run("aten::avg_pool3d.out"), out, {2, 2, 3, 3, 3}, want, tol(dt));
  }
}
TEST(Kernels2Pool3d, AvgLongTruncates) {
  const Values in = {-50.0, -49.0, -48.0, -47.0, -46.0, -45.0, -44.0, -43.0, -42.0, -41.0, -40.0, -39.0, -38.0, -37.0, -36.0, -35.0, -34.0, -33.0, -32.0, -31.0, -30.0, -29.0, -28.0, -27.0, -26.0, -25.0, -24.0, -23.0, -22.0, -21.0, -20.0, -19.0, -18.0, -17.0, -16.0, -15.0, -14.0, -13.0, -12.0, -11.0, -10.0, -9.0, -8.0, -7.0, -6.0, -5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0, 96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0, 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0, 144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0, 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0, 160.0, 161.0, 162.0, 163.0, 164.0, 165.0, 166.0, 167.0, 168.0, 169.0, 170.0, 171.0, 172.0, 173.0, 174.0, 175.0, 176.0, 177.0, 178.0, 179.0, 180.0, 181.0, 182.0, 183.0, 184.0, 185.0, 186.0, 187.0, 188.0, 189.0};
  const Values want = {-23.0, -22.0, -21.0, -17.0, -16.0, -15.0, -1.0, 0.0, 2.0, 10.0, 12.0, 14.0, 21.0, 22.0, 23.0, 27.0, 28.0, 29.0, 36.0, 37.0, 38.0, 42.0, 43.0, 44.0, 118.0, 120.0, 122.0, 130.0, 132.0, 134.0, 81.0, 82.0, 83.0, 87.0, 88.0, 89.0};
  for (ScalarType dt : kLongType) {
    OwnedTensor input = make(dt, {2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({2, 2, 2}).ints({2, 2, 2}).ints({1, 0, 0}).boolean(false).boolean(true).none().tensor(out.tensor());
    expect_ok(call.run("aten::avg_pool3d.out"), out, {2, 3, 2, 3}, want, 0);
  }
}
TEST(Kernels2Pool3d, AdaptiveAvg) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25};
  const Values want = {-0.75, 0.0, 0.4375, -0.22916666666666666, -0.25, 0.5, 0.22916666666666666, -0.4375, 0.5, 0.5416666666666666, -0.4375, -0.75, 0.6458333333333334, 0.3333333333333333, -0.6458333333333334, -0.25, 0.3333333333333333, -0.3333333333333333, -0.25, 0.5, -0.22916666666666666, -0.5416666666666666, 0.25, 0.6458333333333334, 0.0, 0.75, -0.22916666666666666, -0.5416666666666666, 0.5, 0.5416666666666666, -0.4375, -0.75, 0.5416666666666666, 0.22916666666666666, -0.75, 0.0, 0.3333333333333333, -0.3333333333333333, -0.25, 0.5, -0.3333333333333333, -0.6458333333333334, 0.5, 0.5416666666666666, -0.5416666666666666, -0.5, 0.6458333333333334, 0.3333333333333333, 0.75, 0.4375, -0.5416666666666666, -0.5, 0.5416666666666666, 0.22916666666666666, -0.75, 0.0, 0.22916666666666666, -0.4375, 0.0, 0.75, -0.3333333333333333, -0.6458333333333334, 0.5, 0.5416666666666666, -0.6458333333333334, -0.25, 0.5416666666666666, 0.22916666666666666, -0.5, 0.25, 0.3333333333333333, -0.3333333333333333, 0.4375, -0.22916666666666666, -0.5, 0.25, 0.22916666666666666, -0.4375, 0.0, 0.75, -0.4375, -0.75, 0.75, 0.4375, -0.6458333333333334, -0.25, 0.5416666666666666, 0.22916666666666666, -0.25, 0.5, 0.22916666666666666, -0.4375, 0.25, 0.6458333333333334, -0.3333333333333333, -0.6458333333333334};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 5);
    Call call;
    call.tensor(input.tensor()).ints({3, 2, 4}).tensor(out.tensor());
    expect_ok(call.run("aten::_adaptive_avg_pool3d.out"), out, {2, 2, 3, 2, 4}, want, tol(dt));
  }
}
TEST(Kernels2Pool3d, AdaptiveAvgUpsampling) {
  const Values in = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25};
  const Values want = {-0.125, 0.0, -0.10416666666666667, -0.3333333333333333, -0.20833333333333334, 0.041666666666666664, 0.16666666666666666, -0.20833333333333334, -0.08333333333333333, -0.010416666666666666, -0.0625, -0.11458333333333333, -0.041666666666666664, 0.08333333333333333, -0.020833333333333332, -0.07291666666666667, 0.0, 0.125, 0.07291666666666667, -0.03125, -0.08333333333333333, 0.16666666666666666, 0.11458333333333333, 0.010416666666666666, -0.041666666666666664, 0.08333333333333333, -0.020833333333333332, -0.25, 0.08333333333333333, 0.20833333333333334, 0.10416666666666667, -0.125, 0.0, -0.10416666666666667, -0.3333333333333333, -0.08333333333333333, 0.041666666666666664, -0.0625, -0.2916666666666667, -0.16666666666666666, 0.08333333333333333, 0.20833333333333334, -0.16666666666666666, -0.041666666666666664, 0.03125, -0.020833333333333332, -0.07291666666666667, 0.0, 0.125, 0.020833333333333332, -0.03125, 0.041666666666666664, 0.16666666666666666, 0.11458333333333333, 0.010416666666666666, -0.041666666666666664, 0.20833333333333334, -0.020833333333333332, -0.125, 0.0, 0.125, 0.020833333333333332, -0.20833333333333334, 0.125, -0.10416666666666667, -0.20833333333333334, -0.08333333333333333, 0.041666666666666664, -0.0625, -0.2916666666666667};
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor input = make(dt, {2, 4, 5, 6}, in);
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(input.tensor()).ints({5, 7, 1}).tensor(out.tensor());
    expect_ok(call.run("aten::_adaptive_avg_pool3d.out"), out, {2, 5, 7, 1}, want, tol(dt));
  }
}
TEST(Kernels2ScatterReduce, SumDim1Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {-5.0, 0.25, -0.5, 1.75, 1.5, 3.75, -0.75, -1.0, -1.25, 0.0, 1.25, 10.5};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("sum").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, SumDim1Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {-14.0, -2.0, -2.0, 4.0, 5.0, 11.0, -5.0, -4.0, -3.0, 1.0, 5.0, 25.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("sum").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, SumDim1Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {-3.0, 1.5, -0.5, 1.5, 0.5, 2.0, 1.0, -1.0, -1.0, -0.5, 1.25, 8.5};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("sum").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, SumDim1Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {-6.0, 3.0, -2.0, 3.0, 1.0, 4.0, 2.0, -4.0, -2.0, -1.0, 5.0, 17.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("sum").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, ProdDim1Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {0.0, 5.625, -0.5, 0.375, 0.5, 3.5, -19.6875, -1.0, 0.5, -0.25, 1.25, 35.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("prod").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, ProdDim1Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {0.0, 90.0, -2.0, 3.0, 4.0, 28.0, -630.0, -4.0, 8.0, -2.0, 5.0, 560.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("prod").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, ProdDim1Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {-0.0, -4.5, -0.5, 1.5, 0.5, 2.0, 11.25, -1.0, -2.0, -0.5, 1.25, 17.5};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("prod").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, ProdDim1Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {0.0, -18.0, -2.0, 3.0, 1.0, 4.0, 90.0, -4.0, -8.0, -1.0, 5.0, 70.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("prod").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, MeanDim1Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {-1.6666666666666667, 0.08333333333333333, -0.5, 0.875, 0.75, 1.875, -0.1875, -1.0, -0.4166666666666667, 0.0, 1.25, 3.5};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("mean").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, MeanDim1Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {-5.0, -1.0, -2.0, 2.0, 2.0, 5.0, -2.0, -4.0, -1.0, 0.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("mean").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, MeanDim1Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {-1.5, 0.75, -0.5, 1.5, 0.5, 2.0, 0.3333333333333333, -1.0, -0.5, -0.5, 1.25, 4.25};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("mean").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, MeanDim1Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {-3.0, 1.0, -2.0, 3.0, 1.0, 4.0, 0.0, -4.0, -1.0, -1.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("mean").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, AmaxDim1Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {0.0, 3.0, -0.5, 1.5, 1.0, 2.0, 4.5, -1.0, 1.0, 0.5, 1.25, 5.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("amax").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, AmaxDim1Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {0.0, 6.0, -2.0, 3.0, 4.0, 7.0, 9.0, -4.0, 2.0, 2.0, 5.0, 10.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("amax").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, AmaxDim1Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {0.0, 3.0, -0.5, 1.5, 0.5, 2.0, 4.5, -1.0, 1.0, -0.5, 1.25, 5.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("amax").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, AmaxDim1Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {0.0, 6.0, -2.0, 3.0, 1.0, 4.0, 9.0, -4.0, 2.0, -1.0, 5.0, 10.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("amax").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, AminDim1Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {-3.0, -1.5, -0.5, 0.25, 0.5, 1.75, -2.5, -1.0, -2.0, -0.5, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("amin").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, AminDim1Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {-8.0, -5.0, -2.0, 1.0, 1.0, 4.0, -7.0, -4.0, -4.0, -1.0, 5.0, 7.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("amin").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, AminDim1Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0, 3.5, 5.0, -2.0, -0.5, 1.0};
  const Values want = {-3.0, -1.5, -0.5, 1.5, 0.5, 2.0, -2.5, -1.0, -2.0, -0.5, 1.25, 3.5};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("amin").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, AminDim1Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0, 7.0, 10.0, -4.0, -1.0, 2.0};
  const Values want = {-6.0, -3.0, -2.0, 3.0, 1.0, 4.0, -5.0, -4.0, -4.0, -1.0, 5.0, 7.0};
  OwnedTensor index = make(ScalarType::Long, {3, 5}, {0.0, 1.0, 0.0, 3.0, 1.0, 2.0, 2.0, 2.0, 0.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {3, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(1).tensor(index.tensor()).tensor(src.tensor()).string("amin").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, SumDim0Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-5.0, -1.25, -1.5, 1.75, 1.0, 1.75, -1.75, -0.5, 4.25, -3.5, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("sum").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, SumDim0Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-14.0, -5.0, -4.0, 4.0, 4.0, 7.0, -7.0, -3.0, 8.0, -6.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("sum").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, SumDim0Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, -4.0, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("sum").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, SumDim0Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, -8.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("sum").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, ProdDim0Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {6.0, -1.25, 0.5, 0.375, 1.0, 1.75, -0.0, -0.5, -1.125, 1.875, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("prod").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, ProdDim0Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {48.0, -5.0, 4.0, 3.0, 4.0, 7.0, 0.0, -4.0, -9.0, 30.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("prod").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, ProdDim0Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, 3.75, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("prod").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, ProdDim0Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, 15.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("prod").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, MeanDim0Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-2.5, -1.25, -0.75, 0.875, 1.0, 1.75, -0.875, -0.25, 2.125, -1.1666666666666667, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("mean").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, MeanDim0Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-7.0, -5.0, -2.0, 2.0, 4.0, 7.0, -4.0, -2.0, 4.0, -2.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("mean").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, MeanDim0Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, -2.0, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("mean").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, MeanDim0Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, -4.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("mean").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, AmaxDim0Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-2.0, -1.25, -0.5, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, 0.5, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("amax").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, AmaxDim0Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, 2.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("amax").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, AmaxDim0Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, -1.5, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("amax").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, AmaxDim0Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, -3.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("amax").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, AminDim0Self1Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-3.0, -1.25, -1.0, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, -2.5, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("amin").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, AminDim0Self1Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, -5.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("amin").boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2ScatterReduce, AminDim0Self0Float) {
  const Values self_v = {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0};
  const Values src_v = {-3.0, -1.5, 0.0, 1.5, 3.0, 4.5, -2.5, -1.0, 0.5, 2.0};
  const Values want = {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, -2.5, 1.25, 2.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("amin").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * 4);
  }
}
TEST(Kernels2ScatterReduce, AminDim0Self0Int) {
  const Values self_v = {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, 2.0, 5.0, 8.0};
  const Values src_v = {-6.0, -3.0, 0.0, 3.0, 6.0, 9.0, -5.0, -2.0, 1.0, 4.0};
  const Values want = {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, -5.0, 5.0, 8.0};
  OwnedTensor index = make(ScalarType::Long, {2, 4}, {0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0});
  for (ScalarType dt : kIntTypes) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, {2, 5}, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(0).tensor(index.tensor()).tensor(src.tensor()).string("amin").boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, 0);
  }
}
TEST(Kernels2EmbeddingBag, Mode0) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 2.0, 2.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(0).boolean(false).none().boolean(false).integer(-1).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {3, 3}, {-1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 4.5, 6.0, 7.5}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({}));
    }
    EXPECT_EQ(values_of(o2), Values({0.0, 0.0, 0.0}));
    EXPECT_EQ(values_of(o3), Values({0.0, 0.0, 0.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({3}));
  }
}
TEST(Kernels2EmbeddingBag, Mode0PaddingIdx) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 2.0, 2.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(0).boolean(false).none().boolean(false).integer(3).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {3, 3}, {-1.0, 0.0, 1.0, 0.0, 0.0, 0.0, -0.5, 0.0, 0.5}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    }
    EXPECT_EQ(values_of(o2), Values({0.0, 0.0, 0.0}));
    EXPECT_EQ(values_of(o3), Values({0.0, 0.0, 0.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({3}));
  }
}
TEST(Kernels2EmbeddingBag, Mode1) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 2.0, 2.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(1).boolean(false).none().boolean(false).integer(-1).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {3, 3}, {-0.5, 0.0, 0.5, 0.0, 0.0, 0.0, 1.5, 2.0, 2.5}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    }
    EXPECT_EQ(values_of(o2), Values({2.0, 0.0, 3.0}));
    EXPECT_EQ(values_of(o3), Values({2.0, 0.0, 3.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({3}));
  }
}
TEST(Kernels2EmbeddingBag, Mode1PaddingIdx) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 2.0, 2.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(1).boolean(false).none().boolean(false).integer(3).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {3, 3}, {-0.5, 0.0, 0.5, 0.0, 0.0, 0.0, -0.5, 0.0, 0.5}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    }
    EXPECT_EQ(values_of(o2), Values({2.0, 0.0, 1.0}));
    EXPECT_EQ(values_of(o3), Values({2.0, 0.0, 1.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({3}));
  }
}
TEST(Kernels2EmbeddingBag, Mode2) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 2.0, 2.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(2).boolean(false).none().boolean(false).integer(-1).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {3, 3}, {1.0, 1.5, 2.0, 0.0, 0.0, 0.0, 2.5, 3.0, 3.5}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    }
    EXPECT_EQ(values_of(o2), Values({2.0, 0.0, 3.0}));
    EXPECT_EQ(values_of(o3), Values({2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 3.0, 3.0, 3.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({3, 3}));
  }
}
TEST(Kernels2EmbeddingBag, Mode2PaddingIdx) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 2.0, 2.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(2).boolean(false).none().boolean(false).integer(3).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {3, 3}, {1.0, 1.5, 2.0, 0.0, 0.0, 0.0, -0.5, 0.0, 0.5}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    }
    EXPECT_EQ(values_of(o2), Values({2.0, 0.0, 1.0}));
    EXPECT_EQ(values_of(o3), Values({2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({3, 3}));
  }
}
TEST(Kernels2EmbeddingBag, PerSampleWeights) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 2.0, 2.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor psw = make(dt, {5}, {1.0, 2.0, 3.0, 4.0, 5.0});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(0).boolean(false).tensor(psw.tensor()).boolean(false).integer(-1).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {3, 3}, {0.0, 1.5, 3.0, 0.0, 0.0, 0.0, 21.0, 27.0, 33.0}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 2.0, 2.0, 2.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({}));
    }
    EXPECT_EQ(values_of(o2), Values({0.0, 0.0, 0.0}));
    EXPECT_EQ(values_of(o3), Values({0.0, 0.0, 0.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({3}));
  }
}
TEST(Kernels2EmbeddingBag, IncludeLastOffset) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 2.0, 5.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 1);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(1).boolean(false).none().boolean(true).integer(-1).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {2, 3}, {-0.5, 0.0, 0.5, 1.5, 2.0, 2.5}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 1.0, 1.0, 1.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({0.0, 0.0, 1.0, 1.0, 1.0}));
    }
    // bag_size has one entry per offset, as torch's meta function (which the
    // exporter plans by) shapes it; the eager CPU kernel drops the last.
    EXPECT_EQ(values_of(o2), Values({2.0, 3.0, 0.0}));
    EXPECT_EQ(values_of(o3), Values({2.0, 3.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({2}));
  }
}
TEST(Kernels2EmbeddingBag, IncludeLastOffsetMax) {
  OwnedTensor indices = make(ScalarType::Long, {5}, {0.0, 2.0, 1.0, 3.0, 3.0});
  OwnedTensor offsets = make(ScalarType::Long, {3}, {0.0, 1.0, 5.0});
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor weight = make(dt, {4, 3}, {-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
    OwnedTensor o0 = dyn_out(dt, 2), o1 = dyn_out(ScalarType::Long, 1), o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 2);
    Call call;
    call.tensor(weight.tensor()).tensor(indices.tensor()).tensor(offsets.tensor()).boolean(false).integer(2).boolean(false).none().boolean(true).integer(-1).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    expect_ok(call.run("aten::_embedding_bag.out"), o0, {2, 3}, {-2.0, -1.5, -1.0, 2.5, 3.0, 3.5}, tol(dt));
    if (dt == ScalarType::Double) {
      EXPECT_EQ(values_of(o1), Values({0.0, 1.0, 1.0, 1.0, 1.0}));
    } else {
      EXPECT_EQ(values_of(o1), Values({0.0, 1.0, 1.0, 1.0, 1.0}));
    }
    EXPECT_EQ(values_of(o2), Values({1.0, 4.0, 0.0}));  // one per offset, as above
    EXPECT_EQ(values_of(o3), Values({0.0, 0.0, 0.0, 3.0, 3.0, 3.0}));
    Sizes s3(o3.tensor().sizes().begin(), o3.tensor().sizes().end());
    EXPECT_EQ(s3, Sizes({2, 3}));
  }
}
TEST(Kernels2Distance, CdistP2) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {2, 3, 4}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75});
    OwnedTensor b = make(dt, {1, 5, 4}, {-3.75, -2.25, -0.75, 0.75, 2.25, 3.75, -3.25, -1.75, -0.25, 1.25, 2.75, 4.25, -2.75, -1.25, 0.25, 1.75, 3.25, -3.75, -2.25, -0.75});
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(a.tensor()).tensor(b.tensor()).real(2.0).none().tensor(out.tensor());
    expect_ok(call.run("aten::_cdist_forward.out"), out, {2, 3, 5}, {2.091650066335189, 7.390872749547241, 5.989574275355469, 1.8371173070873836, 6.154266812545585, 6.528782428600298, 2.8939592256975564, 7.044501401802686, 5.88430114796991, 5.968668193156661, 5.0373604199024715, 7.1501748230375455, 2.806243040080456, 3.2210246816812815, 7.079901129253148, 2.806243040080456, 7.1501748230375455, 5.0373604199024715, 1.695582495781317, 6.234981956669963, 5.425633603552677, 6.2599920127744575, 7.224091638399945, 5.09288719686584, 2.680951323690902, 6.25, 6.046693311223912, 6.108395861435308, 5.344389581607987, 6.968679932383177}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, PdistP2) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {5, 3}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0});
    OwnedTensor out = dyn_out(dt, 1);
    Call call;
    call.tensor(a.tensor()).real(2.0).tensor(out.tensor());
    expect_ok(call.run("aten::_pdist_forward.out"), out, {10}, {3.897114317029974, 0.4330127018922193, 4.330127018922194, 0.8660254037844386, 3.4641016151377544, 0.4330127018922193, 3.031088913245535, 3.897114317029974, 0.4330127018922193, 3.4641016151377544}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, CdistP1) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {2, 3, 4}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75});
    OwnedTensor b = make(dt, {1, 5, 4}, {-3.75, -2.25, -0.75, 0.75, 2.25, 3.75, -3.25, -1.75, -0.25, 1.25, 2.75, 4.25, -2.75, -1.25, 0.25, 1.75, 3.25, -3.75, -2.25, -0.75});
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(a.tensor()).tensor(b.tensor()).real(1.0).none().tensor(out.tensor());
    expect_ok(call.run("aten::_cdist_forward.out"), out, {2, 3, 5}, {3.5, 14.0, 11.5, 3.0, 10.5, 11.5, 5.5, 11.5, 11.5, 8.5, 9.5, 14.0, 4.5, 5.5, 14.0, 4.5, 14.0, 9.5, 3.0, 11.5, 7.25, 9.75, 13.75, 8.75, 4.75, 12.25, 9.75, 7.75, 10.25, 12.75}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, PdistP1) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {5, 3}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0});
    OwnedTensor out = dyn_out(dt, 1);
    Call call;
    call.tensor(a.tensor()).real(1.0).tensor(out.tensor());
    expect_ok(call.run("aten::_pdist_forward.out"), out, {10}, {6.75, 0.75, 7.5, 1.5, 6.0, 0.75, 5.25, 6.75, 0.75, 6.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, CdistP0) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {2, 3, 4}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75});
    OwnedTensor b = make(dt, {1, 5, 4}, {-3.75, -2.25, -0.75, 0.75, 2.25, 3.75, -3.25, -1.75, -0.25, 1.25, 2.75, 4.25, -2.75, -1.25, 0.25, 1.75, 3.25, -3.75, -2.25, -0.75});
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(a.tensor()).tensor(b.tensor()).real(0.0).none().tensor(out.tensor());
    expect_ok(call.run("aten::_cdist_forward.out"), out, {2, 3, 5}, {4.0, 4.0, 4.0, 3.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 3.0, 4.0, 4.0, 3.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 3.0, 4.0, 4.0, 4.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, PdistP0) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {5, 3}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0});
    OwnedTensor out = dyn_out(dt, 1);
    Call call;
    call.tensor(a.tensor()).real(0.0).tensor(out.tensor());
    expect_ok(call.run("aten::_pdist_forward.out"), out, {10}, {3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, CdistPInf) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {2, 3, 4}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75});
    OwnedTensor b = make(dt, {1, 5, 4}, {-3.75, -2.25, -0.75, 0.75, 2.25, 3.75, -3.25, -1.75, -0.25, 1.25, 2.75, 4.25, -2.75, -1.25, 0.25, 1.75, 3.25, -3.75, -2.25, -0.75});
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(a.tensor()).tensor(b.tensor()).real(kInf).none().tensor(out.tensor());
    expect_ok(call.run("aten::_cdist_forward.out"), out, {2, 3, 5}, {1.75, 5.0, 4.0, 1.5, 5.25, 4.75, 2.0, 5.25, 3.75, 5.5, 3.5, 4.5, 2.25, 2.5, 4.25, 2.25, 4.5, 3.5, 1.25, 4.75, 5.25, 5.75, 4.75, 4.25, 1.75, 4.0, 5.0, 6.0, 3.5, 4.75}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, PdistPInf) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {5, 3}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0});
    OwnedTensor out = dyn_out(dt, 1);
    Call call;
    call.tensor(a.tensor()).real(kInf).tensor(out.tensor());
    expect_ok(call.run("aten::_pdist_forward.out"), out, {10}, {2.25, 0.25, 2.5, 0.5, 2.0, 0.25, 1.75, 2.25, 0.25, 2.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, CdistP3) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {2, 3, 4}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75});
    OwnedTensor b = make(dt, {1, 5, 4}, {-3.75, -2.25, -0.75, 0.75, 2.25, 3.75, -3.25, -1.75, -0.25, 1.25, 2.75, 4.25, -2.75, -1.25, 0.25, 1.75, 3.25, -3.75, -2.25, -0.75});
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(a.tensor()).tensor(b.tensor()).real(3.0).none().tensor(out.tensor());
    expect_ok(call.run("aten::_cdist_forward.out"), out, {2, 3, 5}, {1.866255578408624, 6.131916385288904, 4.922986542436304, 1.6158260175239127, 5.503441372440915, 5.620284113244008, 2.395709928531392, 6.196340625876255, 4.769998784037475, 5.624238580063721, 4.191232656052206, 5.787094770782048, 2.47644543667097, 2.802039330655387, 5.680641210756374, 2.47644543667097, 5.787094770782048, 4.191232656052206, 1.457119170812864, 5.300717833233722, 5.2752000852505825, 5.852752740571265, 5.952018946238275, 4.51359060049484, 2.2724098041409397, 5.060311252185408, 5.357750724674303, 6.010542806613663, 4.390624406352423, 5.839952803068249}, tol(dt) * 2);
  }
}
TEST(Kernels2Distance, PdistP3) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {5, 3}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0});
    OwnedTensor out = dyn_out(dt, 1);
    Call call;
    call.tensor(a.tensor()).real(3.0).tensor(out.tensor());
    expect_ok(call.run("aten::_pdist_forward.out"), out, {10}, {3.245061533191669, 0.36056239257685213, 3.6056239257685205, 0.7211247851537042, 2.8844991406148166, 0.36056239257685213, 2.5239367480379644, 3.245061533191669, 0.36056239257685213, 2.8844991406148166}, tol(dt) * 2);
  }
}
TEST(Kernels2Col2im, Batched) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {2, 12, 10}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25});
    OwnedTensor out = dyn_out(dt, 4);
    Call call;
    call.tensor(a.tensor()).ints({4, 5}).ints({2, 3}).ints({1, 1}).ints({1, 0}).ints({1, 2}).tensor(out.tensor());
    expect_ok(call.run("aten::col2im.out"), out, {2, 2, 4, 5}, {-1.25, -3.25, 3.5, -1.75, -3.75, 1.75, -0.25, 1.0, 1.25, -0.75, -3.75, 2.75, -1.5, 0.0, 2.25, -0.75, -2.75, 4.5, -1.25, -3.25, 3.75, 1.75, -3.5, 3.25, 1.25, -1.75, -3.75, 2.5, -2.25, 0.0, 1.25, -0.75, 0.0, 0.75, -1.25, 0.0, 2.25, -2.5, 3.75, 1.75, 0.25, -1.75, -2.0, -0.25, -2.25, 3.25, 1.25, -4.5, 2.75, 0.75, -2.25, 0.0, 1.5, -2.75, 3.75, 0.75, -1.25, -1.0, 0.25, -1.75, -3.25, 3.25, -0.5, -3.75, 2.75, -0.25, -2.25, 1.25, -0.75, -2.75, 2.75, 0.75, -1.25, 2.25, 0.25, -2.75, 3.75, 0.5, -3.25, 3.25}, tol(dt) * 4);
  }
}
TEST(Kernels2Col2im, DilatedUnbatched) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor a = make(dt, {4, 9}, {-2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25, -0.5, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, 0.5, 1.25, 2.0, -1.5, -0.75, 0.0, 0.75, 1.5, -2.0, -1.25});
    OwnedTensor out = dyn_out(dt, 3);
    Call call;
    call.tensor(a.tensor()).ints({5, 5}).ints({2, 2}).ints({2, 2}).ints({1, 1}).ints({2, 2}).tensor(out.tensor());
    expect_ok(call.run("aten::col2im.out"), out, {1, 5, 5}, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25, 0.0, 3.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.75, 0.0, -0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, tol(dt) * 4);
  }
}
TEST(Kernels2Backward, AvgPool2dBasic) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 2, 2, 3}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375});
    OwnedTensor self(dt, {2, 2, 5, 6});
    OwnedTensor gi = dyn_out(dt, 4);
    Call call;
    call.tensor(go.tensor()).tensor(self.tensor()).ints({2, 2}).ints({}).ints({0, 0}).boolean(false).boolean(true).none().tensor(gi.tensor());
    expect_ok(call.run("aten::avg_pool2d_backward.grad_input"), gi, {2, 2, 5, 6}, {-0.96875, -0.96875, -0.59375, -0.59375, -0.21875, -0.21875, -0.96875, -0.96875, -0.59375, -0.59375, -0.21875, -0.21875, 0.15625, 0.15625, 0.53125, 0.53125, 0.90625, 0.90625, 0.15625, 0.15625, 0.53125, 0.53125, 0.90625, 0.90625, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.84375, -0.84375, -0.46875, -0.46875, -0.09375, -0.09375, -0.84375, -0.84375, -0.46875, -0.46875, -0.09375, -0.09375, 0.28125, 0.28125, 0.65625, 0.65625, 1.03125, 1.03125, 0.28125, 0.28125, 0.65625, 0.65625, 1.03125, 1.03125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.71875, -0.71875, -0.34375, -0.34375, 0.03125, 0.03125, -0.71875, -0.71875, -0.34375, -0.34375, 0.03125, 0.03125, 0.40625, 0.40625, 0.78125, 0.78125, -0.96875, -0.96875, 0.40625, 0.40625, 0.78125, 0.78125, -0.96875, -0.96875, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.59375, -0.59375, -0.21875, -0.21875, 0.15625, 0.15625, -0.59375, -0.59375, -0.21875, -0.21875, 0.15625, 0.15625, 0.53125, 0.53125, 0.90625, 0.90625, -0.84375, -0.84375, 0.53125, 0.53125, 0.90625, 0.90625, -0.84375, -0.84375, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, AvgPool2dPadCeilExclude) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 2, 3, 4}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375});
    OwnedTensor self(dt, {2, 2, 5, 6});
    OwnedTensor gi = dyn_out(dt, 4);
    Call call;
    call.tensor(go.tensor()).tensor(self.tensor()).ints({3, 3}).ints({2, 2}).ints({1, 1}).boolean(true).boolean(false).none().tensor(gi.tensor());
    expect_ok(call.run("aten::avg_pool2d_backward.grad_input"), gi, {2, 2, 5, 6}, {-0.96875, -1.3645833333333333, -0.3958333333333333, -0.5416666666666666, -0.14583333333333334, 0.16666666666666666, -0.6145833333333333, -0.6076388888888887, 0.006944444444444475, -0.5138888888888888, -0.5208333333333334, -0.8333333333333334, 0.3541666666666667, 0.7569444444444444, 0.4027777777777778, 0.02777777777777779, -0.375, -1.0, 0.2604166666666667, 0.8506944444444444, 0.5902777777777778, 0.6527777777777778, 0.0625, 1.5, -0.09375, 0.09375, 0.1875, 0.625, 0.4375, 2.5, -0.71875, -0.9479166666666666, -0.22916666666666666, -0.20833333333333331, 0.020833333333333332, 0.8333333333333334, -0.19791666666666663, -0.8576388888888888, -0.6597222222222222, -0.9027777777777777, -0.24305555555555555, 0.27777777777777773, 0.5208333333333334, 0.09027777777777779, -0.4305555555555556, -0.6944444444444444, -0.2638888888888889, -0.5555555555555556, 0.6770833333333334, 0.6006944444444444, -0.0763888888888889, 0.2638888888888889, 0.34027777777777773, -1.6388888888888888, 0.15625, 0.5104166666666667, 0.3541666666666667, 0.9583333333333333, 0.6041666666666666, -1.0833333333333335, -0.46875, -0.53125, -0.0625, 0.125, 0.1875, 1.5, 0.21875, -0.16319444444444442, -0.3819444444444444, -0.3472222222222222, 0.03472222222222221, 1.388888888888889, 0.6875, 0.3680555555555556, -0.3194444444444444, -0.4722222222222222, -0.1527777777777778, -0.11111111111111113, 1.09375, 1.2951388888888888, 0.20138888888888895, -0.5972222222222222, -0.7986111111111112, -1.9444444444444446, 0.40625, 0.9270833333333334, 0.5208333333333334, -0.125, -0.6458333333333334, -1.8333333333333335, -0.21875, -0.11458333333333333, 0.10416666666666667, 0.45833333333333337, 0.3541666666666667, 2.1666666666666665, -0.78125, -0.8854166666666667, -0.10416666666666667, 0.20833333333333334, 0.3125, 2.5, -0.5625, -0.7708333333333334, -0.20833333333333334, -0.25, -0.041666666666666664, 0.3333333333333333, 0.09375, 0.5729166666666666, 0.47916666666666663, -0.041666666666666685, -0.5208333333333334, -0.8333333333333334, 0.65625, 1.34375, 0.6875, 0.20833333333333331, -0.4791666666666667, -1.1666666666666667}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, AvgPool2dPadInclude) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 5, 4}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625});
    OwnedTensor self(dt, {2, 5, 6});
    OwnedTensor gi = dyn_out(dt, 3);
    Call call;
    call.tensor(go.tensor()).tensor(self.tensor()).ints({3, 2}).ints({1, 2}).ints({1, 1}).boolean(false).boolean(true).none().tensor(gi.tensor());
    expect_ok(call.run("aten::avg_pool2d_backward.grad_input"), gi, {2, 5, 6}, {-0.2916666666666667, 0.20833333333333331, 0.20833333333333331, -0.7083333333333334, -0.7083333333333334, -0.20833333333333331, -0.3541666666666667, 0.3958333333333333, 0.3958333333333333, -0.27083333333333337, -0.27083333333333337, 0.4791666666666667, -0.1875, 0.5625, 0.5625, -0.10416666666666667, -0.10416666666666667, 0.6458333333333333, -0.02083333333333337, -0.6875, -0.6875, 0.0625, 0.0625, 0.8124999999999999, 0.041666666666666685, -0.875, -0.875, -0.375, -0.375, 0.12499999999999997, -0.20833333333333331, 0.2916666666666667, 0.2916666666666667, 0.7916666666666666, 0.7916666666666666, -0.125, 0.4791666666666667, -0.1875, -0.1875, 0.5625, 0.5625, -0.10416666666666667, 0.6458333333333333, -0.02083333333333337, -0.02083333333333337, -0.6875, -0.6875, 0.0625, 0.8124999999999999, 0.14583333333333337, 0.14583333333333337, -0.5208333333333333, -0.5208333333333333, 0.22916666666666663, 0.12499999999999997, 0.625, 0.625, -0.2916666666666667, -0.2916666666666667, 0.20833333333333331}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, AvgPool2dDivisor) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 2, 2, 6}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375});
    OwnedTensor self(dt, {2, 2, 5, 6});
    OwnedTensor gi = dyn_out(dt, 4);
    Call call;
    call.tensor(go.tensor()).tensor(self.tensor()).ints({2, 3}).ints({2, 1}).ints({0, 1}).boolean(false).boolean(true).integer(4).tensor(gi.tensor());
    expect_ok(call.run("aten::avg_pool2d_backward.grad_input"), gi, {2, 2, 5, 6}, {-1.5625, -1.78125, -0.65625, 0.46875, 1.59375, 1.4375, -1.5625, -1.78125, -0.65625, 0.46875, 1.59375, 1.4375, -1.3125, -1.40625, -0.28125, 0.84375, 1.96875, 1.6875, -1.3125, -1.40625, -0.28125, 0.84375, 1.96875, 1.6875, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0625, -1.03125, 0.09375, 1.21875, 0.21875, -0.1875, -1.0625, -1.03125, 0.09375, 1.21875, 0.21875, -0.1875, -0.8125, -0.65625, 0.46875, 1.59375, 0.59375, 0.0625, -0.8125, -0.65625, 0.46875, 1.59375, 0.59375, 0.0625, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.5625, -0.28125, 0.84375, 1.96875, 0.96875, 0.3125, -0.5625, -0.28125, 0.84375, 1.96875, 0.96875, 0.3125, -0.3125, 0.09375, 1.21875, 0.21875, -0.78125, -1.5625, -0.3125, 0.09375, 1.21875, 0.21875, -0.78125, -1.5625, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0625, 0.46875, 1.59375, 0.59375, -0.40625, -1.3125, -0.0625, 0.46875, 1.59375, 0.59375, -0.40625, -1.3125, 0.1875, 0.84375, 1.96875, 0.96875, -0.03125, -1.0625, 0.1875, 0.84375, 1.96875, 0.96875, -0.03125, -1.0625, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, MaxPool2dOverlapping) {
  OwnedTensor idx = make(ScalarType::Long, {2, 2, 5, 3}, {7.0, 9.0, 11.0, 13.0, 15.0, 11.0, 19.0, 21.0, 11.0, 25.0, 27.0, 28.0, 25.0, 27.0, 28.0, 7.0, 9.0, 9.0, 13.0, 15.0, 15.0, 19.0, 15.0, 15.0, 25.0, 15.0, 15.0, 25.0, 26.0, 29.0, 7.0, 2.0, 11.0, 13.0, 2.0, 17.0, 19.0, 19.0, 23.0, 19.0, 19.0, 29.0, 19.0, 19.0, 29.0, 6.0, 9.0, 11.0, 6.0, 15.0, 17.0, 6.0, 21.0, 23.0, 25.0, 27.0, 23.0, 25.0, 27.0, 23.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 2, 5, 3}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375});
    OwnedTensor self(dt, {2, 2, 5, 6});
    OwnedTensor gi = dyn_out(dt, 4);
    Call call;
    call.tensor(go.tensor()).tensor(self.tensor()).ints({3, 3}).ints({1, 2}).ints({1, 1}).ints({1, 1}).boolean(false).tensor(idx.tensor()).tensor(gi.tensor());
    expect_ok(call.run("aten::max_pool2d_with_indices_backward.grad_input"), gi, {2, 2, 5, 6}, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.875, 0.0, -2.375, 0.0, 2.375, 0.0, 0.625, 0.0, 2.125, 0.0, 0.0, 0.0, -3.375, 0.0, -1.875, 0.0, 0.0, 0.0, -1.75, 0.0, 1.25, 4.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.625, 0.0, -0.75, 0.0, 0.0, 0.0, -2.375, 0.0, 0.75, 0.0, 0.0, 0.0, 2.125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.75, 4.125, 0.0, 0.0, -2.875, 0.0, 0.0, -3.75, 0.0, 0.0, 0.0, 0.0, -1.375, 0.0, 0.0, 0.0, 1.625, 0.0, 3.125, 0.0, 0.0, 0.0, -2.375, 0.0, 0.75, 0.0, 0.0, 0.0, 2.125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.375, 0.0, 0.0, -2.875, 0.0, -1.375, 0.0, 0.0, 0.0, 1.625, 0.0, 3.125, 0.0, 0.0, 0.0, -2.375, 0.0, 2.375, 0.0, -2.75, 0.0, 0.25, 0.0, 0.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, MaxPool2dDilatedCeil) {
  OwnedTensor idx = make(ScalarType::Long, {2, 2, 2, 4}, {12.0, 14.0, 16.0, 5.0, 24.0, 26.0, 28.0, 29.0, 12.0, 14.0, 15.0, 17.0, 24.0, 26.0, 15.0, 29.0, 12.0, 2.0, 16.0, 17.0, 24.0, 13.0, 28.0, 29.0, 0.0, 14.0, 16.0, 17.0, 24.0, 26.0, 28.0, 17.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 2, 2, 4}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125});
    OwnedTensor self(dt, {2, 2, 5, 6});
    OwnedTensor gi = dyn_out(dt, 4);
    Call call;
    call.tensor(go.tensor()).tensor(self.tensor()).ints({2, 2}).ints({2, 2}).ints({0, 1}).ints({2, 1}).boolean(true).tensor(idx.tensor()).tensor(gi.tensor());
    expect_ok(call.run("aten::max_pool2d_with_indices_backward.grad_input"), gi, {2, 2, 5, 6}, {0.0, 0.0, 0.0, 0.0, 0.0, 0.625, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.875, 0.0, -2.375, 0.0, -0.875, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.125, 0.0, 3.625, 0.0, -3.375, -1.875, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.375, 0.0, 1.125, 2.75, 0.0, 4.125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -2.875, 0.0, -1.375, 0.0, 0.0, 1.625, 0.0, 0.0, -3.875, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.125, 2.125, 0.0, 0.0, -2.375, -0.875, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.625, 0.0, 0.0, 0.0, 3.625, -3.375, -1.875, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.375, 0.0, 1.125, 2.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.125, 0.0, -2.875, 0.0, -1.375, 0.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, AdaptiveAvgPool2dDown) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 2, 3, 4}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375});
    OwnedTensor self(dt, {2, 2, 5, 6});
    OwnedTensor gi = dyn_out(dt, 4);
    Call call;
    call.tensor(go.tensor()).tensor(self.tensor()).tensor(gi.tensor());
    expect_ok(call.run("aten::_adaptive_avg_pool2d_backward.out"), gi, {2, 2, 5, 6}, {-0.96875, -1.5625, -0.59375, -0.21875, -0.0625, 0.15625, -0.6145833333333333, -0.6041666666666666, 0.01041666666666663, -0.78125, -0.9375, -0.15625, 0.3541666666666667, 0.9583333333333333, 0.6041666666666666, -0.5625, -0.875, -0.3125, 0.2604166666666667, 1.1458333333333333, 0.8854166666666666, 0.09375, 0.8125, 0.71875, -0.09375, 0.1875, 0.28125, 0.65625, 1.6875, 1.03125, -0.71875, -1.0625, -0.34375, 0.03125, 0.4375, 0.40625, -0.19791666666666663, -1.1875, -0.9895833333333334, -0.3645833333333333, -0.10416666666666666, 0.26041666666666663, 0.5208333333333334, -0.125, -0.6458333333333334, -0.3958333333333333, -0.5416666666666666, -0.14583333333333334, 0.6770833333333334, 0.5625, -0.11458333333333337, 0.5104166666666667, -0.47916666666666663, -0.9895833333333334, 0.15625, 0.6875, 0.53125, 0.90625, 0.0625, -0.84375, -0.46875, -0.5625, -0.09375, 0.28125, 0.9375, 0.65625, 0.21875, -0.3541666666666667, -0.5729166666666667, 0.05208333333333334, 0.7291666666666667, 0.6770833333333334, 0.6875, 0.20833333333333331, -0.4791666666666667, -0.22916666666666666, -0.20833333333333331, 0.020833333333333332, 1.09375, 1.3958333333333333, 0.3020833333333333, -1.1979166666666667, -1.7708333333333333, -0.5729166666666666, 0.40625, 1.1875, 0.78125, -0.96875, -1.5625, -0.59375, -0.21875, -0.0625, 0.15625, 0.53125, 1.4375, 0.90625, -0.78125, -0.9375, -0.15625, 0.46875, 1.5625, 1.09375, -0.5625, -0.875, -0.3125, -0.0625, 0.125, 0.1875, 0.09375, 0.8125, 0.71875, -0.78125, -0.9375, -0.15625, 0.65625, 1.6875, 1.03125, -0.71875, -1.0625, -0.34375}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, AdaptiveAvgPool2dUp) {
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 7, 8}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125});
    OwnedTensor self(dt, {2, 5, 6});
    OwnedTensor gi = dyn_out(dt, 3);
    Call call;
    call.tensor(go.tensor()).tensor(self.tensor()).tensor(gi.tensor());
    expect_ok(call.run("aten::_adaptive_avg_pool2d_backward.out"), gi, {2, 5, 6}, {-4.96875, -0.6875, 2.90625, 2.15625, -0.1875, -2.71875, 0.6875, -0.625, 1.6875, -0.9375, 1.125, 0.0625, 0.125, -1.375, 0.0, 3.25, 0.0, 1.0, -0.5625, -0.75, -1.6875, 2.0625, 1.0, 0.9375, -1.21875, 1.8125, -1.84375, -0.46875, 0.1875, 1.03125, 1.28125, -2.1875, 0.65625, -0.09375, 2.5625, -0.71875, 1.3125, 0.5, 0.1875, -2.4375, 0.125, 2.8125, -0.75, 0.875, -0.875, 0.25, -2.0, 2.25, 2.1875, 0.375, -1.0625, 0.5625, 0.0, -0.5625, 0.78125, 0.3125, 4.40625, -2.71875, -1.3125, -1.21875}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, EmbeddingDensePlain) {
  OwnedTensor idx = make(ScalarType::Long, {2, 3}, {0.0, 2.0, 4.0, 2.0, 2.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 3, 3}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875});
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(go.tensor()).tensor(idx.tensor()).integer(5).integer(-1).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::embedding_dense_backward.out"), out, {5, 3}, {-3.875, -2.375, -0.875, 1.625, 3.125, -3.875, -1.125, 3.375, 7.875, 0.0, 0.0, 0.0, -3.375, -1.875, -0.375}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, EmbeddingDensePaddingIdx) {
  OwnedTensor idx = make(ScalarType::Long, {2, 3}, {0.0, 2.0, 4.0, 2.0, 2.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 3, 3}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875});
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(go.tensor()).tensor(idx.tensor()).integer(6).integer(2).boolean(false).tensor(out.tensor());
    expect_ok(call.run("aten::embedding_dense_backward.out"), out, {6, 3}, {-3.875, -2.375, -0.875, 1.625, 3.125, -3.875, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.375, -1.875, -0.375, 0.0, 0.0, 0.0}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, EmbeddingDenseScaleByFreq) {
  OwnedTensor idx = make(ScalarType::Long, {2, 3}, {0.0, 2.0, 4.0, 2.0, 2.0, 1.0});
  for (ScalarType dt : kFloatTypes) {
    OwnedTensor go = make(dt, {2, 3, 3}, {-3.875, -2.375, -0.875, 0.625, 2.125, 3.625, -3.375, -1.875, -0.375, 1.125, 2.625, 4.125, -2.875, -1.375, 0.125, 1.625, 3.125, -3.875});
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(go.tensor()).tensor(idx.tensor()).integer(5).integer(-1).boolean(true).tensor(out.tensor());
    expect_ok(call.run("aten::embedding_dense_backward.out"), out, {5, 3}, {-3.875, -2.375, -0.875, 1.625, 3.125, -3.875, -0.375, 1.125, 2.6249999999999996, 0.0, 0.0, 0.0, -3.375, -1.875, -0.375}, tol(dt) * 2);
  }
}
TEST(Kernels2Backward, LayerNormLastDimAffine) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor dy = make(dt, {2, 3, 4}, {-2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4});
    OwnedTensor x = make(dt, {2, 3, 4}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65});
    OwnedTensor mean = make(dt, {2, 3, 1}, {-0.7749999999999999, 0.10000000000000009, 0.975, -0.2749999999999999, -0.4624999999999999, 0.4125000000000001});
    OwnedTensor rstd = make(dt, {2, 3, 1}, {1.1925611075954974, 0.7016446883223625, 1.1925611075954974, 1.1925611075954974, 0.7671390250513104, 0.7671390250513104});
    OwnedTensor w = make(dt, {4}, {0.5, -1.0, 1.5, 2.0});
    OwnedTensor b = make(dt, {4}, {0.1, 0.2, 0.3, 0.4});
    OwnedTensor o0 = dyn_out(dt, 3), o1 = dyn_out(dt, 1), o2 = dyn_out(dt, 1);
    const bool mask[3] = {true, true, true};
    Call call;
    call.tensor(dy.tensor()).tensor(x.tensor()).ints({4}).tensor(mean.tensor()).tensor(rstd.tensor()).tensor(w.tensor()).tensor(b.tensor()).bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::native_layer_norm_backward.out");
    expect_ok(ctx, o0, {2, 3, 4}, {-0.9957983196048341, 2.212197589668783, -1.4370328697317094, 0.22063359966776075, 1.4631338471384532, -1.1461730975356872, -0.30096907212918556, -0.01599167747358088, 1.3415778200671502, -1.8783015531221698, -0.2683084405497256, 0.8050321736047441, -0.3279765654128386, 1.043483548871368, -1.1031116042511424, 0.3876046207926138, 0.8443819011901647, 2.1040331469452798, -1.9563808384254162, -0.9920342097100286, 0.695274259145291, -1.7794033089556718, 1.0008214445448413, 0.08330760526554037}, tol(dt) * 10);
    expect_ok(ctx, o1, {4}, {11.242307791482212, 7.739093995343529, 7.137059796178762, 10.549489400641932}, tol(dt) * 10);
    expect_ok(ctx, o2, {4}, {-1.1000000000000005, -0.7500000000000002, -0.40000000000000013, -0.050000000000000266}, tol(dt) * 10);
  }
}
TEST(Kernels2Backward, LayerNormTwoDimsAffine) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor dy = make(dt, {2, 3, 4}, {-2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4});
    OwnedTensor x = make(dt, {2, 3, 4}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65});
    OwnedTensor mean = make(dt, {2, 1, 1}, {0.10000000000000005, -0.10833333333333331});
    OwnedTensor rstd = make(dt, {2, 1, 1}, {0.7770263441494453, 0.8141415396771778});
    OwnedTensor w = make(dt, {3, 4}, {-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75});
    OwnedTensor b = make(dt, {3, 4}, {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0});
    OwnedTensor o0 = dyn_out(dt, 3), o1 = dyn_out(dt, 2), o2 = dyn_out(dt, 2);
    const bool mask[3] = {true, false, true};
    Call call;
    call.tensor(dy.tensor()).tensor(x.tensor()).ints({3, 4}).tensor(mean.tensor()).tensor(rstd.tensor()).tensor(w.tensor()).tensor(b.tensor()).bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::native_layer_norm_backward.out");
    expect_ok(ctx, o0, {2, 3, 4}, {2.2712850464769145, 0.8079484339460671, -0.247449347906322, -0.8949082990802523, -1.1344284195757237, -0.9660097093927367, -0.9037099312168659, -1.0752402465992608, -0.8388317313031972, -0.19448438532867474, 0.8578017913243065, 2.318026798655746, 2.3959441007399978, 0.8273138558766464, -0.3138920806561865, -1.027673708858501, -1.3140310287302976, 0.5073957980624038, -0.13514844541815785, -0.350268380568201, -0.13796400738772596, 0.5017646741232673, 1.5689176639647786, -2.5223584411480235}, tol(dt) * 10);
    expect_ok(ctx, o2, {3, 4}, {-4.8, -2.6999999999999997, -0.5999999999999999, 1.4999999999999998, 3.5999999999999996, -0.25000000000000044, -4.1, -1.9999999999999998, 0.09999999999999998, 2.2, 4.3, 0.44999999999999973}, tol(dt) * 10);
  }
}
TEST(Kernels2Backward, LayerNormNoAffine) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor dy = make(dt, {2, 3, 4}, {-2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4});
    OwnedTensor x = make(dt, {2, 3, 4}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65});
    OwnedTensor mean = make(dt, {2, 3, 1}, {-0.7749999999999999, 0.10000000000000009, 0.975, -0.2749999999999999, -0.4624999999999999, 0.4125000000000001});
    OwnedTensor rstd = make(dt, {2, 3, 1}, {1.1925611075954974, 0.7016446883223625, 1.1925611075954974, 1.1925611075954974, 0.7671390250513104, 0.7671390250513104});
    OwnedTensor o0 = dyn_out(dt, 3), o1 = dyn_out(dt, 1), o2 = dyn_out(dt, 1);
    const bool mask[3] = {true, false, false};
    Call call;
    call.tensor(dy.tensor()).tensor(x.tensor()).ints({4}).tensor(mean.tensor()).tensor(rstd.tensor()).none().none().bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::native_layer_norm_backward.out");
    expect_ok(ctx, o0, {2, 3, 4}, {-2.671298889217466e-05, -8.904329631020946e-06, 8.90432963086829e-06, 2.6712988892133027e-05, 4.8359272749459725e-06, 8.462872730805038e-06, -8.462872731054838e-06, -4.835927274640661e-06, -2.671298889204976e-05, -8.904329630576857e-06, 8.90432963061849e-06, 2.6712988891772205e-05, -2.6712988892091394e-05, -8.90432963036869e-06, 8.90432963099319e-06, 2.671298889249385e-05, 1.3035996093785363e-05, -9.085694247540355e-06, -4.345332031335802e-06, 3.95030184924261e-07, -3.9503018453568295e-07, 4.3453320313913135e-06, 9.085694247151777e-06, -1.3035996093951896e-05}, tol(dt) * 10);
  }
}
TEST(Kernels2Backward, GroupNormThreeGroupsAffine) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor dy = make(dt, {2, 6, 5}, {-2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3});
    OwnedTensor x = make(dt, {2, 6, 5}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15});
    OwnedTensor mean = make(dt, {2, 3}, {-0.22499999999999992, 0.05000000000000007, 0.32500000000000007, 0.17500000000000004, 0.024999999999999977, -0.12499999999999997});
    OwnedTensor rstd = make(dt, {2, 3}, {0.8685363894715232, 0.7675272956987992, 0.7953974656145372, 0.8685363894715232, 0.8685363894715232, 0.7953974656145372});
    OwnedTensor w = make(dt, {6}, {0.5, -1.0, 1.5, 2.0, 0.25, 1.0});
    OwnedTensor o0 = dyn_out(dt, 3), o1 = dyn_out(dt, 1), o2 = dyn_out(dt, 1);
    const bool mask[3] = {true, true, true};
    Call call;
    call.tensor(dy.tensor()).tensor(x.tensor()).tensor(mean.tensor()).tensor(rstd.tensor()).tensor(w.tensor()).integer(2).integer(6).integer(5).integer(3).bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::native_group_norm_backward.out");
    expect_ok(ctx, o0, {2, 6, 5}, {-1.7693155384691197, -1.0237523272455955, -0.27818911602207175, 0.4673740952014521, 1.2129373064249762, -1.2985109428697115, 1.6059365340362053, 0.9835549318420801, 0.361173329647955, -0.2612082725461702, -0.2789489857262972, -0.4808404822138571, 0.46131983472808735, 0.2594283382405282, 0.0575368417529685, 0.27778535789974845, 0.47884569165405777, -0.45943586586605545, -0.25837553211174513, -0.05731519835743476, -0.19212659255867073, -0.49750926153903285, -0.802891930519395, 0.6222271913889613, 0.31684452240859945, -0.16750257633503357, 0.15349025885605241, 0.4744830940471384, 0.7954759292382241, -0.7024906349868434, -0.40631899464911525, 0.19993547034231404, 0.8061899353337434, 1.4124444003251728, -1.4167431029681643, 1.4042791551756493, 0.6425888067494295, -0.11910154167679007, -0.8807918901030097, -1.642482238529229, 0.5305537810759547, 0.2745197842509466, 0.018485787425937872, -0.23754820939907056, -0.49358220622407917, 0.48804815194783224, -0.44504068374069256, -0.245093076093151, -0.045145468445610196, 0.15480213920193084, -0.7379993875143285, 0.7714945485856899, 0.44803156227854296, 0.12456857597139624, -0.19889441033575053, 0.3426373472129118, 0.6455498650772128, -0.7680418849561926, -0.4651293670918913, -0.16221684922759022}, tol(dt) * 10);
    expect_ok(ctx, o1, {6}, {16.308942053301525, 15.928957382907734, 16.16866977807303, 18.190566122313562, 17.531554388976417, 17.67074894545896}, tol(dt) * 10);
    expect_ok(ctx, o2, {6}, {-3.700000000000001, 1.1999999999999993, 0.15000000000000013, -0.9000000000000006, -1.950000000000001, 2.9499999999999993}, tol(dt) * 10);
  }
}
TEST(Kernels2Backward, GroupNormOneGroupPartialMask) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor dy = make(dt, {2, 6, 5}, {-2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3, 0.75, 1.8, 2.8499999999999996, -2.05, -0.9999999999999998, 0.05, 1.0999999999999999, 2.1499999999999995, -2.75, -1.7, -0.6499999999999999, 0.39999999999999997, 1.45, 2.4999999999999996, -2.4, -1.3499999999999999, -0.3});
    OwnedTensor x = make(dt, {2, 6, 5}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15});
    OwnedTensor mean = make(dt, {2, 1}, {0.050000000000000044, 0.025000000000000022});
    OwnedTensor rstd = make(dt, {2, 1}, {0.7942989651185209, 0.837521231759502});
    OwnedTensor w = make(dt, {6}, {0.5, -1.0, 1.5, 2.0, 0.25, 1.0});
    OwnedTensor o0 = dyn_out(dt, 3), o1 = dyn_out(dt, 1), o2 = dyn_out(dt, 1);
    const bool mask[3] = {true, false, true};
    Call call;
    call.tensor(dy.tensor()).tensor(x.tensor()).tensor(mean.tensor()).tensor(rstd.tensor()).tensor(w.tensor()).integer(2).integer(6).integer(5).integer(1).bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::native_group_norm_backward.out");
    expect_ok(ctx, o0, {2, 6, 5}, {0.5203609035655656, 0.3054562804067345, 0.09055165724790361, -0.12435296591092751, -0.33925758906975867, -3.532783331423043, 3.308202303605964, 1.8422768103854623, 0.37635131716496095, -1.0895741760555406, 1.018845673757302, 1.6379549639729172, -1.2512217236999563, -0.6321124334843401, -0.01300314326872448, 1.0429705777620777, 2.079086824664916, -2.7561223275483333, -1.720006080645494, -0.6838898337426542, -0.2037828624227796, -0.6271909639252224, -1.0505990654276656, 0.9253054082504012, 0.5018973067479584, -0.10022806190615165, 0.10187427162224083, 0.30397660515063324, 0.5060789386790253, -0.43706528445347237, 0.2535991483109629, 0.048982837743291624, -0.15563347282437956, -0.360249783392051, 0.5946263325904146, 2.5256891630094738, 1.0019769124205868, -0.5217353381682999, -2.045447588757187, -3.569159839346073, -1.4836300604882806, -0.8088490777084744, -0.1340680949286686, 0.5407128878511375, 1.2154938706309433, 3.083742608668039, -2.117162328781834, -1.0026826993282898, 0.11179693012525428, 1.2262765595787986, -0.8104174454627832, 1.1704221794250722, 0.7459565455205318, 0.3214909116159915, -0.10297472228854894, 0.3833639833453689, 0.6184463194514362, -0.47860458237687814, -0.24352224627081065, -0.008439910164743297}, tol(dt) * 10);
    expect_ok(ctx, o2, {6}, {-3.700000000000001, 1.1999999999999993, 0.15000000000000013, -0.9000000000000006, -1.950000000000001, 2.9499999999999993}, tol(dt) * 10);
  }
}
TEST(Kernels2Backward, Convolution2dStridePad) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor go = make(dt, {2, 4, 3, 7}, {-0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03});
    OwnedTensor x = make(dt, {2, 3, 5, 6}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6});
    OwnedTensor w = make(dt, {4, 3, 3, 2}, {-4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55, -0.05, 1.45, 2.95, -4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55, -0.05, 1.45, 2.95, -4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55, -0.05, 1.45, 2.95, -4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55, -0.05, 1.45, 2.95, -4.05, -2.55, -1.05, 0.45});
    OwnedTensor o0 = dyn_out(dt, 4), o1 = dyn_out(dt, 4), o2 = dyn_out(dt, 1);
    const bool mask[3] = {true, true, true};
    Call call;
    call.tensor(go.tensor()).tensor(x.tensor()).tensor(w.tensor()).ints({4}).ints({2, 1}).ints({1, 1}).ints({1, 1}).boolean(false).ints({0, 0}).integer(1).bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::convolution_backward.out");
    expect_ok(ctx, o0, {2, 3, 5, 6}, {3.2129999999999996, 4.91925, 3.4380000000000006, 1.9567500000000007, -10.04325, 2.3942499999999995, -1.6202500000000013, -8.7265, -6.3765, -4.0265, 4.910999999999999, 8.535999999999998, 5.806750000000001, 0.18175000000000063, -4.487, -9.155750000000001, 3.2817499999999997, 4.03175, -10.139, -0.2452500000000003, 7.5235, 8.91725, 7.1235, -9.545250000000001, 1.069250000000001, -3.5994999999999995, -6.037, 3.2129999999999996, 4.91925, 3.438000000000001, 2.708, 4.851750000000001, 3.8080000000000003, 2.7642500000000005, -9.86075, 1.95175, -1.6927500000000015, -8.986500000000001, -5.7615, -2.5364999999999984, 5.151, 7.526, 6.23925, -0.010749999999999482, -4.242, -8.47325, 3.33925, 3.4642500000000003, -9.399, 0.3072499999999997, 7.888499999999999, 9.094750000000001, 7.1135, -9.742750000000001, 1.37675, -2.8545000000000007, -5.917, 2.708, 4.851750000000001, 3.8080000000000007, 5.943, 2.1492500000000008, -4.832, -11.81325, 4.68675, 9.49925, -1.2127499999999993, 2.993499999999999, 0.7184999999999997, -1.5564999999999989, -1.494000000000001, -6.744, 1.9117500000000005, -11.338249999999999, -3.4444999999999997, 4.449249999999999, 9.26175, 2.38675, 1.4559999999999997, 4.59975, 5.6185, 0.26224999999999987, -8.2815, 4.4247499999999995, -11.57575, -3.6820000000000004, 4.318, 5.943, 2.1492500000000003, -4.832, -6.037, 3.2129999999999996, 4.91925, 3.4380000000000006, 1.9567500000000007, -10.04325, 3.3609999999999998, -1.6202500000000013, -8.7265, -6.3765, -4.0265, 4.910999999999999, 4.100499999999999, 5.806750000000001, 0.18175000000000063, -4.487, -9.155750000000001, 3.2817499999999997, -0.801499999999999, -10.139, -0.2452500000000003, 7.5235, 8.91725, 7.1235, 2.5505000000000004, 1.069250000000001, -3.5994999999999995, -6.037, 3.2129999999999996, 4.91925, -5.917, 2.708, 4.851750000000001, 3.8080000000000003, 2.7642500000000005, -9.86075, 3.4760000000000004, -1.6927500000000015, -8.986500000000001, -5.7615, -2.5364999999999984, 5.151, 4.0955, 6.23925, -0.010749999999999482, -4.242, -8.47325, 3.3392500000000003, -0.9365000000000014, -9.399, 0.3072499999999997, 7.888499999999999, 9.094750000000001, 7.113500000000001, 2.4205000000000005, 1.37675, -2.8545000000000007, -5.917, 2.708, 4.851750000000001, 4.318, 5.943, 2.1492500000000008, -4.832, -11.81325, 4.68675, -7.544, -1.2127499999999993, 2.993499999999999, 0.7184999999999997, -1.5564999999999989, -1.4940000000000002, 5.705500000000001, 1.9117500000000005, -11.338249999999999, -3.4444999999999997, 4.449249999999999, 9.26175, -2.6440000000000006, 1.4559999999999997, 4.59975, 5.6185, 0.26224999999999987, -8.2815, -4.5945, -11.57575, -3.6820000000000004, 4.318, 5.943, 2.1492500000000003}, tol(dt) * 10);
    expect_ok(ctx, o1, {4, 3, 3, 2}, {-7.3317499999999995, -1.06925, -0.9745000000000006, 17.450500000000005, 3.462000000000001, 18.755750000000003, 9.767, 10.092, 7.038000000000002, 4.338000000000001, 2.373250000000001, -6.333, 0.9620000000000004, -6.244249999999999, -6.1995, -11.962, -8.68175, -6.85675, 7.249499999999999, 11.5995, 12.238000000000001, -0.9994999999999997, 7.4182500000000005, -5.763000000000001, 0.28575000000000045, -7.67675, -6.2807499999999985, -10.89325, -8.70175, -7.10175, -8.14425, -2.91925, -9.9245, 3.119250000000001, -1.3192500000000007, 13.468250000000001, 3.237000000000001, -6.438, -8.01825, -11.3745, -7.219249999999999, -7.3317499999999995, -9.72675, -7.276750000000001, -7.911999999999998, 3.7317500000000012, -2.2455000000000003, 9.767, 0.2807499999999994, 13.262, 7.06925, 15.650500000000001, 5.512000000000001, 0.9620000000000011, -9.062999999999999, -5.9879999999999995, -10.4245, 6.087999999999998, -6.663000000000001, 7.249499999999999, 1.7232500000000004, 16.923250000000003, 14.681750000000001, 12.7255, 16.74825, 0.28575000000000045, 5.7307500000000005, -4.6629999999999985, 0.4755000000000016, -10.91825, -4.869249999999999, -8.14425}, tol(dt) * 10);
    expect_ok(ctx, o2, {4}, {-1.6149999999999989, 1.8850000000000011, 3.2600000000000007, 0.38500000000000045}, tol(dt) * 10);
  }
}
TEST(Kernels2Backward, Convolution2dGroupsDilation) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor go = make(dt, {1, 6, 4, 3}, {-0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155});
    OwnedTensor x = make(dt, {1, 4, 6, 5}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9});
    OwnedTensor w = make(dt, {6, 2, 2, 2}, {-4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55, -0.05, 1.45, 2.95, -4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55, -0.05, 1.45, 2.95, -4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55});
    OwnedTensor o0 = dyn_out(dt, 4), o1 = dyn_out(dt, 4), o2 = dyn_out(dt, 1);
    const bool mask[3] = {true, true, false};
    Call call;
    call.tensor(go.tensor()).tensor(x.tensor()).tensor(w.tensor()).ints({6}).ints({1, 2}).ints({0, 1}).ints({2, 1}).boolean(false).ints({0, 0}).integer(2).bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::convolution_backward.out");
    expect_ok(ctx, o0, {1, 4, 6, 5}, {3.6929999999999996, 2.31925, 1.5742499999999997, 1.7005000000000001, -0.5445000000000001, -2.66325, 0.4629999999999999, -4.782, -5.25575, -0.3132500000000002, 0.19974999999999987, 2.1347499999999995, -0.6627499999999998, 1.08475, -1.52525, -2.3877499999999996, -7.284000000000001, 5.356, -6.95275, -3.6877500000000007, -2.36825, -0.12200000000000004, -1.112, -0.5532499999999999, 0.14424999999999996, 1.4004999999999999, 4.003, 4.888000000000001, -1.6345000000000005, -2.2495, -3.1470000000000002, -0.15075000000000016, -1.70325, -0.39449999999999996, -0.25949999999999995, 1.18425, -0.8819999999999999, 2.628, 4.39925, 3.22175, -0.052750000000000075, 1.5697500000000002, -0.16525000000000012, 1.2697500000000002, -0.27775000000000016, -0.39024999999999954, -0.2864999999999993, -4.6465, -1.3302500000000004, 2.99725, 2.0942499999999997, 1.7829999999999997, 0.5379999999999999, 1.7267500000000002, -1.01825, -2.5745, -5.717, 3.413, -5.667, -1.2245000000000001, -0.3645, -2.0557499999999997, -0.2332499999999998, -3.612, -0.10199999999999981, -1.8832500000000005, 2.0942499999999997, -0.58325, 0.5379999999999999, -0.452, -0.67025, -4.42775, -0.22024999999999964, 0.19099999999999984, 4.586, 2.16725, 3.3722499999999993, -1.4202500000000002, 0.4472499999999999, -0.9702500000000001, -0.24325, -2.3095000000000003, 0.07550000000000023, -2.5095, -1.6244999999999996, 4.113, 1.3404999999999998, -0.7745000000000001, -0.028250000000000004, -0.45575, 1.7905, 1.7917500000000002, 2.2967500000000003, 3.798, 2.8030000000000004, -6.04075, -3.55825, 0.94675, -1.552, 1.4529999999999998, 1.63975, 1.01225, 2.8397500000000004, -3.1815, -4.353999999999999, -8.14775, -1.68775, -0.3602500000000002, -0.6752499999999999, 0.8397499999999998, -0.08825000000000008, -1.7795, 0.6055000000000001, 3.7079999999999997, 4.593, -2.0445, 0.8704999999999999, -1.2445, -0.12325, -0.55075}, tol(dt) * 10);
    expect_ok(ctx, o1, {6, 2, 2, 2}, {-1.46475, 0.28100000000000014, 0.8965000000000005, -3.4152499999999995, -0.07599999999999962, 4.5985000000000005, 0.96775, 0.37099999999999933, 1.12275, -0.4065000000000001, -0.10974999999999979, 0.33474999999999966, -2.426, -0.839, 1.9302500000000002, -0.6289999999999998, -2.4522500000000003, 3.3685, -0.37224999999999986, -2.609, 0.749, 0.8422500000000002, -2.7385, 3.36475, 0.5940000000000003, -3.69025, 1.609, -3.764, -2.3322499999999993, 0.5934999999999999, 0.4040000000000001, -2.66775, 1.1690000000000005, -1.1277499999999998, 2.3089999999999997, 2.1735000000000007, -2.4447499999999995, -2.6565000000000003, 1.4790000000000003, -2.54275, -2.18725, 3.2409999999999997, 1.2027500000000002, -1.2389999999999994, -0.11349999999999968, -1.4440000000000004, -1.9084999999999999, -0.08024999999999982}, tol(dt) * 10);
  }
}
TEST(Kernels2Backward, Convolution1d) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor go = make(dt, {2, 3, 4}, {-0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845});
    OwnedTensor x = make(dt, {2, 2, 7}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35});
    OwnedTensor w = make(dt, {3, 2, 3}, {-4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55, -0.05, 1.45, 2.95, -4.05});
    OwnedTensor o0 = dyn_out(dt, 3), o1 = dyn_out(dt, 3), o2 = dyn_out(dt, 1);
    const bool mask[3] = {false, true, true};
    Call call;
    call.tensor(go.tensor()).tensor(x.tensor()).tensor(w.tensor()).ints({3}).ints({2}).ints({1}).ints({1}).boolean(false).ints({0}).integer(1).bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::convolution_backward.out");
    expect_ok(ctx, o1, {3, 2, 3}, {0.3817499999999999, 1.0665, 0.5317499999999998, -0.8470000000000001, 0.27274999999999994, -1.35325, -1.8119999999999998, -2.3897500000000003, 0.8879999999999999, -2.0095, 0.8477499999999996, 4.28425, 0.88175, -1.3834999999999997, 0.1817500000000003, -0.9407499999999998, -1.021, -0.17199999999999982}, tol(dt) * 10);
    expect_ok(ctx, o2, {3}, {-2.26, -0.8849999999999998, 2.615}, tol(dt) * 10);
  }
}
TEST(Kernels2Backward, Convolution3d) {
  for (ScalarType dt : kFloatDoubleTypes) {
    OwnedTensor go = make(dt, {1, 2, 5, 2, 3}, {-0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095, 0.28, 0.655, 1.03, -0.72, -0.345, 0.03, 0.405, 0.78, -0.97, -0.595, -0.22, 0.155, 0.53, 0.905, -0.845, -0.47, -0.095});
    OwnedTensor x = make(dt, {1, 2, 4, 3, 4}, {-1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35, 2.1, -1.4, -0.65, 0.1, 0.85, 1.6, -1.9, -1.15, -0.4, 0.35, 1.1, 1.85, -1.65, -0.9, -0.15, 0.6, 1.35});
    OwnedTensor w = make(dt, {2, 1, 2, 2, 2}, {-4.05, -2.55, -1.05, 0.45, 1.95, 3.45, -3.55, -2.05, -0.55, 0.95, 2.45, 3.95, -3.05, -1.55, -0.05, 1.45});
    OwnedTensor o0 = dyn_out(dt, 5), o1 = dyn_out(dt, 5), o2 = dyn_out(dt, 1);
    const bool mask[3] = {true, true, true};
    Call call;
    call.tensor(go.tensor()).tensor(x.tensor()).tensor(w.tensor()).ints({2}).ints({1, 1, 2}).ints({1, 0, 1}).ints({1, 1, 1}).boolean(false).ints({0, 0, 0}).integer(2).bools(mask).tensor(o0.tensor()).tensor(o1.tensor()).tensor(o2.tensor());
    const KernelContext ctx = call.run("aten::convolution_backward.out");
    expect_ok(ctx, o0, {1, 2, 4, 3, 4}, {-1.1917500000000003, 0.7432499999999997, -0.8542500000000002, -0.04425000000000001, 1.4289999999999998, 0.9864999999999999, 1.1665, -1.5259999999999996, -0.19174999999999995, -2.5692500000000003, -0.79175, -4.29425, -1.07925, 0.4807499999999999, -0.74175, -0.30674999999999997, 1.3415, 0.14900000000000002, 1.0790000000000002, 6.24275, -0.39174999999999993, -3.14425, -0.9917499999999999, -2.638, -0.9667500000000002, 0.21825000000000006, -0.6292500000000001, -0.5692499999999999, 1.254, -0.6885000000000003, 0.9915, 1.2614999999999996, -0.5917499999999999, -3.71925, -1.1917499999999999, 4.33075, -0.8542500000000002, -0.04425000000000001, -0.51675, -0.8317500000000001, 1.1665, -1.5259999999999996, 0.9040000000000002, 0.42400000000000004, -0.79175, -4.29425, -1.3917499999999998, 3.75575, 0.32575, -0.17675000000000002, 0.10074999999999999, -1.52675, -1.7185000000000001, 3.8015, 1.3565000000000003, 3.3515, 4.70575, -2.02175, -4.74425, -1.12175, 0.25075000000000003, -0.6267499999999999, 0.025750000000000023, -1.97675, -1.1185000000000003, 3.6515, 1.9565000000000001, 3.2015, 5.38075, -1.7217500000000001, -4.06925, -0.82175, 0.17575000000000002, -1.07675, -0.04925000000000007, -2.42675, -2.53725, 3.5015, 2.5565, 3.0515000000000003, -2.338, -1.42175, -3.39425, -0.52175, 0.10074999999999999, -1.52675, -0.12425000000000008, -2.87675, 1.3565000000000003, 3.3515, 3.1565000000000003, 2.9015, -4.74425, -1.12175, -2.7192499999999997, -0.22175}, tol(dt) * 10);
    expect_ok(ctx, o1, {2, 1, 2, 2, 2}, {-2.0357499999999997, 1.5217500000000008, 10.501750000000001, -0.62575, -2.867, 1.9780000000000002, 6.8580000000000005, -0.8569999999999998, -4.718249999999999, -4.68075, 4.88175, 4.72675, -4.98075, -5.887, 4.463, 1.7705000000000002}, tol(dt) * 10);
    expect_ok(ctx, o2, {2}, {0.1500000000000008, -0.2249999999999992}, tol(dt) * 10);
  }
}

// ---------------------------------------------------------------------------
// Hand-written cases and bad inputs

TEST(Kernels2Upsample, Nearest2dByte) {
  OwnedTensor input = make(ScalarType::Byte, {1, 1, 2, 2}, {1, 2, 250, 4});
  OwnedTensor out = dyn_out(ScalarType::Byte, 4);
  Call call;
  call.tensor(input.tensor()).none().doubles({2.0, 1.5}).tensor(out.tensor());
  expect_ok(call.run("aten::upsample_nearest2d.vec_out"), out, {1, 1, 4, 3},
            {1, 1, 2, 1, 1, 2, 250, 250, 4, 250, 250, 4}, 0);
}

TEST(Kernels2Upsample, EmptyBatch) {
  OwnedTensor input(ScalarType::Float, {0, 2, 3, 3});
  OwnedTensor out = dyn_out(ScalarType::Float, 4);
  Call call;
  call.tensor(input.tensor()).ints({4, 5}).boolean(false).none().tensor(out.tensor());
  expect_ok(call.run("aten::upsample_bilinear2d.vec_out"), out, {0, 2, 4, 5}, {}, 0);
}

TEST(Kernels2Upsample, BadInputsFail) {
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

TEST(Kernels2GridSampler, BadInputsFail) {
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

TEST(Kernels2GridSampler, FarAndNaNCoordinatesReadZeros) {
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

TEST(Kernels2Sort, ZeroDimAndEmpty) {
  OwnedTensor scalar = make(ScalarType::Float, {}, {3.5});
  OwnedTensor v0(ScalarType::Float, {});
  OwnedTensor i0(ScalarType::Long, {});
  Call c;
  c.tensor(scalar.tensor()).integer(0).boolean(false).tensor(v0.tensor()).tensor(i0.tensor());
  expect_ok(c.run("aten::sort.values"), v0, {}, {3.5}, 0);
  EXPECT_EQ(values_of(i0), Values{0});

  OwnedTensor empty(ScalarType::Float, {2, 0});
  OwnedTensor v1 = dyn_out(ScalarType::Float, 2);
  OwnedTensor i1 = dyn_out(ScalarType::Long, 2);
  Call c2;
  c2.tensor(empty.tensor()).integer(1).boolean(true).tensor(v1.tensor()).tensor(i1.tensor());
  expect_ok(c2.run("aten::sort.values"), v1, {2, 0}, {}, 0);
}

TEST(Kernels2Sort, LongSliceMatchesStableSort) {
  // 300 values with many ties: with stable=True the result must be the stable
  // order (the unstable sort is std::sort's order, as torch's CPU sort).
  Values in(300);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<double>((i * 7919) % 23);
  std::vector<std::pair<double, int64_t>> ref;
  for (size_t i = 0; i < in.size(); ++i) ref.push_back({in[i], static_cast<int64_t>(i)});
  std::stable_sort(ref.begin(), ref.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  OwnedTensor input = make(ScalarType::Int, {300}, in);
  OwnedTensor v = dyn_out(ScalarType::Int, 1);
  OwnedTensor i = dyn_out(ScalarType::Long, 1);
  Call c;
  c.tensor(input.tensor()).boolean(true).integer(-1).boolean(true).tensor(v.tensor()).tensor(
      i.tensor());
  const KernelContext ctx = c.run("aten::sort.values_stable");
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  const Values gv = values_of(v), gi = values_of(i);
  for (size_t k = 0; k < ref.size(); ++k) {
    EXPECT_EQ(gv[k], ref[k].first);
    EXPECT_EQ(gi[k], static_cast<double>(ref[k].second));
  }
}

TEST(Kernels2Sort, BadInputsFail) {
  OwnedTensor in(ScalarType::Float, {3, 4});
  OwnedTensor v = dyn_out(ScalarType::Float, 2);
  OwnedTensor v_d = dyn_out(ScalarType::Double, 2);
  OwnedTensor i = dyn_out(ScalarType::Long, 2);
  OwnedTensor i_int = dyn_out(ScalarType::Int, 2);
  {
    Call c;
    c.tensor(in.tensor()).integer(2).boolean(false).tensor(v.tensor()).tensor(i.tensor());
    expect_fail(c.run("aten::sort.values"), "sort.values");
  }
  {
    Call c;
    c.tensor(in.tensor()).integer(0).boolean(false).tensor(v.tensor()).tensor(i_int.tensor());
    expect_fail(c.run("aten::sort.values"), "sort.values");
  }
  {
    Call c;
    c.tensor(in.tensor()).integer(0).boolean(false).tensor(v_d.tensor()).tensor(i.tensor());
    expect_fail(c.run("aten::sort.values"), "sort.values");
  }
  {
    Call c;
    c.tensor(in.tensor()).integer(5).integer(1).boolean(true).boolean(true).tensor(v.tensor())
        .tensor(i.tensor());
    expect_fail(c.run("aten::topk.values"), "topk.values");
  }
  {
    Call c;
    c.tensor(in.tensor()).integer(-1).integer(1).boolean(true).boolean(true).tensor(v.tensor())
        .tensor(i.tensor());
    expect_fail(c.run("aten::topk.values"), "topk.values");
  }
  {
    OwnedTensor b(ScalarType::Bool, {3});
    OwnedTensor vb = dyn_out(ScalarType::Bool, 1);
    OwnedTensor ib = dyn_out(ScalarType::Long, 1);
    Call c;
    c.tensor(b.tensor()).integer(1).integer(0).boolean(true).boolean(true).tensor(vb.tensor())
        .tensor(ib.tensor());
    const KernelContext ctx = c.run("aten::topk.values");
    ASSERT_TRUE(ctx.failed());
    EXPECT_EQ(ctx.error(), Error::NotSupported);
  }
}

TEST(Kernels2Var, BadInputsFail) {
  OwnedTensor in(ScalarType::Float, {3, 4});
  OwnedTensor out = dyn_out(ScalarType::Float, 1);
  OwnedTensor out_d = dyn_out(ScalarType::Double, 1);
  {
    Call c;
    c.tensor(in.tensor()).ints({2}).boolean(true).boolean(false).tensor(out.tensor());
    expect_fail(c.run("aten::var.out"), "var.out");
  }
  {
    Call c;
    c.tensor(in.tensor()).ints({1, 1}).boolean(true).boolean(false).tensor(out.tensor());
    expect_fail(c.run("aten::var.out"), "var.out");
  }
  {
    Call c;
    c.tensor(in.tensor()).ints({1}).boolean(true).boolean(false).tensor(out_d.tensor());
    expect_fail(c.run("aten::var.out"), "var.out");
  }
  {
    OwnedTensor in_i(ScalarType::Int, {3});
    OwnedTensor out_i = dyn_out(ScalarType::Int, 0);
    Call c;
    c.tensor(in_i.tensor()).none().boolean(true).boolean(false).tensor(out_i.tensor());
    const KernelContext ctx = c.run("aten::var.out");
    ASSERT_TRUE(ctx.failed());
    EXPECT_EQ(ctx.error(), Error::NotSupported);
  }
}

TEST(Kernels2Padding, BadInputsFail) {
  OwnedTensor in(ScalarType::Float, {2, 3});
  OwnedTensor in4(ScalarType::Float, {1, 1, 2, 3});
  OwnedTensor out = dyn_out(ScalarType::Float, 2);
  OwnedTensor out4 = dyn_out(ScalarType::Float, 4);
  OwnedTensor out_d = dyn_out(ScalarType::Double, 2);
  auto run = [](const char* name, Tensor& t, std::vector<int64_t> pad, Tensor& o) {
    Call c;
    c.tensor(t).ints(std::move(pad)).tensor(o);
    return c.run(name);
  };
  // Reflection padding must be smaller than the dim.
  expect_fail(run("aten::reflection_pad1d.out", in.tensor(), {3, 0}, out.tensor()),
              "reflection_pad1d");
  expect_fail(run("aten::reflection_pad2d.out", in4.tensor(), {0, 0, 2, 0}, out4.tensor()),
              "reflection_pad2d");
  // Wrong number of pads, wrong rank, too much cropping, dtype mismatch.
  expect_fail(run("aten::replication_pad1d.out", in.tensor(), {1, 1, 1, 1}, out.tensor()),
              "replication_pad1d");
  expect_fail(run("aten::replication_pad3d.out", in.tensor(), {1, 1, 1, 1, 1, 1}, out.tensor()),
              "replication_pad3d");
  expect_fail(run("aten::replication_pad1d.out", in.tensor(), {-3, 1}, out.tensor()),
              "replication_pad1d");
  expect_fail(run("aten::replication_pad1d.out", in.tensor(), {-2, -1}, out.tensor()),
              "replication_pad1d");
  expect_fail(run("aten::replication_pad1d.out", in.tensor(), {1, 1}, out_d.tensor()),
              "replication_pad1d");
  expect_fail(run("aten::replication_pad1d.out", in.tensor(),
                  {int64_t{1} << 62, int64_t{1} << 62}, out.tensor()),
              "replication_pad1d");
  OwnedTensor empty(ScalarType::Float, {2, 0});
  expect_fail(run("aten::replication_pad1d.out", empty.tensor(), {1, 1}, out.tensor()),
              "replication_pad1d");
  OwnedTensor b(ScalarType::Bool, {2, 3});
  OwnedTensor ob = dyn_out(ScalarType::Bool, 2);
  const KernelContext ctx = run("aten::reflection_pad1d.out", b.tensor(), {1, 1}, ob.tensor());
  ASSERT_TRUE(ctx.failed());
  EXPECT_EQ(ctx.error(), Error::NotSupported);
}

TEST(Kernels2Pool3d, BadInputsFail) {
  OwnedTensor in(ScalarType::Float, {1, 2, 3, 3, 3});
  OwnedTensor in3(ScalarType::Float, {2, 3, 3});
  OwnedTensor out = dyn_out(ScalarType::Float, 5);
  OwnedTensor idx = dyn_out(ScalarType::Long, 5);
  OwnedTensor idx_i = dyn_out(ScalarType::Int, 5);
  auto max_pool = [&](Tensor& t, std::vector<int64_t> k, std::vector<int64_t> pad, Tensor& ix) {
    Call c;
    c.tensor(t).ints(std::move(k)).ints({}).ints(std::move(pad)).ints({1}).boolean(false)
        .tensor(out.tensor()).tensor(ix);
    return c.run("aten::max_pool3d_with_indices.out");
  };
  expect_fail(max_pool(in3.tensor(), {2}, {0}, idx.tensor()), "max_pool3d_with_indices");
  expect_fail(max_pool(in.tensor(), {2, 2}, {0}, idx.tensor()), "max_pool3d_with_indices");
  expect_fail(max_pool(in.tensor(), {2}, {2}, idx.tensor()), "max_pool3d_with_indices");
  expect_fail(max_pool(in.tensor(), {4}, {0}, idx.tensor()), "max_pool3d_with_indices");
  expect_fail(max_pool(in.tensor(), {0}, {0}, idx.tensor()), "max_pool3d_with_indices");
  expect_fail(max_pool(in.tensor(), {2}, {0}, idx_i.tensor()), "max_pool3d_with_indices");
  {
    Call c;
    c.tensor(in.tensor()).ints({2}).ints({}).ints({0}).boolean(false).boolean(true).integer(0)
        .tensor(out.tensor());
    expect_fail(c.run("aten::avg_pool3d.out"), "avg_pool3d");
  }
  {
    OwnedTensor in_i(ScalarType::Int, {1, 2, 3, 3, 3});
    OwnedTensor out_i = dyn_out(ScalarType::Int, 5);
    Call c;
    c.tensor(in_i.tensor()).ints({2}).ints({}).ints({0}).boolean(false).boolean(true).none()
        .tensor(out_i.tensor());
    const KernelContext ctx = c.run("aten::avg_pool3d.out");
    ASSERT_TRUE(ctx.failed());
    EXPECT_EQ(ctx.error(), Error::NotSupported);
  }
  {
    Call c;
    c.tensor(in.tensor()).ints({2, 2}).tensor(out.tensor());
    expect_fail(c.run("aten::_adaptive_avg_pool3d.out"), "_adaptive_avg_pool3d");
  }
  {
    Call c;
    c.tensor(in.tensor()).ints({2, -1, 2}).tensor(out.tensor());
    expect_fail(c.run("aten::_adaptive_avg_pool3d.out"), "_adaptive_avg_pool3d");
  }
}

TEST(Kernels2ScatterReduce, BadInputsFail) {
  OwnedTensor self(ScalarType::Float, {3, 4});
  OwnedTensor src(ScalarType::Float, {3, 5});
  OwnedTensor out = dyn_out(ScalarType::Float, 2);
  OwnedTensor idx = make(ScalarType::Long, {1, 2}, {0, 4});
  OwnedTensor idx_ok = make(ScalarType::Long, {1, 2}, {0, 3});
  OwnedTensor idx_int = make(ScalarType::Int, {1, 2}, {0, 1});
  OwnedTensor idx_big = make(ScalarType::Long, {1, 6}, {0, 0, 0, 0, 0, 0});
  auto run = [&](Tensor& ix, const char* red, int64_t dim) {
    Call c;
    c.tensor(self.tensor()).integer(dim).tensor(ix).tensor(src.tensor()).string(red).boolean(true)
        .tensor(out.tensor());
    return c.run("aten::scatter_reduce.two_out");
  };
  expect_fail(run(idx.tensor(), "sum", 1), "scatter_reduce");      // index 4 out of bounds
  expect_fail(run(idx_ok.tensor(), "max", 1), "scatter_reduce");   // unknown reduction
  expect_fail(run(idx_ok.tensor(), "sum", 2), "scatter_reduce");   // bad dim
  expect_fail(run(idx_int.tensor(), "sum", 1), "scatter_reduce");  // index dtype
  expect_fail(run(idx_big.tensor(), "sum", 1), "scatter_reduce");  // index larger than src
  ASSERT_FALSE(run(idx_ok.tensor(), "sum", 1).failed());
}

TEST(Kernels2EmbeddingBag, BadInputsFail) {
  OwnedTensor w(ScalarType::Float, {4, 3});
  OwnedTensor o0 = dyn_out(ScalarType::Float, 2), o1 = dyn_out(ScalarType::Long, 1),
              o2 = dyn_out(ScalarType::Long, 1), o3 = dyn_out(ScalarType::Long, 2);
  auto run = [&](std::vector<double> idx, std::vector<double> off, int64_t mode, int64_t pad) {
    OwnedTensor i = make(ScalarType::Long, {static_cast<int32_t>(idx.size())}, idx);
    OwnedTensor f = make(ScalarType::Long, {static_cast<int32_t>(off.size())}, off);
    Call c;
    c.tensor(w.tensor()).tensor(i.tensor()).tensor(f.tensor()).boolean(false).integer(mode)
        .boolean(false).none().boolean(false).integer(pad).tensor(o0.tensor())
        .tensor(o1.tensor()).tensor(o2.tensor()).tensor(o3.tensor());
    return c.run("aten::_embedding_bag.out");
  };
  expect_fail(run({0, 4}, {0}, 0, -1), "_embedding_bag");     // index past the table
  expect_fail(run({0, -1}, {0}, 0, -1), "_embedding_bag");    // negative index
  expect_fail(run({0, 1}, {1}, 0, -1), "_embedding_bag");     // offsets must start at 0
  expect_fail(run({0, 1}, {0, 3}, 0, -1), "_embedding_bag");  // offset past indices
  expect_fail(run({0, 1}, {0, 1}, 3, -1), "_embedding_bag");  // mode
  expect_fail(run({0, 1}, {0, 1}, 0, 4), "_embedding_bag");   // padding_idx
  ASSERT_FALSE(run({0, 1}, {0, 1}, 2, -1).failed());
}

TEST(Kernels2Distance, BadInputsFail) {
  OwnedTensor a(ScalarType::Float, {2, 3, 4});
  OwnedTensor b(ScalarType::Float, {3, 5, 4});
  OwnedTensor c3(ScalarType::Float, {5, 3});
  OwnedTensor ai(ScalarType::Int, {3, 4});
  OwnedTensor out = dyn_out(ScalarType::Float, 3);
  OwnedTensor out_i = dyn_out(ScalarType::Int, 2);
  auto cdist = [&](Tensor& x, Tensor& y, double p, Tensor& o) {
    Call c;
    c.tensor(x).tensor(y).real(p).none().tensor(o);
    return c.run("aten::_cdist_forward.out");
  };
  expect_fail(cdist(a.tensor(), b.tensor(), 2, out.tensor()), "_cdist_forward");   // batch
  expect_fail(cdist(a.tensor(), c3.tensor(), 2, out.tensor()), "_cdist_forward");  // columns
  expect_fail(cdist(a.tensor(), a.tensor(), -1, out.tensor()), "_cdist_forward");  // p
  const KernelContext ints = cdist(ai.tensor(), ai.tensor(), 2, out_i.tensor());
  ASSERT_TRUE(ints.failed());
  EXPECT_EQ(ints.error(), Error::NotSupported);
  Call c;
  c.tensor(a.tensor()).real(2.0).tensor(out.tensor());
  expect_fail(c.run("aten::_pdist_forward.out"), "_pdist_forward");  // 3-D
}

TEST(Kernels2Col2im, BadInputsFail) {
  OwnedTensor in(ScalarType::Float, {1, 12, 9});
  OwnedTensor out = dyn_out(ScalarType::Float, 4);
  auto run = [&](std::vector<int64_t> os, std::vector<int64_t> k, std::vector<int64_t> s) {
    Call c;
    c.tensor(in.tensor()).ints(std::move(os)).ints(std::move(k)).ints({1, 1}).ints({0, 0})
        .ints(std::move(s)).tensor(out.tensor());
    return c.run("aten::col2im.out");
  };
  ASSERT_FALSE(run({4, 4}, {2, 2}, {1, 1}).failed());           // 3 x 3 blocks, 3 channels
  expect_fail(run({5, 4}, {2, 2}, {1, 1}), "col2im");          // 4 x 3 blocks != 9
  expect_fail(run({4, 4}, {5, 1}, {1, 1}), "col2im");          // 12 rows not a multiple of 5
  expect_fail(run({4, 4}, {2, 2}, {0, 1}), "col2im");          // stride 0
  expect_fail(run({4, 4}, {2}, {1, 1}), "col2im");             // list length
}

TEST(Kernels2Dropout, InferenceCopiesAndMasksAll) {
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

TEST(Kernels2Dropout, TrainingAndBadInputsFail) {
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

TEST(Kernels2EmptyStrided, ResizesOnly) {
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

TEST(Kernels2MaskedScatter, BroadcastMask) {
  const ScalarType types[] = {ScalarType::Float, ScalarType::Half, ScalarType::Long,
                              ScalarType::Byte, ScalarType::Bool};
  for (ScalarType dt : types) {
    OwnedTensor self = make(dt, {2, 3}, {0, 1, 0, 1, 1, 0});
    OwnedTensor mask = make(ScalarType::Bool, {3}, {1, 0, 1});
    OwnedTensor source = make(dt, {5}, {1, 0, 1, 1, 0});
    OwnedTensor out = dyn_out(dt, 2);
    Call c;
    c.tensor(self.tensor()).tensor(mask.tensor()).tensor(source.tensor()).tensor(out.tensor());
    expect_ok(c.run("aten::masked_scatter.out"), out, {2, 3}, {1, 1, 0, 1, 1, 1}, 0);
  }
  // The mask may also be the larger operand.
  OwnedTensor self = make(ScalarType::Float, {3}, {7, 8, 9});
  OwnedTensor mask = make(ScalarType::Bool, {2, 3}, {0, 1, 0, 1, 1, 0});
  OwnedTensor source = make(ScalarType::Float, {3}, {-1, -2, -3});
  OwnedTensor out = dyn_out(ScalarType::Float, 2);
  Call c;
  c.tensor(self.tensor()).tensor(mask.tensor()).tensor(source.tensor()).tensor(out.tensor());
  expect_ok(c.run("aten::masked_scatter.out"), out, {2, 3}, {7, -1, 9, -2, -3, 9}, 0);
}

TEST(Kernels2MaskedScatter, BadInputsFail) {
  OwnedTensor self(ScalarType::Float, {2, 3});
  OwnedTensor mask = make(ScalarType::Bool, {2, 3}, {1, 1, 1, 1, 0, 0});
  OwnedTensor mask_u8(ScalarType::Byte, {2, 3});
  OwnedTensor mask_bad(ScalarType::Bool, {2});
  OwnedTensor small(ScalarType::Float, {3});
  OwnedTensor out = dyn_out(ScalarType::Float, 2);
  auto run = [&](Tensor& m, Tensor& s) {
    Call c;
    c.tensor(self.tensor()).tensor(m).tensor(s).tensor(out.tensor());
    return c.run("aten::masked_scatter.out");
  };
  expect_fail(run(mask.tensor(), small.tensor()), "masked_scatter");  // 4 trues, 3 sources
  expect_fail(run(mask_u8.tensor(), small.tensor()), "masked_scatter");
  expect_fail(run(mask_bad.tensor(), small.tensor()), "masked_scatter");
}

TEST(Kernels2Random, RandIsUniform) {
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

TEST(Kernels2Random, RandnIsNormal) {
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

TEST(Kernels2Random, RandpermIsPermutation) {
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

TEST(Kernels2Backward, BadInputsFail) {
  OwnedTensor self(ScalarType::Float, {1, 4, 4});
  OwnedTensor go(ScalarType::Float, {1, 2, 2});
  OwnedTensor go_bad(ScalarType::Float, {1, 3, 2});
  OwnedTensor gi = dyn_out(ScalarType::Float, 3);
  {
    Call c;  // grad_output does not have the pooled size
    c.tensor(go_bad.tensor()).tensor(self.tensor()).ints({2}).ints({}).ints({0}).boolean(false)
        .boolean(true).none().tensor(gi.tensor());
    expect_fail(c.run("aten::avg_pool2d_backward.grad_input"), "avg_pool2d_backward");
  }
  {
    OwnedTensor idx = make(ScalarType::Long, {1, 2, 2}, {0, 3, 16, 5});
    Call c;  // index 16 is outside the 4x4 plane
    c.tensor(go.tensor()).tensor(self.tensor()).ints({2}).ints({}).ints({0}).ints({1})
        .boolean(false).tensor(idx.tensor()).tensor(gi.tensor());
    expect_fail(c.run("aten::max_pool2d_with_indices_backward.grad_input"),
                "max_pool2d_with_indices_backward");
  }
  {
    OwnedTensor go_d(ScalarType::Double, {1, 2, 2});
    Call c;
    c.tensor(go_d.tensor()).tensor(self.tensor()).tensor(gi.tensor());
    expect_fail(c.run("aten::_adaptive_avg_pool2d_backward.out"), "_adaptive_avg_pool2d_backward");
  }
  {
    OwnedTensor idx = make(ScalarType::Long, {2}, {0, 5});
    OwnedTensor g(ScalarType::Float, {2, 3});
    OwnedTensor out = dyn_out(ScalarType::Float, 2);
    Call c;  // index 5 with 5 rows
    c.tensor(g.tensor()).tensor(idx.tensor()).integer(5).integer(-1).boolean(false)
        .tensor(out.tensor());
    expect_fail(c.run("aten::embedding_dense_backward.out"), "embedding_dense_backward");
  }
}

TEST(Kernels2Backward, ConvolutionBadInputsFail) {
  OwnedTensor x(ScalarType::Float, {1, 2, 4, 4});
  OwnedTensor w(ScalarType::Float, {3, 2, 2, 2});
  OwnedTensor go(ScalarType::Float, {1, 3, 3, 3});
  OwnedTensor go_bad(ScalarType::Float, {1, 3, 2, 3});
  OwnedTensor o0 = dyn_out(ScalarType::Float, 4), o1 = dyn_out(ScalarType::Float, 4),
              o2 = dyn_out(ScalarType::Float, 1);
  const bool mask[3] = {true, true, true};
  auto run = [&](Tensor& g, bool transposed, int64_t groups) {
    Call c;
    c.tensor(g).tensor(x.tensor()).tensor(w.tensor()).ints({3}).ints({1}).ints({0}).ints({1})
        .boolean(transposed).ints({0}).integer(groups).bools(mask).tensor(o0.tensor())
        .tensor(o1.tensor()).tensor(o2.tensor());
    return c.run("aten::convolution_backward.out");
  };
  ASSERT_FALSE(run(go.tensor(), false, 1).failed());
  expect_fail(run(go_bad.tensor(), false, 1), "convolution_backward");
  expect_fail(run(go.tensor(), false, 2), "convolution_backward");
  EXPECT_EQ(run(go.tensor(), true, 1).error(), Error::NotSupported);
}

TEST(Kernels2Backward, NormBadInputsFail) {
  OwnedTensor x(ScalarType::Float, {2, 4});
  OwnedTensor dy(ScalarType::Float, {2, 4});
  OwnedTensor stats(ScalarType::Float, {2, 1});
  OwnedTensor stats_bad(ScalarType::Float, {3, 1});
  OwnedTensor o0 = dyn_out(ScalarType::Float, 2), o1 = dyn_out(ScalarType::Float, 1),
              o2 = dyn_out(ScalarType::Float, 1);
  const bool mask[3] = {true, true, true};
  {
    Call c;  // normalized_shape does not match
    c.tensor(dy.tensor()).tensor(x.tensor()).ints({5}).tensor(stats.tensor())
        .tensor(stats.tensor()).none().none().bools(mask).tensor(o0.tensor()).tensor(o1.tensor())
        .tensor(o2.tensor());
    expect_fail(c.run("aten::native_layer_norm_backward.out"), "native_layer_norm_backward");
  }
  {
    Call c;  // mean has the wrong number of rows
    c.tensor(dy.tensor()).tensor(x.tensor()).ints({4}).tensor(stats_bad.tensor())
        .tensor(stats.tensor()).none().none().bools(mask).tensor(o0.tensor()).tensor(o1.tensor())
        .tensor(o2.tensor());
    expect_fail(c.run("aten::native_layer_norm_backward.out"), "native_layer_norm_backward");
  }
  {
    OwnedTensor gx(ScalarType::Float, {2, 4, 3});
    OwnedTensor gstats(ScalarType::Float, {2, 3});
    OwnedTensor g0 = dyn_out(ScalarType::Float, 3);
    Call c;  // 3 groups do not divide 4 channels
    c.tensor(gx.tensor()).tensor(gx.tensor()).tensor(gstats.tensor()).tensor(gstats.tensor())
        .none().integer(2).integer(4).integer(3).integer(3).bools(mask).tensor(g0.tensor())
        .tensor(o1.tensor()).tensor(o2.tensor());
    expect_fail(c.run("aten::native_group_norm_backward.out"), "native_group_norm_backward");
  }
}

}  // namespace
}  // namespace ember
