// Methods of one Program running at once on different threads, with no pool,
// one shared WorkerPool or a pool each, must give exactly what one method
// gives alone; and WorkerPool itself, hammered from several threads. Built
// into the normal tests and run under ThreadSanitizer by `make tsan`.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "extension/module/module.h"
#include "extension/threadpool/worker_pool.h"
#include "runtime/core/log.h"
#include "method_harness.h"
#include "program_builder.h"
#include "runtime/executor/data_loader.h"
#include "runtime/kernel/kernel_registry.h"
#include "tensor_factory.h"

namespace ember {
namespace {

constexpr int kMethodThreads = 4;

// Iterations scale with EMBER_STRESS_SCALE (default 1) for soak runs; the
// defaults keep each test to seconds natively and under qemu or TSan.
int iterations(int base) {
  const char* scale = std::getenv("EMBER_STRESS_SCALE");
  const int factor = scale != nullptr ? std::atoi(scale) : 1;
  return base * (factor > 0 ? factor : 1);
}

// out = in * 0.75 + 0.5, spread over the method's pool: the path optimized
// kernels take, so the tests below cover it before any real kernel does.
void parallel_affine_out(KernelContext& ctx, const Tensor& in, Tensor& out) {
  EMBER_KERNEL_CHECK(ctx, in.numel() == out.numel(), "parallel_affine: numel mismatch");
  const float* x = in.const_data_ptr<float>();
  float* y = out.mutable_data_ptr<float>();
  ctx.parallel_for(in.numel(), 64, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) y[i] = x[i] * 0.75f + 0.5f;
  });
}
EMBER_REGISTER_KERNEL("test::parallel_affine.out", parallel_affine_out,
                      dtype_bit(ScalarType::Float));

// Six parallel kernels in a row over 2048 floats: many pool runs per execute.
std::vector<uint8_t> parallel_program() {
  testing::ProgramBuilder b;
  const int32_t input = b.tensor(fb::ScalarType::FLOAT, {2048});
  int32_t prev = input;
  for (int i = 0; i < 6; ++i) {
    const int32_t next = b.tensor(fb::ScalarType::FLOAT, {2048});
    b.call("test::parallel_affine", "out", {prev, next});
    prev = next;
  }
  return b.finish({input}, {prev});
}

// x + randn(64) and rand(64): outputs depend on the method's random stream,
// which advances on every execute.
std::vector<uint8_t> random_program() {
  testing::ProgramBuilder b;
  const int32_t x = b.tensor(fb::ScalarType::FLOAT, {64});
  const int32_t size = b.int_list({64});
  const int32_t noise = b.tensor(fb::ScalarType::FLOAT, {64});
  const int32_t alpha = b.integer(1);
  const int32_t sum = b.tensor(fb::ScalarType::FLOAT, {64});
  const int32_t uniform = b.tensor(fb::ScalarType::FLOAT, {64});
  b.call("aten::randn", "out", {size, noise});
  b.call("aten::add", "out", {x, noise, alpha, sum});
  b.call("aten::rand", "out", {size, uniform});
  return b.finish({x}, {sum, uniform});
}

enum class PoolMode { None, Shared, PerMethod };

const char* pool_mode_name(PoolMode mode) {
  switch (mode) {
    case PoolMode::None: return "NoPool";
    case PoolMode::Shared: return "SharedPool";
    case PoolMode::PerMethod: return "PoolPerMethod";
  }
  return "";
}

// What one thread's method runs with and must produce: outputs[k] after its
// k-th execute (cycled), for a method seeded with `seed`.
struct Expectation {
  uint64_t seed = KernelContext::kDefaultRandomSeed;
  std::vector<std::vector<uint8_t>> outputs;
};

// Outputs of `runs` executes of one method alone on this thread, no pool.
Expectation single_threaded(const Program& program, const std::vector<const Tensor*>& inputs,
                            uint64_t seed, int runs, std::string* error) {
  Expectation expectation;
  expectation.seed = seed;
  MethodConfig config;
  config.random_seed = seed;
  std::unique_ptr<testing::OwnedMethod> m = testing::OwnedMethod::load(program, config, error);
  if (m == nullptr) return expectation;
  for (int k = 0; k < runs; ++k) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (m->method->set_input(i, *inputs[i]) != Error::Ok) {
        *error = "set_input failed: " + std::string(m->method->last_error());
        return expectation;
      }
    }
    if (m->method->execute() != Error::Ok) {
      *error = "execute failed: " + std::string(m->method->last_error());
      return expectation;
    }
    expectation.outputs.push_back(testing::output_bytes(*m->method));
  }
  return expectation;
}

