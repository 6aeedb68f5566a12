// The Vulkan backend on blobs built here (the CPU backend's format): a
// delegate's result equals the CPU backend's on the same blob, execute
// allocates nothing outside the driver, and malformed blobs fail at init
// with an error, never a crash. Skipped where no Vulkan device is reachable.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#include "backends/cpu/schema/cpu_delegate_generated.h"
#include "backends/vulkan/runtime/plan.h"
#include "backends/vulkan/runtime/vk_context.h"
#include "backends/vulkan/runtime/vulkan_backend.h"
#include "tensor_factory.h"

#include "counting_allocator.h"

namespace ember {
namespace {

namespace fb = cpu_fb;

// A blob in 64-byte aligned memory, as a segment of a .pte is.
class Blob {
 public:
  explicit Blob(const flatbuffers::FlatBufferBuilder& fbb)
      : storage_(fbb.GetSize() + 64), size_(fbb.GetSize()) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(storage_.data());
    data_ = storage_.data() + ((64 - at % 64) % 64);
    std::memcpy(data_, fbb.GetBufferPointer(), size_);
  }
  FreeableBuffer buffer() const { return FreeableBuffer(data_, size_, nullptr); }

 private:
  std::vector<uint8_t> storage_;
  uint8_t* data_;
  size_t size_;
};

struct Edit {
  uint32_t linear_input = 0;      // value id Linear reads (0: x)
  int32_t weight_rows = 8;        // the weight's first size
  int64_t permute_stride = 1;     // the Permute's innermost stride
  fb::UnaryOp activation = fb::UnaryOp::Silu;
  uint32_t num_inputs = 1;        // the delegate call's inputs
};

// x [4, 8] -> Linear(W [8, 6], b [6], silu) -> h [4, 6] -> tanh -> t [4, 6]
// -> Permute(strides [1, 6]) -> y [6, 4]: the output.
Blob make_blob(const Edit& e = Edit()) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<float> w(static_cast<size_t>(e.weight_rows) * 6), b(6);
  for (size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.37f * static_cast<float>(i)) * 0.5f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * static_cast<float>(i) - 0.2f;
  auto bytes = [&](const std::vector<float>& v) {
    std::vector<uint8_t> out(v.size() * 4);
    std::memcpy(out.data(), v.data(), out.size());
    return out;
  };
  const std::vector<uint8_t> wb = bytes(w), bb = bytes(b);
  std::vector<flatbuffers::Offset<fb::Constant>> constants = {fb::CreateConstantDirect(fbb, &wb),
                                                              fb::CreateConstantDirect(fbb, &bb)};
  auto value = [&](std::vector<int32_t> sizes, fb::ValueKind kind, uint32_t index,
                   uint64_t offset) {
    return fb::CreateValueDirect(fbb, &sizes, fb::Layout::Plain, kind, index, offset);
  };
  std::vector<flatbuffers::Offset<fb::Value>> values = {
      value({4, 8}, fb::ValueKind::Input, 0, 0),              // 0 x
      value({e.weight_rows, 6}, fb::ValueKind::Constant, 0, 0),  // 1 W
      value({6}, fb::ValueKind::Constant, 1, 0),              // 2 b
      value({4, 6}, fb::ValueKind::Scratch, 0, 0),            // 3 h
      value({4, 6}, fb::ValueKind::Scratch, 0, 128),          // 4 t
      value({6, 4}, fb::ValueKind::Output, 0, 0),             // 5 y
  };
  std::vector<flatbuffers::Offset<fb::Op>> ops;
  {
    const auto linear = fb::CreateLinear(fbb, 1, 2);
    const auto activation = fb::CreateActivation(fbb, e.activation);
    std::vector<uint32_t> in = {e.linear_input}, out = {3};
    ops.push_back(fb::CreateOpDirect(fbb, fb::OpParams::Linear, linear.Union(), &in, &out, 0, 1,
                                     activation));
  }
  {
    const auto unary = fb::CreateUnary(fbb, fb::UnaryOp::Tanh);
    std::vector<uint32_t> in = {3}, out = {4};
    ops.push_back(fb::CreateOpDirect(fbb, fb::OpParams::Unary, unary.Union(), &in, &out));
  }
  {
    std::vector<int64_t> strides = {e.permute_stride, 6};
    const auto permute = fb::CreatePermuteDirect(fbb, nullptr, &strides, 0);
    std::vector<uint32_t> in = {4}, out = {5};
    ops.push_back(fb::CreateOpDirect(fbb, fb::OpParams::Permute, permute.Union(), &in, &out));
  }
  fbb.Finish(fb::CreateGraphDirect(fbb, &values, &constants, &ops, e.num_inputs, 1, 256),
             fb::GraphIdentifier());
  return Blob(fbb);
}

bool vulkan_available() { return vulkan::vulkan_device_report().available; }

