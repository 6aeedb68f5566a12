// The quantized kernels on hand-checked cases: PyTorch's rounding (half to
// even, before the clamp), the per-token parameters XNNPACK's formula gives,
// and clear failures for bad arguments. Random inputs against PyTorch itself
// are in tests/python/test_quantized_ops.py.
#include <gtest/gtest.h>

#include "runtime/core/scalar_type.h"
#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

using testing::KernelCall;
using testing::make;
using testing::OwnedTensor;
using testing::Values;
using testing::values_of;

constexpr int64_t kChar = static_cast<int64_t>(ScalarType::Char);
constexpr int64_t kFloat = static_cast<int64_t>(ScalarType::Float);

// torch.ops.quantized_decomposed.quantize_per_tensor(torch.tensor([0.25, 0.75, -0.25, -0.75,
// 1.25, 100., -100.]), 0.5, 1, -128, 127, torch.int8) == [1, 3, 1, -1, 3, 127, -128]: 0.5 -> 0,
// 1.5 -> 2, -0.5 -> -0, -1.5 -> -2, 2.5 -> 2 (ties to even), then + zero point and the clamp.
TEST(QuantizedKernels, QuantizePerTensorRoundsHalfToEvenThenClamps) {
  OwnedTensor x = make(ScalarType::Float, {7}, {0.25, 0.75, -0.25, -0.75, 1.25, 100.0, -100.0});
  OwnedTensor q(ScalarType::Char, {7});
  ASSERT_FALSE(KernelCall().tensor(x.tensor()).real(0.5).integer(1).integer(-128).integer(127)
                   .integer(kChar).tensor(q.tensor())
                   .run("quantized_decomposed::quantize_per_tensor.out").failed());
  EXPECT_EQ(values_of(q), (Values{1, 3, 1, -1, 3, 127, -128}));

  OwnedTensor back(ScalarType::Float, {7});
  ASSERT_FALSE(KernelCall().tensor(q.tensor()).real(0.5).integer(1).integer(-128).integer(127)
                   .integer(kChar).none().tensor(back.tensor())
                   .run("quantized_decomposed::dequantize_per_tensor.out").failed());
  EXPECT_EQ(values_of(back), (Values{0.0, 1.0, 0.0, -1.0, 1.0, 63.0, -64.5}));
}

// A row [0, 2.55]: scale 2.55 / 255 = 0.01, zero point -128 (the minimum 0
// maps to qmin); torch gives (tensor([[0.0100]], dtype=float64), tensor([[-128]])).
TEST(QuantizedKernels, PerTokenParametersIncludeZero) {
  OwnedTensor x = make(ScalarType::Float, {2, 2}, {0.0, 2.55, -1.0, 1.0});
  OwnedTensor scales(ScalarType::Double, {2, 1});
  OwnedTensor zps(ScalarType::Long, {2, 1});
  ASSERT_FALSE(KernelCall().tensor(x.tensor()).integer(kChar).tensor(scales.tensor())
                   .tensor(zps.tensor())
                   .run("quantized_decomposed::choose_qparams_per_token_asymmetric.out")
                   .failed());
  const Values s = values_of(scales);
  EXPECT_NEAR(s[0], 0.01, 1e-8);
  EXPECT_NEAR(s[1], 2.0 / 255.0, 1e-8);
  EXPECT_EQ(values_of(zps), (Values{-128, 0}));
}

TEST(QuantizedKernels, UnpackInt4LowNibbleFirst) {
  // 0x0F -> (7, -8); 0x80 -> (-8, 0); 0x9A -> (2, 1)
  OwnedTensor packed = make(ScalarType::Byte, {1, 3}, {0x0F, 0x80, 0x9A});
  OwnedTensor out(ScalarType::Char, {1, 6});
  ASSERT_FALSE(KernelCall().tensor(packed.tensor()).tensor(out.tensor())
                   .run("ember_quant::unpack_int4.out").failed());
  EXPECT_EQ(values_of(out), (Values{7, -8, -8, 0, 2, 1}));
}

TEST(QuantizedKernels, GroupDequantizeScalesEachGroup) {
  OwnedTensor w = make(ScalarType::Char, {1, 4}, {1, -2, 3, -4});
  OwnedTensor scales = make(ScalarType::Float, {1, 2}, {0.5, 2.0});
  OwnedTensor out(ScalarType::Float, {1, 4});
  ASSERT_FALSE(KernelCall().tensor(w.tensor()).tensor(scales.tensor()).none().integer(-8)
                   .integer(7).integer(kChar).integer(2).integer(kFloat).tensor(out.tensor())
                   .run("quantized_decomposed::dequantize_per_channel_group.out").failed());
  EXPECT_EQ(values_of(out), (Values{0.5, -1.0, 6.0, -8.0}));
}

TEST(QuantizedKernels, BadArgumentsFailWithAReason) {
  OwnedTensor x = make(ScalarType::Float, {2}, {0.0, 1.0});
  OwnedTensor q(ScalarType::Char, {2});
  // quant range wider than int8
  EXPECT_TRUE(KernelCall().tensor(x.tensor()).real(0.5).integer(0).integer(-128).integer(300)
                  .integer(kChar).tensor(q.tensor())
                  .run("quantized_decomposed::quantize_per_tensor.out").failed());
  // dtype argument that is not the out's dtype
  EXPECT_TRUE(KernelCall().tensor(x.tensor()).real(0.5).integer(0).integer(0).integer(255)
                  .integer(static_cast<int64_t>(ScalarType::Byte)).tensor(q.tensor())
                  .run("quantized_decomposed::quantize_per_tensor.out").failed());
  // a group size that does not divide the row
  OwnedTensor w = make(ScalarType::Char, {1, 6}, {1, 2, 3, 4, 5, 6});
  OwnedTensor scales = make(ScalarType::Float, {1, 2}, {1.0, 1.0});
  OwnedTensor out(ScalarType::Float, {1, 6});
  EXPECT_TRUE(KernelCall().tensor(w.tensor()).tensor(scales.tensor()).none().integer(-8)
                  .integer(7).integer(kChar).integer(4).integer(kFloat).tensor(out.tensor())
                  .run("quantized_decomposed::dequantize_per_channel_group.out").failed());
}

}  // namespace
}  // namespace ember
