// Bad input at the C++ Module API: each gives an error code and a one-line
// message naming what is wrong and what was expected; nothing runs on it.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "extension/module/module.h"
#include "method_harness.h"
#include "program_builder.h"
#include "runtime/core/log.h"
#include "tensor_factory.h"

namespace ember {
namespace {

std::string golden_path(const std::string& name) {
  return testing::source_path("tests/compat/" + name + ".pte");
}

std::unique_ptr<Module> load(const std::string& name) {
  ModuleOptions options;
  options.num_threads = 1;
  Result<std::unique_ptr<Module>> module = Module::load(golden_path(name).c_str(), options);
  return module.ok() ? std::move(module.get()) : nullptr;
}

// Runs forward on `inputs`; returns the error and, through `message`, why.
Error run(Module& module, std::vector<EValue> inputs, std::string* message) {
  const Error err = module.run("forward", Span<const EValue>(inputs.data(), inputs.size()));
  *message = module.last_error();
  EXPECT_EQ(message->find('\n'), std::string::npos) << "one line: " << *message;
  return err;
}

struct BadInput : ::testing::Test {
  std::unique_ptr<Module> mlp = load("et12_v0_ember_mlp");  // [3, 8] float -> [3, 4]
  std::unique_ptr<Module> dynamic = load("et12_v0_ember_mlp_dynamic_batch");  // [<=8, 8]
  std::string message;
};

TEST_F(BadInput, WrongNumberOfInputs) {
  testing::OwnedTensor x(ScalarType::Float, {3, 8});
  EXPECT_EQ(run(*mlp, {EValue(&x.tensor()), EValue(&x.tensor())}, &message), Error::InvalidArgument);
  EXPECT_EQ(message, "forward takes 1 input, got 2");
  EXPECT_EQ(run(*mlp, {}, &message), Error::InvalidArgument);
  EXPECT_EQ(message, "forward takes 1 input, got 0");
}

TEST_F(BadInput, WrongDtype) {
  testing::OwnedTensor x(ScalarType::Double, {3, 8});
  EXPECT_EQ(run(*mlp, {EValue(&x.tensor())}, &message), Error::InvalidArgument);
  EXPECT_EQ(message, "input 0: expected dtype Float, got Double");
}

TEST_F(BadInput, WrongRank) {
  testing::OwnedTensor x(ScalarType::Float, {3, 8, 1});
  EXPECT_EQ(run(*mlp, {EValue(&x.tensor())}, &message), Error::InvalidArgument);
  EXPECT_EQ(message, "input 0: expected a tensor of rank 2, got rank 3");
}

TEST_F(BadInput, WrongSize) {
  testing::OwnedTensor x(ScalarType::Float, {3, 7});
  EXPECT_EQ(run(*mlp, {EValue(&x.tensor())}, &message), Error::InvalidArgument);
  EXPECT_NE(message.find("input 0: dim 1 must be 8, got 7"), std::string::npos) << message;
}

TEST_F(BadInput, ZeroSizeForAStaticShape) {
  testing::OwnedTensor x(ScalarType::Float, {0, 8});
  EXPECT_EQ(run(*mlp, {EValue(&x.tensor())}, &message), Error::InvalidArgument);
  EXPECT_NE(message.find("input 0: dim 0 must be 3, got 0"), std::string::npos) << message;
}

TEST_F(BadInput, PastADynamicDimsBound) {
  testing::OwnedTensor x(ScalarType::Float, {9, 8});
  EXPECT_EQ(run(*dynamic, {EValue(&x.tensor())}, &message), Error::InvalidArgument);
  EXPECT_NE(message.find("input 0: dim 0 is 9, past its upper bound of 8"), std::string::npos)
      << message;
}

// Programs Ember exports say which dims are dynamic and name their inputs:
// a wrong channel count is refused when the input is set, naming it, rather
// than by the first convolution that trips on it.
TEST_F(BadInput, StaticDimOfADynamicInputMustMatch) {
  std::unique_ptr<Module> convnet = load("et12_v0_ember_convnet_dynamic_batch");  // [<=8, 3, 8, 8]
  ASSERT_NE(convnet, nullptr);
  EXPECT_STREQ(convnet->method_meta().get().input_name(0), "x");
  testing::OwnedTensor gray(ScalarType::Float, {2, 1, 8, 8});
  EXPECT_EQ(run(*convnet, {EValue(&gray.tensor())}, &message), Error::InvalidArgument);
  EXPECT_EQ(message, "input 0 (x): dim 1 must be 3, got 1 (the model was exported with only other "
                     "dims dynamic)");
  testing::OwnedTensor big(ScalarType::Float, {9, 3, 8, 8});
  EXPECT_EQ(run(*convnet, {EValue(&big.tensor())}, &message), Error::InvalidArgument);
  EXPECT_NE(message.find("input 0 (x): dim 0 is 9, past its upper bound of 8"), std::string::npos)
      << message;
  testing::OwnedTensor ok(ScalarType::Float, {5, 3, 8, 8});
  EXPECT_EQ(run(*convnet, {EValue(&ok.tensor())}, &message), Error::Ok) << message;
}

// A zero-size batch within the bounds is a valid input: it runs, giving an
// empty output, as eager PyTorch does.
TEST_F(BadInput, ZeroSizeDynamicBatchRuns) {
  testing::OwnedTensor x(ScalarType::Float, {0, 8});
  ASSERT_EQ(run(*dynamic, {EValue(&x.tensor())}, &message), Error::Ok) << message;
  const Tensor& out = dynamic->method().get()->output(0).to_tensor();
  EXPECT_EQ(out.size(0), 0);
  EXPECT_EQ(out.size(1), 4);
}

TEST_F(BadInput, NoneForATensor) {
  EXPECT_EQ(run(*mlp, {EValue()}, &message), Error::InvalidArgument);
  EXPECT_EQ(message, "input 0: expected Tensor, got None");
  EXPECT_EQ(run(*mlp, {EValue(int64_t{3})}, &message), Error::InvalidArgument);
  EXPECT_EQ(message, "input 0: expected Tensor, got Int");
}

// A byte other than 0 or 1 in a bool tensor is not a bool: kernels would
// load it as one (undefined behaviour), so it is refused at set_input.
TEST(BadBoolInput, ByteThatIsNotABool) {
  testing::ProgramBuilder b;
  const int32_t mask = b.tensor(fb::ScalarType::BOOL, {4});
  const int32_t out = b.tensor(fb::ScalarType::BOOL, {4});
  b.call("aten::logical_not", "out", {mask, out, out});
  const std::vector<uint8_t> bytes = b.finish({mask}, {out});
  Result<std::unique_ptr<Module>> module = Module::load_buffer(bytes.data(), bytes.size());
  ASSERT_TRUE(module.ok());
  testing::OwnedTensor input(ScalarType::Bool, {4});
  uint8_t* raw = input.data<uint8_t>();
  raw[0] = 1, raw[1] = 0, raw[2] = 2, raw[3] = 1;
  const EValue in(&input.tensor());
  EXPECT_EQ(module.get()->run("forward", Span<const EValue>(&in, 1)), Error::InvalidArgument);
  EXPECT_STREQ(module.get()->last_error(), "input 0: bool element 2 holds 2; a bool is 0 or 1");
  raw[2] = 0;
  ASSERT_EQ(module.get()->run("forward", Span<const EValue>(&in, 1)), Error::Ok)
      << module.get()->last_error();
  const uint8_t* result = module.get()->method().get()->output(0).to_tensor().const_data_ptr<uint8_t>();
  EXPECT_EQ(result[0], 0);
  EXPECT_EQ(result[1], 1);
  EXPECT_EQ(result[2], 1);
  EXPECT_EQ(result[3], 0);
}

TEST_F(BadInput, TensorWithoutData) {
  std::vector<int32_t> sizes = {3, 8};
  std::vector<uint8_t> dim_order = {0, 1};
  std::vector<int32_t> strides(2);
  Tensor x(ScalarType::Float, 2, sizes.data(), dim_order.data(), strides.data(), nullptr, 0);
  EXPECT_EQ(run(*mlp, {EValue(&x)}, &message), Error::InvalidArgument);
  EXPECT_EQ(message, "input 0: the tensor has 24 elements but no data");
}

// Another memory layout of the right shape is not an error: it is copied in.
TEST_F(BadInput, ChannelsLastInputGivesTheRowMajorResult) {
  testing::Golden golden;
  ASSERT_EQ(golden.load("et12_v0_ember_convnet"), "");
  std::unique_ptr<Module> convnet = load("et12_v0_ember_convnet");
  testing::OwnedTensor nhwc(ScalarType::Float, {1, 3, 8, 8}, TensorShapeDynamism::Static,
                            {0, 2, 3, 1});
  const testing::NpyTensor nchw(golden.inputs[0]);
  copy_across_dim_orders(nchw.tensor(), nhwc.tensor());
  ASSERT_EQ(run(*convnet, {EValue(&nhwc.tensor())}, &message), Error::Ok) << message;
  const float* out = convnet->method().get()->output(0).to_tensor().const_data_ptr<float>();
  const float* want = reinterpret_cast<const float*>(golden.expected[0].data.data());
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(out[i], want[i], 1e-5f) << i;
}

TEST_F(BadInput, NoSuchMethod) {
  EXPECT_EQ(mlp->method("backward").error(), Error::NotFound);
  EXPECT_STREQ(mlp->last_error(), "the program has no method named 'backward'");
}

TEST(BadProgramFile, DirectoryEmptyFileAndMissingFile) {
  clear_last_error_message();
  EXPECT_EQ(Module::load(testing::source_path("tests/compat").c_str()).error(), Error::AccessFailed);
  EXPECT_NE(std::string(last_error_message()).find("tests/compat is a directory, not a .pte program file"),
            std::string::npos) << last_error_message();

  const std::string empty = ::testing::TempDir() + "/ember_empty.pte";
  std::ofstream(empty).close();
  for (auto mode : {ModuleOptions::LoadMode::Mmap, ModuleOptions::LoadMode::File}) {
    ModuleOptions options;
    options.load_mode = mode;
    EXPECT_EQ(Module::load(empty.c_str(), options).error(), Error::InvalidProgram);
    EXPECT_STREQ(last_error_message(), "the file is empty, not a .pte program");
  }

  EXPECT_EQ(Module::load("/nonexistent/model.pte").error(), Error::AccessFailed);
  EXPECT_NE(std::string(last_error_message()).find("cannot open /nonexistent/model.pte"),
            std::string::npos) << last_error_message();
}

}  // namespace
}  // namespace ember
