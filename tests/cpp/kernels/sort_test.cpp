// Tests of the kernels in sort_ops.cpp: sort and topk.
// Expected values were generated with PyTorch 2.13 (torch.ops.aten.* on
// float64 inputs) and pasted; inputs are small integers, NaN and infinities,
// or seq() (kernel_expect.h), which every dtype here holds exactly, so values
// and indices must match exactly.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/kernels/kernel_expect.h"

namespace ember::testing {
namespace {

constexpr ScalarType kBoolType[] = {ScalarType::Bool};

// Inputs with ties, to pin down the order torch gives equal values.
const Values kTies = {3.0, 1.0, 2.0, 1.0, 0.0, 2.0, 2.0, -1.0, 5.0, 2.0, 0.0, 4.0, 4.0, 1.0, 3.0};
const Values kBools = {1.0, 0.0, 1.0, 1.0, 0.0, 0.0};
const Values kNaNs = {1.5, kNaN, -2.0, kInf, 1.5, -kInf, kNaN, 0.0};
const Values kRank3 = seq(60, 0.25);

struct SortCase {
  const char* name;
  DTypes types;
  Sizes shape;
  const Values& in;
  int64_t dim;
  bool descending;
  bool stable_overload;  // sort.values_stable with stable=True
  Values want;
  Values want_idx;
};

const SortCase kSortCases[] = {
    {"TiesDim1Desc0", kSignedTypes, {3, 5}, kTies, -1, false, false,
     {0.0, 1.0, 1.0, 2.0, 3.0, -1.0, 2.0, 2.0, 2.0, 5.0, 0.0, 1.0, 3.0, 4.0, 4.0},
     {4.0, 1.0, 3.0, 2.0, 0.0, 2.0, 0.0, 1.0, 4.0, 3.0, 0.0, 3.0, 4.0, 1.0, 2.0}},
    {"TiesDim1Desc1", kSignedTypes, {3, 5}, kTies, -1, true, false,
     {3.0, 2.0, 1.0, 1.0, 0.0, 5.0, 2.0, 2.0, 2.0, -1.0, 4.0, 4.0, 3.0, 1.0, 0.0},
     {0.0, 2.0, 1.0, 3.0, 4.0, 3.0, 0.0, 1.0, 4.0, 2.0, 1.0, 2.0, 4.0, 3.0, 0.0}},
    {"TiesDim0Desc0", kSignedTypes, {3, 5}, kTies, 0, false, false,
     {0.0, 1.0, -1.0, 1.0, 0.0, 2.0, 2.0, 2.0, 1.0, 2.0, 3.0, 4.0, 4.0, 5.0, 3.0},
     {2.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 2.0, 1.0, 0.0, 2.0, 2.0, 1.0, 2.0}},
    {"TiesDim0Desc1", kSignedTypes, {3, 5}, kTies, 0, true, false,
     {3.0, 4.0, 4.0, 5.0, 3.0, 2.0, 2.0, 2.0, 1.0, 2.0, 0.0, 1.0, -1.0, 1.0, 0.0},
     {0.0, 2.0, 2.0, 1.0, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0}},
    {"BoolDesc", kBoolType, {1, 6}, kBools, 1, true, false,
     {1.0, 1.0, 1.0, 0.0, 0.0, 0.0},
     {0.0, 2.0, 3.0, 1.0, 4.0, 5.0}},
    {"Bool", kBoolType, {1, 6}, kBools, 1, false, false,
     {0.0, 0.0, 0.0, 1.0, 1.0, 1.0},
     {1.0, 4.0, 5.0, 0.0, 2.0, 3.0}},
    {"NaNLast", kFloatTypes, {8}, kNaNs, 0, false, false,
     {-kInf, -2.0, 0.0, 1.5, 1.5, kInf, kNaN, kNaN},
     {5.0, 2.0, 7.0, 0.0, 4.0, 3.0, 1.0, 6.0}},
    {"NaNFirstDescending", kFloatTypes, {8}, kNaNs, 0, true, false,
     {kNaN, kNaN, kInf, 1.5, 1.5, 0.0, -2.0, -kInf},
     {1.0, 6.0, 3.0, 0.0, 4.0, 7.0, 2.0, 5.0}},
    {"StableOverload", kSignedTypes, {3, 5}, kTies, 1, true, true,
     {3.0, 2.0, 1.0, 1.0, 0.0, 5.0, 2.0, 2.0, 2.0, -1.0, 4.0, 4.0, 3.0, 1.0, 0.0},
     {0.0, 2.0, 1.0, 3.0, 4.0, 3.0, 0.0, 1.0, 4.0, 2.0, 1.0, 2.0, 4.0, 3.0, 0.0}},
    {"Rank3Middle", kFloatTypes, {3, 4, 5}, kRank3, 1, false, false,
     {-2.0, -1.75, -2.0, -1.25, -0.5, 0.75, -1.25, -1.5, -0.75, 0.0, 1.25, 1.5, -1.0, -0.25, 0.5, 1.75, 2.0, -0.5, 0.25, 1.0, -1.25, -0.5, 0.25, -1.75, -2.0, -0.75, 0.0, 0.75, 1.0, -1.5, -0.25, 0.5, 1.25, 1.5, -1.0, 0.25, 1.0, 1.75, 2.0, 1.75, -1.75, -2.0, -1.75, -1.0, -0.25, 1.0, -1.5, -1.25, -0.5, 0.25, 1.5, -1.0, -0.75, 0.0, 0.75, 2.0, 1.75, -0.25, 0.5, 1.25},
     {0.0, 1.0, 3.0, 3.0, 3.0, 3.0, 0.0, 2.0, 2.0, 2.0, 2.0, 3.0, 1.0, 1.0, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 3.0, 3.0, 3.0, 0.0, 2.0, 2.0, 2.0, 2.0, 3.0, 1.0, 1.0, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0, 3.0, 0.0, 2.0, 3.0, 3.0, 3.0, 3.0, 1.0, 2.0, 2.0, 2.0, 2.0, 0.0, 1.0, 1.0, 1.0, 1.0, 3.0, 0.0, 0.0, 0.0}},
};

TEST(Sort, MatchesTorch) {
  for (const SortCase& c : kSortCases) {
    SCOPED_TRACE(c.name);
    for (ScalarType dt : c.types) {
      OwnedTensor input = make(dt, c.shape, c.in);
      const int rank = static_cast<int>(c.shape.size());
      OwnedTensor values = dyn_out(dt, rank);
      OwnedTensor indices = dyn_out(ScalarType::Long, rank);
      Call call;
      call.tensor(input.tensor());
      if (c.stable_overload) call.boolean(true);
      call.integer(c.dim).boolean(c.descending).tensor(values.tensor()).tensor(indices.tensor());
      const char* op = c.stable_overload ? "aten::sort.values_stable" : "aten::sort.values";
      expect_ok(call.run(op), values, c.shape, c.want, 0);
      EXPECT_EQ(values_of(indices), c.want_idx) << scalar_type_name(dt);
    }
  }
}

TEST(Sort, ZeroDimAndEmpty) {
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

TEST(Sort, LongSliceMatchesStableSort) {
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

TEST(Sort, BadInputsFail) {
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

const Values kTopkIn = {7.0, 2.0, 9.0, 4.0, 0.0, 11.0, 5.0, 10.0, 1.0, 8.0, 3.0, 6.0, 12.0, -3.0, 14.0, 13.0, -1.0, 2.0};
const Values kTopkNaNs = {1.5, kNaN, -2.0, 3.0, 0.5};

// topk with sorted=True, so the order of the values is checked too.
struct TopkCase {
  const char* name;
  DTypes types;
  Sizes shape;
  const Values& in;
  int64_t k;
  int64_t dim;
  bool largest;
  Sizes out_shape;
  Values want;
  Values want_idx;
};

const TopkCase kTopkCases[] = {
    {"LargestLastDim", kSignedTypes, {3, 6}, kTopkIn, 3, -1, true, {3, 3},
     {11.0, 9.0, 7.0, 10.0, 8.0, 6.0, 14.0, 13.0, 12.0},
     {5.0, 2.0, 0.0, 1.0, 3.0, 5.0, 2.0, 3.0, 0.0}},
    {"SmallestLastDim", kSignedTypes, {3, 6}, kTopkIn, 2, 1, false, {3, 2},
     {0.0, 2.0, 1.0, 3.0, -3.0, -1.0},
     {4.0, 1.0, 2.0, 4.0, 1.0, 4.0}},
    {"LargestDim0", kSignedTypes, {3, 6}, kTopkIn, 2, 0, true, {2, 6},
     {12.0, 10.0, 14.0, 13.0, 3.0, 11.0, 7.0, 2.0, 9.0, 8.0, 0.0, 6.0},
     {2.0, 1.0, 2.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0}},
    {"AllOfDim", kSignedTypes, {3, 6}, kTopkIn, 6, 1, false, {3, 6},
     {0.0, 2.0, 4.0, 7.0, 9.0, 11.0, 1.0, 3.0, 5.0, 6.0, 8.0, 10.0, -3.0, -1.0, 2.0, 12.0, 13.0, 14.0},
     {4.0, 1.0, 3.0, 0.0, 2.0, 5.0, 2.0, 4.0, 0.0, 5.0, 3.0, 1.0, 1.0, 4.0, 5.0, 0.0, 3.0, 2.0}},
    {"KZero", kFloatTypes, {3, 6}, kTopkIn, 0, 1, true, {3, 0},
     {},
     {}},
    {"NaNIsLargest", kFloatTypes, {5}, kTopkNaNs, 2, 0, true, {2},
     {kNaN, 3.0},
     {1.0, 3.0}},
    {"NaNIsNotSmallest", kFloatTypes, {5}, kTopkNaNs, 2, 0, false, {2},
     {-2.0, 0.5},
     {2.0, 4.0}},
};

TEST(Topk, MatchesTorch) {
  for (const TopkCase& c : kTopkCases) {
    SCOPED_TRACE(c.name);
    for (ScalarType dt : c.types) {
      OwnedTensor input = make(dt, c.shape, c.in);
      const int rank = static_cast<int>(c.shape.size());
      OwnedTensor values = dyn_out(dt, rank);
      OwnedTensor indices = dyn_out(ScalarType::Long, rank);
      Call call;
      call.tensor(input.tensor()).integer(c.k).integer(c.dim).boolean(c.largest).boolean(true)
          .tensor(values.tensor()).tensor(indices.tensor());
      expect_ok(call.run("aten::topk.values"), values, c.out_shape, c.want, 0);
      EXPECT_EQ(values_of(indices), c.want_idx) << scalar_type_name(dt);
    }
  }
}

}  // namespace
}  // namespace ember::testing
