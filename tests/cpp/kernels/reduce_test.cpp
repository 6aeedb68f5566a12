// Tests of var.out (reduce_ops.cpp).
// Expected values were generated with PyTorch 2.13 (torch.ops.aten.var on
// float64 inputs) and pasted; inputs are seq() (kernel_expect.h).
#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/kernels/kernel_expect.h"

namespace ember::testing {
namespace {

using Dims = std::vector<int64_t>;

struct VarCase {
  const char* name;
  Sizes in_shape;
  std::optional<Dims> dims;  // None: every dim
  bool unbiased;
  bool keepdim;
  Sizes out_shape;
  Values want;
};

const VarCase kVarCases[] = {
    {"Dim1Unbiased", {2, 3, 4}, Dims{1}, true, false, {2, 4},
     {2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 2.2708333333333335, 1.5625}},
    {"Dims02BiasedKeepdim", {2, 3, 4}, Dims{0, -1}, false, true, {1, 3, 1},
     {0.765625, 1.9443359374999998, 1.2802734375}},
    {"AllDims", {2, 3, 4}, std::nullopt, true, false, {},
     {1.6625905797101448}},
    {"SingleElementUnbiasedIsNaN", {3, 1}, Dims{1}, true, false, {3},
     {kNaN, kNaN, kNaN}},
};

TEST(Var, MatchesTorch) {
  for (const VarCase& c : kVarCases) {
    SCOPED_TRACE(c.name);
    const Values in = seq(numel_of(c.in_shape), 0.25);
    for (ScalarType dt : kFloatTypes) {
      OwnedTensor input = make(dt, c.in_shape, in);
      OwnedTensor out = dyn_out(dt, static_cast<int>(c.out_shape.size()));
      Call call;
      call.tensor(input.tensor());
      ints_or_none(call, c.dims);
      call.boolean(c.unbiased).boolean(c.keepdim).tensor(out.tensor());
      expect_ok(call.run("aten::var.out"), out, c.out_shape, c.want, var_tol(dt));
    }
  }
}

TEST(Var, BadInputsFail) {
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

}  // namespace
}  // namespace ember::testing