// Runs one method per entry of `expect`, each on its own thread and all at
// once, `runs` executes each. Every method loads concurrently too, and its
// arenas are poisoned before every execute so that an output element a
// kernel skipped cannot pass with last run's value. Empty when all matched.
std::string run_concurrently(const Program& program, const std::vector<const Tensor*>& inputs,
                             const std::vector<Expectation>& expect, PoolMode mode, int runs) {
  std::unique_ptr<WorkerPool> shared;
  if (mode == PoolMode::Shared) shared = std::make_unique<WorkerPool>(3);
  std::vector<std::string> failures(expect.size());
  std::atomic<size_t> ready{0};
  std::vector<std::thread> threads;
  for (size_t t = 0; t < expect.size(); ++t) {
    threads.emplace_back([&, t] {
      std::string& failure = failures[t];
      std::unique_ptr<WorkerPool> own;
      if (mode == PoolMode::PerMethod) own = std::make_unique<WorkerPool>(2);
      MethodConfig config;
      config.thread_pool = mode == PoolMode::Shared ? shared.get() : own.get();
      config.random_seed = expect[t].seed;
      std::unique_ptr<testing::OwnedMethod> m =
          testing::OwnedMethod::load(program, config, &failure);
      // Start executing together, so the methods overlap as much as they can.
      ready.fetch_add(1);
      while (ready.load() < expect.size()) std::this_thread::yield();
      if (m == nullptr) return;
      for (int k = 0; k < runs; ++k) {
        for (std::vector<uint8_t>& arena : m->arenas) std::memset(arena.data(), 0xff, arena.size());
        for (size_t i = 0; i < inputs.size(); ++i) {
          if (m->method->set_input(i, *inputs[i]) != Error::Ok) {
            failure = "set_input failed: " + std::string(m->method->last_error());
            return;
          }
        }
        if (m->method->execute() != Error::Ok) {
          failure = "execute failed: " + std::string(m->method->last_error());
          return;
        }
        const std::vector<uint8_t>& want = expect[t].outputs[k % expect[t].outputs.size()];
        if (testing::output_bytes(*m->method) != want) {
          failure = "run " + std::to_string(k) + ": outputs differ from the single-threaded run";
          return;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::string all;
  for (size_t t = 0; t < failures.size(); ++t) {
    if (!failures[t].empty()) all += "thread " + std::to_string(t) + ": " + failures[t] + "\n";
  }
  return all;
}

// --- the golden programs (real models: MLP, conv net, transformer) ---

class ConcurrentGolden : public ::testing::TestWithParam<std::tuple<const char*, PoolMode>> {};

TEST_P(ConcurrentGolden, MethodsMatchSingleThreaded) {
  testing::Golden golden;
  const std::string error = golden.load(std::get<0>(GetParam()));
  ASSERT_EQ(error, "");
  std::vector<std::unique_ptr<testing::NpyTensor>> owned;
  std::vector<const Tensor*> inputs;
  for (tools::NpyArray& array : golden.inputs) {
    owned.push_back(std::make_unique<testing::NpyTensor>(array));
    inputs.push_back(&owned.back()->tensor());
  }
  std::string why;
  const Expectation alone =
      single_threaded(*golden.program, inputs, KernelContext::kDefaultRandomSeed, 1, &why);
  ASSERT_EQ(why, "");
  const std::vector<Expectation> expect(kMethodThreads, alone);
  EXPECT_EQ(run_concurrently(*golden.program, inputs, expect, std::get<1>(GetParam()),
                             iterations(20)),
            "");
}

INSTANTIATE_TEST_SUITE_P(
    Goldens, ConcurrentGolden,
    ::testing::Combine(::testing::Values("et12_v0_ember_mlp", "et12_v0_ember_convnet",
                                         "et12_v0_ember_transformer",
                                         "et12_v0_executorch_1_5_1_convnet"),
                       ::testing::Values(PoolMode::None, PoolMode::Shared, PoolMode::PerMethod)),
    [](const ::testing::TestParamInfo<ConcurrentGolden::ParamType>& info) {
      return std::string(std::get<0>(info.param)) + "_" + pool_mode_name(std::get<1>(info.param));
    });

// --- generated programs: a parallel kernel chain and random ops ---

class ConcurrentMethods : public ::testing::TestWithParam<PoolMode> {};

TEST_P(ConcurrentMethods, ParallelKernelsMatchSingleThreaded) {
  const std::vector<uint8_t> bytes = parallel_program();
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  testing::OwnedTensor input(ScalarType::Float, {2048});
  for (int i = 0; i < 2048; ++i) input.data<float>()[i] = static_cast<float>(i % 97) * 0.125f;
  const std::vector<const Tensor*> inputs = {&input.tensor()};
  std::string why;
  const Expectation alone =
      single_threaded(*program, inputs, KernelContext::kDefaultRandomSeed, 1, &why);
  ASSERT_EQ(why, "");
  // The reference is the plain formula, so a pool that drops or repeats work
  // cannot agree with itself and pass.
  const float* out = reinterpret_cast<const float*>(alone.outputs[0].data());
  for (int i = 0; i < 2048; ++i) {
    float v = input.data<float>()[i];
    for (int k = 0; k < 6; ++k) v = v * 0.75f + 0.5f;
    ASSERT_EQ(out[i], v) << "element " << i;
  }
  const std::vector<Expectation> expect(kMethodThreads, alone);
  EXPECT_EQ(run_concurrently(*program, inputs, expect, GetParam(), iterations(50)), "");
}

TEST_P(ConcurrentMethods, RandomStreamsArePerMethod) {
  const std::vector<uint8_t> bytes = random_program();
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  testing::OwnedTensor x(ScalarType::Float, {64});
  for (int i = 0; i < 64; ++i) x.data<float>()[i] = static_cast<float>(i);
  const std::vector<const Tensor*> inputs = {&x.tensor()};
  const int runs = iterations(30);
  std::string why;
  const Expectation a = single_threaded(*program, inputs, 7, runs, &why);
  ASSERT_EQ(why, "");
  const Expectation b = single_threaded(*program, inputs, 8, runs, &why);
  ASSERT_EQ(why, "");
  // The stream advances between executes and differs between seeds.
  EXPECT_NE(a.outputs[0], a.outputs[1]);
  EXPECT_NE(a.outputs[0], b.outputs[0]);
  // Two methods per seed: each pair must replay the same stream, untouched
  // by the other methods drawing at the same time.
  EXPECT_EQ(run_concurrently(*program, inputs, {a, b, a, b}, GetParam(), runs), "");
}

INSTANTIATE_TEST_SUITE_P(Pools, ConcurrentMethods,
                         ::testing::Values(PoolMode::None, PoolMode::Shared, PoolMode::PerMethod),
                         [](const ::testing::TestParamInfo<PoolMode>& info) {
                           return std::string(pool_mode_name(info.param));
                         });

// --- one method from two threads: refused, never a race ---

// Holds the calling thread inside the kernel until the test releases it, so
// a second thread's call on the same method certainly overlaps.
std::atomic<int> g_inside{0};
std::atomic<bool> g_release{false};

void wait_for_release_out(KernelContext& ctx, const Tensor& in, Tensor& out) {
  g_inside.fetch_add(1);
  while (!g_release.load()) std::this_thread::yield();
  std::memcpy(out.mutable_data_ptr(), in.const_data_ptr(), in.nbytes());
}
EMBER_REGISTER_KERNEL("test::wait_for_release.out", wait_for_release_out,
                      dtype_bit(ScalarType::Float));

// in -> wait_for_release -> parallel_affine, as methods "forward" and "other".
std::vector<uint8_t> blocking_program() {
  testing::ProgramBuilder b;
  const int32_t input = b.tensor(fb::ScalarType::FLOAT, {16});
  const int32_t held = b.tensor(fb::ScalarType::FLOAT, {16});
  const int32_t out = b.tensor(fb::ScalarType::FLOAT, {16});
  b.call("test::wait_for_release", "out", {input, held});
  b.call("test::parallel_affine", "out", {held, out});
  return b.finish({input}, {out}, {"forward", "other"});
}

void wait_until_inside(int threads) {
  while (g_inside.load() < threads) std::this_thread::yield();
}

void expect_affine(const Method& method) {
  const float* out = method.output(0).to_tensor().const_data_ptr<float>();
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], static_cast<float>(i) * 0.75f + 0.5f) << i;
}

TEST(OneMethodTwoThreads, MethodRefusesTheSecondCaller) {
  const std::vector<uint8_t> bytes = blocking_program();
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  ASSERT_TRUE(program.ok());
  std::string why;
  std::unique_ptr<testing::OwnedMethod> m = testing::OwnedMethod::load(*program, {}, &why);
  ASSERT_NE(m, nullptr) << why;
  testing::OwnedTensor input(ScalarType::Float, {16});
  for (int i = 0; i < 16; ++i) input.data<float>()[i] = static_cast<float>(i);
  ASSERT_EQ(m->method->set_input(0, input.tensor()), Error::Ok);
  g_inside.store(0);
  g_release.store(false);
  Error first = Error::Internal;
  std::thread busy([&] { first = m->method->execute(); });
  wait_until_inside(1);
  const Error second_execute = m->method->execute();
  const std::string message = last_error_message();
  const Error second_set_input = m->method->set_input(0, input.tensor());
  g_release.store(true);
  busy.join();
  EXPECT_EQ(first, Error::Ok);
  EXPECT_EQ(second_execute, Error::InvalidState);
  EXPECT_EQ(second_set_input, Error::InvalidState);
  EXPECT_NE(message.find("method 'forward' is in use by another thread"), std::string::npos)
      << message;
  // The first call's result is whole: the refused calls touched nothing.
  expect_affine(*m->method);
  // And the method is free again once the first call returned.
  EXPECT_EQ(m->method->execute(), Error::Ok);
}

TEST(OneMethodTwoThreads, ModuleRefusesTheSecondRunButRunsAnotherMethodMeanwhile) {
  const std::vector<uint8_t> bytes = blocking_program();
  ModuleOptions options;
  options.num_threads = 2;
  Result<std::unique_ptr<Module>> module = Module::load_buffer(bytes.data(), bytes.size(), options);
  ASSERT_TRUE(module.ok());
  Module& m = *module.get();
  testing::OwnedTensor input(ScalarType::Float, {16});
  for (int i = 0; i < 16; ++i) input.data<float>()[i] = static_cast<float>(i);
  const EValue in(&input.tensor());
  g_inside.store(0);
  g_release.store(false);
  Error first = Error::Internal, other = Error::Internal;
  std::string other_error;
  std::thread forward([&] { first = m.run("forward", Span<const EValue>(&in, 1)); });
  wait_until_inside(1);
  const Error second = m.run("forward", Span<const EValue>(&in, 1));
  const std::string message = m.last_error();
  // Both methods inside their kernels at once: they run concurrently.
  std::thread another([&] {
    other = m.run("other", Span<const EValue>(&in, 1));
    other_error = m.last_error();
  });
  wait_until_inside(2);
  g_release.store(true);
  forward.join();
  another.join();
  EXPECT_EQ(first, Error::Ok);
  EXPECT_EQ(other, Error::Ok) << other_error;
  EXPECT_EQ(second, Error::InvalidState);
  EXPECT_NE(message.find("method 'forward' is already running on another thread"),
            std::string::npos) << message;
  expect_affine(*m.method("forward").get());
  expect_affine(*m.method("other").get());
}

// Two methods whose `held` tensor lies in memory id 2, which Module shares
// between methods (where mutable buffers live): they must not overlap.
TEST(OneMethodTwoThreads, ModuleRefusesMethodsSharingStateAtOnce) {
  testing::ProgramBuilder b;
  const int32_t input = b.tensor(fb::ScalarType::FLOAT, {16});
  const int32_t held = b.tensor(fb::ScalarType::FLOAT, {16}, /*memory_id=*/2);
  const int32_t out = b.tensor(fb::ScalarType::FLOAT, {16});
  b.call("test::wait_for_release", "out", {input, held});
  b.call("test::parallel_affine", "out", {held, out});
  const std::vector<uint8_t> bytes = b.finish({input}, {out}, {"forward", "other"});
  ModuleOptions options;
  options.num_threads = 1;
  Result<std::unique_ptr<Module>> module = Module::load_buffer(bytes.data(), bytes.size(), options);
  ASSERT_TRUE(module.ok());
  Module& m = *module.get();
  testing::OwnedTensor input_tensor(ScalarType::Float, {16});
  for (int i = 0; i < 16; ++i) input_tensor.data<float>()[i] = static_cast<float>(i);
  const EValue in(&input_tensor.tensor());
  ASSERT_TRUE(m.method("other").ok());  // loaded before, so that only the run is refused
  g_inside.store(0);
  g_release.store(false);
  Error first = Error::Internal;
  std::thread forward([&] { first = m.run("forward", Span<const EValue>(&in, 1)); });
  wait_until_inside(1);
  const Error other = m.run("other", Span<const EValue>(&in, 1));
  const std::string message = m.last_error();
  const Error reset = m.reset_state();
  g_release.store(true);
  forward.join();
  EXPECT_EQ(first, Error::Ok);
  EXPECT_EQ(other, Error::InvalidState);
  EXPECT_NE(message.find("method 'other' shares mutable buffers with a method running"),
            std::string::npos) << message;
  EXPECT_EQ(reset, Error::InvalidState);
  expect_affine(*m.method("forward").get());
  // Free again once forward returned.
  g_release.store(true);
  EXPECT_EQ(m.run("other", Span<const EValue>(&in, 1)), Error::Ok) << m.last_error();
  expect_affine(*m.method("other").get());
}

// --- several programs at once, each through its own Module ---

TEST(ConcurrentPrograms, DifferentGoldensAtOnceMatchEager) {
  const char* names[] = {"et12_v0_ember_mlp", "et12_v0_ember_convnet", "et12_v0_ember_transformer",
                         "et12_v0_executorch_1_5_1_mlp"};
  std::vector<std::string> failures(std::size(names));
  std::atomic<size_t> ready{0};
  std::vector<std::thread> threads;
  for (size_t t = 0; t < std::size(names); ++t) {
    threads.emplace_back([&, t] {
      testing::Golden golden;
      std::string& failure = failures[t];
      failure = golden.load(names[t]);
      if (!failure.empty()) return;
      ModuleOptions options;
      options.num_threads = 2;
      Result<std::unique_ptr<Module>> module = Module::load(
          testing::source_path(std::string("tests/compat/") + names[t] + ".pte").c_str(), options);
      if (!module.ok()) {
        failure = "does not load";
        return;
      }
      std::vector<std::unique_ptr<testing::NpyTensor>> owned;
      std::vector<EValue> inputs;
      for (tools::NpyArray& array : golden.inputs) {
        owned.push_back(std::make_unique<testing::NpyTensor>(array));
        inputs.emplace_back(const_cast<Tensor*>(&owned.back()->tensor()));
      }
      ready.fetch_add(1);
      while (ready.load() < std::size(names)) std::this_thread::yield();
      for (int run = 0; run < iterations(20) && failure.empty(); ++run) {
        if (module.get()->run("forward", Span<const EValue>(inputs.data(), inputs.size())) !=
            Error::Ok) {
          failure = module.get()->last_error();
          return;
        }
        const Tensor& out = module.get()->method().get()->output(0).to_tensor();
        const tools::NpyArray& want = golden.expected[0];
        if (out.nbytes() != want.data.size()) {
          failure = "output size differs from eager";
          return;
        }
        const float* got = out.const_data_ptr<float>();
        const float* expected = reinterpret_cast<const float*>(want.data.data());
        for (size_t i = 0; i < want.data.size() / 4; ++i) {
          if (std::abs(got[i] - expected[i]) > 1e-4f + 1e-4f * std::abs(expected[i])) {
            failure = "run " + std::to_string(run) + ": element " + std::to_string(i) +
                      " differs from eager";
            return;
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (size_t t = 0; t < std::size(names); ++t) EXPECT_EQ(failures[t], "") << names[t];
}

// --- WorkerPool on its own ---

// Each caller checks that parallel_for covered [0, n) exactly once, in
// contiguous chunks. The counters are plain ints written by whichever thread
// ran the chunk and read by the caller after parallel_for returns: TSan
// checks that the pool orders those writes before its return.
std::string hammer_parallel_for(ThreadPool* pool, int callers, int calls) {
  std::vector<std::string> failures(static_cast<size_t>(callers));
  std::vector<std::thread> threads;
  for (int c = 0; c < callers; ++c) {
    threads.emplace_back([&, c] {
      std::vector<int> hits(1200);
      for (int call = 0; call < calls; ++call) {
        const int64_t n = (call * 37 + c * 11) % 1200;
        const int64_t min_chunk = 1 + call % 50;
        std::fill(hits.begin(), hits.end(), 0);
        parallel_for(pool, n, min_chunk, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) ++hits[static_cast<size_t>(i)];
        });
        for (int64_t i = 0; i < 1200; ++i) {
          const int want = i < n ? 1 : 0;
          if (hits[static_cast<size_t>(i)] != want) {
            failures[static_cast<size_t>(c)] = "call " + std::to_string(call) + " (n=" +
                                               std::to_string(n) + "): index " + std::to_string(i) +
                                               " ran " + std::to_string(hits[i]) + " times";
            return;
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::string all;
  for (const std::string& f : failures) all += f.empty() ? "" : f + "\n";
  return all;
}

TEST(WorkerPoolStress, ParallelForFromManyThreadsRunsEachIndexOnce) {
  WorkerPool pool(4);
  EXPECT_EQ(hammer_parallel_for(&pool, 4, iterations(100)), "");
}

TEST(WorkerPoolStress, ParallelForFromOneThreadRunsEachIndexOnce) {
  WorkerPool pool(3);
  EXPECT_EQ(hammer_parallel_for(&pool, 1, iterations(200)), "");
}

TEST(WorkerPoolStress, RunCallsEveryTaskOnce) {
  WorkerPool pool(4);
  std::vector<int> hits(16);
  for (int call = 0; call < iterations(300); ++call) {
    const size_t tasks = static_cast<size_t>(call % 17);
    std::fill(hits.begin(), hits.end(), 0);
    pool.run(tasks, [&](size_t task) { ++hits[task]; });
    for (size_t t = 0; t < hits.size(); ++t) {
      ASSERT_EQ(hits[t], t < tasks ? 1 : 0) << "call " << call << ", task " << t;
    }
  }
}

// parallel_for's chunk t is thread t's home task, so consecutive operators
// give a thread the rows it wrote last time. The caller is thread 0: it
// claims chunk 0 before anything else, whatever the workers are doing.
// (Which worker takes which other chunk depends on scheduling, not checked.)
TEST(WorkerPool, CallerRunsTheFirstChunkOfEveryJob) {
  WorkerPool pool(2);
  const std::thread::id caller = std::this_thread::get_id();
  for (int call = 0; call < 10; ++call) {
    std::thread::id ran_first{};
    parallel_for(&pool, 2, 1, [&](int64_t begin, int64_t) {
      if (begin == 0) ran_first = std::this_thread::get_id();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    });
    ASSERT_EQ(ran_first, caller) << "call " << call;
  }
}

// A task that calls parallel_for on the same pool (a parallel kernel inside
// a parallel delegate) gets its work done inline instead of deadlocking.
TEST(WorkerPoolStress, NestedParallelForRunsInline) {
  WorkerPool pool(3);
  for (int call = 0; call < iterations(200); ++call) {
    std::vector<int> hits(3 * 100);
    parallel_for(&pool, 3, 1, [&](int64_t begin, int64_t end) {
      for (int64_t outer = begin; outer < end; ++outer) {
        parallel_for(&pool, 100, 1, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) ++hits[static_cast<size_t>(outer * 100 + i)];
        });
      }
    });
    for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], 1) << "call " << call << ", " << i;
  }
}

// Threads start, maybe take a job, and must all stop and join: including a
// pool destroyed before its workers ever got to run.
TEST(WorkerPoolStress, ConstructAndDestroyInALoop) {
  for (int round = 0; round < iterations(200); ++round) {
    WorkerPool pool(static_cast<size_t>(1 + round % 4));
    ASSERT_EQ(pool.num_threads(), static_cast<size_t>(1 + round % 4));
    if (round % 3 != 0) {
      std::atomic<int> ran{0};
      pool.run(static_cast<size_t>(round % 9), [&](size_t) { ran.fetch_add(1); });
      ASSERT_EQ(ran.load(), round % 9);
    }
  }
}

}  // namespace
}  // namespace ember
