#include <gtest/gtest.h>

#include <string>

#include "runtime/kernel/kernel_registry.h"
#include "tests/cpp/tensor_factory.h"

namespace ember {
namespace {

void scale_out(KernelContext& ctx, const Tensor& in, double factor, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, in.numel() == out.numel(), "numel mismatch");
  for (int64_t i = 0; i < in.numel(); ++i) {
    out.mutable_data_ptr<float>()[i] = static_cast<float>(in.const_data_ptr<float>()[i] * factor);
  }
}
EMBER_REGISTER_KERNEL("test::scale.out", scale_out, dtype_bit(ScalarType::Float));

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

// Runs the load-time dtype check of `name` on `args`; returns "" when it
// passes, otherwise why it failed.
std::string dtype_check(const char* name, std::vector<EValue*> args) {
  const KernelEntry* entry = find_kernel(name);
  if (entry == nullptr) return std::string("not registered: ") + name;
  char why[256] = {};
  const Span<EValue* const> span(args.data(), args.size());
  EXPECT_TRUE(entry->check_args(span, why, sizeof(why))) << why;
  return check_kernel_dtypes(*entry, span, why, sizeof(why)) ? "" : why;
}

TEST(KernelRegistry, RefusesASelfDtypeTheKernelDoesNotDeclare) {
  testing::OwnedTensor f(ScalarType::Float, {2}), i(ScalarType::Int, {2});
  EValue fv(&f.tensor()), iv(&i.tensor()), d(2.0);
  EXPECT_EQ(dtype_check("test::scale.out", {&fv, &d, &fv}), "");
  EXPECT_EQ(dtype_check("test::scale.out", {&iv, &d, &fv}),
            "test::scale.out has no kernel for dtype Int (argument 0); it supports Float");
}

TEST(KernelRegistry, RefusesTensorsOfDtypesNoKernelIsBuiltFor) {
  testing::OwnedTensor i(ScalarType::Int, {2}), u16(ScalarType::UInt16, {2});
  EValue iv(&i.tensor()), u16v(&u16.tensor()), no(false), none;
  // _to_copy reads any dtype, but this library has no UInt16 element type.
  const std::string why =
      dtype_check("aten::_to_copy.out", {&iv, &no, &none, &u16v});
  EXPECT_NE(why.find("aten::_to_copy.out has no kernel for dtype UInt16 (argument 3)"),
            std::string::npos) << why;
}

TEST(KernelRegistry, PortableDeclarationsFollowPyTorch) {
  testing::OwnedTensor b(ScalarType::Bool, {2}), f(ScalarType::Float, {2}),
      l(ScalarType::Long, {2});
  EValue bv(&b.tensor()), fv(&f.tensor()), lv(&l.tensor()), one(int64_t{1});
  // torch.neg has no Bool kernel; torch.add does.
  EXPECT_NE(dtype_check("aten::neg.out", {&bv, &bv}).find("dtype Bool"), std::string::npos);
  EXPECT_EQ(dtype_check("aten::add.out", {&bv, &bv, &one, &bv}), "");
  // Softmax is for floating types only.
  EValue dim(int64_t{0}), no(false);
  EXPECT_EQ(dtype_check("aten::_softmax.out", {&fv, &dim, &no, &fv}), "");
  EXPECT_NE(dtype_check("aten::_softmax.out", {&lv, &dim, &no, &lv}).find("dtype Long"),
            std::string::npos);
}

// Two kernels for the ranking tests: which one ran shows in the output.
void fill_one_out(KernelContext& ctx, const Tensor& in, Tensor& out) {
  out.mutable_data_ptr<float>()[0] = 1.0f;
}
void fill_two_out(KernelContext& ctx, const Tensor& in, Tensor& out) {
  out.mutable_data_ptr<float>()[0] = 2.0f;
}

// The registry keeps a pointer to each entry, so they live in a static pool.
const KernelEntry& ranked_entry(const char* name, bool two, KernelRank rank) {
  static KernelEntry pool[32];
  static size_t used = 0;
  EXPECT_LT(used, 32u);
  KernelEntry& entry = pool[used++ % 32];
  entry = two ? make_kernel_entry<decltype(&fill_two_out), &fill_two_out>(
                    name, kAllTypes, false, kAllTypes, rank)
              : make_kernel_entry<decltype(&fill_one_out), &fill_one_out>(
                    name, kAllTypes, false, kAllTypes, rank);
  return entry;
}

// Which of the two kernels `name` runs.
float run_ranked(const char* name) {
  testing::OwnedTensor in(ScalarType::Float, {1}), out(ScalarType::Float, {1});
  out.data<float>()[0] = 0.0f;
  testing::KernelCall().tensor(in.tensor()).tensor(out.tensor()).run(name);
  return out.data<float>()[0];
}

TEST(KernelRegistry, OptimizedRegisteredAfterPortableReplacesIt) {
  ASSERT_EQ(register_kernel(ranked_entry("test::ranked_a.out", false, KernelRank::Portable)),
            Error::Ok);
  EXPECT_EQ(run_ranked("test::ranked_a.out"), 1.0f);
  ASSERT_EQ(register_kernel(ranked_entry("test::ranked_a.out", true, KernelRank::Optimized)),
            Error::Ok);
  EXPECT_EQ(run_ranked("test::ranked_a.out"), 2.0f);
  EXPECT_EQ(find_kernel("test::ranked_a.out")->rank, KernelRank::Optimized);
}

TEST(KernelRegistry, PortableRegisteredAfterOptimizedDoesNotReplaceIt) {
  const size_t before = num_registered_kernels();
  ASSERT_EQ(register_kernel(ranked_entry("test::ranked_b.out", true, KernelRank::Optimized)),
            Error::Ok);
  ASSERT_EQ(register_kernel(ranked_entry("test::ranked_b.out", false, KernelRank::Portable)),
            Error::Ok);
  EXPECT_EQ(run_ranked("test::ranked_b.out"), 2.0f);
  EXPECT_EQ(find_kernel("test::ranked_b.out")->rank, KernelRank::Optimized);
  EXPECT_EQ(num_registered_kernels(), before + 1);  // one entry per name
}

TEST(KernelRegistry, EqualRankLaterRegistrationWins) {
  for (KernelRank rank : {KernelRank::Portable, KernelRank::Optimized}) {
    const char* name =
        rank == KernelRank::Portable ? "test::ranked_c.out" : "test::ranked_d.out";
    ASSERT_EQ(register_kernel(ranked_entry(name, false, rank)), Error::Ok);
    ASSERT_EQ(register_kernel(ranked_entry(name, true, rank)), Error::Ok);
    EXPECT_EQ(run_ranked(name), 2.0f);
    ASSERT_EQ(register_kernel(ranked_entry(name, false, rank)), Error::Ok);
    EXPECT_EQ(run_ranked(name), 1.0f);
  }
}

TEST(KernelRegistry, PortableKernelsRankPortable) {
  const KernelEntry* add = find_kernel("aten::add.out");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->rank, KernelRank::Portable);
}

}  // namespace
}  // namespace ember
