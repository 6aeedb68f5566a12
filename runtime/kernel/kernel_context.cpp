#include "runtime/kernel/kernel_context.h"

#include <cstdarg>

#include "runtime/core/format.h"
#include "runtime/executor/memory_allocator.h"

namespace ember {

void KernelContext::fail(Error error, const char* format, ...) {
  if (failed()) {
    return;
  }
  error_ = error == Error::Ok ? Error::Internal : error;
  va_list args;
  va_start(args, format);
  vformat(message_, sizeof(message_), format, args);
  va_end(args);
}

void* KernelContext::allocate_temp(size_t size, size_t alignment) {
  return temp_allocator_ ? temp_allocator_->allocate(size, alignment) : nullptr;
}

uint64_t KernelContext::next_random() {
  uint64_t& state = random_state_ != nullptr ? *random_state_ : own_random_state_;
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace ember
