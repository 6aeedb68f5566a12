// Shape, copy, join and index kernels, called by name as the executor calls
// them. Expected values are hand-computed or were generated with torch 2.13
// (the generating expression is in the comment next to them).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

using testing::KernelCall;
using testing::OwnedTensor;

constexpr TensorShapeDynamism kStatic = TensorShapeDynamism::Static;
constexpr TensorShapeDynamism kDynamic = TensorShapeDynamism::DynamicBound;
const std::vector<uint8_t> kChannelsLast = {0, 2, 3, 1};

// Memory offset of the element with row-major logical index `i`.
int64_t offset_of(const Tensor& t, int64_t i) {
  int64_t offset = 0;
  for (int d = t.dim() - 1; d >= 0; --d) {
    offset += (i % t.size(d)) * t.stride(d);
    i /= t.size(d);
  }
  return offset;
}

// A tensor holding `values` in logical (row-major) order, whatever its dim order.
template <typename T>
OwnedTensor make(std::vector<int32_t> sizes, std::vector<T> values,
                 std::vector<uint8_t> dim_order = {}) {
  OwnedTensor t(CppTypeToScalarType<T>::value, std::move(sizes), kStatic, std::move(dim_order));
  EXPECT_EQ(static_cast<size_t>(t.tensor().numel()), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    t.data<T>()[offset_of(t.tensor(), static_cast<int64_t>(i))] = values[i];
  }
  return t;
}

// A tensor of `sizes` holding 0, 1, 2, ... in logical order.
template <typename T>
OwnedTensor iota(std::vector<int32_t> sizes, std::vector<uint8_t> dim_order = {}) {
  int64_t n = 1;
  for (int32_t s : sizes) n *= s;
  std::vector<T> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(static_cast<T>(static_cast<float>(i)));
  return make<T>(std::move(sizes), std::move(values), std::move(dim_order));
}

// The elements in logical order.
template <typename T>
std::vector<T> logical(OwnedTensor& t) {
  std::vector<T> v;
  for (int64_t i = 0; i < t.tensor().numel(); ++i) {
    v.push_back(t.data<T>()[offset_of(t.tensor(), i)]);
  }
  return v;
}

std::vector<int32_t> shape_of(OwnedTensor& t) {
  auto s = t.tensor().sizes();
  return std::vector<int32_t>(s.begin(), s.end());
}

// Half and BFloat16 compare by value.
std::vector<float> as_floats(const std::vector<Half>& v) {
  return std::vector<float>(v.begin(), v.end());
}

using Floats = std::vector<float>;
using Longs = std::vector<int64_t>;
using Shape = std::vector<int32_t>;

// ---------------------------------------------------------------- view_copy

TEST(ShapeView, ReshapesAndInfersMinusOne) {
  OwnedTensor in = iota<float>({2, 3, 4});
  OwnedTensor out(ScalarType::Float, {4, 6});
  KernelContext ctx = KernelCall().tensor(in.tensor()).ints({-1, 6}).tensor(out.tensor())
                          .run("aten::view_copy.out");
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  EXPECT_EQ(out.values<float>(), in.values<float>());
}

TEST(ShapeView, CopiesEveryDtypeBytewise) {
  OwnedTensor h = make<Half>({2, 2}, {Half(1.5f), Half(-2.f), Half(3.f), Half(65504.f)});
  OwnedTensor ho(ScalarType::Half, {4});
  ASSERT_FALSE(KernelCall().tensor(h.tensor()).ints({4}).tensor(ho.tensor())
                   .run("aten::view_copy.out").failed());
  EXPECT_EQ(as_floats(ho.values<Half>()), (Floats{1.5f, -2.f, 3.f, 65504.f}));

  OwnedTensor l = make<int64_t>({4}, {INT64_MIN, -1, 0, INT64_MAX});
  OwnedTensor lo(ScalarType::Long, {2, 1, 2});
  ASSERT_FALSE(KernelCall().tensor(l.tensor()).ints({2, -1, 2}).tensor(lo.tensor())
                   .run("aten::view_copy.out").failed());
  EXPECT_EQ(lo.values<int64_t>(), (Longs{INT64_MIN, -1, 0, INT64_MAX}));

  OwnedTensor b = make<bool>({3}, {true, false, true});
  OwnedTensor bo(ScalarType::Bool, {3, 1});
  ASSERT_FALSE(KernelCall().tensor(b.tensor()).ints({3, 1}).tensor(bo.tensor())
                   .run("aten::view_copy.out").failed());
  EXPECT_EQ(bo.values<bool>(), (std::vector<bool>{true, false, true}));
}

TEST(ShapeView, ReadsChannelsLastInputInLogicalOrder) {
  OwnedTensor in = iota<float>({1, 2, 2, 3}, kChannelsLast);
  OwnedTensor out(ScalarType::Float, {12});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({12}).tensor(out.tensor())
                   .run("aten::view_copy.out").failed());
  EXPECT_EQ(out.values<float>(), iota<float>({12}).values<float>());
}

TEST(ShapeView, ResizesDynamicOutput) {
  OwnedTensor in = iota<int32_t>({6});
  OwnedTensor out(ScalarType::Int, {8, 8}, kDynamic);
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({3, 2}).tensor(out.tensor())
                   .run("aten::view_copy.out").failed());
  EXPECT_EQ(shape_of(out), (Shape{3, 2}));
  EXPECT_EQ(out.values<int32_t>(), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(ShapeView, RejectsBadShapes) {
  OwnedTensor in = iota<float>({2, 3});
  OwnedTensor out(ScalarType::Float, {6, 6}, kDynamic);
  for (const std::vector<int64_t>& size :
       {std::vector<int64_t>{-1, -1}, {4, 2}, {0, -1}, {-2, -3}, {7}}) {
    EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints(size).tensor(out.tensor())
                    .run("aten::view_copy.out").failed());
  }
  OwnedTensor wrong_dtype(ScalarType::Int, {6});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({6}).tensor(wrong_dtype.tensor())
                  .run("aten::view_copy.out").failed());
  OwnedTensor wrong_static(ScalarType::Float, {3, 2});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({2, 3}).tensor(wrong_static.tensor())
                  .run("aten::view_copy.out").failed());
}

TEST(ShapeView, HandlesEmptyAndZeroDim) {
  OwnedTensor empty(ScalarType::Float, {0, 3});
  OwnedTensor out(ScalarType::Float, {3, 0});
  ASSERT_FALSE(KernelCall().tensor(empty.tensor()).ints({3, -1}).tensor(out.tensor())
                   .run("aten::view_copy.out").failed());
  OwnedTensor scalar = make<float>({}, {7.f});
  OwnedTensor one(ScalarType::Float, {1, 1});
  ASSERT_FALSE(KernelCall().tensor(scalar.tensor()).ints({1, 1}).tensor(one.tensor())
                   .run("aten::view_copy.out").failed());
  EXPECT_EQ(one.values<float>(), Floats{7.f});
  OwnedTensor back(ScalarType::Float, {});
  ASSERT_FALSE(KernelCall().tensor(one.tensor()).ints({}).tensor(back.tensor())
                   .run("aten::view_copy.out").failed());
  EXPECT_EQ(back.values<float>(), Floats{7.f});
}

// ---------------------------------------------------------------- permute, transpose, t

TEST(ShapePermute, PermutesWithNegativeDims) {
  OwnedTensor in = iota<float>({2, 3, 4});
  OwnedTensor out(ScalarType::Float, {4, 2, 3});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({2, 0, -2}).tensor(out.tensor())
                   .run("aten::permute_copy.out").failed());
  // torch.arange(24.).reshape(2,3,4).permute(2,0,1)
  EXPECT_EQ(out.values<float>(),
            (Floats{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15,
                    19, 23}));
}

TEST(ShapePermute, WritesIntoChannelsLastOutput) {
  // NCHW -> NHWC is permute (0, 2, 3, 1); writing the identity permutation
  // into a channels-last out must give the same bytes.
  OwnedTensor in = iota<int16_t>({1, 2, 2, 3});
  OwnedTensor nhwc(ScalarType::Short, {1, 2, 3, 2});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({0, 2, 3, 1}).tensor(nhwc.tensor())
                   .run("aten::permute_copy.out").failed());
  OwnedTensor cl(ScalarType::Short, {1, 2, 2, 3}, kStatic, kChannelsLast);
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({0, 1, 2, 3}).tensor(cl.tensor())
                   .run("aten::permute_copy.out").failed());
  EXPECT_EQ(cl.values<int16_t>(), nhwc.values<int16_t>());
  EXPECT_EQ(logical<int16_t>(cl), in.values<int16_t>());
}

TEST(ShapePermute, RejectsBadDims) {
  OwnedTensor in = iota<float>({2, 3});
  OwnedTensor out(ScalarType::Float, {3, 2});
  for (const std::vector<int64_t>& dims :
       {std::vector<int64_t>{0, 0}, {1}, {0, 2}, {1, -3}, {0, 1, 2}}) {
    EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints(dims).tensor(out.tensor())
                    .run("aten::permute_copy.out").failed());
  }
}

