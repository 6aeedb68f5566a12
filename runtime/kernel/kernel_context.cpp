#include "runtime/kernel/kernel_context.h"

#include <cstdarg>
#include <cstdio>

#include "runtime/executor/memory_allocator.h"

namespace ember {

void KernelContext::fail(Error error, const char* format, ...) {
  if (failed()) {
    return;
  }
  error_ = error == Error::Ok ? Error::Internal : error;
  va_list args;
  va_start(args, format);
  std::vsnprintf(message_, sizeof(message_), format, args);
  va_end(args);
}

void* KernelContext::allocate_temp(size_t size, size_t alignment) {
  return temp_allocator_ ? temp_allocator_->allocate(size, alignment) : nullptr;
}

}  // namespace ember
