// The malformed-file corpus (tests/malformed, written by make_malformed.py):
// each file is a real program with one meaning-level fault and must give
// exactly the error cases.tsv lists, at its stage, through Module with the
// limits an application running untrusted programs sets. The files are
// mmap'd read-only, so a write into the program's memory faults here too.
// Run under AddressSanitizer and UBSan by `make asan`.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#include "extension/module/module.h"
#include "method_harness.h"
#include "runtime/core/log.h"
#include "tests/backend/test_backend.h"

namespace ember {
namespace {

// The limits make_malformed.py's cases assume.
constexpr size_t kMaxMemoryBytes = 256u << 20;
constexpr uint64_t kMaxInstructions = 100000;

struct MalformedCase {
  std::string file;
  std::string stage;  // load, init or execute
  std::string error;  // error_name()
  std::string message;
};

std::vector<MalformedCase> read_cases() {
  std::vector<MalformedCase> cases;
  std::ifstream in(testing::source_path("tests/malformed/cases.tsv"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    MalformedCase c;
    std::getline(fields, c.file, '\t');
    std::getline(fields, c.stage, '\t');
    std::getline(fields, c.error, '\t');
    std::getline(fields, c.message);
    cases.push_back(c);
  }
  return cases;
}

// What happened to one file: the stage that failed (or "ran"), and how.
struct Outcome {
  std::string stage = "ran";
  Error error = Error::Ok;
  std::string message;
};

// Zero tensors shaped as the method's inputs say.
struct ZeroInputs {
  std::vector<std::vector<uint8_t>> data;
  std::vector<std::vector<int32_t>> sizes;
  std::vector<std::vector<uint8_t>> dim_orders;
  std::vector<std::vector<int32_t>> strides;
  std::vector<std::unique_ptr<Tensor>> tensors;
  std::vector<EValue> values;

  explicit ZeroInputs(const MethodMeta& meta) {
    const size_t n = meta.num_inputs();
    data.resize(n);
    sizes.resize(n);
    dim_orders.resize(n);
    strides.resize(n);
    for (size_t i = 0; i < n; ++i) {
      Result<MethodMeta::TensorInfo> info = meta.input_tensor_info(i);
      if (!info.ok()) {
        values.emplace_back();
        continue;
      }
      size_t numel = 1;
      for (int32_t s : info->sizes) {
        sizes[i].push_back(s);
        dim_orders[i].push_back(static_cast<uint8_t>(dim_orders[i].size()));
        numel *= static_cast<size_t>(s);
      }
      strides[i].resize(sizes[i].size());
      data[i].assign(numel * element_size(info->dtype), 0);
      tensors.push_back(std::make_unique<Tensor>(
          info->dtype, static_cast<int>(sizes[i].size()), sizes[i].data(), dim_orders[i].data(),
          strides[i].data(), data[i].data(), data[i].size()));
      values.emplace_back(tensors.back().get());
    }
  }
};

Outcome run_file(const std::string& path) {
  cpu::register_cpu_backend();
  testing::register_test_backend();
  ModuleOptions options;
  options.num_threads = 1;
  options.max_memory_bytes = kMaxMemoryBytes;
  options.max_instructions = kMaxInstructions;
  Outcome outcome;
  clear_last_error_message();
  Result<std::unique_ptr<Module>> module = Module::load(path.c_str(), options);
  if (!module.ok()) {
    outcome.stage = "load";
    outcome.error = module.error();
    outcome.message = last_error_message();
    return outcome;
  }
  Result<Method*> method = module.get()->method("forward");
  if (!method.ok()) {
    outcome.stage = "init";
    outcome.error = method.error();
    outcome.message = module.get()->last_error();
    return outcome;
  }
  ZeroInputs inputs(module.get()->method_meta("forward").get());
  const Error err = module.get()->run(
      "forward", Span<const EValue>(inputs.values.data(), inputs.values.size()));
  if (err != Error::Ok) {
    outcome.stage = "execute";
    outcome.error = err;
    outcome.message = module.get()->last_error();
  }
  return outcome;
}

class Malformed : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(Malformed, GivesItsError) {
  const MalformedCase& c = GetParam();
  const Outcome outcome = run_file(testing::source_path("tests/malformed/" + c.file));
  EXPECT_EQ(outcome.stage, c.stage) << outcome.message;
  EXPECT_STREQ(error_name(outcome.error), c.error.c_str()) << outcome.message;
  EXPECT_NE(outcome.message.find(c.message), std::string::npos)
      << "message: " << outcome.message << "\nexpected it to contain: " << c.message;
  EXPECT_EQ(outcome.message.find('\n'), std::string::npos) << "one line: " << outcome.message;
}

INSTANTIATE_TEST_SUITE_P(Corpus, Malformed, ::testing::ValuesIn(read_cases()),
                         [](const ::testing::TestParamInfo<MalformedCase>& info) {
                           return info.param.file.substr(0, info.param.file.size() - 4);
                         });

// The issue asks for at least 50; the corpus must not silently shrink.
TEST(MalformedCorpus, HasEveryCase) { EXPECT_GE(read_cases().size(), 50u); }

}  // namespace
}  // namespace ember