// Runs `backend` on `blob` with input x; the output, or empty on failure.
std::vector<float> run(const BackendInterface& backend, const Blob& blob, const float* x,
                       long* allocations = nullptr) {
  std::vector<uint8_t> method_memory(1 << 16), temp_memory(1 << 16);
  MemoryAllocator method_allocator(method_memory.data(), method_memory.size());
  BackendInitContext init(&method_allocator, nullptr, nullptr, "forward");
  FreeableBuffer processed = blob.buffer();
  Result<DelegateHandle*> handle = backend.init(init, &processed, {});
  if (!handle.ok()) return {};
  testing::OwnedTensor in(ScalarType::Float, {4, 8}), out(ScalarType::Float, {6, 4});
  std::memcpy(in.data<float>(), x, 32 * sizeof(float));
  EValue in_value(&in.tensor()), out_value(&out.tensor());
  EValue* args[] = {&in_value, &out_value};
  MemoryAllocator temp(temp_memory.data(), temp_memory.size());
  BackendExecutionContext exec(&temp, nullptr, nullptr, "forward");
  Error err = backend.execute(exec, handle.get(), Span<EValue*>(args, 2));  // warm up
  // This thread's allocations outside calls into the driver (the backend
  // reports them): lavapipe allocates in vkQueueSubmit and on its own
  // threads; Ember's execute must not.
  vulkan::set_driver_call_observer([](bool entering) { testing::t_uncounted = entering; });
  const long before = testing::t_allocations;
  if (err == Error::Ok) err = backend.execute(exec, handle.get(), Span<EValue*>(args, 2));
  if (allocations != nullptr) *allocations = testing::t_allocations - before;
  vulkan::set_driver_call_observer(nullptr);
  backend.destroy(handle.get());
  return err == Error::Ok ? out.values<float>() : std::vector<float>();
}

std::vector<float> input() {
  std::vector<float> x(32);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.9f * static_cast<float>(i)) * 2.0f;
  return x;
}

TEST(VulkanBackend, MatchesTheCpuBackendOnTheSameBlob) {
  if (!vulkan_available()) GTEST_SKIP() << vulkan::vulkan_device_report().reason;
  const Blob blob = make_blob();
  const std::vector<float> x = input();
  const std::vector<float> expected = run(cpu::CpuBackend(), blob, x.data());
  const std::vector<float> got = run(vulkan::VulkanBackend(), blob, x.data());
  ASSERT_EQ(expected.size(), 24u);
  ASSERT_EQ(got.size(), 24u);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-5) << i;
}

TEST(VulkanBackend, ExecuteAllocatesNothingInEmber) {
  if (!vulkan_available()) GTEST_SKIP() << vulkan::vulkan_device_report().reason;
#if !defined(EMBER_COUNT_ALLOCATIONS)
  GTEST_SKIP() << "a sanitizer owns malloc";
#else
  const Blob blob = make_blob();
  const std::vector<float> x = input();
  long allocations = -1;
  ASSERT_EQ(run(vulkan::VulkanBackend(), blob, x.data(), &allocations).size(), 24u);
  EXPECT_EQ(allocations, 0) << "execute allocated " << allocations << " times";
#endif
}

TEST(VulkanBackend, RefusesMalformedBlobsAtInit) {
  if (!vulkan_available()) GTEST_SKIP() << vulkan::vulkan_device_report().reason;
  const std::vector<float> x = input();
  Edit bad_input;
  bad_input.linear_input = 99;  // no such value
  Edit bad_weight;
  bad_weight.weight_rows = 7;  // does not match x's 8 columns
  Edit bad_stride;
  bad_stride.permute_stride = 5;  // reads past the end of t
  Edit bad_activation;
  bad_activation.activation = static_cast<fb::UnaryOp>(77);
  Edit many_inputs;
  many_inputs.num_inputs = 0x80000001u;  // more arguments than values (a fuzzed blob hung init)
  for (const Edit& e : {bad_input, bad_weight, bad_stride, bad_activation, many_inputs}) {
    EXPECT_TRUE(run(vulkan::VulkanBackend(), make_blob(e), x.data()).empty());
  }
  // Not a graph at all.
  std::vector<uint8_t> garbage(256, 0x5a);
  std::vector<uint8_t> method_memory(4096);
  MemoryAllocator method_allocator(method_memory.data(), method_memory.size());
  BackendInitContext init(&method_allocator, nullptr, nullptr, "forward");
  FreeableBuffer processed(garbage.data(), garbage.size(), nullptr);
  EXPECT_EQ(vulkan::VulkanBackend().init(init, &processed, {}).error(),
            Error::DelegateInvalidCompatibility);
}

// Barriers only where a dispatch depends on one since the last barrier
// (a pure function of the plan: tested without a device).
TEST(VulkanPlan, BarriersOnlyBeforeDependentDispatches) {
  using vulkan::BufferRef;
  using vulkan::DispatchInfo;
  using vulkan::Region;
  auto arena = [](uint64_t offset) { return BufferRef{Region::Arena, offset, 64}; };
  auto dispatch = [](std::initializer_list<BufferRef> bindings) {
    DispatchInfo d{};
    for (const BufferRef& b : bindings) d.bindings[d.num_bindings++] = b;
    d.writes = 1u << (d.num_bindings - 1);  // the last one
    return d;
  };
  const BufferRef weights{Region::Constants, 0, 1 << 20};
  const DispatchInfo plan[] = {
      dispatch({arena(0), weights, arena(64)}),    // 0: in -> a
      dispatch({arena(0), weights, arena(128)}),   // 1: in -> b, independent of 0
      dispatch({arena(64), arena(128), arena(192)}),  // 2: reads a and b
      dispatch({arena(256), arena(64)}),           // 3: overwrites a, which 2 read
      dispatch({weights, arena(320)}),             // 4: independent
      dispatch({arena(352), arena(384)}),          // 5: reads the end of 4's output
  };
  bool barrier[6];
  ASSERT_TRUE(vulkan::plan_barriers(plan, 6, barrier));
  const bool expected[6] = {false, false, true, true, false, true};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(barrier[i], expected[i]) << "dispatch " << i;
}

}  // namespace
}  // namespace ember
