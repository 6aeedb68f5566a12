// The model runner for Cortex-M boards: the program and its inputs are in
// flash (ember.targets.cortex_m.image put them there), the planned arenas and
// the method pool are static buffers sized from the program at build time.
// It loads the program in place with a buffer loader, runs the method once,
// prints the outputs (as the bits of each element, so the host can compare
// them exactly), the memory it used and the instructions each step took,
// and returns 0, or the runtime's error code, as QEMU's exit status.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "model_config.h"
#include "runtime/core/log.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/event_tracer.h"
#include "runtime/executor/memory_manager.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "targets/cortex-m/board.h"

extern "C" {
// targets/cortex-m/boards/sections.ld: the image's static data and stack.
extern char __data_start[], __bss_end[];
// model_data.cpp (generated)
extern const uint8_t ember_model_pte[], ember_model_pte_end[];
extern const uint8_t ember_model_inputs[], ember_model_inputs_end[];
}

namespace {

using ember::board::print;
using ember::board::print_uint;

constexpr size_t kNumBuffers = EMBER_MODEL_NUM_BUFFERS;
constexpr size_t kBufferSizes[kNumBuffers > 0 ? kNumBuffers : 1] = EMBER_MODEL_BUFFER_SIZES;
#ifndef EMBER_RUNNER_TEMP_BYTES
#define EMBER_RUNNER_TEMP_BYTES 0  // scratch for portable kernels that ask for it
#endif

// The memory the method gets, in the board's arena region (sections.ld).
alignas(16) __attribute__((section(".ember_arena"))) uint8_t g_arena[EMBER_MODEL_ARENA_BYTES];
alignas(16) __attribute__((section(".ember_arena")))
uint8_t g_method_pool[EMBER_MODEL_METHOD_POOL_BYTES];
alignas(16) __attribute__((section(".ember_arena"))) uint8_t g_temp[EMBER_RUNNER_TEMP_BYTES + 16];

// Elements up to this many per output are printed; more are summed up
// by a checksum only (an image's output could be large).
constexpr int64_t kMaxPrintedElements = 4096;

void print_line(const char* key, uint64_t value) {
  print(key);
  print_uint(value);
  print("\n");
}

int fail(const char* what, ember::Error error) {
  print("ember-runner: ");
  print(what);
  print(" failed: ");
  print(ember::error_name(error));
  print(" (");
  print(ember::last_error_message());
  print(")\n");
  return static_cast<int>(error) + 1;
}

// Instructions per operator: a tracer that charges each instruction's count
// to its operator name (at most kMaxOps distinct names; the rest go to
// "other"), for a second, traced execute.
class OpProfile final : public ember::EventTracer {
 public:
  explicit OpProfile(const ember::Method* method) : method_(method) {}
  void begin_instruction(size_t) override { start_ = ember::board::counter_ticks(); }
  void end_instruction(size_t index, ember::Span<ember::EValue*>) override {
    const uint64_t ticks = ember::board::counter_ticks() - start_;
    const char* name = method_->instruction_name(index);
    size_t i = 0;
    while (i < count_ && std::strcmp(names_[i], name) != 0) ++i;
    if (i == count_) {
      if (count_ == kMaxOps) {
        i = kMaxOps;  // other
      } else {
        names_[count_++] = name;
      }
    }
    ticks_[i] += ticks;
    calls_[i] += 1;
  }
  void print_lines() const {
    for (size_t i = 0; i <= count_ && i <= kMaxOps; ++i) {
      if (calls_[i] == 0) continue;
      print("op ");
      print(i < count_ ? names_[i] : "other");
      print(" calls ");
      print_uint(calls_[i]);
      print(" instructions ");
      print_uint(ember::board::instructions(ticks_[i]));
      print("\n");
    }
  }

