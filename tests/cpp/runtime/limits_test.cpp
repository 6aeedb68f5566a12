// Limits an application running untrusted programs sets: the most memory a
// method may ask for, checked before anything is allocated, and the most
// instructions one execute may run.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#include "extension/module/chunk_allocator.h"
#include "extension/module/module.h"
#include "method_harness.h"
#include "runtime/core/log.h"
#include "tensor_factory.h"

namespace ember {
namespace {

std::string golden_path(const char* name) {
  return testing::source_path(std::string("tests/compat/") + name + ".pte");
}

std::string seed_path(const char* name) {
  return testing::source_path(std::string("tests/fuzz/seeds/") + name + ".pte");
}

// What the mlp golden asks for: its arena plus its method tables.
size_t mlp_request(const Program& program) {
  Result<MethodMeta> meta = program.method_meta("forward");
  return meta->planned_bytes() + meta->method_table_bytes();
}

TEST(MemoryLimit, MethodRefusesBeforeTouchingMemory) {
  testing::Golden golden;
  ASSERT_EQ(golden.load("et12_v0_ember_mlp"), "");
  const size_t request = mlp_request(*golden.program);
  // No memory at all: the limit must be what refuses, not the empty allocator.
  MemoryAllocator empty(nullptr, 0);
  MemoryManager manager;
  manager.method_allocator = &empty;
  MethodConfig config;
  config.max_memory_bytes = request - 1;
  Result<Method> method = golden.program->load_method("forward", &manager, config);
  EXPECT_EQ(method.error(), Error::MemoryAllocationFailed);
  const std::string message = last_error_message();
  EXPECT_NE(message.find("method 'forward' asks for " + std::to_string(request) + " bytes"),
            std::string::npos) << message;
  EXPECT_NE(message.find("more than the limit of " + std::to_string(request - 1) + " bytes"),
            std::string::npos) << message;
  EXPECT_EQ(empty.used(), 0u);
}

TEST(MemoryLimit, ModuleLoadsAtTheLimitAndRefusesBelowIt) {
  testing::Golden golden;
  ASSERT_EQ(golden.load("et12_v0_ember_mlp"), "");
  const size_t request = mlp_request(*golden.program);
  ModuleOptions options;
  options.num_threads = 1;
  options.max_memory_bytes = request - 1;
  Result<std::unique_ptr<Module>> refused = Module::load(golden_path("et12_v0_ember_mlp").c_str(), options);
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused.get()->method("forward").error(), Error::MemoryAllocationFailed);
  EXPECT_NE(std::string(refused.get()->last_error()).find("more than the limit"), std::string::npos)
      << refused.get()->last_error();

  options.max_memory_bytes = request;
  Result<std::unique_ptr<Module>> loaded = Module::load(golden_path("et12_v0_ember_mlp").c_str(), options);
  ASSERT_TRUE(loaded.ok());
  ASSERT_TRUE(loaded.get()->method("forward").ok()) << loaded.get()->last_error();
  testing::NpyTensor input(golden.inputs[0]);
  const EValue in(const_cast<Tensor*>(&input.tensor()));
  EXPECT_EQ(loaded.get()->run("forward", Span<const EValue>(&in, 1)), Error::Ok);
}

// Delegates ask for temp memory only at init: it counts against the limit,
// and a Module takes exactly what memory_bytes() reports.
TEST(MemoryLimit, DelegateTempMemoryCounts) {
  cpu::register_cpu_backend();
  const std::string path = seed_path("conv_cpu_backend");
  ModuleOptions options;
  options.num_threads = 1;
  Result<std::unique_ptr<Module>> unlimited = Module::load(path.c_str(), options);
  ASSERT_TRUE(unlimited.ok());
  Result<Method*> method = unlimited.get()->method("forward");
  ASSERT_TRUE(method.ok()) << unlimited.get()->last_error();
  ASSERT_GT(method.get()->required_temp_bytes(), 0u);
  const size_t taken = unlimited.get()->memory_bytes();
  for (size_t limit : {taken, taken - 1}) {
    options.max_memory_bytes = limit;
    Result<std::unique_ptr<Module>> limited = Module::load(path.c_str(), options);
    ASSERT_TRUE(limited.ok());
    Result<Method*> m = limited.get()->method("forward");
    if (limit == taken) {
      EXPECT_TRUE(m.ok()) << limited.get()->last_error();
      EXPECT_EQ(limited.get()->memory_bytes(), taken);
    } else {
      EXPECT_EQ(m.error(), Error::MemoryAllocationFailed);
      EXPECT_NE(std::string(limited.get()->last_error()).find("bytes of temp memory"),
                std::string::npos) << limited.get()->last_error();
    }
  }
}

TEST(MemoryLimit, ChunkAllocatorStopsAtItsCap) {
  ChunkAllocator allocator(64, 32 * 1024);
  EXPECT_NE(allocator.allocate(48), nullptr);
  EXPECT_NE(allocator.allocate(8 * 1024), nullptr);  // a second block
  EXPECT_EQ(allocator.allocate(32 * 1024), nullptr);  // past the cap
  EXPECT_LE(allocator.reserved_bytes(), 32u * 1024);
  EXPECT_NE(allocator.allocate(64), nullptr);  // what fits still does
}

TEST(InstructionLimit, StraightLineProgramIsRefusedBeforeItRuns) {
  testing::Golden golden;
  ASSERT_EQ(golden.load("et12_v0_ember_mlp"), "");
  MethodConfig config;
  config.max_instructions = 4;  // the mlp has 5
  std::string why;
  std::unique_ptr<testing::OwnedMethod> m = testing::OwnedMethod::load(*golden.program, config, &why);
  ASSERT_NE(m, nullptr) << why;
  testing::NpyTensor input(golden.inputs[0]);
  ASSERT_EQ(m->method->set_input(0, input.tensor()), Error::Ok);
  for (std::vector<uint8_t>& arena : m->arenas) std::fill(arena.begin(), arena.end(), 0xab);
  EXPECT_EQ(m->method->execute(), Error::InvalidState);
  EXPECT_STREQ(m->method->last_error(),
               "the method has 5 instructions, more than the limit of 4 the application set");
  // Nothing ran: the arena is as it was.
  for (std::vector<uint8_t>& arena : m->arenas) {
    for (uint8_t byte : arena) ASSERT_EQ(byte, 0xab);
  }
}

// The while-loop seed runs its body three times: 30 instructions in all.
TEST(InstructionLimit, LoopStopsAtTheLimitAndRunsWithinIt) {
  for (uint64_t limit : {uint64_t{12}, uint64_t{1000}}) {
    ModuleOptions options;
    options.num_threads = 1;
    options.max_instructions = limit;
    Result<std::unique_ptr<Module>> module = Module::load(seed_path("while_loop_portable").c_str(), options);
    ASSERT_TRUE(module.ok());
    testing::OwnedTensor x(ScalarType::Float, {4, 8});
    for (int i = 0; i < 32; ++i) x.data<float>()[i] = static_cast<float>(i);
    const EValue in(&x.tensor());
    const Error err = module.get()->run("forward", Span<const EValue>(&in, 1));
    if (limit == 12) {
      EXPECT_EQ(err, Error::InvalidState);
      EXPECT_NE(std::string(module.get()->last_error()).find("after 12 instructions"),
                std::string::npos) << module.get()->last_error();
    } else {
      ASSERT_EQ(err, Error::Ok) << module.get()->last_error();
      const float* out = module.get()->method().get()->output(0).to_tensor().const_data_ptr<float>();
      for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], static_cast<float>(i) * 8.0f);
    }
  }
}

}  // namespace
}  // namespace ember