TEST(ShapeTranspose, SwapsDims) {
  OwnedTensor in = iota<double>({2, 3});
  OwnedTensor out(ScalarType::Double, {3, 2});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(-1).integer(0).tensor(out.tensor())
                   .run("aten::transpose_copy.int_out").failed());
  EXPECT_EQ(out.values<double>(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  OwnedTensor t_out(ScalarType::Double, {3, 2});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).tensor(t_out.tensor()).run("aten::t_copy.out")
                   .failed());
  EXPECT_EQ(t_out.values<double>(), out.values<double>());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(0).integer(2).tensor(out.tensor())
                  .run("aten::transpose_copy.int_out").failed());
}

TEST(ShapeTranspose, TCopiesLowRankAndRejectsRankThree) {
  OwnedTensor v = iota<float>({3});
  OwnedTensor vo(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(v.tensor()).tensor(vo.tensor()).run("aten::t_copy.out")
                   .failed());
  EXPECT_EQ(vo.values<float>(), (Floats{0, 1, 2}));
  OwnedTensor cube = iota<float>({2, 2, 2});
  OwnedTensor co(ScalarType::Float, {2, 2, 2});
  EXPECT_TRUE(KernelCall().tensor(cube.tensor()).tensor(co.tensor()).run("aten::t_copy.out")
                  .failed());
}

TEST(ShapePermute, RandomShapesMatchNaiveReference) {
  // A naive reference: out index -> input index through the permutation.
  uint32_t seed = 12345;
  auto next = [&seed](uint32_t n) {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) % n;
  };
  for (int trial = 0; trial < 50; ++trial) {
    const int rank = 1 + static_cast<int>(next(5));
    Shape sizes;
    for (int d = 0; d < rank; ++d) sizes.push_back(1 + static_cast<int32_t>(next(4)));
    std::vector<int64_t> perm(rank);
    for (int d = 0; d < rank; ++d) perm[d] = d;
    for (int d = rank - 1; d > 0; --d) std::swap(perm[d], perm[next(d + 1)]);
    Shape out_sizes;
    for (int d = 0; d < rank; ++d) out_sizes.push_back(sizes[perm[d]]);
    // A random dim order for the output too: the kernel must follow it.
    std::vector<uint8_t> order(rank);
    for (int d = 0; d < rank; ++d) order[d] = static_cast<uint8_t>(d);
    for (int d = rank - 1; d > 0; --d) std::swap(order[d], order[next(d + 1)]);
    OwnedTensor in = iota<int32_t>(sizes);
    OwnedTensor out(ScalarType::Int, out_sizes, kStatic, order);
    ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints(perm).tensor(out.tensor())
                     .run("aten::permute_copy.out").failed());
    std::vector<int32_t> got = logical<int32_t>(out);
    for (int64_t i = 0; i < out.tensor().numel(); ++i) {
      int64_t rest = i, in_offset = 0;
      for (int d = rank - 1; d >= 0; --d) {
        in_offset += (rest % out_sizes[d]) * in.tensor().stride(perm[d]);
        rest /= out_sizes[d];
      }
      ASSERT_EQ(got[i], in_offset) << "trial " << trial << " element " << i;
    }
  }
}

TEST(ShapePermute, ChannelsLastInputAndEmpty) {
  OwnedTensor in = iota<float>({1, 2, 2, 3}, kChannelsLast);
  OwnedTensor out(ScalarType::Float, {1, 2, 3, 2});
  // Swapping the last two dims of NCHW data stored as NHWC.
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({0, 1, 3, 2}).tensor(out.tensor())
                   .run("aten::permute_copy.out").failed());
  OwnedTensor check = iota<float>({1, 2, 2, 3});
  OwnedTensor expected(ScalarType::Float, {1, 2, 3, 2});
  ASSERT_FALSE(KernelCall().tensor(check.tensor()).ints({0, 1, 3, 2}).tensor(expected.tensor())
                   .run("aten::permute_copy.out").failed());
  EXPECT_EQ(out.values<float>(), expected.values<float>());
  EXPECT_EQ(out.values<float>()[1], 3.f);  // out[0,0,0,1] = in[0,0,1,0]

  OwnedTensor empty(ScalarType::Float, {2, 0, 3});
  OwnedTensor eo(ScalarType::Float, {3, 2, 0});
  ASSERT_FALSE(KernelCall().tensor(empty.tensor()).ints({2, 0, 1}).tensor(eo.tensor())
                   .run("aten::permute_copy.out").failed());
}

// ---------------------------------------------------------------- expand

TEST(ShapeExpand, BroadcastsSizeOneAndNewDims) {
  OwnedTensor in = make<float>({3, 1}, {1, 2, 3});
  OwnedTensor out(ScalarType::Float, {2, 3, 4});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({2, -1, 4}).boolean(false)
                   .tensor(out.tensor()).run("aten::expand_copy.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                         1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
}

TEST(ShapeExpand, RejectsIncompatibleSizes) {
  OwnedTensor in = make<float>({3, 1}, {1, 2, 3});
  OwnedTensor out(ScalarType::Float, {4, 4, 4}, kDynamic);
  for (const std::vector<int64_t>& size :
       {std::vector<int64_t>{2, 4}, {4}, {-1, 3, 4}, {3, -2}}) {
    EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints(size).boolean(false).tensor(out.tensor())
                    .run("aten::expand_copy.out").failed());
  }
}

TEST(ShapeExpand, ZeroDimAndEmpty) {
  OwnedTensor scalar = make<int8_t>({}, {4});
  OwnedTensor out(ScalarType::Char, {2, 2});
  ASSERT_FALSE(KernelCall().tensor(scalar.tensor()).ints({2, 2}).boolean(false)
                   .tensor(out.tensor()).run("aten::expand_copy.out").failed());
  EXPECT_EQ(out.values<int8_t>(), (std::vector<int8_t>{4, 4, 4, 4}));
  OwnedTensor one = make<int8_t>({1}, {4});
  OwnedTensor empty(ScalarType::Char, {3, 0});
  ASSERT_FALSE(KernelCall().tensor(one.tensor()).ints({3, 0}).boolean(false)
                   .tensor(empty.tensor()).run("aten::expand_copy.out").failed());
}

// ---------------------------------------------------------------- slice, select

TEST(ShapeSlice, SlicesWithStepAndClamping) {
  OwnedTensor in = iota<int32_t>({2, 5});
  OwnedTensor out(ScalarType::Int, {2, 5}, kDynamic);
  // in[:, 1::2]
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(1).integer(1).none().integer(2)
                   .tensor(out.tensor()).run("aten::slice_copy.Tensor_out").failed());
  EXPECT_EQ(shape_of(out), (Shape{2, 2}));
  EXPECT_EQ(out.values<int32_t>(), (std::vector<int32_t>{1, 3, 6, 8}));
  // in[:, -3:100]
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(-1).integer(-3).integer(100).integer(1)
                   .tensor(out.tensor()).run("aten::slice_copy.Tensor_out").failed());
  EXPECT_EQ(out.values<int32_t>(), (std::vector<int32_t>{2, 3, 4, 7, 8, 9}));
  // in[-100:1] along dim 0
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(0).integer(-100).integer(1).integer(1)
                   .tensor(out.tensor()).run("aten::slice_copy.Tensor_out").failed());
  EXPECT_EQ(out.values<int32_t>(), (std::vector<int32_t>{0, 1, 2, 3, 4}));
  // in[:, 4:2] is empty
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(1).integer(4).integer(2).integer(1)
                   .tensor(out.tensor()).run("aten::slice_copy.Tensor_out").failed());
  EXPECT_EQ(shape_of(out), (Shape{2, 0}));
}

TEST(ShapeSlice, RejectsBadArguments) {
  OwnedTensor in = iota<float>({2, 5});
  OwnedTensor out(ScalarType::Float, {2, 5}, kDynamic);
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(1).none().none().integer(0)
                  .tensor(out.tensor()).run("aten::slice_copy.Tensor_out").failed());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(2).none().none().integer(1)
                  .tensor(out.tensor()).run("aten::slice_copy.Tensor_out").failed());
  OwnedTensor scalar = make<float>({}, {1.f});
  OwnedTensor so(ScalarType::Float, {});
  EXPECT_TRUE(KernelCall().tensor(scalar.tensor()).integer(0).none().none().integer(1)
                  .tensor(so.tensor()).run("aten::slice_copy.Tensor_out").failed());
}

TEST(ShapeSelect, SelectsWithNegativeIndex) {
  OwnedTensor in = iota<float>({2, 3, 4});
  OwnedTensor out(ScalarType::Float, {2, 3});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(-1).integer(-1).tensor(out.tensor())
                   .run("aten::select_copy.int_out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{3, 7, 11, 15, 19, 23}));
  OwnedTensor row(ScalarType::Float, {3, 4});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(0).integer(1).tensor(row.tensor())
                   .run("aten::select_copy.int_out").failed());
  EXPECT_EQ(row.values<float>()[0], 12.f);
}

