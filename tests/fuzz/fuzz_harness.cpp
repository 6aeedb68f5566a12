#include "tests/fuzz/fuzz_harness.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#include "extension/module/module.h"
#include "runtime/core/log.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "tests/backend/test_backend.h"

namespace ember::fuzz {
namespace {

// The file in read-only pages that end (to within the 8-byte alignment the
// loader needs) at an inaccessible guard page: reading past the end of the
// file or writing into it (a kernel told to write a constant) faults, as it
// would on an mmap'd program.
class ReadOnlyCopy {
 public:
  ReadOnlyCopy(const uint8_t* data, size_t size) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t data_pages = (size + 7 + page - 1) / page * page;
    mapped_size_ = data_pages + page;
    void* base = mmap(nullptr, mapped_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
    if (base == MAP_FAILED) abort();
    base_ = static_cast<uint8_t*>(base);
    data_ = base_ + (data_pages - size) / 8 * 8;
    if (size > 0) std::memcpy(data_, data, size);
    mprotect(base_, data_pages, PROT_READ);
    mprotect(base_ + data_pages, page, PROT_NONE);
    size_ = size;
  }
  ~ReadOnlyCopy() { munmap(base_, mapped_size_); }
  ReadOnlyCopy(const ReadOnlyCopy&) = delete;
  ReadOnlyCopy& operator=(const ReadOnlyCopy&) = delete;
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  uint8_t* base_ = nullptr;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_size_ = 0;
};

// A small deterministic stream of choices derived from the input bytes:
// the same file always gets the same inputs, so a finding replays.
class Choices {
 public:
  Choices(const uint8_t* data, size_t size) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
    state_ = h | 1;
  }
  uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }

 private:
  uint64_t state_;
};

// Reads everything MethodMeta reports for every method: each accessor must
// cope with whatever the verified flatbuffer holds.
void inspect(const Program& program) {
  for (size_t i = 0; i < program.num_methods(); ++i) {
    Result<const char*> name = program.method_name(i);
    if (!name.ok()) continue;
    Result<MethodMeta> meta = program.method_meta(name.get());
    if (!meta.ok()) continue;
    for (size_t k = 0; k < meta->num_inputs(); ++k) (void)meta->input_tensor_info(k);
    for (size_t k = 0; k < meta->num_outputs(); ++k) (void)meta->output_tensor_info(k);
    for (size_t k = 0; k < meta->num_planned_buffers(); ++k) (void)meta->planned_buffer_size(k);
    (void)meta->method_table_bytes();
    (void)meta->planned_bytes();
  }
}

// A tensor the harness owns, shaped from an input spec.
struct HostTensor {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  std::vector<int32_t> strides;
  std::vector<uint8_t> data;
  Tensor tensor;
};

// Values that break careless kernels: specials for floats, extremes and
// negative indices for integers.
void fill(HostTensor& h, ScalarType dtype, Choices& choices) {
  const size_t item = element_size(dtype);
  const size_t n = item == 0 ? 0 : h.data.size() / item;
  static const double kFloats[] = {0.0, -0.0, 1.0, -1.5, 0.5, 1e30, -1e30, 1e-40,
                                   std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::quiet_NaN()};
  static const int64_t kInts[] = {0, 1, 2, -1, -2, 3, 7, 127, -128, 255, 65535,
                                  std::numeric_limits<int32_t>::max(),
                                  std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min()};
  for (size_t i = 0; i < n; ++i) {
    uint8_t* p = h.data.data() + i * item;
    const uint64_t pick = choices.next();
    const bool special = (pick & 7) == 0;
    switch (dtype) {
      case ScalarType::Float: {
        const float v = special ? static_cast<float>(kFloats[(pick >> 3) % 11])
                                : static_cast<float>(static_cast<int>((pick >> 3) % 2001) - 1000) / 100.0f;
        std::memcpy(p, &v, sizeof(v));
        break;
      }
      case ScalarType::Double: {
        const double v = special ? kFloats[(pick >> 3) % 11]
                                 : static_cast<double>(static_cast<int>((pick >> 3) % 2001) - 1000) / 100.0;
        std::memcpy(p, &v, sizeof(v));
        break;
      }
      case ScalarType::Bool:
        *p = static_cast<uint8_t>(pick >> 3 & 1);  // a bool byte other than 0/1 is not a bool
        break;
      default: {
        // Integers (and the bits of half, bfloat16, quantized types).
        const int64_t v = special ? kInts[(pick >> 3) % 15] : static_cast<int64_t>((pick >> 3) % 10);
        std::memcpy(p, &v, item < sizeof(v) ? item : sizeof(v));
        break;
      }
    }
  }
}

