#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/core/evalue.h"
#include "runtime/core/half.h"
#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "tensor_factory.h"

namespace ember {
namespace {

TEST(ScalarType, ElementSizesMatchPyTorch) {
  EXPECT_EQ(element_size(ScalarType::Float), 4u);
  EXPECT_EQ(element_size(ScalarType::Half), 2u);
  EXPECT_EQ(element_size(ScalarType::BFloat16), 2u);
  EXPECT_EQ(element_size(ScalarType::Long), 8u);
  EXPECT_EQ(element_size(ScalarType::Bool), 1u);
  EXPECT_EQ(element_size(ScalarType::ComplexFloat), 8u);
  EXPECT_EQ(element_size(ScalarType::ComplexDouble), 16u);
  EXPECT_TRUE(is_valid_scalar_type(8));    // complex half: in the format, no kernels
  EXPECT_FALSE(is_valid_scalar_type(18));  // the gap before Bits16
  EXPECT_FALSE(is_valid_scalar_type(-1));
  EXPECT_FALSE(is_valid_scalar_type(30));
  EXPECT_TRUE(is_valid_scalar_type(29));
}

TEST(ScalarType, PromotionFollowsTorch) {
  ScalarType out;
  ASSERT_TRUE(promote_types(ScalarType::Byte, ScalarType::Char, &out));
  EXPECT_EQ(out, ScalarType::Short);
  ASSERT_TRUE(promote_types(ScalarType::Half, ScalarType::BFloat16, &out));
  EXPECT_EQ(out, ScalarType::Float);
  ASSERT_TRUE(promote_types(ScalarType::Bool, ScalarType::Long, &out));
  EXPECT_EQ(out, ScalarType::Long);
  ASSERT_TRUE(promote_types(ScalarType::Int, ScalarType::Float, &out));
  EXPECT_EQ(out, ScalarType::Float);
  EXPECT_FALSE(promote_types(ScalarType::QInt8, ScalarType::Float, &out));
  EXPECT_FALSE(can_cast(ScalarType::Float, ScalarType::Long));
  EXPECT_TRUE(can_cast(ScalarType::Long, ScalarType::Float));
}

TEST(Half, RoundTripsAndRounds) {
  for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f}) {
    EXPECT_EQ(static_cast<float>(Half(v)), v) << v;
  }
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(1e6f))));
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(static_cast<float>(Half(1.0f + 1.0f / 4096)), 1.0f);  // ties to even
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(BFloat16(3.0f)), 3.0f);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(Tensor, StridesFollowDimOrder) {
  testing::OwnedTensor contiguous(ScalarType::Float, {2, 3, 4, 5});
  const Tensor& t = contiguous.tensor();
  EXPECT_EQ(t.numel(), 120);
  EXPECT_EQ(t.nbytes(), 480u);
  EXPECT_EQ(t.stride(0), 60);
  EXPECT_EQ(t.stride(-1), 1);
  EXPECT_TRUE(t.is_contiguous_dim_order());

  testing::OwnedTensor channels_last(ScalarType::Float, {2, 3, 4, 5}, TensorShapeDynamism::Static,
                                     {0, 2, 3, 1});
  const Tensor& cl = channels_last.tensor();
  EXPECT_EQ(cl.stride(1), 1);
  EXPECT_EQ(cl.stride(3), 3);
  EXPECT_EQ(cl.stride(2), 15);
  EXPECT_EQ(cl.stride(0), 60);
  EXPECT_FALSE(cl.is_contiguous_dim_order());
}

TEST(Tensor, CopiesAcrossDimOrders) {
  // Element (n, c, h, w) holds n*1000 + c*100 + h*10 + w in every layout.
  const int32_t sizes[] = {2, 3, 4, 5};
  testing::OwnedTensor row_major(ScalarType::Int, {2, 3, 4, 5});
  testing::OwnedTensor channels_last(ScalarType::Int, {2, 3, 4, 5}, TensorShapeDynamism::Static,
                                     {0, 2, 3, 1});
  testing::OwnedTensor back(ScalarType::Int, {2, 3, 4, 5});
  auto value_at = [](const Tensor& t, int n, int c, int h, int w) {
    return t.const_data_ptr<int32_t>()[n * t.stride(0) + c * t.stride(1) + h * t.stride(2) +
                                       w * t.stride(3)];
  };
  int32_t* data = row_major.data<int32_t>();
  for (int i = 0; i < 120; ++i) {
    const int n = i / 60, c = i / 20 % 3, h = i / 5 % 4, w = i % 5;
    data[i] = n * 1000 + c * 100 + h * 10 + w;
  }
  copy_across_dim_orders(row_major.tensor(), channels_last.tensor());
  copy_across_dim_orders(channels_last.tensor(), back.tensor());
  for (int n = 0; n < sizes[0]; ++n)
    for (int c = 0; c < sizes[1]; ++c)
      for (int h = 0; h < sizes[2]; ++h)
        for (int w = 0; w < sizes[3]; ++w) {
          const int32_t want = n * 1000 + c * 100 + h * 10 + w;
          ASSERT_EQ(value_at(channels_last.tensor(), n, c, h, w), want);
          ASSERT_EQ(value_at(back.tensor(), n, c, h, w), want);
        }
  // Channels-last memory starts with the first pixel's channels.
  EXPECT_EQ(channels_last.data<int32_t>()[1], 100);
}

TEST(Tensor, ResizeStaysWithinCapacity) {
  testing::OwnedTensor owned(ScalarType::Float, {4, 8}, TensorShapeDynamism::DynamicBound);
  Tensor& t = owned.tensor();
  const int64_t smaller[] = {2, 8};
  EXPECT_EQ(t.resize(Span<const int64_t>(smaller, 2)), Error::Ok);
  EXPECT_EQ(t.numel(), 16);
  const int64_t huge[] = {400, 800};
  EXPECT_NE(t.resize(Span<const int64_t>(huge, 2)), Error::Ok);
  EXPECT_EQ(t.numel(), 16);  // unchanged after a failed resize
  const int64_t wrong_rank[] = {4};
  EXPECT_NE(t.resize(Span<const int64_t>(wrong_rank, 1)), Error::Ok);

  testing::OwnedTensor fixed(ScalarType::Float, {4, 8});
  EXPECT_EQ(fixed.tensor().resize(Span<const int64_t>(smaller, 2)), Error::NotSupported);
}

TEST(Result, CarriesValueOrError) {
  Result<int> good(42);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 42);
  Result<int> bad(Error::NotFound);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), Error::NotFound);
  Result<int> not_ok_from_ok(Error::Ok);  // an Ok error is a bug: becomes Internal
  EXPECT_EQ(not_ok_from_ok.error(), Error::Internal);
}

TEST(EValue, BoxedIntListReadsCurrentValues) {
  EValue a(int64_t{3});
  EValue b(int64_t{4});
  EValue* items[] = {&a, &b};
  int64_t scratch[2];
  EValue list(BoxedIntList(items, scratch, 2));
  ASSERT_TRUE(list.is_int_list());
  EXPECT_EQ(list.to_int_list()[1], 4);
  b = EValue(int64_t{9});  // a symbolic size computed at run time
  EXPECT_EQ(list.to_int_list()[1], 9);
}

}  // namespace
}  // namespace ember