TEST(ShapeSelect, FailsOnOutOfRangeIndex) {
  OwnedTensor in = iota<float>({2, 3});
  OwnedTensor out(ScalarType::Float, {3});
  for (int64_t index : Longs{2, -3, INT64_MAX, INT64_MIN}) {
    EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(0).integer(index).tensor(out.tensor())
                    .run("aten::select_copy.int_out").failed());
  }
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(2).integer(0).tensor(out.tensor())
                  .run("aten::select_copy.int_out").failed());
}

// ---------------------------------------------------------------- squeeze, unsqueeze

TEST(ShapeSqueeze, UnsqueezeAtEveryPosition) {
  OwnedTensor in = iota<float>({2, 3});
  OwnedTensor front(ScalarType::Float, {1, 2, 3});
  OwnedTensor back(ScalarType::Float, {2, 3, 1});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(0).tensor(front.tensor())
                   .run("aten::unsqueeze_copy.out").failed());
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(-1).tensor(back.tensor())
                   .run("aten::unsqueeze_copy.out").failed());
  EXPECT_EQ(back.values<float>(), in.values<float>());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(3).tensor(back.tensor())
                  .run("aten::unsqueeze_copy.out").failed());
  OwnedTensor scalar = make<float>({}, {2.f});
  OwnedTensor one(ScalarType::Float, {1});
  ASSERT_FALSE(KernelCall().tensor(scalar.tensor()).integer(-1).tensor(one.tensor())
                   .run("aten::unsqueeze_copy.out").failed());
  EXPECT_EQ(one.values<float>(), Floats{2.f});
}

TEST(ShapeSqueeze, SqueezesListedDimsOfSizeOne) {
  OwnedTensor in = iota<float>({1, 3, 1, 2});
  OwnedTensor out(ScalarType::Float, {3, 1, 2});
  // Dim 1 has size 3 and stays; dim 0 goes.
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({0, 1}).tensor(out.tensor())
                   .run("aten::squeeze_copy.dims_out").failed());
  EXPECT_EQ(out.values<float>(), in.values<float>());
  OwnedTensor all(ScalarType::Float, {3, 2});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).tensor(all.tensor())
                   .run("aten::squeeze_copy.out").failed());
  OwnedTensor one(ScalarType::Float, {1, 3, 2});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(-2).tensor(one.tensor())
                   .run("aten::squeeze_copy.dim_out").failed());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({0, -4}).tensor(out.tensor())
                  .run("aten::squeeze_copy.dims_out").failed());  // dim 0 twice
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(4).tensor(one.tensor())
                  .run("aten::squeeze_copy.dim_out").failed());
  // Rank mismatch: dims 0 and 2 squeezed gives rank 2, out has rank 3.
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({0, 2}).tensor(out.tensor())
                  .run("aten::squeeze_copy.dims_out").failed());
}

TEST(ShapeSqueeze, ZeroDimInput) {
  OwnedTensor scalar = make<int8_t>({}, {-5});
  OwnedTensor out(ScalarType::Char, {});
  ASSERT_FALSE(KernelCall().tensor(scalar.tensor()).ints({0}).tensor(out.tensor())
                   .run("aten::squeeze_copy.dims_out").failed());
  EXPECT_EQ(out.values<int8_t>(), std::vector<int8_t>{-5});
}

// ---------------------------------------------------------------- alias, detach, lift_fresh

TEST(ShapeAlias, CopiesInput) {
  OwnedTensor in = iota<uint8_t>({2, 2});
  for (const char* name :
       {"aten::alias_copy.out", "aten::detach_copy.out", "aten::lift_fresh_copy.out"}) {
    OwnedTensor out(ScalarType::Byte, {2, 2});
    ASSERT_FALSE(KernelCall().tensor(in.tensor()).tensor(out.tensor()).run(name).failed()) << name;
    EXPECT_EQ(out.values<uint8_t>(), in.values<uint8_t>()) << name;
  }
}

// ---------------------------------------------------------------- diagonal, as_strided, unfold

TEST(ShapeDiagonal, MatchesTorch) {
  OwnedTensor m = iota<float>({3, 4});
  OwnedTensor d(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(m.tensor()).integer(0).integer(0).integer(1)
                   .tensor(d.tensor()).run("aten::diagonal_copy.out").failed());
  EXPECT_EQ(d.values<float>(), (Floats{0, 5, 10}));

  OwnedTensor a = iota<float>({2, 3, 4});
  OwnedTensor out(ScalarType::Float, {3, 1});
  // torch.arange(24.).reshape(2,3,4).diagonal(1, -1, 0)
  ASSERT_FALSE(KernelCall().tensor(a.tensor()).integer(1).integer(-1).integer(0)
                   .tensor(out.tensor()).run("aten::diagonal_copy.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{12, 16, 20}));
  // .diagonal(-1, 0, 2)
  ASSERT_FALSE(KernelCall().tensor(a.tensor()).integer(-1).integer(0).integer(2)
                   .tensor(out.tensor()).run("aten::diagonal_copy.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{12, 16, 20}));
}

TEST(ShapeDiagonal, OffsetPastTheEndIsEmpty) {
  OwnedTensor m = iota<float>({3, 4});
  OwnedTensor d(ScalarType::Float, {3}, kDynamic);
  for (int64_t offset : Longs{4, -3, INT64_MAX, INT64_MIN}) {
    ASSERT_FALSE(KernelCall().tensor(m.tensor()).integer(offset).integer(0).integer(1)
                     .tensor(d.tensor()).run("aten::diagonal_copy.out").failed());
    EXPECT_EQ(shape_of(d), Shape{0});
  }
  EXPECT_TRUE(KernelCall().tensor(m.tensor()).integer(0).integer(1).integer(-1)
                  .tensor(d.tensor()).run("aten::diagonal_copy.out").failed());
}

TEST(ShapeAsStrided, ReadsStorageAndChecksBounds) {
  OwnedTensor in = iota<float>({6});
  OwnedTensor out(ScalarType::Float, {2, 2});
  // torch.arange(6.).as_strided([2,2],[1,2],1)
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({2, 2}).ints({1, 2}).integer(1)
                   .tensor(out.tensor()).run("aten::as_strided_copy.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{1, 3, 2, 4}));
  // Reaches element 6 of 6.
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({2, 2}).ints({1, 2}).integer(3)
                  .tensor(out.tensor()).run("aten::as_strided_copy.out").failed());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({2, 2}).ints({1, -2}).none()
                  .tensor(out.tensor()).run("aten::as_strided_copy.out").failed());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({2, 2}).ints({INT32_MAX, INT32_MAX}).none()
                  .tensor(out.tensor()).run("aten::as_strided_copy.out").failed());
}

TEST(ShapeUnfold, MatchesTorch) {
  OwnedTensor a = iota<float>({2, 3, 4});
  OwnedTensor out(ScalarType::Float, {2, 3, 1, 3});
  // torch.arange(24.).reshape(2,3,4).unfold(-1, 3, 2)
  ASSERT_FALSE(KernelCall().tensor(a.tensor()).integer(-1).integer(3).integer(2)
                   .tensor(out.tensor()).run("aten::unfold_copy.out").failed());
  EXPECT_EQ(out.values<float>(),
            (Floats{0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21, 22}));
  OwnedTensor out2(ScalarType::Float, {2, 2, 4, 2});
  // .unfold(1, 2, 1)
  ASSERT_FALSE(KernelCall().tensor(a.tensor()).integer(1).integer(2).integer(1)
                   .tensor(out2.tensor()).run("aten::unfold_copy.out").failed());
  EXPECT_EQ(out2.values<float>(),
            (Floats{0, 4, 1, 5, 2, 6, 3, 7, 4, 8, 5, 9, 6, 10, 7, 11,
                    12, 16, 13, 17, 14, 18, 15, 19, 16, 20, 17, 21, 18, 22, 19, 23}));
  EXPECT_TRUE(KernelCall().tensor(a.tensor()).integer(1).integer(4).integer(1)
                  .tensor(out2.tensor()).run("aten::unfold_copy.out").failed());
  EXPECT_TRUE(KernelCall().tensor(a.tensor()).integer(1).integer(2).integer(0)
                  .tensor(out2.tensor()).run("aten::unfold_copy.out").failed());
}

// ---------------------------------------------------------------- clone, _to_copy, copy

TEST(ShapeClone, ContiguousToChannelsLastAndBack) {
  OwnedTensor in = iota<float>({2, 3, 2, 2});
  OwnedTensor cl(ScalarType::Float, {2, 3, 2, 2}, kStatic, kChannelsLast);
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(2).tensor(cl.tensor())
                   .run("aten::clone.out").failed());
  EXPECT_EQ(logical<float>(cl), in.values<float>());
  // Memory is NHWC: the first pixel's three channels come first.
  EXPECT_EQ(cl.values<float>()[1], 4.f);
  EXPECT_EQ(cl.values<float>()[2], 8.f);
  OwnedTensor back(ScalarType::Float, {2, 3, 2, 2});
  ASSERT_FALSE(KernelCall().tensor(cl.tensor()).integer(0).tensor(back.tensor())
                   .run("aten::clone.out").failed());
  EXPECT_EQ(back.values<float>(), in.values<float>());
  OwnedTensor none(ScalarType::Float, {2, 3, 2, 2});
  ASSERT_FALSE(KernelCall().tensor(cl.tensor()).none().tensor(none.tensor())
                   .run("aten::clone.out").failed());
  EXPECT_EQ(none.values<float>(), in.values<float>());
}

TEST(ShapeClone, RejectsMismatchedFormatAndDtype) {
  OwnedTensor in = iota<float>({1, 2, 2, 2});
  OwnedTensor contiguous(ScalarType::Float, {1, 2, 2, 2});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(2).tensor(contiguous.tensor())
                  .run("aten::clone.out").failed());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(9).tensor(contiguous.tensor())
                  .run("aten::clone.out").failed());
  OwnedTensor ints(ScalarType::Int, {1, 2, 2, 2});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).none().tensor(ints.tensor())
                  .run("aten::clone.out").failed());
  OwnedTensor small(ScalarType::Float, {1, 2, 2});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).none().tensor(small.tensor())
                  .run("aten::clone.out").failed());
}

