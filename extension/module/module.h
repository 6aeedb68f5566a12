// Module: the convenient C++ front door. Loads a .pte, allocates the planned
// arenas, the method tables and the delegates' temp memory from the heap (at
// load time only), owns a thread pool, and runs a method on caller tensors.
// Applications that must not use the heap at all drive Program and Method
// directly with their own MemoryManager.
//
// Threads: different methods of one Module may run at once on different
// threads; one method runs one call at a time, and a second thread calling
// it meanwhile is refused (InvalidState). Methods that share planned memory
// (mutable buffers such as KV caches, memory id 2 on) run one at a time
// too: a second one meanwhile is refused the same way. Load a Module per
// thread to run the same method in parallel.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
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
  // Limits for programs the application does not trust (0: no limit). The
  // most memory one method may take: its planned arenas, method tables,
  // layout copies, delegate handles and delegate temp memory, checked
  // before any of it is allocated. What a backend allocates itself (packed
  // weights) is reported by delegate_bytes(), not limited here.
  size_t max_memory_bytes = 0;
  // The most instructions one execute may run (MethodConfig::max_instructions).
  uint64_t max_instructions = 0;
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
  // Bytes this Module allocated for the loaded method: its arenas, the
  // method allocator's blocks and the delegates' temp memory. What
  // ModuleOptions::max_memory_bytes bounds.
  size_t memory_bytes(const char* name = "forward") const;
  size_t num_threads() const { return thread_pool_ != nullptr ? thread_pool_->num_threads() : 1; }
  // Why the last call of this thread on a Module failed, in one line (empty
  // if it did not). Per thread, so that methods running at once on other
  // threads never overwrite it.
  const char* last_error() const;

 private:
  // A heap block from allocate_streamed_block, released with std::free.
  struct FreeBlock {
    void operator()(uint8_t* block) const;
  };
  using Block = std::unique_ptr<uint8_t, FreeBlock>;
  struct LoadedMethod {
    std::string name;
    std::vector<Block> arenas;
    std::vector<Span<uint8_t>> arena_spans;
    std::unique_ptr<ChunkAllocator> method_allocator;
    Block temp_memory;
    size_t temp_bytes = 0;
    std::unique_ptr<MemoryAllocator> temp_allocator;
    std::unique_ptr<MemoryManager> memory_manager;
    std::unique_ptr<Method> method;
    std::atomic<bool> running{false};  // a run() is inside this method
    bool uses_shared_arenas = false;   // planned memory other methods use too
  };

  Module() = default;
  static Result<std::unique_ptr<Module>> from_loader(std::unique_ptr<DataLoader> loader,
                                                     const ModuleOptions& options);
  const LoadedMethod* loaded(const char* name) const;  // with mutex_ held
  Result<LoadedMethod*> load_method(const char* name);  // with mutex_ held
  Error run_method(LoadedMethod& method, Span<const EValue> inputs);

  std::unique_ptr<DataLoader> loader_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<ThreadPool> own_thread_pool_;
  ThreadPool* thread_pool_ = nullptr;
  size_t max_memory_bytes_ = 0;
  uint64_t max_instructions_ = 0;
  // Guards methods_: threads running different methods load them at once.
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<LoadedMethod>> methods_;
  // Planned buffers from index 1 (memory id 2) on hold the mutable buffers
  // that all methods share; the data of the ones initialised so far.
  static constexpr size_t kFirstSharedArena = 1;
  struct SharedArena {
    Block block;
    Span<uint8_t> span;
  };
  std::vector<SharedArena> shared_arenas_;
  // A run() is inside a method that uses the shared arenas.
  std::atomic<bool> shared_arenas_busy_{false};
  std::vector<const void*> initialized_buffers_;
};

}  // namespace ember
