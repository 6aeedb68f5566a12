// KernelContext: what the executor hands every kernel call: a place to report
// failure (with a message), scratch memory that lives for one call, the
// method's thread pool and its random stream. One per method, so methods
// running on different threads share no mutable state.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/thread_pool.h"

namespace ember {

class MemoryAllocator;

class KernelContext final {
 public:
  explicit KernelContext(MemoryAllocator* temp_allocator = nullptr,
                         ThreadPool* thread_pool = nullptr, uint64_t* random_state = nullptr)
      : temp_allocator_(temp_allocator), thread_pool_(thread_pool), random_state_(random_state) {}

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

  // The pool kernels parallelise over; null means run serially.
  ThreadPool* thread_pool() const { return thread_pool_; }
  // parallel_for over the method's pool (see runtime/core/thread_pool.h).
  void parallel_for(int64_t n, int64_t min_chunk,
                    FunctionRef<void(int64_t begin, int64_t end)> fn) const {
    ::ember::parallel_for(thread_pool_, n, min_chunk, fn);
  }

  // The next 64 random bits of the method's stream (splitmix64): random ops
  // are reproducible run to run and independent between methods.
  uint64_t next_random();

 private:
  MemoryAllocator* temp_allocator_;
  ThreadPool* thread_pool_;
  uint64_t* random_state_;
  uint64_t own_random_state_ = kDefaultRandomSeed;
  Error error_ = Error::Ok;
  char message_[256] = {};

 public:
  static constexpr uint64_t kDefaultRandomSeed = 0x853c49e6748fea9bULL;
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
