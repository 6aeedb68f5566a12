// Tests of col2im.out (misc_ops.cpp).
// Expected values were generated with PyTorch 2.13 (torch.ops.aten.col2im on
// float64 inputs) and pasted; inputs are seq() (kernel_expect.h).
#include <cstdint>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/kernels/kernel_expect.h"

namespace ember::testing {
namespace {

struct Col2imCase {
  const char* name;
  Sizes in_shape;
  std::vector<int64_t> output_size, kernel, dilation, padding, stride;
  Sizes out_shape;
  Values want;
};

const Col2imCase kCol2imCases[] = {
    {"Batched", {2, 12, 10}, {4, 5}, {2, 3}, {1, 1}, {1, 0}, {1, 2}, {2, 2, 4, 5},
     {-1.25, -3.25, 3.5, -1.75, -3.75, 1.75, -0.25, 1.0, 1.25, -0.75, -3.75, 2.75, -1.5, 0.0, 2.25, -0.75, -2.75, 4.5, -1.25, -3.25, 3.75, 1.75, -3.5, 3.25, 1.25, -1.75, -3.75, 2.5, -2.25, 0.0, 1.25, -0.75, 0.0, 0.75, -1.25, 0.0, 2.25, -2.5, 3.75, 1.75, 0.25, -1.75, -2.0, -0.25, -2.25, 3.25, 1.25, -4.5, 2.75, 0.75, -2.25, 0.0, 1.5, -2.75, 3.75, 0.75, -1.25, -1.0, 0.25, -1.75, -3.25, 3.25, -0.5, -3.75, 2.75, -0.25, -2.25, 1.25, -0.75, -2.75, 2.75, 0.75, -1.25, 2.25, 0.25, -2.75, 3.75, 0.5, -3.25, 3.25}},
    {"DilatedUnbatched", {4, 9}, {5, 5}, {2, 2}, {2, 2}, {1, 1}, {2, 2}, {1, 5, 5},
     {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25, 0.0, 3.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.75, 0.0, -0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
};

TEST(Col2im, MatchesTorch) {
  for (const Col2imCase& c : kCol2imCases) {
    SCOPED_TRACE(c.name);
    const Values in = seq(numel_of(c.in_shape), 0.25);
    for (ScalarType dt : kFloatTypes) {
      OwnedTensor input = make(dt, c.in_shape, in);
      OwnedTensor out = dyn_out(dt, static_cast<int>(c.out_shape.size()));
      Call call;
      call.tensor(input.tensor()).ints(c.output_size).ints(c.kernel).ints(c.dilation)
          .ints(c.padding).ints(c.stride).tensor(out.tensor());
      expect_ok(call.run("aten::col2im.out"), out, c.out_shape, c.want, tol(dt) * 4);
    }
  }
}

TEST(Col2im, BadInputsFail) {
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

}  // namespace
}  // namespace ember::testing