TEST(ShapeToCopy, FloatToIntegersLikeTorch) {
  OwnedTensor in = make<float>({6}, {300.f, -1.5f, 3e9f, NAN, -0.7f, 127.9f});
  OwnedTensor i8(ScalarType::Char, {6});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(i8.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(i8.values<int8_t>(), (std::vector<int8_t>{44, -1, 0, 0, 0, 127}));
  OwnedTensor i32(ScalarType::Int, {6});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(i32.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(i32.values<int32_t>(),
            (std::vector<int32_t>{300, -1, INT32_MIN, INT32_MIN, 0, 127}));
  OwnedTensor u8(ScalarType::Byte, {6});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(u8.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(u8.values<uint8_t>(), (std::vector<uint8_t>{44, 255, 0, 0, 0, 127}));
  OwnedTensor b(ScalarType::Bool, {6});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(b.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(b.values<bool>(), (std::vector<bool>{true, true, true, true, true, true}));
}

TEST(ShapeToCopy, SixteenBitFloatsRoundToNearestEven) {
  OwnedTensor in = make<double>({4}, {1.0 / 3, 65520.0, 1e-8, -2.5});
  OwnedTensor h(ScalarType::Half, {4});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(h.tensor())
                   .run("aten::_to_copy.out").failed());
  // torch.tensor([1/3, 65520., 1e-8, -2.5], dtype=torch.float64).half().view(torch.int16)
  EXPECT_EQ(h.values<int16_t>(), (std::vector<int16_t>{13653, 31744, 0, -16128}));
  OwnedTensor bf(ScalarType::BFloat16, {4});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(bf.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(bf.values<int16_t>(), (std::vector<int16_t>{16043, 18304, 12844, -16352}));
  OwnedTensor longs = make<int64_t>({2}, {2049, -3});
  OwnedTensor h2(ScalarType::Half, {2});
  ASSERT_FALSE(KernelCall().tensor(longs.tensor()).boolean(false).none().tensor(h2.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(h2.values<int16_t>(), (std::vector<int16_t>{26624, -15872}));
  // And back to float: exact.
  OwnedTensor f(ScalarType::Float, {2});
  ASSERT_FALSE(KernelCall().tensor(h2.tensor()).boolean(false).none().tensor(f.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(f.values<float>(), (Floats{2048.f, -3.f}));
}

TEST(ShapeToCopy, EveryDtypePairRoundTripsSmallIntegers) {
  const ScalarType types[] = {ScalarType::Byte, ScalarType::Char,  ScalarType::Short,
                              ScalarType::Int,  ScalarType::Long,  ScalarType::Half,
                              ScalarType::Float, ScalarType::Double, ScalarType::BFloat16};
  for (ScalarType from : types) {
    for (ScalarType to : types) {
      OwnedTensor src = make<int32_t>({4}, {0, 1, 7, 100});
      OwnedTensor a(from, {4}), b(to, {4}), c(ScalarType::Int, {4});
      ASSERT_FALSE(KernelCall().tensor(src.tensor()).boolean(false).none().tensor(a.tensor())
                       .run("aten::_to_copy.out").failed());
      ASSERT_FALSE(KernelCall().tensor(a.tensor()).boolean(false).none().tensor(b.tensor())
                       .run("aten::_to_copy.out").failed());
      ASSERT_FALSE(KernelCall().tensor(b.tensor()).boolean(false).none().tensor(c.tensor())
                       .run("aten::_to_copy.out").failed());
      EXPECT_EQ(c.values<int32_t>(), (std::vector<int32_t>{0, 1, 7, 100}))
          << scalar_type_name(from) << " -> " << scalar_type_name(to);
    }
  }
  OwnedTensor bools = make<bool>({2}, {true, false});
  OwnedTensor h(ScalarType::Half, {2});
  ASSERT_FALSE(KernelCall().tensor(bools.tensor()).boolean(false).none().tensor(h.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(as_floats(h.values<Half>()), (Floats{1.f, 0.f}));
}

TEST(ShapeToCopy, ConvertsIntoChannelsLast) {
  OwnedTensor in = iota<int32_t>({1, 3, 2, 2});
  OwnedTensor out(ScalarType::Float, {1, 3, 2, 2}, kStatic, kChannelsLast);
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).integer(2).tensor(out.tensor())
                   .run("aten::_to_copy.out").failed());
  EXPECT_EQ(logical<float>(out), iota<float>({1, 3, 2, 2}).values<float>());
  EXPECT_EQ(out.values<float>()[1], 4.f);
  OwnedTensor wrong(ScalarType::Float, {1, 3, 2, 2});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).boolean(false).integer(2).tensor(wrong.tensor())
                  .run("aten::_to_copy.out").failed());
}

TEST(ShapeToCopy, DimOrderOps) {
  OwnedTensor in = iota<float>({1, 2, 2, 2});
  OwnedTensor out(ScalarType::Half, {1, 2, 2, 2}, kStatic, kChannelsLast);
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).ints({0, 2, 3, 1})
                   .tensor(out.tensor()).run("dim_order_ops::_to_dim_order_copy.out").failed());
  EXPECT_EQ(as_floats(logical<Half>(out)), in.values<float>());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).boolean(false).ints({0, 1, 2, 3})
                  .tensor(out.tensor()).run("dim_order_ops::_to_dim_order_copy.out").failed());
  OwnedTensor clone(ScalarType::Float, {1, 2, 2, 2}, kStatic, kChannelsLast);
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(clone.tensor())
                   .run("dim_order_ops::_clone_dim_order.out").failed());
  EXPECT_EQ(logical<float>(clone), in.values<float>());
  // clone keeps the dtype.
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).boolean(false).none().tensor(out.tensor())
                  .run("dim_order_ops::_clone_dim_order.out").failed());
}

TEST(ShapeCopy, BroadcastsAndConvertsSrc) {
  OwnedTensor self = iota<float>({2, 3});
  OwnedTensor src = make<int64_t>({3}, {7, -8, 9});
  OwnedTensor out(ScalarType::Float, {2, 3});
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).tensor(src.tensor()).boolean(false)
                   .tensor(out.tensor()).run("aten::copy.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{7, -8, 9, 7, -8, 9}));
  OwnedTensor bad = make<int64_t>({2}, {1, 2});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).tensor(bad.tensor()).boolean(false)
                  .tensor(out.tensor()).run("aten::copy.out").failed());
}

// ---------------------------------------------------------------- cat, stack