 private:
  static constexpr size_t kMaxOps = 24;
  const ember::Method* method_;
  const char* names_[kMaxOps] = {};
  uint64_t ticks_[kMaxOps + 1] = {};
  uint32_t calls_[kMaxOps + 1] = {};
  size_t count_ = 0;
  uint64_t start_ = 0;
};

// 32-bit FNV-1a over an output's bytes.
uint32_t checksum(const uint8_t* data, size_t size) {
  uint32_t hash = 2166136261u;
  for (size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 16777619u;
  return hash;
}

void print_tensor(size_t index, const ember::Tensor& t) {
  print("output ");
  print_uint(index);
  print(" ");
  print(ember::scalar_type_name(t.scalar_type()));
  print(" [");
  for (int d = 0; d < t.dim(); ++d) {
    if (d > 0) print(",");
    print_uint(static_cast<uint64_t>(t.size(d)));
  }
  print("] fnv1a ");
  const auto* bytes = t.const_data_ptr<uint8_t>();
  ember::board::print_hex32(checksum(bytes, t.nbytes()));
  print("\n");
  // The elements' bits, 8 per line, in the tensor's own width.
  const size_t width = t.element_size();
  const int64_t count = t.numel() < kMaxPrintedElements ? t.numel() : kMaxPrintedElements;
  for (int64_t i = 0; i < count; ++i) {
    if (i % 8 == 0) print(i == 0 ? "data " : "\ndata ");
    else print(" ");
    uint32_t bits = 0;
    std::memcpy(&bits, bytes + i * width, width <= 4 ? width : 4);
    ember::board::print_hex32(bits);
  }
  if (count > 0) print("\n");
}

}  // namespace

int main() {
  const uint64_t start = ember::board::counter_ticks();
  ember::BufferDataLoader loader(ember_model_pte,
                                 static_cast<size_t>(ember_model_pte_end - ember_model_pte));
  auto program = ember::Program::load(&loader);
  if (!program.ok()) return fail("Program::load", program.error());
  const uint64_t loaded = ember::board::counter_ticks();

  auto meta = program->method_meta(EMBER_MODEL_METHOD);
  if (!meta.ok()) return fail("method_meta", meta.error());
  // The planned arenas back to back in g_arena, as the image tool sized it.
  ember::Span<uint8_t> buffers[kNumBuffers > 0 ? kNumBuffers : 1];
  size_t offset = 0;
  for (size_t i = 0; i < kNumBuffers; ++i) {
    buffers[i] = {g_arena + offset, kBufferSizes[i]};
    offset += (kBufferSizes[i] + 15) / 16 * 16;
  }
  ember::MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
  ember::MemoryAllocator temp_allocator(g_temp, EMBER_RUNNER_TEMP_BYTES);
  ember::MemoryManager memory;
  memory.method_allocator = &method_allocator;
  memory.planned_buffers = {buffers, kNumBuffers};
  memory.temp_allocator = &temp_allocator;
  auto method = program->load_method(EMBER_MODEL_METHOD, &memory);
  if (!method.ok()) return fail("load_method", method.error());
  const uint64_t initialised = ember::board::counter_ticks();

  // Inputs: raw bytes in flash, back to back in input order.
  const uint8_t* input = ember_model_inputs;
  for (size_t i = 0; i < method->num_inputs(); ++i) {
    auto info = meta->input_tensor_info(i);
    if (!info.ok()) return fail("input_tensor_info", info.error());
    ember::SizesType sizes[ember::kTensorDimensionLimit];
    ember::DimOrderType order[ember::kTensorDimensionLimit];
    ember::StridesType strides[ember::kTensorDimensionLimit];
    const size_t dim = info->sizes.size();
    size_t nbytes = ember::element_size(info->dtype);
    for (size_t d = 0; d < dim; ++d) {
      sizes[d] = info->sizes[d];
      order[d] = static_cast<ember::DimOrderType>(d);
      nbytes *= static_cast<size_t>(info->sizes[d]);
    }
    if (input + nbytes > ember_model_inputs_end) {
      print("ember-runner: the image holds fewer input bytes than the method's inputs need\n");
      return static_cast<int>(ember::Error::InvalidArgument) + 1;
    }
    ember::Tensor tensor(info->dtype, static_cast<int>(dim), sizes, order, strides,
                         const_cast<uint8_t*>(input), nbytes);
    const ember::Error set = method->set_input(i, tensor);
    if (set != ember::Error::Ok) return fail("set_input", set);
    input += nbytes;
  }

  const uint64_t before_run = ember::board::counter_ticks();
  const ember::Error run = method->execute();
  const uint64_t after_run = ember::board::counter_ticks();
  if (run != ember::Error::Ok) {
    print("ember-runner: execute failed: ");
    print(method->last_error());
    print("\n");
    return static_cast<int>(run) + 1;
  }

  print("model " EMBER_MODEL_NAME " on " EMBER_CORTEX_M_CPU_NAME "\n");
  for (size_t i = 0; i < method->num_outputs(); ++i) {
    const ember::EValue& value = method->output(i);
    if (value.is_tensor()) print_tensor(i, value.to_tensor());
  }
  const size_t statics = static_cast<size_t>(__bss_end - __data_start);
  print_line("memory arena ", sizeof(g_arena));
  print_line("memory method_pool ", sizeof(g_method_pool));
  print_line("memory method_pool_used ", method_allocator.used());
  print_line("memory method_table_bound ", meta->method_table_bytes());
  print_line("memory temp_used ", temp_allocator.used());
  print_line("memory static_data ", statics);
  print_line("memory stack_used ", ember::board::stack_used());
  print_line("memory program_bytes ", static_cast<size_t>(ember_model_pte_end - ember_model_pte));
  print_line("instructions load ", ember::board::instructions(loaded - start));
  print_line("instructions init ", ember::board::instructions(initialised - loaded));
  print_line("instructions execute ", ember::board::instructions(after_run - before_run));
  // Where execute's instructions go, from a second run with a tracer (its
  // own cost, a few hundred instructions per instruction, lands in the ops).
  OpProfile profile(&method.get());
  method->set_event_tracer(&profile);
  const ember::Error traced = method->execute();
  method->set_event_tracer(nullptr);
  if (traced != ember::Error::Ok) return fail("the traced execute", traced);
  profile.print_lines();
  print("ember-runner: ok\n");
  return 0;
}
