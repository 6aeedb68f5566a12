// Soak: many executions of a small model through Module keep resident memory
// flat (execute allocates nothing, so nothing may grow). The default tier
// runs EMBER_SOAK_EXECUTIONS=20000 (a second or two); the ctest entry
// ember_soak_million (label soak: `make test-all`, `make soak`) a million.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "extension/module/module.h"
#include "method_harness.h"

namespace ember {
namespace {

// Resident set size in bytes, from /proc/self/statm (Linux).
size_t resident_bytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long pages = 0, resident = 0;
  const int read = std::fscanf(f, "%lu %lu", &pages, &resident);
  std::fclose(f);
  return read == 2 ? resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

long executions() {
  const char* env = std::getenv("EMBER_SOAK_EXECUTIONS");
  const long n = env != nullptr ? std::atol(env) : 0;
  return n > 0 ? n : 20000;
}

TEST(Soak, ExecutionsKeepResidentMemoryFlat) {
  if (resident_bytes() == 0) GTEST_SKIP() << "no /proc/self/statm";
  testing::Golden golden;
  ASSERT_EQ(golden.load("et12_v0_ember_mlp"), "");
  ModuleOptions options;
  options.num_threads = 2;  // the pool's hand-offs run every time too
  Result<std::unique_ptr<Module>> module = Module::load(
      testing::source_path("tests/compat/et12_v0_ember_mlp.pte").c_str(), options);
  ASSERT_TRUE(module.ok());
  testing::NpyTensor input(golden.inputs[0]);
  const EValue in(const_cast<Tensor*>(&input.tensor()));
  const long n = executions();
  const long warmup = n / 10;
  size_t after_warmup = 0;
  for (long i = 0; i < n; ++i) {
    if (i == warmup) after_warmup = resident_bytes();
    ASSERT_EQ(module.get()->run("forward", Span<const EValue>(&in, 1)), Error::Ok)
        << "execution " << i << ": " << module.get()->last_error();
  }
  const size_t at_end = resident_bytes();
  std::printf("%ld executions: %zu bytes resident after warm-up, %zu at the end\n", n,
              after_warmup, at_end);
  // Flat: the odd page the C++ runtime or the test framework touches late,
  // never growth with the number of executions.
  EXPECT_LE(at_end, after_warmup + 256 * 1024)
      << n << " executions: " << after_warmup << " bytes resident after warm-up, " << at_end
      << " at the end";
  const float* out = module.get()->method().get()->output(0).to_tensor().const_data_ptr<float>();
  const float* want = reinterpret_cast<const float*>(golden.expected[0].data.data());
  for (size_t i = 0; i < golden.expected[0].data.size() / 4; ++i) {
    EXPECT_NEAR(out[i], want[i], 1e-5f + 1e-5f * std::abs(want[i])) << i;
  }
}

}  // namespace
}  // namespace ember
