// Module: the convenient C++ front door. Loads a .pte, allocates the planned
// arenas, the method tables and the delegates' temp memory from the heap (at
// load time only), owns a thread pool, and runs a method on caller tensors.
// Applications that must not use the heap at all drive Program and Method
// directly with their own MemoryManager.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "extension/module/chunk_allocator.h"
#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/thread_pool.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"

namespace ember {

struct ModuleOptions {
  enum class LoadMode { File, Mmap };
  LoadMode load_mode = LoadMode::Mmap;
  // Threads kernels and backends may use, the caller's included: 0 means
  // one per available core, 1 runs everything on the calling thread.
  size_t num_threads = 0;
  // Use this pool instead of making one (num_threads is then ignored); it
  // must outlive the module.
  ThreadPool* thread_pool = nullptr;
};

class Module final {
 public:
  using LoadMode = ModuleOptions::LoadMode;

  // Loads and verifies the program; methods are loaded on first use.
  static Result<std::unique_ptr<Module>> load(const char* path,
                                              const ModuleOptions& options = ModuleOptions());
  // Loads from bytes the caller keeps alive.
  static Result<std::unique_ptr<Module>> load_buffer(const void* data, size_t size,
                                                     const ModuleOptions& options = ModuleOptions());
  ~Module();

  const Program& program() const { return *program_; }
  Result<MethodMeta> method_meta(const char* name = "forward") const {
    return program_->method_meta(name);
  }
  // Loads (once) and returns the named method.
  Result<Method*> method(const char* name = "forward");

  // Sets every input and executes. Outputs stay valid until the next call.
  Error run(const char* name, Span<const EValue> inputs);
  // Mutable buffers (KV caches) of every loaded method back to their initial
  // data. They are shared: what one method writes, the others read.
  Error reset_state();

  // Bytes of planned memory the method uses (all arenas together).
  size_t planned_bytes(const char* name = "forward") const;
  // Bytes of method-allocator memory the loaded method took (tables, layout
  // twins, delegate handles): what a heap-free application must supply.
  size_t method_allocator_bytes(const char* name = "forward") const;
  // Bytes the loaded method's delegates hold themselves (packed weights...).
  size_t delegate_bytes(const char* name = "forward") const;
  size_t num_threads() const { return thread_pool_ != nullptr ? thread_pool_->num_threads() : 1; }
  // Why the last call failed, in one line (empty if it did not).
  const char* last_error() const { return last_error_.data(); }

 private:
  struct LoadedMethod {
    std::string name;
    std::vector<std::vector<uint8_t>> arenas;
    std::vector<Span<uint8_t>> arena_spans;
    std::unique_ptr<ChunkAllocator> method_allocator;
    std::vector<uint8_t> temp_memory;
    std::unique_ptr<MemoryAllocator> temp_allocator;
    std::unique_ptr<MemoryManager> memory_manager;
    std::unique_ptr<Method> method;
  };

  Module() = default;
  static Result<std::unique_ptr<Module>> from_loader(std::unique_ptr<DataLoader> loader,
                                                     const ModuleOptions& options);
  const LoadedMethod* loaded(const char* name) const;
  void set_last_error(const char* message);

  std::unique_ptr<DataLoader> loader_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<ThreadPool> own_thread_pool_;
  ThreadPool* thread_pool_ = nullptr;
  std::vector<std::unique_ptr<LoadedMethod>> methods_;
  // Planned buffers from index 1 (memory id 2) on hold the mutable buffers
  // that all methods share; the data of the ones initialised so far.
  static constexpr size_t kFirstSharedArena = 1;
  std::vector<std::vector<uint8_t>> shared_arenas_;
  std::vector<const void*> initialized_buffers_;
  std::vector<char> last_error_ = std::vector<char>(1, '\0');
};

}  // namespace ember
