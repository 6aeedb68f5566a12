// Every input the fuzzers (tests/fuzz, `make fuzz`) ever crashed on, kept
// under tests/fuzz/regressions/, replayed through all three harnesses on
// every test run: each must return normally (under ASan and UBSan in
// `make asan`), and the seeds must still run, so the harnesses themselves
// cannot rot.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <memory>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#include "extension/module/module.h"
#include "method_harness.h"
#include "runtime/core/log.h"
#include "tensor_factory.h"
#include "tests/backend/test_backend.h"
#include "tests/fuzz/fuzz_harness.h"

namespace ember {
namespace {

std::vector<std::string> files_in(const std::string& relative) {
  std::vector<std::string> files;
  const std::filesystem::path dir = testing::source_path(relative);
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      files.push_back(std::filesystem::relative(entry.path(), testing::source_path("")).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> replayed_files() {
  std::vector<std::string> files = files_in("tests/fuzz/regressions");
  for (const std::string& seed : files_in("tests/fuzz/seeds")) files.push_back(seed);
  return files;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class FuzzReplay : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    threshold_ = log_threshold();
    fuzz::setup();
  }
  static void TearDownTestSuite() { set_log_threshold(threshold_); }
  static LogLevel threshold_;
};
LogLevel FuzzReplay::threshold_ = LogLevel::Info;

TEST_P(FuzzReplay, EveryHarnessReturns) {
  const std::vector<uint8_t> bytes = read_bytes(testing::source_path(GetParam()));
  fuzz::load_program(bytes.data(), bytes.size());
  fuzz::init_methods(bytes.data(), bytes.size());
  fuzz::execute_methods(bytes.data(), bytes.size());
}

// The seeds are valid programs, so that the fuzzer starts from every path
// rather than from errors: each loads and runs on zero inputs.
class FuzzSeed : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzSeed, LoadsAndRuns) {
  cpu::register_cpu_backend();
  testing::register_test_backend();
  ModuleOptions options;
  options.num_threads = 1;
  Result<std::unique_ptr<Module>> module =
      Module::load(testing::source_path(GetParam()).c_str(), options);
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = module.get()->method("forward");
  ASSERT_TRUE(method.ok()) << module.get()->last_error();
  Result<MethodMeta> meta = module.get()->method_meta();
  std::vector<std::vector<uint8_t>> data(meta->num_inputs());
  std::vector<std::unique_ptr<testing::OwnedTensor>> tensors;
  std::vector<EValue> inputs;
  for (size_t i = 0; i < meta->num_inputs(); ++i) {
    Result<MethodMeta::TensorInfo> info = meta->input_tensor_info(i);
    ASSERT_TRUE(info.ok());
    tensors.push_back(std::make_unique<testing::OwnedTensor>(
        info->dtype, std::vector<int32_t>(info->sizes.begin(), info->sizes.end())));
    std::memset(tensors.back()->tensor().mutable_data_ptr(), 0, tensors.back()->tensor().nbytes());
    inputs.emplace_back(&tensors.back()->tensor());
  }
  EXPECT_EQ(module.get()->run("forward", Span<const EValue>(inputs.data(), inputs.size())),
            Error::Ok)
      << module.get()->last_error();
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char ch : info.param) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Seeds, FuzzSeed, ::testing::ValuesIn(files_in("tests/fuzz/seeds")),
                         param_name);

INSTANTIATE_TEST_SUITE_P(Inputs, FuzzReplay, ::testing::ValuesIn(replayed_files()), param_name);

}  // namespace
}  // namespace ember
