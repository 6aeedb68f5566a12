// Module: the convenient C++ front door. Loads a .pte, allocates the planned
// arenas and method tables from the heap (at load time only), and runs a
// method on caller tensors. Applications that must not use the heap at all
// drive Program and Method directly with their own MemoryManager.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"

namespace ember {

class Module final {
 public:
  enum class LoadMode { File, Mmap };

  // Loads and verifies the program; methods are loaded on first use.
  static Result<std::unique_ptr<Module>> load(const char* path, LoadMode mode = LoadMode::Mmap);
  // Loads from bytes the caller keeps alive.
  static Result<std::unique_ptr<Module>> load_buffer(const void* data, size_t size);

  const Program& program() const { return *program_; }
  Result<MethodMeta> method_meta(const char* name = "forward") const {
    return program_->method_meta(name);
  }
  // Loads (once) and returns the named method.
  Result<Method*> method(const char* name = "forward");

  // Sets every input and executes. Outputs stay valid until the next call.
  Error run(const char* name, Span<const EValue> inputs);

  // Bytes of planned memory the method uses (all arenas together).
  size_t planned_bytes(const char* name = "forward") const;
  // Why the last call failed, in one line (empty if it did not).
  const char* last_error() const { return last_error_.data(); }

 private:
  struct LoadedMethod {
    std::string name;
    std::vector<std::vector<uint8_t>> arenas;
    std::vector<Span<uint8_t>> arena_spans;
    std::vector<uint8_t> method_memory;
    std::unique_ptr<MemoryAllocator> method_allocator;
    std::unique_ptr<MemoryManager> memory_manager;
    std::unique_ptr<Method> method;
  };

  Module() = default;
  static Result<std::unique_ptr<Module>> from_loader(std::unique_ptr<DataLoader> loader);
  void set_last_error(const char* message);

  std::unique_ptr<DataLoader> loader_;
  std::unique_ptr<Program> program_;
  std::vector<std::unique_ptr<LoadedMethod>> methods_;
  std::vector<char> last_error_ = std::vector<char>(1, '\0');
};

}  // namespace ember
