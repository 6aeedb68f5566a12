// KernelContext: what the executor hands every kernel call — a place to report
// failure (with a message) and scratch memory that lives for one call.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"

namespace ember {

class MemoryAllocator;

class KernelContext final {
 public:
  explicit KernelContext(MemoryAllocator* temp_allocator = nullptr)
      : temp_allocator_(temp_allocator) {}

  // Records a failure; the executor stops the method and logs the message with
  // the operator name and instruction index. Only the first failure is kept.
  void fail(Error error, const char* format, ...) __attribute__((format(printf, 3, 4)));
  bool failed() const { return error_ != Error::Ok; }
  Error error() const { return error_; }
  const char* message() const { return message_; }
  void reset() {
    error_ = Error::Ok;
    message_[0] = '\0';
  }

  // Scratch memory freed after the call; null when none was supplied.
  void* allocate_temp(size_t size, size_t alignment = 16);

 private:
  MemoryAllocator* temp_allocator_;
  Error error_ = Error::Ok;
  char message_[256] = {};
};

}  // namespace ember

// Fails the kernel with InvalidArgument and returns when `cond` is false.
#define EMBER_KERNEL_CHECK(ctx, cond, ...)            \
  do {                                                \
    if (!(cond)) {                                    \
      (ctx).fail(::ember::Error::InvalidArgument, __VA_ARGS__); \
      return;                                         \
    }                                                 \
  } while (0)

// Returns from the kernel when `expr` (an Error) is not Ok, failing it.
#define EMBER_KERNEL_TRY(ctx, expr)                                          \
  do {                                                                       \
    const ::ember::Error ember_kernel_err_ = (expr);                         \
    if (ember_kernel_err_ != ::ember::Error::Ok) {                           \
      (ctx).fail(ember_kernel_err_, "%s failed", #expr);                     \
      return;                                                                \
    }                                                                        \
  } while (0)
