// Proves the runtime invariant "no heap allocation while a method executes":
// this binary replaces malloc and operator new with counting versions.
#include <gtest/gtest.h>

#include <vector>

#include "extension/threadpool/worker_pool.h"
#include "runtime/executor/method.h"
#include "counting_allocator.h"
#include "method_harness.h"
#include "runtime/executor/program.h"
#include "tensor_factory.h"
#include "test_program.h"

namespace ember {
namespace {

TEST(Allocations, ExecuteAllocatesNothing) {
#if !defined(EMBER_COUNT_ALLOCATIONS)
  GTEST_SKIP() << "allocation counting is disabled under a sanitizer";
#endif
  const std::vector<uint8_t> bytes = testing::build_program({});
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  std::vector<uint8_t> method_memory(64 * 1024), arena(4096);
  MemoryAllocator allocator(method_memory.data(), method_memory.size());
  Span<uint8_t> buffers[1] = {Span<uint8_t>(arena.data(), arena.size())};
  MemoryManager manager;
  manager.method_allocator = &allocator;
  manager.planned_buffers = Span<Span<uint8_t>>(buffers, 1);
  Result<Method> method = program->load_method("forward", &manager);
  ASSERT_TRUE(method.ok());
  testing::OwnedTensor input(ScalarType::Float, {2, 3});
  ASSERT_EQ(method->set_input(0, input.tensor()), Error::Ok);

  const long before = testing::g_allocations.load();
  Error err = Error::Ok;
  for (int i = 0; i < 10; ++i) err = method->execute();
  const long during = testing::g_allocations.load() - before;
  ASSERT_EQ(err, Error::Ok);
  EXPECT_EQ(during, 0) << "execute() allocated " << during << " times";

  // The counter works: a deliberate allocation is seen.
  void* volatile p = std::malloc(16);
  EXPECT_GT(testing::g_allocations.load(), before);
  std::free(p);
}

// A method with a mutable buffer (the kv_cache golden): updating the buffer
// in place and carrying it to the next execute allocates nothing either.
TEST(Allocations, MutableBufferUpdatesAllocateNothing) {
#if !defined(EMBER_COUNT_ALLOCATIONS)
  GTEST_SKIP() << "allocation counting is disabled under a sanitizer";
#endif
  testing::Golden golden;
  ASSERT_EQ(golden.load("et12_v0_ember_kv_cache"), "");
  std::string error;
  std::unique_ptr<testing::OwnedMethod> m = testing::OwnedMethod::load(*golden.program, {}, &error);
  ASSERT_TRUE(m != nullptr) << error;
  std::vector<std::unique_ptr<testing::NpyTensor>> inputs;
  for (size_t i = 0; i < golden.inputs.size(); ++i) {
    inputs.push_back(std::make_unique<testing::NpyTensor>(golden.inputs[i]));
    ASSERT_EQ(m->method->set_input(i, inputs.back()->tensor()), Error::Ok);
  }
  const long before = testing::g_allocations.load();
  for (int i = 0; i < 5; ++i) ASSERT_EQ(m->method->execute(), Error::Ok);
  ASSERT_EQ(m->method->reset_mutable_buffers(), Error::Ok);
  const long during = testing::g_allocations.load() - before;
  EXPECT_EQ(during, 0) << "execute() allocated " << during << " times";
}

// The same with a delegate on a two-thread pool: the backend's execute, its
// temp memory and the pool's run must not allocate either.
TEST(Allocations, DelegateOnAThreadPoolAllocatesNothing) {
#if !defined(EMBER_COUNT_ALLOCATIONS)
  GTEST_SKIP() << "allocation counting is disabled under AddressSanitizer";
#endif
  testing::register_test_backend();
  testing::ProgramSpec spec;
  spec.use_delegate = true;
  spec.sizes = {64, 64};
  spec.delegate_blob = testing::add_scalar_blob(64 * 64, 1.0f);
  spec.output_offset = 64 * 64 * 4;
  spec.arena_size = 2 * 64 * 64 * 4;
  const std::vector<uint8_t> bytes = testing::build_program(spec);
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  std::vector<uint8_t> method_memory(64 * 1024), arena(2 * 64 * 64 * 4), temp(4096);
  MemoryAllocator allocator(method_memory.data(), method_memory.size());
  MemoryAllocator temp_allocator(temp.data(), temp.size());
  Span<uint8_t> buffers[1] = {Span<uint8_t>(arena.data(), arena.size())};
  MemoryManager manager;
  manager.method_allocator = &allocator;
  manager.planned_buffers = Span<Span<uint8_t>>(buffers, 1);
  manager.temp_allocator = &temp_allocator;
  WorkerPool pool(2);
  MethodConfig config;
  config.thread_pool = &pool;
  Result<Method> method = program->load_method("forward", &manager, config);
  ASSERT_TRUE(method.ok());
  testing::OwnedTensor input(ScalarType::Float, {64, 64});
  ASSERT_EQ(method->set_input(0, input.tensor()), Error::Ok);
  ASSERT_EQ(method->execute(), Error::Ok);  // workers are awake

  const long before = testing::g_allocations.load();
  Error err = Error::Ok;
  for (int i = 0; i < 50; ++i) err = method->execute();
  const long during = testing::g_allocations.load() - before;
  ASSERT_EQ(err, Error::Ok);
  EXPECT_EQ(during, 0) << "execute() allocated " << during << " times";
}

}  // namespace
}  // namespace ember
