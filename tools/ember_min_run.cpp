// ember_min_run: the smallest useful host program around the runtime, for
// right-sized builds (docs/size.md). It loads a .pte from a buffer, runs its
// forward method once in memory it allocates up front, and writes each output
// as raw bytes, so that a selective build can be checked against eager
// PyTorch without the Module, thread pool, devtools or .npy code of ember_run.
//
//   ember_min_run model.pte [--input x0.bin ...] [--output-dir DIR]
//
// An input file holds the tensor's bytes exactly (numpy's tofile()); a
// missing one is filled with a fixed pattern. Outputs go to DIR/output<i>.bin.
// ember_min_run_cpu is the same with Ember's CPU backend registered.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/core/evalue.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/memory_allocator.h"
#include "runtime/executor/memory_manager.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#if defined(EMBER_MIN_RUN_CPU_BACKEND)
#include "backends/cpu/runtime/cpu_backend.h"
#endif

namespace {

using namespace ember;

constexpr size_t kMaxInputs = 16;
constexpr size_t kMaxBuffers = 16;

int fail(const char* what, const char* detail) {
  std::fprintf(stderr, "ember_min_run: %s%s%s\n", what, detail[0] ? ": " : "", detail);
  return 1;
}

// The whole file in one malloc'd buffer (null on failure).
void* read_file(const char* path, size_t* size) {
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return nullptr;
  void* data = nullptr;
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long n = std::ftell(f);
    if (n > 0 && std::fseek(f, 0, SEEK_SET) == 0) {
      // 16-byte alignment, as the format's constants need.
      data = std::aligned_alloc(16, (static_cast<size_t>(n) + 15) / 16 * 16);
      if (data != nullptr && std::fread(data, 1, static_cast<size_t>(n), f) != static_cast<size_t>(n)) {
        std::free(data);
        data = nullptr;
      }
      *size = static_cast<size_t>(n);
    }
  }
  std::fclose(f);
  return data;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ember_min_run model.pte [--input x.bin ...] [--output-dir DIR]\n");
    return 2;
  }
  const char* inputs[kMaxInputs] = {};
  size_t num_input_files = 0;
  const char* output_dir = nullptr;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--input") == 0 && i + 1 < argc && num_input_files < kMaxInputs) {
      inputs[num_input_files++] = argv[++i];
    } else if (std::strcmp(argv[i], "--output-dir") == 0 && i + 1 < argc) {
      output_dir = argv[++i];
    } else {
      return fail("unknown argument", argv[i]);
    }
  }

#if defined(EMBER_MIN_RUN_CPU_BACKEND)
  if (ember::cpu::register_cpu_backend() != Error::Ok) return fail("cannot register the CPU backend", "");
#endif
  size_t file_size = 0;
  void* file = read_file(argv[1], &file_size);
  if (file == nullptr) return fail("cannot read", argv[1]);
  BufferDataLoader loader(file, file_size);
  Result<Program> program = Program::load(&loader);
  if (!program.ok()) return fail("cannot load the program", error_name(program.error()));
  Result<MethodMeta> meta = program->method_meta("forward");
  if (!meta.ok()) return fail("the program has no forward method", "");

  // Every byte the method uses, allocated once here: its tables (with room
  // for layout twins and what backends keep), its planned arenas and scratch.
  const size_t table_bytes = meta->method_table_bytes() * 2 + (size_t{64} << 20);
  MemoryAllocator method_allocator(std::malloc(table_bytes), table_bytes);
  const size_t num_buffers = meta->num_planned_buffers();
  if (num_buffers > kMaxBuffers) return fail("too many planned buffers", "");
  Span<uint8_t> buffers[kMaxBuffers];
  for (size_t i = 0; i < num_buffers; ++i) {
    const size_t n = meta->planned_buffer_size(i);
    buffers[i] = Span<uint8_t>(static_cast<uint8_t*>(std::calloc(n > 0 ? n : 1, 1)), n);
  }
  const size_t temp_bytes = size_t{64} << 20;
  MemoryAllocator temp_allocator(std::malloc(temp_bytes), temp_bytes);
  MemoryManager memory{&method_allocator, Span<Span<uint8_t>>(buffers, num_buffers),
                       &temp_allocator};
  Result<Method> method = program->load_method("forward", &memory);
  if (!method.ok()) return fail("cannot initialise forward", error_name(method.error()));

  for (size_t i = 0; i < method->num_inputs(); ++i) {
    const EValue& in = method->input(i);
    if (!in.is_tensor()) return fail("only tensor inputs are supported", "");
    const Tensor& planned = in.to_tensor();
    const size_t nbytes = planned.nbytes();
    uint8_t* data = static_cast<uint8_t*>(std::malloc(nbytes > 0 ? nbytes : 1));
    if (i < num_input_files) {
      size_t got = 0;
      void* bytes = read_file(inputs[i], &got);
      if (bytes == nullptr || got != nbytes) return fail("input file has the wrong size", inputs[i]);
      std::memcpy(data, bytes, nbytes);
      std::free(bytes);
    } else {
      for (size_t b = 0; b < nbytes; ++b) data[b] = static_cast<uint8_t>((b * 7 + 3) % 61);
    }
    Tensor src = planned;
    src.set_data(data, nbytes);
    if (method->set_input(i, src) != Error::Ok) return fail("bad input", method->last_error());
  }
  if (method->execute() != Error::Ok) return fail("execute failed", method->last_error());

  for (size_t i = 0; i < method->num_outputs(); ++i) {
    const EValue& out = method->output(i);
    if (!out.is_tensor()) continue;
    const Tensor& t = out.to_tensor();
    std::printf("output %zu: %s, %lld elements\n", i, scalar_type_name(t.scalar_type()),
                static_cast<long long>(t.numel()));
    if (output_dir == nullptr) continue;
    char path[4096];
    std::snprintf(path, sizeof(path), "%s/output%zu.bin", output_dir, i);
    FILE* f = std::fopen(path, "wb");
    if (f == nullptr || std::fwrite(t.const_data_ptr(), 1, t.nbytes(), f) != t.nbytes()) {
      return fail("cannot write", path);
    }
    std::fclose(f);
  }
  return 0;
}
