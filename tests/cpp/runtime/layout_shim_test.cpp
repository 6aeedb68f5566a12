#include "runtime/executor/layout_shim.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

// A kernel that indexes memory row-major (as most NN kernels do): out[i] =
// in[i] * 10 + bias[i % 3], the bias read per channel of a [N, 3, H, W] input
// only when memory is row-major. Fails on any other dim order, so a shim that
// did not hand it row-major twins would show.
void per_channel_out(KernelContext& ctx, const Tensor& in, const Tensor& bias, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, in.is_contiguous_dim_order() && out.is_contiguous_dim_order(),
                     "per_channel: row-major only");
  const int64_t plane = in.size(2) * in.size(3);
  for (int64_t i = 0; i < in.numel(); ++i) {
    out.mutable_data_ptr<float>()[i] =
        in.const_data_ptr<float>()[i] * 10 + bias.const_data_ptr<float>()[i / plane % 3];
  }
}
EMBER_REGISTER_KERNEL("test::per_channel.out", per_channel_out, kFloatTypes);

float logical(const Tensor& t, int n, int c, int h, int w) {
  return t.const_data_ptr<float>()[n * t.stride(0) + c * t.stride(1) + h * t.stride(2) +
                                   w * t.stride(3)];
}

TEST(LayoutShims, GiveRowMajorKernelsTwinsOfChannelsLastTensors) {
  const std::vector<uint8_t> channels_last = {0, 2, 3, 1};
  testing::OwnedTensor in(ScalarType::Float, {2, 3, 2, 4}, TensorShapeDynamism::Static,
                          channels_last);
  testing::OwnedTensor out(ScalarType::Float, {2, 3, 2, 4}, TensorShapeDynamism::Static,
                           channels_last);
  testing::OwnedTensor bias(ScalarType::Float, {3});
  for (int i = 0; i < 48; ++i) in.data<float>()[i] = static_cast<float>(i);
  for (int c = 0; c < 3; ++c) bias.data<float>()[c] = 0.5f * static_cast<float>(c + 1);

  EValue in_value(&in.tensor()), bias_value(&bias.tensor()), out_value(&out.tensor());
  EValue* args[] = {&in_value, &bias_value, &out_value, &out_value};  // params, then the return
  const KernelEntry* kernel = find_kernel("test::per_channel.out");
  ASSERT_NE(kernel, nullptr);
  std::vector<uint8_t> arena(64 * 1024);
  MemoryAllocator alloc(arena.data(), arena.size());
  Span<LayoutShim> shims;
  ASSERT_EQ(make_layout_shims(*kernel, Span<EValue*>(args, 4), &alloc,
                              [](const EValue*) { return false; }, &shims),
            Error::Ok);
  EXPECT_EQ(shims.size(), 2u);  // in and out; the return is not the kernel's to see
  EXPECT_NE(args[0], &in_value);
  EXPECT_EQ(args[1], &bias_value);  // already row-major
  EXPECT_EQ(args[3], &out_value);

  copy_into_twins(shims);
  KernelContext ctx;
  kernel->fn(ctx, Span<EValue*>(args, 4));
  ASSERT_FALSE(ctx.failed()) << ctx.message();
  ASSERT_EQ(copy_out_of_twins(shims), Error::Ok);
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int h = 0; h < 2; ++h)
        for (int w = 0; w < 4; ++w) {
          const float want = logical(in.tensor(), n, c, h, w) * 10 + 0.5f * (c + 1);
          ASSERT_EQ(logical(out.tensor(), n, c, h, w), want) << n << c << h << w;
        }
}

TEST(LayoutShims, ConstantsAreCopiedOnceAndStridedKernelsNeedNone) {
  testing::OwnedTensor weight(ScalarType::Float, {1, 2, 1, 2}, TensorShapeDynamism::Static,
                              {0, 2, 3, 1});
  testing::OwnedTensor out(ScalarType::Float, {1, 2, 1, 2});
  testing::OwnedTensor bias(ScalarType::Float, {3});
  for (int i = 0; i < 4; ++i) weight.data<float>()[i] = static_cast<float>(i + 1);
  EValue w(&weight.tensor()), b(&bias.tensor()), o(&out.tensor());
  EValue* args[] = {&w, &b, &o};
  std::vector<uint8_t> arena(16 * 1024);
  MemoryAllocator alloc(arena.data(), arena.size());
  Span<LayoutShim> shims;
  ASSERT_EQ(make_layout_shims(*find_kernel("test::per_channel.out"), Span<EValue*>(args, 3),
                              &alloc, [&](const EValue* v) { return v == &w; }, &shims),
            Error::Ok);
  ASSERT_EQ(shims.size(), 1u);
  EXPECT_TRUE(shims[0].fixed);
  // Converted at init: the twin holds the weight row-major already.
  EXPECT_EQ(shims[0].twin.const_data_ptr<float>()[1], logical(weight.tensor(), 0, 0, 0, 1));

  EValue* strided_args[] = {&w, &o};
  ASSERT_EQ(make_layout_shims(*find_kernel("aten::clone.out"), Span<EValue*>(strided_args, 2),
                              &alloc, [](const EValue*) { return false; }, &shims),
            Error::Ok);
  EXPECT_EQ(shims.size(), 0u);
}

}  // namespace
}  // namespace ember