TEST(ShapeCat, ConcatenatesAlongAnyDim) {
  OwnedTensor a = iota<float>({2, 2});
  OwnedTensor b = make<float>({2, 1}, {10, 11});
  OwnedTensor out(ScalarType::Float, {2, 3});
  ASSERT_FALSE(KernelCall().tensors({&a.tensor(), &b.tensor()}).integer(-1).tensor(out.tensor())
                   .run("aten::cat.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{0, 1, 10, 2, 3, 11}));
  OwnedTensor rows(ScalarType::Float, {4, 2});
  ASSERT_FALSE(KernelCall().tensors({&a.tensor(), &a.tensor()}).integer(0)
                   .tensor(rows.tensor()).run("aten::cat.out").failed());
  EXPECT_EQ(rows.values<float>(), (Floats{0, 1, 2, 3, 0, 1, 2, 3}));
}

TEST(ShapeCat, PromotesDtypesAndSkipsLegacyEmpty) {
  OwnedTensor a = make<int32_t>({1, 2}, {1, 2});
  OwnedTensor b = make<bool>({1, 2}, {true, false});
  OwnedTensor empty(ScalarType::Float, {0});
  OwnedTensor out(ScalarType::Float, {2, 2});
  ASSERT_FALSE(KernelCall().tensors({&a.tensor(), &empty.tensor(), &b.tensor()}).integer(0)
                   .tensor(out.tensor()).run("aten::cat.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{1, 2, 1, 0}));
  // Int + Float promotes to Float, which cannot be cast to Int.
  OwnedTensor f = make<float>({1, 2}, {1.5f, 2.5f});
  OwnedTensor ints(ScalarType::Int, {2, 2});
  EXPECT_TRUE(KernelCall().tensors({&a.tensor(), &f.tensor()}).integer(0).tensor(ints.tensor())
                  .run("aten::cat.out").failed());
}

TEST(ShapeCat, ChannelsLastOutput) {
  OwnedTensor a = iota<float>({1, 1, 2, 2});
  OwnedTensor b = make<float>({1, 1, 2, 2}, {10, 11, 12, 13});
  OwnedTensor out(ScalarType::Float, {1, 2, 2, 2}, kStatic, kChannelsLast);
  ASSERT_FALSE(KernelCall().tensors({&a.tensor(), &b.tensor()}).integer(1).tensor(out.tensor())
                   .run("aten::cat.out").failed());
  EXPECT_EQ(logical<float>(out), (Floats{0, 1, 2, 3, 10, 11, 12, 13}));
  EXPECT_EQ(out.values<float>(), (Floats{0, 10, 1, 11, 2, 12, 3, 13}));
}

TEST(ShapeCat, RejectsBadInputs) {
  OwnedTensor a = iota<float>({2, 2});
  OwnedTensor b = iota<float>({3, 3});
  OwnedTensor c = iota<float>({2});
  OwnedTensor out(ScalarType::Float, {8, 8}, kDynamic);
  EXPECT_TRUE(KernelCall().tensors({&a.tensor(), &b.tensor()}).integer(0).tensor(out.tensor())
                  .run("aten::cat.out").failed());
  EXPECT_TRUE(KernelCall().tensors({&a.tensor(), &c.tensor()}).integer(0).tensor(out.tensor())
                  .run("aten::cat.out").failed());
  EXPECT_TRUE(KernelCall().tensors({&a.tensor()}).integer(2).tensor(out.tensor())
                  .run("aten::cat.out").failed());
  EXPECT_TRUE(KernelCall().tensors({}).integer(0).tensor(out.tensor()).run("aten::cat.out")
                  .failed());
}

TEST(ShapeStack, StacksAtNewDim) {
  OwnedTensor a = make<int64_t>({2}, {1, 2});
  OwnedTensor b = make<int64_t>({2}, {3, 4});
  OwnedTensor out(ScalarType::Long, {2, 2});
  ASSERT_FALSE(KernelCall().tensors({&a.tensor(), &b.tensor()}).integer(-1).tensor(out.tensor())
                   .run("aten::stack.out").failed());
  EXPECT_EQ(out.values<int64_t>(), (Longs{1, 3, 2, 4}));
  ASSERT_FALSE(KernelCall().tensors({&a.tensor(), &b.tensor()}).integer(0).tensor(out.tensor())
                   .run("aten::stack.out").failed());
  EXPECT_EQ(out.values<int64_t>(), (Longs{1, 2, 3, 4}));
  OwnedTensor c = make<int64_t>({1}, {5});
  EXPECT_TRUE(KernelCall().tensors({&a.tensor(), &c.tensor()}).integer(0).tensor(out.tensor())
                  .run("aten::stack.out").failed());
  EXPECT_TRUE(KernelCall().tensors({&a.tensor(), &b.tensor()}).integer(2).tensor(out.tensor())
                  .run("aten::stack.out").failed());
}

// ---------------------------------------------------------------- split, unbind

TEST(ShapeSplit, SplitsIntoChunksWithShortLast) {
  OwnedTensor in = iota<float>({5, 2});
  OwnedTensor o1(ScalarType::Float, {2, 2}), o2(ScalarType::Float, {2, 2}),
      o3(ScalarType::Float, {1, 2});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(2).integer(0)
                   .tensors({&o1.tensor(), &o2.tensor(), &o3.tensor()})
                   .run("aten::split_copy.Tensor_out").failed());
  EXPECT_EQ(o1.values<float>(), (Floats{0, 1, 2, 3}));
  EXPECT_EQ(o2.values<float>(), (Floats{4, 5, 6, 7}));
  EXPECT_EQ(o3.values<float>(), (Floats{8, 9}));
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(2).integer(0)
                  .tensors({&o1.tensor(), &o2.tensor()}).run("aten::split_copy.Tensor_out")
                  .failed());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(0).integer(0).tensors({&o1.tensor()})
                  .run("aten::split_copy.Tensor_out").failed());
}

TEST(ShapeSplit, SplitWithSizesAlongLastDim) {
  OwnedTensor in = iota<int8_t>({2, 5});
  OwnedTensor a(ScalarType::Char, {2, 1}), b(ScalarType::Char, {2, 0}), c(ScalarType::Char, {2, 4});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({1, 0, 4}).integer(-1)
                   .tensors({&a.tensor(), &b.tensor(), &c.tensor()})
                   .run("aten::split_with_sizes_copy.out").failed());
  EXPECT_EQ(a.values<int8_t>(), (std::vector<int8_t>{0, 5}));
  EXPECT_EQ(c.values<int8_t>(), (std::vector<int8_t>{1, 2, 3, 4, 6, 7, 8, 9}));
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({1, 1, 4}).integer(-1)
                  .tensors({&a.tensor(), &b.tensor(), &c.tensor()})
                  .run("aten::split_with_sizes_copy.out").failed());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({-1, 2, 4}).integer(-1)
                  .tensors({&a.tensor(), &b.tensor(), &c.tensor()})
                  .run("aten::split_with_sizes_copy.out").failed());
}

TEST(ShapeSplit, Unbind) {
  OwnedTensor in = iota<float>({2, 3});
  OwnedTensor a(ScalarType::Float, {2}), b(ScalarType::Float, {2}), c(ScalarType::Float, {2});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(1)
                   .tensors({&a.tensor(), &b.tensor(), &c.tensor()})
                   .run("aten::unbind_copy.int_out").failed());
  EXPECT_EQ(a.values<float>(), (Floats{0, 3}));
  EXPECT_EQ(c.values<float>(), (Floats{2, 5}));
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(0)
                  .tensors({&a.tensor(), &b.tensor(), &c.tensor()})
                  .run("aten::unbind_copy.int_out").failed());
}

TEST(ShapeSplit, HugeSplitSizeGivesOnePiece) {
  OwnedTensor in = iota<float>({3});
  OwnedTensor o(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(INT64_MAX).integer(0)
                   .tensors({&o.tensor()}).run("aten::split_copy.Tensor_out").failed());
  EXPECT_EQ(o.values<float>(), (Floats{0, 1, 2}));
  OwnedTensor empty(ScalarType::Float, {0, 2});
  OwnedTensor eo(ScalarType::Float, {0, 2});
  ASSERT_FALSE(KernelCall().tensor(empty.tensor()).integer(0).integer(0)
                   .tensors({&eo.tensor()}).run("aten::split_copy.Tensor_out").failed());
}

