// Tests of scatter_reduce.two_out and masked_scatter.out (misc_ops.cpp).
// Expected values were generated with PyTorch 2.13 (torch.ops.aten.* on
// float64 inputs) and pasted; inputs are seq() (kernel_expect.h).
#include <cstdint>

#include <gtest/gtest.h>

#include "tests/cpp/kernels/kernel_expect.h"

namespace ember::testing {
namespace {

// scatter_reduce of a 3 x 4 self along `dim`. Each case is checked twice:
// with fractional inputs in the float types and with integer inputs in the
// integer types, each against its own torch result.
struct ScatterReduceCase {
  const char* reduce;
  int64_t dim;
  bool include_self;
  Values want_float;
  Values want_int;
};

const ScatterReduceCase kScatterReduceCases[] = {
    {"sum", 1, true,
     {-5.0, 0.25, -0.5, 1.75, 1.5, 3.75, -0.75, -1.0, -1.25, 0.0, 1.25, 10.5},
     {-14.0, -2.0, -2.0, 4.0, 5.0, 11.0, -5.0, -4.0, -3.0, 1.0, 5.0, 25.0}},
    {"sum", 1, false,
     {-3.0, 1.5, -0.5, 1.5, 0.5, 2.0, 1.0, -1.0, -1.0, -0.5, 1.25, 8.5},
     {-6.0, 3.0, -2.0, 3.0, 1.0, 4.0, 2.0, -4.0, -2.0, -1.0, 5.0, 17.0}},
    {"prod", 1, true,
     {0.0, 5.625, -0.5, 0.375, 0.5, 3.5, -19.6875, -1.0, 0.5, -0.25, 1.25, 35.0},
     {0.0, 90.0, -2.0, 3.0, 4.0, 28.0, -630.0, -4.0, 8.0, -2.0, 5.0, 560.0}},
    {"prod", 1, false,
     {-0.0, -4.5, -0.5, 1.5, 0.5, 2.0, 11.25, -1.0, -2.0, -0.5, 1.25, 17.5},
     {0.0, -18.0, -2.0, 3.0, 1.0, 4.0, 90.0, -4.0, -8.0, -1.0, 5.0, 70.0}},
    {"mean", 1, true,
     {-1.6666666666666667, 0.08333333333333333, -0.5, 0.875, 0.75, 1.875, -0.1875, -1.0, -0.4166666666666667, 0.0, 1.25, 3.5},
     {-5.0, -1.0, -2.0, 2.0, 2.0, 5.0, -2.0, -4.0, -1.0, 0.0, 5.0, 8.0}},
    {"mean", 1, false,
     {-1.5, 0.75, -0.5, 1.5, 0.5, 2.0, 0.3333333333333333, -1.0, -0.5, -0.5, 1.25, 4.25},
     {-3.0, 1.0, -2.0, 3.0, 1.0, 4.0, 0.0, -4.0, -1.0, -1.0, 5.0, 8.0}},
    {"amax", 1, true,
     {0.0, 3.0, -0.5, 1.5, 1.0, 2.0, 4.5, -1.0, 1.0, 0.5, 1.25, 5.0},
     {0.0, 6.0, -2.0, 3.0, 4.0, 7.0, 9.0, -4.0, 2.0, 2.0, 5.0, 10.0}},
    {"amax", 1, false,
     {0.0, 3.0, -0.5, 1.5, 0.5, 2.0, 4.5, -1.0, 1.0, -0.5, 1.25, 5.0},
     {0.0, 6.0, -2.0, 3.0, 1.0, 4.0, 9.0, -4.0, 2.0, -1.0, 5.0, 10.0}},
    {"amin", 1, true,
     {-3.0, -1.5, -0.5, 0.25, 0.5, 1.75, -2.5, -1.0, -2.0, -0.5, 1.25, 2.0},
     {-8.0, -5.0, -2.0, 1.0, 1.0, 4.0, -7.0, -4.0, -4.0, -1.0, 5.0, 7.0}},
    {"amin", 1, false,
     {-3.0, -1.5, -0.5, 1.5, 0.5, 2.0, -2.5, -1.0, -2.0, -0.5, 1.25, 3.5},
     {-6.0, -3.0, -2.0, 3.0, 1.0, 4.0, -5.0, -4.0, -4.0, -1.0, 5.0, 7.0}},
    {"sum", 0, true,
     {-5.0, -1.25, -1.5, 1.75, 1.0, 1.75, -1.75, -0.5, 4.25, -3.5, 1.25, 2.0},
     {-14.0, -5.0, -4.0, 4.0, 4.0, 7.0, -7.0, -3.0, 8.0, -6.0, 5.0, 8.0}},
    {"sum", 0, false,
     {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, -4.0, 1.25, 2.0},
     {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, -8.0, 5.0, 8.0}},
    {"prod", 0, true,
     {6.0, -1.25, 0.5, 0.375, 1.0, 1.75, -0.0, -0.5, -1.125, 1.875, 1.25, 2.0},
     {48.0, -5.0, 4.0, 3.0, 4.0, 7.0, 0.0, -4.0, -9.0, 30.0, 5.0, 8.0}},
    {"prod", 0, false,
     {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, 3.75, 1.25, 2.0},
     {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, 15.0, 5.0, 8.0}},
    {"mean", 0, true,
     {-2.5, -1.25, -0.75, 0.875, 1.0, 1.75, -0.875, -0.25, 2.125, -1.1666666666666667, 1.25, 2.0},
     {-7.0, -5.0, -2.0, 2.0, 4.0, 7.0, -4.0, -2.0, 4.0, -2.0, 5.0, 8.0}},
    {"mean", 0, false,
     {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, -2.0, 1.25, 2.0},
     {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, -4.0, 5.0, 8.0}},
    {"amax", 0, true,
     {-2.0, -1.25, -0.5, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, 0.5, 1.25, 2.0},
     {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, 2.0, 5.0, 8.0}},
    {"amax", 0, false,
     {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, -1.5, 1.25, 2.0},
     {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, -3.0, 5.0, 8.0}},
    {"amin", 0, true,
     {-3.0, -1.25, -1.0, 0.25, 1.0, 1.75, -1.75, -1.0, -0.25, -2.5, 1.25, 2.0},
     {-8.0, -5.0, -2.0, 1.0, 4.0, 7.0, -7.0, -4.0, -1.0, -5.0, 5.0, 8.0}},
    {"amin", 0, false,
     {-3.0, -1.25, -1.0, 1.5, 1.0, 1.75, 0.0, 0.5, 4.5, -2.5, 1.25, 2.0},
     {-6.0, -5.0, -2.0, 3.0, 4.0, 7.0, 0.0, 1.0, 9.0, -5.0, 5.0, 8.0}},
};

void expect_scatter_reduce(const ScatterReduceCase& c, DTypes types, const Values& self_v,
                           const Values& src_v, const Values& want, double tol_scale) {
  // Along dim 1 a 3 x 5 src scatters into 4 columns; along dim 0 a 2 x 4
  // index reads the first 4 columns of a 2 x 5 src into 3 rows.
  const Sizes src_shape = c.dim == 1 ? Sizes{3, 5} : Sizes{2, 5};
  OwnedTensor index =
      c.dim == 1 ? make(ScalarType::Long, {3, 5}, {0, 1, 0, 3, 1, 2, 2, 2, 0, 1, 3, 3, 0, 1, 0})
                 : make(ScalarType::Long, {2, 4}, {0, 2, 1, 0, 2, 2, 0, 1});
  for (ScalarType dt : types) {
    OwnedTensor self = make(dt, {3, 4}, self_v);
    OwnedTensor src = make(dt, src_shape, src_v);
    OwnedTensor out = dyn_out(dt, 2);
    Call call;
    call.tensor(self.tensor()).integer(c.dim).tensor(index.tensor()).tensor(src.tensor())
        .string(c.reduce).boolean(c.include_self).tensor(out.tensor());
    expect_ok(call.run("aten::scatter_reduce.two_out"), out, {3, 4}, want, tol(dt) * tol_scale);
  }
}

TEST(ScatterReduce, MatchesTorch) {
  for (const ScatterReduceCase& c : kScatterReduceCases) {
    SCOPED_TRACE(::testing::Message() << c.reduce << " dim " << c.dim << " include_self "
                                      << c.include_self);
    const int64_t src_numel = c.dim == 1 ? 15 : 10;
    expect_scatter_reduce(c, kFloatTypes, seq(12, 0.25), seq(src_numel, 0.5, 1.0), c.want_float, 4);
    // tol(dt) is 0 for integers: exact.
    expect_scatter_reduce(c, kIntTypes, seq(12, 1.0), seq(src_numel, 1.0, 2.0), c.want_int, 4);
  }
}

TEST(ScatterReduce, BadInputsFail) {
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

TEST(MaskedScatter, BroadcastMask) {
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

TEST(MaskedScatter, BadInputsFail) {
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

}  // namespace
}  // namespace ember::testing
