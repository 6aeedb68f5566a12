// Method: one executable method of a Program (usually "forward"), with its
// values bound to planned memory and every instruction resolved to a kernel or
// delegate. init does all checking and allocation; execute allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/core/thread_pool.h"
#include "runtime/executor/event_tracer.h"
#include "runtime/executor/layout_shim.h"
#include "runtime/executor/memory_manager.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember {

namespace fb {
struct ExecutionPlan;
}  // namespace fb

class Program;
class BackendInterface;

// What a method runs with besides its memory: all optional.
struct MethodConfig {
  // Kernels and backends parallelise over this pool; null runs serially.
  ThreadPool* thread_pool = nullptr;
  // Receives per-instruction events; backends see it from init on.
  EventTracer* event_tracer = nullptr;
  // Start of the method's random stream (rand, randn, randperm, dropout).
  uint64_t random_seed = KernelContext::kDefaultRandomSeed;
  // Whether init copies the initial data of the method's mutable buffers
  // (KV caches) into planned memory. Methods that share those buffers (one
  // arena for memory id 2) initialise them once: Module loads the later
  // methods without it and initialises only buffers no method has yet.
  bool init_mutable_buffers = true;
};

class Method final {
 public:
  Method(Method&& other) noexcept;
  Method(const Method&) = delete;
  Method& operator=(const Method&) = delete;
  Method& operator=(Method&&) = delete;
  ~Method();

  size_t num_inputs() const { return num_inputs_; }
  size_t num_outputs() const { return num_outputs_; }
  const EValue& input(size_t index) const { return values_[input_indices_[index]]; }
  const EValue& output(size_t index) const { return values_[output_indices_[index]]; }

  // Copies `src` into input `index` (a tensor input), resizing it first when
  // the input has dynamic dims. The dtype and rank must match; static dims
  // must match exactly and dynamic dims must fit the planned upper bound.
  Error set_input(size_t index, const Tensor& src);
  // Sets a scalar input (int, double or bool), which must match the program.
  Error set_input(size_t index, const EValue& value);

  // Runs the instructions. Fails (with last_error()) when an input was never
  // set or a kernel fails; no heap allocation happens here.
  Error execute();

  // Mutable buffers: tensors in planned memory that keep their values from
  // one execute to the next and start from initial data in the program.
  // A failed execute leaves in them what its instructions wrote so far.
  size_t num_mutable_buffers() const { return num_mutable_buffers_; }
  const void* mutable_buffer_data(size_t index) const {
    return index < num_mutable_buffers_ ? mutable_buffers_[index].data : nullptr;
  }
  // Copies buffer `index`'s initial data back in (a new conversation).
  Error reset_mutable_buffer(size_t index);
  // All of them.
  Error reset_mutable_buffers();

  // Why the last set_input or execute failed, in one line.
  const char* last_error() const { return last_error_; }

  void set_event_tracer(EventTracer* tracer) { config_.event_tracer = tracer; }
  ThreadPool* thread_pool() const { return config_.thread_pool; }
  // Scratch bytes the method's delegates asked for at init: the temp
  // allocator in the memory manager must have at least this much.
  size_t required_temp_bytes() const { return required_temp_bytes_; }
  // Bytes the delegates hold outside the method allocator (packed weights...).
  size_t delegate_owned_bytes() const;
  size_t num_delegates() const { return num_delegates_; }
  size_t num_instructions() const { return num_instructions_; }
  // "aten::add.out" for kernel calls, the backend id for delegate calls, or
  // the instruction kind.
  const char* instruction_name(size_t index) const;
  size_t num_values() const { return num_values_; }
  const EValue& value(size_t index) const { return values_[index]; }

 private:
  friend class Program;

  enum class InstrKind : uint8_t { Kernel, Delegate, Move, JumpFalse, Free };
  struct Instr {
    InstrKind kind;
    const KernelEntry* kernel;  // Kernel
    uint32_t delegate;          // Delegate: index into delegates_
    Span<EValue*> args;         // Kernel, Delegate
    int32_t a;                  // Move: from; JumpFalse: condition; Free: value
    int32_t b;                  // Move: to; JumpFalse: destination
    const char* name;
    Span<LayoutShim> shims;  // Kernel: row-major twins of arguments in other dim orders
  };
  struct Delegate {
    const BackendInterface* backend;
    void* handle;
  };
  struct MutableBuffer {
    void* data;
    const void* initial;
    size_t nbytes;
  };

  Method(const Program* program, const fb::ExecutionPlan* plan, MemoryManager* memory_manager,
         const MethodConfig& config)
      : program_(program),
        plan_(plan),
        memory_manager_(memory_manager),
        config_(config),
        random_state_(config.random_seed) {}
  static Result<Method> init(const Program* program, const fb::ExecutionPlan* plan,
                             MemoryManager* memory_manager, const MethodConfig& config);
  // An upper bound of what init takes from the method allocator for the
  // method's own tables (not layout twins or what backends take).
  static size_t table_bytes(const fb::ExecutionPlan* plan);
  friend class MethodMeta;
  Error init_values();
  Error init_tensor(size_t index, const void* flat_tensor);
  Error init_lists();
  Error init_delegates();
  Error init_instructions();
  // Whether value `index` is a tensor whose data is a constant of the program.
  bool is_constant_tensor(size_t index) const;
  Error check_io();
  const char* plan_name() const;
  void set_error(const char* format, ...) __attribute__((format(printf, 2, 3)));

  const Program* program_;
  const fb::ExecutionPlan* plan_;
  MemoryManager* memory_manager_;
  MethodConfig config_;
  uint64_t random_state_;
  size_t required_temp_bytes_ = 0;

  EValue* values_ = nullptr;
  size_t num_values_ = 0;
  const int32_t* input_indices_ = nullptr;
  size_t num_inputs_ = 0;
  const int32_t* output_indices_ = nullptr;
  size_t num_outputs_ = 0;
  bool* input_set_ = nullptr;  // tensor inputs whose data the caller has supplied
  Instr* instructions_ = nullptr;
  size_t num_instructions_ = 0;
  Delegate* delegates_ = nullptr;
  size_t num_delegates_ = 0;
  MutableBuffer* mutable_buffers_ = nullptr;
  size_t num_mutable_buffers_ = 0;
  char last_error_[320] = {};
};

}  // namespace ember