TEST(ShapeStack, PromotesHalfAndFloat) {
  OwnedTensor a = make<Half>({2}, {Half(0.5f), Half(-1.f)});
  OwnedTensor b = make<float>({2}, {3.f, 4.f});
  OwnedTensor out(ScalarType::Float, {2, 2});
  ASSERT_FALSE(KernelCall().tensors({&a.tensor(), &b.tensor()}).integer(0).tensor(out.tensor())
                   .run("aten::stack.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{0.5f, -1.f, 3.f, 4.f}));
}

// ---------------------------------------------------------------- repeat, pad, flip, roll

TEST(ShapeRepeat, TilesWithNewLeadingDims) {
  OwnedTensor in = iota<float>({2, 3});
  OwnedTensor out(ScalarType::Float, {2, 2, 6});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({2, 1, 2}).tensor(out.tensor())
                   .run("aten::repeat.out").failed());
  // torch.arange(6.).reshape(2,3).repeat(2,1,2)
  EXPECT_EQ(out.values<float>(), (Floats{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5,
                                         0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({2}).tensor(out.tensor())
                  .run("aten::repeat.out").failed());
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({2, -1, 2}).tensor(out.tensor())
                  .run("aten::repeat.out").failed());
  OwnedTensor zero(ScalarType::Float, {0, 3});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({0, 1}).tensor(zero.tensor())
                   .run("aten::repeat.out").failed());
}

TEST(ShapePad, PadsAndCrops) {
  OwnedTensor in = iota<float>({2, 3});
  OwnedTensor out(ScalarType::Float, {2, 6});
  // torch.constant_pad_nd(torch.arange(6.).reshape(2,3), [1,2,-1,1], 9.)
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({1, 2, -1, 1}).real(9.0)
                   .tensor(out.tensor()).run("aten::constant_pad_nd.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{9, 3, 4, 5, 9, 9, 9, 9, 9, 9, 9, 9}));
  OwnedTensor ints = iota<int8_t>({3});
  OwnedTensor io(ScalarType::Char, {5});
  ASSERT_FALSE(KernelCall().tensor(ints.tensor()).ints({2, 0}).integer(-7).tensor(io.tensor())
                   .run("aten::constant_pad_nd.out").failed());
  EXPECT_EQ(io.values<int8_t>(), (std::vector<int8_t>{-7, -7, 0, 1, 2}));
  // 300 does not fit int8.
  EXPECT_TRUE(KernelCall().tensor(ints.tensor()).ints({2, 0}).integer(300).tensor(io.tensor())
                  .run("aten::constant_pad_nd.out").failed());
  OwnedTensor dyn(ScalarType::Char, {5}, kDynamic);
  EXPECT_TRUE(KernelCall().tensor(ints.tensor()).ints({-4, 0}).integer(0).tensor(dyn.tensor())
                  .run("aten::constant_pad_nd.out").failed());
  ASSERT_FALSE(KernelCall().tensor(ints.tensor()).ints({-3, 0}).integer(0).tensor(dyn.tensor())
                   .run("aten::constant_pad_nd.out").failed());
  EXPECT_EQ(shape_of(dyn), Shape{0});
  EXPECT_TRUE(KernelCall().tensor(ints.tensor()).ints({1, 1, 1}).integer(0).tensor(dyn.tensor())
                  .run("aten::constant_pad_nd.out").failed());
}

TEST(ShapeFlip, ReversesDims) {
  OwnedTensor in = iota<float>({2, 3, 4});
  OwnedTensor out(ScalarType::Float, {2, 3, 4});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({0, -1}).tensor(out.tensor())
                   .run("aten::flip.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20,
                                         3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}));
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).ints({0, 0}).tensor(out.tensor())
                  .run("aten::flip.out").failed());
}

TEST(ShapeRoll, RollsAlongDimsAndFlattened) {
  OwnedTensor in = iota<float>({2, 3, 4});
  OwnedTensor out(ScalarType::Float, {2, 3, 4});
  // torch.arange(24.).reshape(2,3,4).roll((1,-1),(2,1))
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).ints({1, -1}).ints({2, 1}).tensor(out.tensor())
                   .run("aten::roll.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{7, 4, 5, 6, 11, 8, 9, 10, 3, 0, 1, 2,
                                         19, 16, 17, 18, 23, 20, 21, 22, 15, 12, 13, 14}));
  OwnedTensor m = iota<float>({2, 3});
  OwnedTensor mo(ScalarType::Float, {2, 3});
  ASSERT_FALSE(KernelCall().tensor(m.tensor()).ints({2}).ints({}).tensor(mo.tensor())
                   .run("aten::roll.out").failed());
  EXPECT_EQ(mo.values<float>(), (Floats{4, 5, 0, 1, 2, 3}));
  // Repeated dims add up: 1 + 1 on a dim of 2 is the identity.
  ASSERT_FALSE(KernelCall().tensor(m.tensor()).ints({1, 1}).ints({0, 0}).tensor(mo.tensor())
                   .run("aten::roll.out").failed());
  EXPECT_EQ(mo.values<float>(), m.values<float>());
  ASSERT_FALSE(KernelCall().tensor(m.tensor()).ints({INT64_MIN}).ints({1}).tensor(mo.tensor())
                   .run("aten::roll.out").failed());
  EXPECT_TRUE(KernelCall().tensor(m.tensor()).ints({1, 2}).ints({0}).tensor(mo.tensor())
                  .run("aten::roll.out").failed());
}

TEST(ShapeTriangle, TrilAndTriu) {
  OwnedTensor in = iota<float>({2, 3, 4});
  OwnedTensor out(ScalarType::Float, {2, 3, 4});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(0).tensor(out.tensor())
                   .run("aten::tril.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{0, 0, 0, 0, 4, 5, 0, 0, 8, 9, 10, 0,
                                         12, 0, 0, 0, 16, 17, 0, 0, 20, 21, 22, 0}));
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(-1).tensor(out.tensor())
                   .run("aten::tril.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0,
                                         0, 0, 0, 0, 16, 0, 0, 0, 20, 21, 0, 0}));
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(1).tensor(out.tensor())
                   .run("aten::triu.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11,
                                         0, 13, 14, 15, 0, 0, 18, 19, 0, 0, 0, 23}));
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(INT64_MIN).tensor(out.tensor())
                   .run("aten::triu.out").failed());
  EXPECT_EQ(out.values<float>(), in.values<float>());
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(INT64_MAX).tensor(out.tensor())
                   .run("aten::tril.out").failed());
  EXPECT_EQ(out.values<float>(), in.values<float>());
  OwnedTensor vec = iota<float>({3});
  OwnedTensor vo(ScalarType::Float, {3});
  EXPECT_TRUE(KernelCall().tensor(vec.tensor()).integer(0).tensor(vo.tensor())
                  .run("aten::tril.out").failed());
}

// ---------------------------------------------------------------- embedding, index_select

TEST(ShapeEmbedding, LooksUpRowsWithInt64AndInt32Indices) {
  OwnedTensor weight = iota<float>({4, 3});
  OwnedTensor idx = make<int64_t>({2, 2}, {3, 0, 1, 3});
  OwnedTensor out(ScalarType::Float, {2, 2, 3});
  ASSERT_FALSE(KernelCall().tensor(weight.tensor()).tensor(idx.tensor()).integer(-1)
                   .boolean(false).boolean(false).tensor(out.tensor())
                   .run("aten::embedding.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{9, 10, 11, 0, 1, 2, 3, 4, 5, 9, 10, 11}));
  OwnedTensor idx32 = make<int32_t>({}, {2});
  OwnedTensor out32(ScalarType::Float, {3});
  ASSERT_FALSE(KernelCall().tensor(weight.tensor()).tensor(idx32.tensor()).integer(-1)
                   .boolean(false).boolean(false).tensor(out32.tensor())
                   .run("aten::embedding.out").failed());
  EXPECT_EQ(out32.values<float>(), (Floats{6, 7, 8}));
}

TEST(ShapeEmbedding, FailsOnBadIndices) {
  OwnedTensor weight = iota<float>({4, 3});
  OwnedTensor out(ScalarType::Float, {1, 3});
  for (int64_t bad : Longs{4, -1, INT64_MAX}) {
    OwnedTensor idx = make<int64_t>({1}, {bad});
    EXPECT_TRUE(KernelCall().tensor(weight.tensor()).tensor(idx.tensor()).integer(-1)
                    .boolean(false).boolean(false).tensor(out.tensor())
                    .run("aten::embedding.out").failed());
  }
  OwnedTensor fidx = make<float>({1}, {1.f});
  EXPECT_TRUE(KernelCall().tensor(weight.tensor()).tensor(fidx.tensor()).integer(-1)
                  .boolean(false).boolean(false).tensor(out.tensor())
                  .run("aten::embedding.out").failed());
}

TEST(ShapeIndexSelect, SelectsAlongDim) {
  OwnedTensor in = iota<float>({3, 4});
  OwnedTensor idx = make<int64_t>({3}, {3, 0, 3});
  OwnedTensor out(ScalarType::Float, {3, 3});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(-1).tensor(idx.tensor())
                   .tensor(out.tensor()).run("aten::index_select.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{3, 0, 3, 7, 4, 7, 11, 8, 11}));
  OwnedTensor neg = make<int64_t>({1}, {-1});
  OwnedTensor o1(ScalarType::Float, {3, 1});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(1).tensor(neg.tensor())
                  .tensor(o1.tensor()).run("aten::index_select.out").failed());
  OwnedTensor matrix = make<int64_t>({1, 1}, {0});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(1).tensor(matrix.tensor())
                  .tensor(o1.tensor()).run("aten::index_select.out").failed());
}

// ---------------------------------------------------------------- gather, scatter

TEST(ShapeGather, GathersAlongDim) {
  OwnedTensor in = iota<float>({3, 4});
  OwnedTensor idx = make<int64_t>({3, 2}, {0, 3, 1, 1, 2, 0});
  OwnedTensor out(ScalarType::Float, {3, 2});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(1).tensor(idx.tensor()).boolean(false)
                   .tensor(out.tensor()).run("aten::gather.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{0, 3, 5, 5, 10, 8}));
  OwnedTensor idx0 = make<int64_t>({1, 4}, {2, 0, 1, 0});
  OwnedTensor out0(ScalarType::Float, {1, 4});
  ASSERT_FALSE(KernelCall().tensor(in.tensor()).integer(0).tensor(idx0.tensor()).boolean(false)
                   .tensor(out0.tensor()).run("aten::gather.out").failed());
  EXPECT_EQ(out0.values<float>(), (Floats{8, 1, 6, 3}));
  OwnedTensor bad = make<int64_t>({1, 1}, {4});
  OwnedTensor ob(ScalarType::Float, {1, 1});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(1).tensor(bad.tensor()).boolean(false)
                  .tensor(ob.tensor()).run("aten::gather.out").failed());
  OwnedTensor wide = make<int64_t>({1, 5}, {0, 0, 0, 0, 0});
  OwnedTensor ow(ScalarType::Float, {1, 5});
  EXPECT_TRUE(KernelCall().tensor(in.tensor()).integer(0).tensor(wide.tensor()).boolean(false)
                  .tensor(ow.tensor()).run("aten::gather.out").failed());
}

TEST(ShapeScatter, ScattersSrcValueAndAdd) {
  OwnedTensor self(ScalarType::Float, {3, 4});
  std::fill_n(self.data<float>(), 12, 0.f);
  OwnedTensor idx = make<int64_t>({2, 2}, {0, 3, 1, 2});
  OwnedTensor src = make<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  OwnedTensor out(ScalarType::Float, {3, 4});
  // torch.zeros(3,4).scatter(1, [[0,3],[1,2]], torch.arange(6.).view(2,3)+1)
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).integer(1).tensor(idx.tensor())
                   .tensor(src.tensor()).tensor(out.tensor()).run("aten::scatter.src_out")
                   .failed());
  EXPECT_EQ(out.values<float>(), (Floats{1, 0, 0, 2, 0, 4, 5, 0, 0, 0, 0, 0}));

  ASSERT_FALSE(KernelCall().tensor(self.tensor()).integer(1).tensor(idx.tensor()).real(-2.5)
                   .tensor(out.tensor()).run("aten::scatter.value_out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{-2.5, 0, 0, -2.5, 0, -2.5, -2.5, 0, 0, 0, 0, 0}));

  OwnedTensor add_idx = make<int64_t>({2, 4}, {0, 1, 2, 0, 0, 0, 0, 0});
  OwnedTensor ones = make<float>({2, 4}, {1, 1, 1, 1, 1, 1, 1, 1});
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).integer(0).tensor(add_idx.tensor())
                   .tensor(ones.tensor()).tensor(out.tensor()).run("aten::scatter_add.out")
                   .failed());
  EXPECT_EQ(out.values<float>(), (Floats{2, 1, 1, 2, 0, 1, 0, 0, 0, 0, 1, 0}));
}

