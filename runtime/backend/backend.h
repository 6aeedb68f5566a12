// The delegate interface: a backend receives, at method init, the blob its
// ahead-of-time preprocess wrote into the program, and runs it on execute.
// Backends register by name (the BackendDelegate.id in the program).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/executor/data_loader.h"
#include "runtime/executor/memory_allocator.h"

namespace ember {

struct CompileSpec {
  const char* key;
  Span<const uint8_t> value;
};

// Whatever a backend keeps per delegate call site.
using DelegateHandle = void;

class BackendInterface {
 public:
  virtual ~BackendInterface() = default;
  virtual bool is_available() const = 0;
  // `processed` may be freed by the backend once it has what it needs. Memory
  // for the handle comes from `allocator` (the method allocator).
  virtual Result<DelegateHandle*> init(FreeableBuffer* processed,
                                       Span<const CompileSpec> compile_specs,
                                       MemoryAllocator* allocator) const = 0;
  // args: the delegate call's inputs then its outputs, as value pointers.
  virtual Error execute(DelegateHandle* handle, Span<EValue*> args) const = 0;
  virtual void destroy(DelegateHandle* handle) const { (void)handle; }
};

// Registers `backend` (which must outlive every method that uses it) as `name`.
Error register_backend(const char* name, const BackendInterface* backend);
// Null when no backend has that name.
const BackendInterface* find_backend(const char* name);

}  // namespace ember
