// The runtime side of a real delegate: init and execute get their contexts
// (method allocator, temp memory, thread pool, method name), the backend keeps
// memory it owns and reports it, malformed blobs and missing backends fail at
// load with a message that names them, and Module supplies what init asked for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "extension/module/module.h"
#include "extension/threadpool/worker_pool.h"
#include "runtime/core/log.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "tensor_factory.h"
#include "tests/backend/test_backend.h"
#include "tests/cpp/runtime/test_program.h"

namespace ember {
namespace {

using testing::BlobWriter;

constexpr uint32_t kNumel = 64 * 128;

// out = relu(in * 2 + c) with a constant c (owned by the backend) and the
// product in a temp slot (the method's temp memory). Slots: in 0, c 1, temp 2, out 3.
std::vector<uint8_t> scale_shift_relu_blob() {
  BlobWriter w;
  w.u32s({1, 1, 1, 1, 3}).u32s({kNumel, kNumel, kNumel, kNumel});
  for (uint32_t i = 0; i < kNumel; ++i) w.f32(static_cast<float>(i % 7) - 3.0f);
  return w.step(2, 0, BlobWriter::kScalar, 2.0f, 2)  // temp = in * 2
      .step(1, 2, 1, 0.0f, 3)                        // out = temp + c
      .step(3, 3, 0, 0.0f, 3)                        // out = relu(out)
      .bytes();
}

float expected(float in, uint32_t i) {
  const float v = in * 2.0f + (static_cast<float>(i % 7) - 3.0f);
  return v > 0.0f ? v : 0.0f;
}

testing::ProgramSpec delegate_spec(std::vector<uint8_t> blob) {
  testing::ProgramSpec spec;
  spec.use_delegate = true;
  spec.delegate_blob = std::move(blob);
  spec.sizes = {64, 128};
  spec.output_offset = kNumel * 4;
  spec.arena_size = 2 * kNumel * 4;
  return spec;
}

// The memory a method needs, with temp memory of `temp_bytes`.
struct Memory {
  explicit Memory(size_t temp_bytes)
      : method_memory(256 * 1024), arena(2 * kNumel * 4), temp(temp_bytes + 1) {
    manager.method_allocator = &method_allocator;
    manager.planned_buffers = Span<Span<uint8_t>>(buffers, 1);
    manager.temp_allocator = &temp_allocator;
  }
  std::vector<uint8_t> method_memory, arena, temp;
  MemoryAllocator method_allocator{method_memory.data(), method_memory.size()};
  MemoryAllocator temp_allocator{temp.data(), temp.size() - 1};
  Span<uint8_t> buffers[1] = {Span<uint8_t>(arena.data(), arena.size())};
  MemoryManager manager;
};

TEST(Delegate, RunsOnTheThreadPoolWithTempAndOwnedMemory) {
  testing::TestBackend& backend = testing::register_test_backend();
  const std::vector<uint8_t> bytes = testing::build_program(delegate_spec(scale_shift_relu_blob()));
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  WorkerPool pool(2);
  MethodConfig config;
  config.thread_pool = &pool;
  Memory memory(64 * 1024);
  Result<Method> method = program->load_method("forward", &memory.manager, config);
  ASSERT_TRUE(method.ok()) << last_error_message();
  EXPECT_GE(method->required_temp_bytes(), kNumel * 4u);
  EXPECT_EQ(method->delegate_owned_bytes(), kNumel * 4u);

  testing::OwnedTensor input(ScalarType::Float, {64, 128});
  std::vector<float> values(kNumel);
  for (uint32_t i = 0; i < kNumel; ++i) values[i] = std::sin(0.01f * static_cast<float>(i));
  std::copy(values.begin(), values.end(), input.data<float>());
  ASSERT_EQ(method->set_input(0, input.tensor()), Error::Ok);
  backend.last_pool = nullptr;
  for (int run = 0; run < 3; ++run) {
    ASSERT_EQ(method->execute(), Error::Ok) << method->last_error();
  }
  EXPECT_EQ(backend.last_pool.load(), &pool) << "execute did not get the method's pool";
  const float* out = method->output(0).to_tensor().const_data_ptr<float>();
  for (uint32_t i = 0; i < kNumel; ++i) ASSERT_EQ(out[i], expected(values[i], i)) << i;
}

TEST(Delegate, ExecuteWithoutEnoughTempMemoryFailsWithAMessage) {
  testing::register_test_backend();
  const std::vector<uint8_t> bytes = testing::build_program(delegate_spec(scale_shift_relu_blob()));
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  Memory memory(16);
  Result<Method> method = program->load_method("forward", &memory.manager);
  ASSERT_TRUE(method.ok());
  testing::OwnedTensor input(ScalarType::Float, {64, 128});
  ASSERT_EQ(method->set_input(0, input.tensor()), Error::Ok);
  EXPECT_EQ(method->execute(), Error::InvalidState);
  EXPECT_NE(std::string(method->last_error()).find("temp memory"), std::string::npos)
      << method->last_error();
}

TEST(Delegate, AMissingBackendFailsAtLoadNamingIt) {
  testing::ProgramSpec spec = delegate_spec(scale_shift_relu_blob());
  spec.backend_id = "NoSuchBackend";
  const std::vector<uint8_t> bytes = testing::build_program(spec);
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  Memory memory(0);
  clear_last_error_message();
  Result<Method> method = program->load_method("forward", &memory.manager);
  EXPECT_EQ(method.error(), Error::NotFound);
  EXPECT_NE(std::string(last_error_message()).find("'NoSuchBackend'"), std::string::npos)
      << last_error_message();
}

TEST(Delegate, MalformedBlobsFailAtLoad) {
  testing::register_test_backend();
  std::vector<std::vector<uint8_t>> blobs;
  std::vector<uint8_t> good = scale_shift_relu_blob();
  blobs.push_back(std::vector<uint8_t>(good.begin(), good.begin() + good.size() / 2));
  blobs.push_back(std::vector<uint8_t>(good.begin(), good.end() - 1));
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  blobs.push_back(longer);
  blobs.push_back(BlobWriter().u32s({1, 1, 0, 0, 1}).u32s({kNumel, kNumel})
                      .step(9, 0, BlobWriter::kScalar, 1.0f, 1).bytes());  // unknown op
  blobs.push_back(BlobWriter().u32s({1, 1, 0, 0, 1}).u32s({kNumel, kNumel})
                      .step(1, 0, 7, 1.0f, 1).bytes());  // operand slot out of range
  blobs.push_back(BlobWriter().u32s({1, 1, 0, 0, 1}).u32s({kNumel, kNumel})
                      .step(1, 0, BlobWriter::kScalar, 1.0f, 0).bytes());  // writes an input
  blobs.push_back(BlobWriter().u32s({1, 1, 0, 0, 1}).u32s({kNumel, 5})
                      .step(1, 0, BlobWriter::kScalar, 1.0f, 1).bytes());  // sizes differ
  blobs.push_back({'E', 'T', 'B', '2'});
  for (size_t i = 0; i < blobs.size(); ++i) {
    const std::vector<uint8_t> bytes = testing::build_program(delegate_spec(blobs[i]));
    BufferDataLoader loader(bytes.data(), bytes.size());
    Result<Program> program = Program::load(&loader);
    ASSERT_TRUE(program.ok());
    Memory memory(0);
    EXPECT_FALSE(program->load_method("forward", &memory.manager).ok()) << "blob " << i;
  }
}

TEST(Delegate, ModuleSuppliesTempMemoryAndReportsWhatTheMethodTook) {
  testing::register_test_backend();
  const std::vector<uint8_t> bytes = testing::build_program(delegate_spec(scale_shift_relu_blob()));
  ModuleOptions options;
  options.num_threads = 2;
  Result<std::unique_ptr<Module>> module = Module::load_buffer(bytes.data(), bytes.size(), options);
  ASSERT_TRUE(module.ok());
  EXPECT_EQ(module.get()->num_threads(), 2u);
  testing::OwnedTensor input(ScalarType::Float, {64, 128});
  std::vector<float> values(kNumel, 1.5f);
  std::copy(values.begin(), values.end(), input.data<float>());
  EValue in(&input.tensor());
  ASSERT_EQ(module.get()->run("forward", Span<const EValue>(&in, 1)), Error::Ok)
      << module.get()->last_error();
  Result<Method*> method = module.get()->method();
  const float* out = method.get()->output(0).to_tensor().const_data_ptr<float>();
  for (uint32_t i = 0; i < kNumel; ++i) ASSERT_EQ(out[i], expected(1.5f, i)) << i;
  EXPECT_EQ(module.get()->delegate_bytes(), kNumel * 4u);
  const size_t used = module.get()->method_allocator_bytes();
  EXPECT_GT(used, 0u);
  // The tables were sized from the program: one block, no growing.
  EXPECT_LE(used, module.get()->method_meta()->method_table_bytes() + 4096);
}

}  // namespace
}  // namespace ember
