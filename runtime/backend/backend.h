// The delegate interface: a backend receives, at method init, the blob its
// ahead-of-time preprocess wrote into the program, and runs it on execute.
// Backends are found by name (the BackendDelegate.id in the program) in a
// registry the application fills explicitly, in the order it chooses.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/core/thread_pool.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/event_tracer.h"
#include "runtime/executor/memory_allocator.h"

namespace ember {

struct CompileSpec {
  const char* key;
  Span<const uint8_t> value;
};

// Whatever a backend keeps per delegate call site.
using DelegateHandle = void;

// What init may use: the method allocator (for the handle and anything that
// lives as long as the method), the method's thread pool and event tracer.
// A backend that needs scratch memory while executing says how much here;
// the method's owner then supplies at least that much as temp memory.
class BackendInitContext final {
 public:
  BackendInitContext(MemoryAllocator* method_allocator, ThreadPool* thread_pool,
                     EventTracer* event_tracer, const char* method_name)
      : method_allocator_(method_allocator),
        thread_pool_(thread_pool),
        event_tracer_(event_tracer),
        method_name_(method_name) {}

  MemoryAllocator* method_allocator() const { return method_allocator_; }
  ThreadPool* thread_pool() const { return thread_pool_; }
  EventTracer* event_tracer() const { return event_tracer_; }
  const char* method_name() const { return method_name_; }

  // Scratch bytes one execute of this delegate needs (the largest request wins).
  void request_temp_bytes(size_t bytes) {
    if (bytes > temp_bytes_) temp_bytes_ = bytes;
  }
  size_t requested_temp_bytes() const { return temp_bytes_; }

 private:
  MemoryAllocator* method_allocator_;
  ThreadPool* thread_pool_;
  EventTracer* event_tracer_;
  const char* method_name_;
  size_t temp_bytes_ = 0;
};

// What execute may use: scratch memory (reset after the call), the thread
// pool and the event tracer. Nothing here allocates from the heap.
class BackendExecutionContext final {
 public:
  BackendExecutionContext(MemoryAllocator* temp_allocator, ThreadPool* thread_pool,
                          EventTracer* event_tracer, const char* method_name)
      : temp_allocator_(temp_allocator),
        thread_pool_(thread_pool),
        event_tracer_(event_tracer),
        method_name_(method_name) {}

  // Null when the request does not fit the temp memory (or there is none).
  void* allocate_temp(size_t size, size_t alignment = 64) const {
    return temp_allocator_ != nullptr ? temp_allocator_->allocate(size, alignment) : nullptr;
  }
  ThreadPool* thread_pool() const { return thread_pool_; }
  EventTracer* event_tracer() const { return event_tracer_; }
  const char* method_name() const { return method_name_; }

 private:
  MemoryAllocator* temp_allocator_;
  ThreadPool* thread_pool_;
  EventTracer* event_tracer_;
  const char* method_name_;
};

class BackendInterface {
 public:
  virtual ~BackendInterface() = default;
  virtual bool is_available() const = 0;
  // Builds everything the delegate needs to run (plans, packed weights).
  // `processed` may be freed by the backend once it has what it needs.
  virtual Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                       Span<const CompileSpec> compile_specs) const = 0;
  // args: the delegate call's inputs then its outputs, as value pointers.
  // Must not allocate from the heap.
  virtual Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                        Span<EValue*> args) const = 0;
  virtual void destroy(DelegateHandle* handle) const { (void)handle; }
  // How many of a call's args, the last ones, are outputs that execute
  // writes. With it the runtime refuses, at load, a program that names a
  // constant (maybe a read-only mapping) or the caller's input memory there.
  static constexpr size_t kUnknownOutputs = SIZE_MAX;
  virtual size_t num_outputs(DelegateHandle* handle) const {
    (void)handle;
    return kUnknownOutputs;
  }
  // Bytes the backend holds for this delegate outside the method allocator
  // (packed weights, execution plans), for reports.
  virtual size_t owned_bytes(DelegateHandle* handle) const {
    (void)handle;
    return 0;
  }
};

// Registers `backend` (which must outlive every method that uses it) as
// `name`. Applications call this explicitly, before loading methods; a name
// registered twice is refused.
Error register_backend(const char* name, const BackendInterface* backend);
// Null when no backend has that name.
const BackendInterface* find_backend(const char* name);
// The registered backends in registration order.
size_t num_registered_backends();
const char* registered_backend_name(size_t index);

}  // namespace ember
