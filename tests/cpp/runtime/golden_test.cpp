// The golden .pte files (tests/compat) run through Program and Method and
// match the eager PyTorch outputs saved beside them: the Python test does the
// same through the binding, this one also runs where Python does not (the
// aarch64 build under qemu, the sanitizer builds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#include "method_harness.h"

namespace ember {
namespace {

// Every tests/compat/*.pte, by name without the extension, so that a new
// golden is picked up without editing this file.
std::vector<std::string> golden_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::source_path("tests/compat"), ec)) {
    if (entry.path().extension() == ".pte") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(GoldenFiles, AtLeastSixExist) { EXPECT_GE(golden_names().size(), 6u); }

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesEager) {
  cpu::register_cpu_backend();  // goldens written with the CPU backend on
  testing::Golden golden;
  ASSERT_EQ(golden.load(GetParam()), "");
  std::string error;
  std::unique_ptr<testing::OwnedMethod> m = testing::OwnedMethod::load(*golden.program, {}, &error);
  ASSERT_TRUE(m != nullptr) << error;
  Method& method = *m->method;
  ASSERT_EQ(method.num_inputs(), golden.inputs.size());
  ASSERT_EQ(method.num_outputs(), golden.expected.size());
  std::vector<std::unique_ptr<testing::NpyTensor>> inputs;
  for (size_t i = 0; i < golden.inputs.size(); ++i) {
    inputs.push_back(std::make_unique<testing::NpyTensor>(golden.inputs[i]));
    ASSERT_EQ(method.set_input(i, inputs.back()->tensor()), Error::Ok) << method.last_error();
  }
  ASSERT_EQ(method.execute(), Error::Ok) << method.last_error();
  for (size_t o = 0; o < golden.expected.size(); ++o) {
    const tools::NpyArray& want = golden.expected[o];
    ASSERT_TRUE(method.output(o).is_tensor());
    const Tensor& got = method.output(o).to_tensor();
    ASSERT_EQ(got.scalar_type(), ScalarType::Float);
    ASSERT_EQ(want.dtype, ScalarType::Float);
    ASSERT_EQ(got.dim(), static_cast<int>(want.shape.size()));
    for (int d = 0; d < got.dim(); ++d) ASSERT_EQ(got.size(d), want.shape[d]) << "dim " << d;
    const float* g = got.const_data_ptr<float>();
    const float* w = reinterpret_cast<const float*>(want.data.data());
    // The Python test's tolerance (atol 1e-5, torch's float32 rtol): other
    // ISAs may fuse or reorder floating point differently.
    for (int64_t i = 0; i < got.numel(); ++i) {
      ASSERT_LE(std::fabs(g[i] - w[i]), 1e-5f + 1.3e-6f * std::fabs(w[i]))
          << "output " << o << " element " << i << ": " << g[i] << " vs eager " << w[i];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Compat, Golden, ::testing::ValuesIn(golden_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace ember
