#include <gtest/gtest.h>

#include "runtime/kernel/kernel_registry.h"

namespace ember {
namespace {

void scale_out(KernelContext& ctx, const Tensor& in, double factor, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, in.numel() == out.numel(), "numel mismatch");
  for (int64_t i = 0; i < in.numel(); ++i) {
    out.mutable_data_ptr<float>()[i] = static_cast<float>(in.const_data_ptr<float>()[i] * factor);
  }
}
EMBER_REGISTER_KERNEL("test::scale.out", scale_out);

TEST(KernelRegistry, FindsAndUnboxes) {
  const KernelEntry* entry = find_kernel("test::scale.out");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(find_kernel("test::nothing.out"), nullptr);
}

TEST(KernelRegistry, ChecksArgumentKinds) {
  const KernelEntry* entry = find_kernel("test::scale.out");
  ASSERT_NE(entry, nullptr);
  EValue i(int64_t{1});
  EValue d(2.0);
  EValue* args[] = {&i, &d, &i};
  char why[160];
  EXPECT_FALSE(entry->check_args(Span<EValue* const>(args, 3), why, sizeof(why)));
  EXPECT_NE(std::string(why).find("argument 0 should be Tensor"), std::string::npos) << why;
  EXPECT_FALSE(entry->check_args(Span<EValue* const>(args, 2), why, sizeof(why)));
}

}  // namespace
}  // namespace ember
