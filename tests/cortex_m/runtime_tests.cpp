// The runtime's tests that make sense on a microcontroller, run on the board
// under QEMU (ctest cortex_m.runtime_tests): the golden programs of
// tests/compat load from flash with a buffer loader and give their stored
// outputs; every malformed program of tests/malformed (but those with
// delegates: the board has no CPU backend) is refused at the stage and
// with the error cases.tsv says, never a fault; nothing allocates (the
// image links no malloc: check_image.cmake). Exit status: the failures.
#include <cmath>
#include <cstring>

#include "runtime/core/log.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/memory_manager.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "targets/cortex-m/board.h"
#include "tests/cortex_m/runtime_cases.h"

namespace ember::cortex_m::testing {
namespace {

using board::print;

// Memory for one case at a time: planned arenas, method tables, inputs.
constexpr size_t kArenaBytes = 192 * 1024;
constexpr size_t kPoolBytes = 64 * 1024;
alignas(16) __attribute__((section(".ember_arena"))) uint8_t g_arena[kArenaBytes];
alignas(16) __attribute__((section(".ember_arena"))) uint8_t g_pool[kPoolBytes];
alignas(16) __attribute__((section(".ember_arena"))) uint8_t g_inputs[16 * 1024];

// The limits the host's malformed-corpus test sets (tests/cpp/runtime).
constexpr size_t kMaxMemoryBytes = 256u << 20;
constexpr uint64_t kMaxInstructions = 100000;

int g_failures = 0;
int g_skipped = 0;

struct Outcome {
  const char* stage = "ran";
  Error error = Error::Ok;
  char message[320] = {};
};

// Planned arenas for `meta` carved from g_arena; false when they do not fit.
bool plan_buffers(const MethodMeta& meta, Span<uint8_t>* buffers, size_t* count) {
  size_t used = 0;
  *count = meta.num_planned_buffers();
  if (*count > 8) return false;
  for (size_t i = 0; i < *count; ++i) {
    const size_t size = meta.planned_buffer_size(i);
    if (size > kArenaBytes - used) return false;
    buffers[i] = {g_arena + used, size};
    used += (size + 15) / 16 * 16;
  }
  return true;
}

// Loads `pte`, initialises forward and runs it on `inputs` (zeros shaped
// as the method says when null); what happened goes to `outcome`, and the
// method's output 0 to `output` (when it ran and output is not null).
void run(const uint8_t* pte, const uint8_t* end, const GoldenInput* inputs, int num_inputs,
         Outcome* outcome, const float** output, size_t* output_count) {
  clear_last_error_message();
  BufferDataLoader loader(pte, static_cast<size_t>(end - pte));
  auto program = Program::load(&loader);
  if (!program.ok()) {
    outcome->stage = "load";
    outcome->error = program.error();
    std::strncpy(outcome->message, last_error_message(), sizeof(outcome->message) - 1);
    return;
  }
  auto meta = program->method_meta("forward");
  Span<uint8_t> buffers[8];
  size_t num_buffers = 0;
  MemoryAllocator pool(g_pool, kPoolBytes);
  MemoryManager memory;
  memory.method_allocator = &pool;
  MethodConfig config;
  config.max_memory_bytes = kMaxMemoryBytes;
  config.max_instructions = kMaxInstructions;
  if (meta.ok() && plan_buffers(meta.get(), buffers, &num_buffers)) {
    memory.planned_buffers = {buffers, num_buffers};
  }
  auto method = program->load_method("forward", &memory, config);
  if (!method.ok()) {
    outcome->stage = "init";
    outcome->error = method.error();
    std::strncpy(outcome->message, last_error_message(), sizeof(outcome->message) - 1);
    return;
  }
  size_t used = 0;
  for (size_t i = 0; i < method->num_inputs(); ++i) {
    auto info = meta->input_tensor_info(i);
    if (!info.ok()) continue;
    SizesType sizes[kTensorDimensionLimit];
    DimOrderType order[kTensorDimensionLimit];
    StridesType strides[kTensorDimensionLimit];
    const bool given = inputs != nullptr && static_cast<int>(i) < num_inputs;
    const ScalarType dtype = given ? static_cast<ScalarType>(inputs[i].dtype) : info->dtype;
    const size_t dim = given ? static_cast<size_t>(inputs[i].dim) : info->sizes.size();
    size_t nbytes = element_size(dtype);
    for (size_t d = 0; d < dim; ++d) {
      sizes[d] = given ? inputs[i].sizes[d] : info->sizes[d];
      order[d] = static_cast<DimOrderType>(d);
      nbytes *= static_cast<size_t>(sizes[d]);
    }
    if (nbytes > sizeof(g_inputs) - used) break;
    uint8_t* data = g_inputs + used;
    if (given) {
      std::memcpy(data, inputs[i].data, nbytes);
    } else {
      std::memset(data, 0, nbytes);
    }
    used += (nbytes + 15) / 16 * 16;
    Tensor tensor(dtype, static_cast<int>(dim), sizes, order, strides, data, nbytes);
    if (method->set_input(i, tensor) != Error::Ok) break;
  }
  const Error error = method->execute();
  if (error != Error::Ok) {
    outcome->stage = "execute";
    outcome->error = error;
    std::strncpy(outcome->message, method->last_error(), sizeof(outcome->message) - 1);
    return;
  }
  if (output != nullptr && method->num_outputs() > 0 && method->output(0).is_tensor()) {
    const Tensor& t = method->output(0).to_tensor();
    *output = t.scalar_type() == ScalarType::Float ? t.const_data_ptr<float>() : nullptr;
    *output_count = static_cast<size_t>(t.numel());
  }
}

void fail(const char* what, const char* name, const char* detail) {
  ++g_failures;
  print("FAIL ");
  print(what);
  print(" ");
  print(name);
  print(": ");
  print(detail);
  print("\n");
}

void test_goldens() {
  for (size_t i = 0; i < kNumGoldens; ++i) {
    const GoldenCase& c = kGoldens[i];
    Outcome outcome;
    const float* output = nullptr;
    size_t count = 0;
    run(c.pte, c.pte_end, c.inputs, c.num_inputs, &outcome, &output, &count);
    if (outcome.error != Error::Ok) {
      fail("golden", c.name, outcome.message);
      continue;
    }
    if (output == nullptr || count != c.expected_count) {
      fail("golden", c.name, "the output is not the expected float tensor");
      continue;
    }
    // Float kernels on this core round differently from the host's (no
    // FMA contraction there, other summation orders): a few ulp.
    const float* expected = reinterpret_cast<const float*>(c.expected);
    for (size_t k = 0; k < count; ++k) {
      if (!(std::fabs(output[k] - expected[k]) <= 1e-5f + 1e-4f * std::fabs(expected[k]))) {
        fail("golden", c.name, "an output differs from the stored one");
        break;
      }
    }
  }
}

void test_malformed() {
  for (size_t i = 0; i < kNumMalformed; ++i) {
    const MalformedCase& c = kMalformed[i];
    Outcome outcome;
    run(c.pte, c.pte_end, nullptr, 0, &outcome, nullptr, nullptr);
    const char* got = error_name(outcome.error);
    if (outcome.error == Error::OperatorMissing && std::strcmp(c.error, "OperatorMissing") != 0) {
      ++g_skipped;  // its program calls a kernel this image does not link
      continue;
    }
    if (std::strcmp(outcome.stage, c.stage) != 0 || std::strcmp(got, c.error) != 0 ||
        std::strstr(outcome.message, c.message) == nullptr) {
      fail("malformed", c.file, outcome.message);
      print("  expected ");
      print(c.stage);
      print(" ");
      print(c.error);
      print(", got ");
      print(outcome.stage);
      print(" ");
      print(got);
      print("\n");
    }
  }
}

}  // namespace
}  // namespace ember::cortex_m::testing

int main() {
  using namespace ember::cortex_m::testing;
  ember::set_log_threshold(ember::LogLevel::Fatal);  // the refusals are expected
  test_goldens();
  test_malformed();
  print("runtime tests on " EMBER_CORTEX_M_CPU_NAME ": ");
  ember::board::print_uint(kNumGoldens);
  print(" golden programs, ");
  ember::board::print_uint(kNumMalformed - static_cast<size_t>(g_skipped));
  print(" malformed programs refused as expected (");
  ember::board::print_uint(static_cast<uint64_t>(g_skipped));
  print(" call kernels this image leaves out), ");
  ember::board::print_int(g_failures);
  print(" failures\n");
  return g_failures;
}
