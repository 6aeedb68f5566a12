// Program: a loaded and verified .pte file. Owns the flatbuffer bytes and the
// constant data; methods are created from it and must not outlive it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/memory_manager.h"

namespace ember {

namespace fb {
struct Program;
struct ExecutionPlan;
}  // namespace fb

class Method;
struct MethodConfig;

// What a caller needs to know about a method before loading it: its inputs and
// outputs and the planned memory it needs.
class MethodMeta final {
 public:
  struct TensorInfo {
    ScalarType dtype;
    Span<const int32_t> sizes;  // upper bounds for dynamic dims
    bool dynamic;
  };
  const char* name() const;
  size_t num_inputs() const;
  size_t num_outputs() const;
  // Fails for an input or output that is not a tensor.
  Result<TensorInfo> input_tensor_info(size_t index) const;
  Result<TensorInfo> output_tensor_info(size_t index) const;
  size_t num_planned_buffers() const;
  size_t planned_buffer_size(size_t index) const;
  // An upper bound of the method allocator bytes load_method needs for the
  // method's tables. Layout twins (tensors in another dim order that a
  // kernel reads row-major) and what backends keep come on top.
  size_t method_table_bytes() const;

 private:
  friend class Program;
  explicit MethodMeta(const fb::ExecutionPlan* plan) : plan_(plan) {}
  Result<TensorInfo> tensor_info(int32_t value_index) const;
  const fb::ExecutionPlan* plan_;
};

class Program final {
 public:
  enum class Verification {
    Minimal,              // identifier and root offset only (trusted files)
    InternalConsistency,  // full flatbuffer verification (the default)
  };

  // The loader must outlive the program.
  static Result<Program> load(DataLoader* loader,
                              Verification verification = Verification::InternalConsistency);

  Program(Program&&) = default;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  size_t num_methods() const;
  Result<const char*> method_name(size_t index) const;
  Result<MethodMeta> method_meta(const char* name) const;
  // Creates a method; all its memory comes from `memory_manager`, which must
  // outlive it, as must the thread pool and tracer in `config`. Methods
  // loaded from one program are independent: each may run on its own thread.
  Result<Method> load_method(const char* name, MemoryManager* memory_manager,
                             const MethodConfig& config) const;
  Result<Method> load_method(const char* name, MemoryManager* memory_manager) const;

  // Constant data of a tensor: `nbytes` bytes of constant buffer `index`.
  Result<const void*> constant_data(uint32_t index, size_t nbytes) const;
  // Initial data of a mutable buffer: `nbytes` bytes of entry `index` (>= 1)
  // of the mutable data segment.
  Result<const void*> mutable_data(uint32_t index, size_t nbytes) const;
  // Loads data segment `index` (e.g. a delegate blob).
  Result<FreeableBuffer> load_segment(size_t index) const;

  const fb::Program* flatbuffer() const { return program_; }
  // Bytes of the flatbuffer (without segments): a measure of the method tables.
  size_t flatbuffer_size() const { return program_data_.size(); }

 private:
  Program(DataLoader* loader, FreeableBuffer&& program_data, const fb::Program* program,
          uint64_t segment_base_offset, FreeableBuffer&& constant_segment)
      : loader_(loader),
        program_data_(static_cast<FreeableBuffer&&>(program_data)),
        program_(program),
        segment_base_offset_(segment_base_offset),
        constant_segment_(static_cast<FreeableBuffer&&>(constant_segment)) {}
  Result<const fb::ExecutionPlan*> find_plan(const char* name) const;

  DataLoader* loader_;
  FreeableBuffer program_data_;
  const fb::Program* program_;
  uint64_t segment_base_offset_;
  FreeableBuffer constant_segment_;
  FreeableBuffer mutable_segment_;  // initial data of mutable buffers
};

}  // namespace ember