// Makes input `index` of `method` from its spec: the planned sizes, or for a
// dynamic input sizes within (and now and then past) its bounds. False when
// the input is too big to make.
bool make_input(const MethodMeta& meta, const Method& method, size_t index, Choices& choices,
                HostTensor& h, EValue* out) {
  const EValue& slot = method.input(index);
  if (!slot.is_tensor()) {
    // Scalar inputs: the right kind, or now and then the wrong one.
    const uint64_t pick = choices.below(8);
    if (pick == 0) *out = EValue(1.5);
    else if (slot.is_bool()) *out = EValue(pick % 2 == 0);
    else if (slot.is_double()) *out = EValue(static_cast<double>(pick) - 3.0);
    else *out = EValue(static_cast<int64_t>(pick) - 3);
    return true;
  }
  Result<MethodMeta::TensorInfo> info = meta.input_tensor_info(index);
  if (!info.ok()) return false;
  const size_t dim = info->sizes.size();
  h.sizes.resize(dim);
  h.dim_order.resize(dim);
  h.strides.resize(dim);
  uint64_t numel = 1;
  for (size_t d = 0; d < dim; ++d) {
    int64_t s = info->sizes[d];
    if ((info->dynamic_dims >> d & 1) != 0) {
      const uint64_t pick = choices.below(16);
      if (pick == 0) s += 1;  // past the bound: must be refused
      else if (pick < 8) s = static_cast<int64_t>(choices.below(static_cast<uint64_t>(s) + 1));
    }
    h.sizes[d] = static_cast<int32_t>(s);
    h.dim_order[d] = static_cast<uint8_t>(d);
    numel *= static_cast<uint64_t>(s < 0 ? 0 : s);
    if (numel > kMaxInputBytes) return false;
  }
  const uint64_t nbytes = numel * element_size(info->dtype);
  if (nbytes > kMaxInputBytes) return false;
  h.data.assign(static_cast<size_t>(nbytes), 0);
  fill(h, info->dtype, choices);
  h.tensor = Tensor(info->dtype, static_cast<int>(dim), h.sizes.data(), h.dim_order.data(),
                    h.strides.data(), h.data.data(), h.data.size());
  *out = EValue(&h.tensor);
  return true;
}

}  // namespace

void setup() {
  set_log_threshold(LogLevel::Fatal);
  cpu::register_cpu_backend();
  testing::register_test_backend();
}

void load_program(const uint8_t* data, size_t size) {
  const ReadOnlyCopy bytes(data, size);
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  if (program.ok()) inspect(program.get());
}

void init_methods(const uint8_t* data, size_t size) {
  const ReadOnlyCopy bytes(data, size);
  BufferDataLoader loader(bytes.data(), bytes.size());
  Result<Program> program = Program::load(&loader);
  if (!program.ok()) return;
  inspect(program.get());
  for (size_t i = 0; i < program->num_methods(); ++i) {
    Result<const char*> name = program->method_name(i);
    if (!name.ok()) continue;
    Result<MethodMeta> meta = program->method_meta(name.get());
    if (!meta.ok()) continue;
    MethodConfig config;
    config.max_memory_bytes = kMaxMemoryBytes;
    config.max_instructions = kMaxInstructions;
    // Over the limit: load_method must refuse before touching memory, so an
    // empty memory manager will do.
    const size_t tables = meta->method_table_bytes();
    const size_t planned = meta->planned_bytes();
    std::vector<std::vector<uint8_t>> arenas;
    std::vector<Span<uint8_t>> spans;
    std::vector<uint8_t> table_memory;
    if (planned <= kMaxMemoryBytes && tables <= kMaxMemoryBytes) {
      for (size_t k = 0; k < meta->num_planned_buffers(); ++k) {
        arenas.emplace_back(meta->planned_buffer_size(k));
        spans.emplace_back(arenas.back().data(), arenas.back().size());
      }
      table_memory.resize(tables + (256u << 10));
    }
    MemoryAllocator allocator(table_memory.data(), table_memory.size());
    MemoryManager manager;
    manager.method_allocator = &allocator;
    manager.planned_buffers = Span<Span<uint8_t>>(spans.data(), spans.size());
    Result<Method> method = program->load_method(name.get(), &manager, config);
    if (!method.ok()) continue;
    for (size_t k = 0; k < method->num_instructions(); ++k) (void)method->instruction_name(k);
    (void)method->delegate_owned_bytes();
    (void)method->required_temp_bytes();
  }
}

void execute_methods(const uint8_t* data, size_t size) {
  const ReadOnlyCopy bytes(data, size);
  ModuleOptions options;
  options.num_threads = 1;
  options.max_memory_bytes = kMaxMemoryBytes;
  options.max_instructions = kMaxInstructions;
  Result<std::unique_ptr<Module>> loaded = Module::load_buffer(bytes.data(), bytes.size(), options);
  if (!loaded.ok()) return;
  Module& module = *loaded.get();
  Choices choices(data, size);
  const Program& program = module.program();
  for (size_t i = 0; i < program.num_methods(); ++i) {
    Result<const char*> name = program.method_name(i);
    if (!name.ok()) continue;
    Result<Method*> method = module.method(name.get());
    if (!method.ok()) continue;
    Result<MethodMeta> meta = program.method_meta(name.get());
    if (!meta.ok()) continue;
    const size_t n = method.get()->num_inputs();
    std::vector<HostTensor> host(n);
    std::vector<EValue> inputs(n);
    bool made = true;
    for (size_t k = 0; k < n && made; ++k) {
      made = make_input(meta.get(), *method.get(), k, choices, host[k], &inputs[k]);
    }
    if (!made) continue;
    // Twice: the second run starts from whatever the first left behind.
    for (int run = 0; run < 2; ++run) {
      if (module.run(name.get(), Span<const EValue>(inputs.data(), inputs.size())) != Error::Ok) {
        break;
      }
    }
  }
}

}  // namespace ember::fuzz
