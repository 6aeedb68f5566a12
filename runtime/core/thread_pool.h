// ThreadPool: the interface through which kernels and backends run work in
// parallel. The core has no threads of its own: the application (or Module)
// owns an implementation (extension/threadpool) and hands it to a method.
// Without one, parallel_for runs everything on the calling thread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/function_ref.h"

namespace ember {

class ThreadPool {
 public:
  virtual ~ThreadPool() = default;
  // Threads that take part in run(), the calling thread included.
  virtual size_t num_threads() const = 0;
  // Calls task(i) once for every i in [0, num_tasks), spread over the pool's
  // threads, and returns when all have finished. Must not allocate. A pool
  // already busy with another caller's work may run the tasks on the calling
  // thread instead.
  virtual void run(size_t num_tasks, FunctionRef<void(size_t task)> task) = 0;
};

// Splits [0, n) into at most one contiguous chunk per thread (static
// chunking), each at least `min_chunk` long where n allows, and calls
// fn(begin, end) for each; serial when `pool` is null or has one thread.
void parallel_for(ThreadPool* pool, int64_t n, int64_t min_chunk,
                  FunctionRef<void(int64_t begin, int64_t end)> fn);

}  // namespace ember