TEST(ShapeScatter, ScatterAddIntegersAndBool) {
  OwnedTensor self = make<int32_t>({3}, {10, 20, 30});
  OwnedTensor idx = make<int64_t>({4}, {2, 2, 0, 2});
  OwnedTensor src = make<int32_t>({4}, {1, 2, 3, 4});
  OwnedTensor out(ScalarType::Int, {3});
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).integer(0).tensor(idx.tensor())
                   .tensor(src.tensor()).tensor(out.tensor()).run("aten::scatter_add.out")
                   .failed());
  EXPECT_EQ(out.values<int32_t>(), (std::vector<int32_t>{13, 20, 37}));
  OwnedTensor bself = make<bool>({3}, {false, false, false});
  OwnedTensor bidx = make<int64_t>({2}, {0, 0});
  OwnedTensor bsrc = make<bool>({2}, {true, true});
  OwnedTensor bout(ScalarType::Bool, {3});
  ASSERT_FALSE(KernelCall().tensor(bself.tensor()).integer(0).tensor(bidx.tensor())
                   .tensor(bsrc.tensor()).tensor(bout.tensor()).run("aten::scatter_add.out")
                   .failed());
  EXPECT_EQ(bout.values<bool>(), (std::vector<bool>{true, false, false}));
}

TEST(ShapeScatter, FailsOnBadIndexOrValue) {
  OwnedTensor self = make<int8_t>({3}, {0, 0, 0});
  OwnedTensor out(ScalarType::Char, {3});
  OwnedTensor neg = make<int64_t>({1}, {-1});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).integer(0).tensor(neg.tensor()).integer(1)
                  .tensor(out.tensor()).run("aten::scatter.value_out").failed());
  OwnedTensor idx = make<int64_t>({1}, {0});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).integer(0).tensor(idx.tensor()).integer(1000)
                  .tensor(out.tensor()).run("aten::scatter.value_out").failed());
  OwnedTensor big = make<int64_t>({4}, {0, 0, 0, 0});
  OwnedTensor src = make<int8_t>({2}, {1, 2});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).integer(0).tensor(big.tensor())
                  .tensor(src.tensor()).tensor(out.tensor()).run("aten::scatter.src_out")
                  .failed());
  OwnedTensor fsrc = make<float>({2}, {1, 2});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).integer(0).tensor(idx.tensor())
                  .tensor(fsrc.tensor()).tensor(out.tensor()).run("aten::scatter.src_out")
                  .failed());
}

// ---------------------------------------------------------------- index.Tensor, index_put

class ShapeAdvancedIndex : public ::testing::Test {
 protected:
  // Runs index.Tensor on arange(24).reshape(2,3,4).
  std::vector<float> run(std::vector<Tensor*> indices, Shape expected_shape) {
    // An out of the expected rank with room for 24 elements.
    std::vector<int32_t> bound(expected_shape.size(), 1);
    if (!bound.empty()) bound[0] = 24;
    OwnedTensor dyn(ScalarType::Float, bound, kDynamic);
    KernelContext ctx = KernelCall().tensor(a_.tensor()).tensors(indices, true)
                            .tensor(dyn.tensor()).run("aten::index.Tensor_out");
    EXPECT_FALSE(ctx.failed()) << ctx.message();
    EXPECT_EQ(shape_of(dyn), expected_shape);
    return dyn.values<float>();
  }
  bool fails(std::vector<Tensor*> indices, int rank) {
    OwnedTensor dyn(ScalarType::Float, std::vector<int32_t>(rank, 24), kDynamic);
    return KernelCall().tensor(a_.tensor()).tensors(indices, true).tensor(dyn.tensor())
        .run("aten::index.Tensor_out").failed();
  }
  OwnedTensor a_ = iota<float>({2, 3, 4});
};

TEST_F(ShapeAdvancedIndex, SingleIndexKeepsTrailingDims) {
  OwnedTensor i = make<int64_t>({1}, {1});
  OwnedTensor j = make<int32_t>({1}, {2});
  // a[[1], [2]]
  EXPECT_EQ(run({&i.tensor(), &j.tensor()}, {1, 4}), (Floats{20, 21, 22, 23}));
}

TEST_F(ShapeAdvancedIndex, NonAdjacentIndicesGoFirst) {
  OwnedTensor i = make<int64_t>({2}, {1, 0});
  OwnedTensor k = make<int64_t>({2}, {-1, 2});
  // a[[1,0], :, [-1,2]]
  EXPECT_EQ(run({&i.tensor(), nullptr, &k.tensor()}, {2, 3}), (Floats{15, 19, 23, 2, 6, 10}));
}

TEST_F(ShapeAdvancedIndex, AdjacentIndicesBroadcastInPlace) {
  OwnedTensor j = make<int64_t>({2, 1}, {0, 2});
  OwnedTensor k = make<int64_t>({2}, {1, 3});
  // a[:, [[0],[2]], [1,3]]
  EXPECT_EQ(run({nullptr, &j.tensor(), &k.tensor()}, {2, 2, 2}),
            (Floats{1, 3, 9, 11, 13, 15, 21, 23}));
}

TEST_F(ShapeAdvancedIndex, BoolMasks) {
  OwnedTensor m3 = make<bool>({3}, {true, false, true});
  // a[:, mask]
  EXPECT_EQ(run({nullptr, &m3.tensor()}, {2, 2, 4}),
            (Floats{0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23}));
  OwnedTensor m23 = make<bool>({2, 3}, {true, false, true, false, true, false});
  EXPECT_EQ(run({&m23.tensor()}, {3, 4}), (Floats{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19}));
  // a[mask2x3, [0,3,1]]
  OwnedTensor k = make<int64_t>({3}, {0, 3, 1});
  EXPECT_EQ(run({&m23.tensor(), &k.tensor()}, {3}), (Floats{0, 11, 17}));
}

TEST_F(ShapeAdvancedIndex, RejectsBadIndices) {
  OwnedTensor out_of_range = make<int64_t>({1}, {2});
  EXPECT_TRUE(fails({&out_of_range.tensor()}, 3));
  OwnedTensor too_negative = make<int64_t>({1}, {-3});
  EXPECT_TRUE(fails({&too_negative.tensor()}, 3));
  OwnedTensor a2 = make<int64_t>({2}, {0, 1});
  OwnedTensor a3 = make<int64_t>({3}, {0, 1, 2});
  EXPECT_TRUE(fails({&a2.tensor(), &a3.tensor()}, 2));  // shapes do not broadcast
  OwnedTensor wrong_mask = make<bool>({4}, {true, true, true, true});
  EXPECT_TRUE(fails({&wrong_mask.tensor()}, 3));
  OwnedTensor floats = make<float>({1}, {0.f});
  EXPECT_TRUE(fails({&floats.tensor()}, 3));
  OwnedTensor zero = make<int64_t>({1}, {0});
  EXPECT_TRUE(fails({&zero.tensor(), &zero.tensor(), &zero.tensor(), &zero.tensor()}, 1));
}

