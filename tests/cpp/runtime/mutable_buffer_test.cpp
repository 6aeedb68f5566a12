// Mutable buffers through Program and Method: the kv_cache golden
// (tests/compat) holds a buffer with initial data that each execute updates
// in place and reads whole. Its state carries from one execute to the next
// (allocation_test.cpp checks that this allocates nothing), and
// reset_mutable_buffers brings back the initial data.
#include <gtest/gtest.h>

#include <vector>

#include "method_harness.h"

namespace ember {
namespace {

std::vector<float> output_of(const Method& method) {
  const Tensor& t = method.output(0).to_tensor();
  const float* p = t.const_data_ptr<float>();
  return std::vector<float>(p, p + t.numel());
}

TEST(MutableBuffers, StatePersistsAndResets) {
  testing::Golden golden;
  ASSERT_EQ(golden.load("et12_v0_ember_kv_cache"), "");
  std::string error;
  std::unique_ptr<testing::OwnedMethod> m = testing::OwnedMethod::load(*golden.program, {}, &error);
  ASSERT_TRUE(m != nullptr) << error;
  Method& method = *m->method;
  ASSERT_EQ(method.num_mutable_buffers(), 1u);
  std::vector<std::unique_ptr<testing::NpyTensor>> inputs;
  for (size_t i = 0; i < golden.inputs.size(); ++i) {
    inputs.push_back(std::make_unique<testing::NpyTensor>(golden.inputs[i]));
    ASSERT_EQ(method.set_input(i, inputs.back()->tensor()), Error::Ok) << method.last_error();
  }
  ASSERT_EQ(method.execute(), Error::Ok) << method.last_error();
  const std::vector<float> first = output_of(method);
  const float* want = reinterpret_cast<const float*>(golden.expected[0].data.data());
  for (size_t i = 0; i < first.size(); ++i) EXPECT_NEAR(first[i], want[i], 1e-5) << i;

  // The same rows written again with the same values: nothing changes.
  // (Inputs are set again: planned input memory is reused once read.)
  for (size_t i = 0; i < inputs.size(); ++i) {
    ASSERT_EQ(method.set_input(i, inputs[i]->tensor()), Error::Ok);
  }
  ASSERT_EQ(method.execute(), Error::Ok) << method.last_error();
  EXPECT_EQ(output_of(method), first);

  // Other values into the same rows: the state moves.
  tools::NpyArray other = golden.inputs[0];
  float* values = reinterpret_cast<float*>(other.data.data());
  for (size_t i = 0; i < other.data.size() / sizeof(float); ++i) values[i] += 1.0f;
  testing::NpyTensor shifted(other);
  ASSERT_EQ(method.set_input(0, shifted.tensor()), Error::Ok);
  ASSERT_EQ(method.set_input(1, inputs[1]->tensor()), Error::Ok);
  ASSERT_EQ(method.execute(), Error::Ok);
  const std::vector<float> moved = output_of(method);
  EXPECT_NE(moved, first);

  // Reset, then the original input again: the first result comes back.
  ASSERT_EQ(method.reset_mutable_buffers(), Error::Ok);
  ASSERT_EQ(method.set_input(0, inputs[0]->tensor()), Error::Ok);
  ASSERT_EQ(method.set_input(1, inputs[1]->tensor()), Error::Ok);
  ASSERT_EQ(method.execute(), Error::Ok);
  EXPECT_EQ(output_of(method), first);
}

}  // namespace
}  // namespace ember
