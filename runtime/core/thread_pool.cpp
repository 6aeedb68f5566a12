#include "runtime/core/thread_pool.h"

namespace ember {

void parallel_for(ThreadPool* pool, int64_t n, int64_t min_chunk,
                  FunctionRef<void(int64_t begin, int64_t end)> fn) {
  if (n <= 0) {
    return;
  }
  if (min_chunk < 1) {
    min_chunk = 1;
  }
  const int64_t threads = pool != nullptr ? static_cast<int64_t>(pool->num_threads()) : 1;
  const int64_t by_size = (n + min_chunk - 1) / min_chunk;
  const int64_t chunks = threads < by_size ? threads : by_size;
  if (chunks <= 1) {
    fn(0, n);
    return;
  }
  // Chunk i covers [i * n / chunks, (i + 1) * n / chunks): sizes differ by at
  // most one, and every thread's share is known without coordination.
  pool->run(static_cast<size_t>(chunks), [&](size_t i) {
    const int64_t begin = n * static_cast<int64_t>(i) / chunks;
    const int64_t end = n * static_cast<int64_t>(i + 1) / chunks;
    fn(begin, end);
  });
}

}  // namespace ember