TEST(ShapeIndexPut, AssignsAndAccumulates) {
  OwnedTensor self(ScalarType::Float, {2, 3});
  std::fill_n(self.data<float>(), 6, 0.f);
  OwnedTensor rows = make<int64_t>({3}, {0, 1, 0});
  OwnedTensor cols = make<int64_t>({3}, {2, 0, 2});
  OwnedTensor vals = make<float>({3}, {1, 2, 3});
  OwnedTensor out(ScalarType::Float, {2, 3});
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).tensors({&rows.tensor(), &cols.tensor()}, true)
                   .tensor(vals.tensor()).boolean(true).tensor(out.tensor())
                   .run("aten::index_put.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{0, 0, 4, 2, 0, 0}));

  OwnedTensor self2(ScalarType::Float, {3, 4});
  std::fill_n(self2.data<float>(), 12, 0.f);
  OwnedTensor which = make<int64_t>({2}, {2, -3});
  OwnedTensor row = make<float>({1, 4}, {1, 2, 3, 4});
  OwnedTensor out2(ScalarType::Float, {3, 4});
  ASSERT_FALSE(KernelCall().tensor(self2.tensor()).tensors({&which.tensor()}, true)
                   .tensor(row.tensor()).boolean(false).tensor(out2.tensor())
                   .run("aten::index_put.out").failed());
  EXPECT_EQ(out2.values<float>(), (Floats{1, 2, 3, 4, 0, 0, 0, 0, 1, 2, 3, 4}));
}

TEST(ShapeIndexPut, AccumulatesHalf) {
  OwnedTensor self = make<Half>({3}, {Half(1.f), Half(2.f), Half(3.f)});
  OwnedTensor idx = make<int64_t>({3}, {2, 2, -1});
  OwnedTensor vals = make<Half>({}, {Half(0.5f)});
  OwnedTensor out(ScalarType::Half, {3});
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).tensors({&idx.tensor()}, true)
                   .tensor(vals.tensor()).boolean(true).tensor(out.tensor())
                   .run("aten::index_put.out").failed());
  EXPECT_EQ(as_floats(out.values<Half>()), (Floats{1.f, 2.f, 4.5f}));
}

TEST(ShapeIndexPut, MaskAssignAndFailures) {
  OwnedTensor self = make<int64_t>({4}, {1, 2, 3, 4});
  OwnedTensor mask = make<bool>({4}, {false, true, false, true});
  OwnedTensor val = make<int64_t>({}, {-9});
  OwnedTensor out(ScalarType::Long, {4});
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).tensors({&mask.tensor()}, true)
                   .tensor(val.tensor()).boolean(false).tensor(out.tensor())
                   .run("aten::index_put.out").failed());
  EXPECT_EQ(out.values<int64_t>(), (Longs{1, -9, 3, -9}));
  OwnedTensor bad_idx = make<int64_t>({1}, {4});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).tensors({&bad_idx.tensor()}, true)
                  .tensor(val.tensor()).boolean(false).tensor(out.tensor())
                  .run("aten::index_put.out").failed());
  OwnedTensor two_vals = make<int64_t>({3}, {1, 2, 3});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).tensors({&mask.tensor()}, true)
                  .tensor(two_vals.tensor()).boolean(false).tensor(out.tensor())
                  .run("aten::index_put.out").failed());
  OwnedTensor fval = make<float>({}, {1.f});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).tensors({&mask.tensor()}, true)
                  .tensor(fval.tensor()).boolean(false).tensor(out.tensor())
                  .run("aten::index_put.out").failed());
}

// ---------------------------------------------------------------- select/slice_scatter

TEST(ShapeScatterView, SelectAndSliceScatter) {
  OwnedTensor self = iota<float>({2, 3});
  OwnedTensor src = make<float>({2}, {-1, -2});
  OwnedTensor out(ScalarType::Float, {2, 3});
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).tensor(src.tensor()).integer(1).integer(-1)
                   .tensor(out.tensor()).run("aten::select_scatter.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{0, 1, -1, 3, 4, -2}));
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).tensor(src.tensor()).integer(1).integer(3)
                  .tensor(out.tensor()).run("aten::select_scatter.out").failed());
  OwnedTensor src3 = make<float>({3}, {1, 2, 3});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).tensor(src3.tensor()).integer(1).integer(0)
                  .tensor(out.tensor()).run("aten::select_scatter.out").failed());

  OwnedTensor cols = make<float>({2, 2}, {7, 8, 9, 10});
  // self[:, ::2] = cols
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).tensor(cols.tensor()).integer(1).none().none()
                   .integer(2).tensor(out.tensor()).run("aten::slice_scatter.out").failed());
  EXPECT_EQ(out.values<float>(), (Floats{7, 1, 8, 9, 4, 10}));
  // self[:, 2:] is 2x1, so a 2x2 src does not fit.
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).tensor(cols.tensor()).integer(1).integer(2)
                  .none().integer(1).tensor(out.tensor()).run("aten::slice_scatter.out")
                  .failed());
}

// ---------------------------------------------------------------- masked_select, arange

TEST(ShapeMaskedSelect, BroadcastsMask) {
  OwnedTensor self = iota<float>({2, 3});
  OwnedTensor mask = make<bool>({3}, {true, false, true});
  OwnedTensor out(ScalarType::Float, {6}, kDynamic);
  ASSERT_FALSE(KernelCall().tensor(self.tensor()).tensor(mask.tensor()).tensor(out.tensor())
                   .run("aten::masked_select.out").failed());
  EXPECT_EQ(shape_of(out), Shape{4});
  EXPECT_EQ(out.values<float>(), (Floats{0, 2, 3, 5}));
  OwnedTensor bad = make<bool>({2}, {true, false});
  EXPECT_TRUE(KernelCall().tensor(self.tensor()).tensor(bad.tensor()).tensor(out.tensor())
                  .run("aten::masked_select.out").failed());
}

TEST(ShapeArange, IntegerAndFloatRanges) {
  OwnedTensor out(ScalarType::Long, {16}, kDynamic);
  ASSERT_FALSE(KernelCall().integer(5).tensor(out.tensor()).run("aten::arange.out").failed());
  EXPECT_EQ(out.values<int64_t>(), (Longs{0, 1, 2, 3, 4}));
  ASSERT_FALSE(KernelCall().integer(5).integer(0).integer(-2).tensor(out.tensor())
                   .run("aten::arange.start_out").failed());
  EXPECT_EQ(out.values<int64_t>(), (Longs{5, 3, 1}));
  ASSERT_FALSE(KernelCall().integer(0).integer(10).integer(3).tensor(out.tensor())
                   .run("aten::arange.start_out").failed());
  EXPECT_EQ(out.values<int64_t>(), (Longs{0, 3, 6, 9}));
  OwnedTensor i32(ScalarType::Int, {16}, kDynamic);
  // torch.arange(-2.5, 3, 1.5, dtype=torch.int32)
  ASSERT_FALSE(KernelCall().real(-2.5).integer(3).real(1.5).tensor(i32.tensor())
                   .run("aten::arange.start_out").failed());
  EXPECT_EQ(i32.values<int32_t>(), (std::vector<int32_t>{-2, -1, 0, 1}));
  OwnedTensor f(ScalarType::Float, {16}, kDynamic);
  ASSERT_FALSE(KernelCall().integer(1).integer(0).real(-0.25).tensor(f.tensor())
                   .run("aten::arange.start_out").failed());
  EXPECT_EQ(f.values<float>(), (Floats{1, 0.75, 0.5, 0.25}));
  ASSERT_FALSE(KernelCall().integer(0).tensor(f.tensor()).run("aten::arange.out").failed());
  EXPECT_EQ(shape_of(f), Shape{0});
}

TEST(ShapeArange, RejectsBadRanges) {
  OwnedTensor out(ScalarType::Long, {16}, kDynamic);
  EXPECT_TRUE(KernelCall().integer(0).integer(5).integer(0).tensor(out.tensor())
                  .run("aten::arange.start_out").failed());
  EXPECT_TRUE(KernelCall().integer(0).integer(5).integer(-1).tensor(out.tensor())
                  .run("aten::arange.start_out").failed());
  EXPECT_TRUE(KernelCall().integer(0).integer(5).real(0.5).tensor(out.tensor())
                  .run("aten::arange.start_out").failed());  // int64 step truncates to 0
  EXPECT_TRUE(KernelCall().integer(100).tensor(out.tensor()).run("aten::arange.out").failed());
  EXPECT_TRUE(KernelCall().real(INFINITY).tensor(out.tensor()).run("aten::arange.out").failed());
  OwnedTensor b(ScalarType::Bool, {4}, kDynamic);
  EXPECT_TRUE(KernelCall().integer(2).tensor(b.tensor()).run("aten::arange.out").failed());
}

}  // namespace
}  // namespace ember
