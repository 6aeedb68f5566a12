#include "extension/threadpool/worker_pool.h"

#include <sched.h>

#include <algorithm>

namespace ember {
namespace {

// About 50 µs of polling before a worker sleeps: long enough to catch the
// next operator's job, short enough that two vCPUs are not starved by a
// spinning idle thread (cpu-kernels.md, threading).
constexpr int kSpinIterations = 20000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

size_t WorkerPool::available_cores() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  // WebAssembly built without threads (no SharedArrayBuffer): one thread.
  return 1;
#else
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return static_cast<size_t>(count);
  }
#endif
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? hw : 1;
#endif
}

WorkerPool::WorkerPool(size_t num_threads) {
  if (num_threads == 0) num_threads = available_cores();
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  num_threads = 1;  // std::thread cannot start without threads
#endif
  workers_.reserve(num_threads - 1);
  for (size_t i = 0; i + 1 < num_threads; ++i) {
    workers_.emplace_back([this, i] { worker_loop(i + 1); });
  }
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    stopping_.store(true);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

bool WorkerPool::claim_home(size_t home) {
  const uint64_t bit = uint64_t{1} << home;
  return (homes_claimed_.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
}

void WorkerPool::run_tasks(size_t thread) {
  const FunctionRef<void(size_t)>& task = *task_;
  auto run_one = [&](size_t i) {
    task(i);
    done_tasks_.fetch_add(1, std::memory_order_release);
  };
  if (thread < num_homes_ && claim_home(thread)) run_one(thread);
  for (size_t i = next_task_.fetch_add(1, std::memory_order_relaxed); i < num_tasks_;
       i = next_task_.fetch_add(1, std::memory_order_relaxed)) {
    run_one(i);
  }
  for (size_t home = 0; home < num_homes_; ++home) {
    if (claim_home(home)) run_one(home);
  }
}

void WorkerPool::run(size_t num_tasks, FunctionRef<void(size_t task)> task) {
  if (num_tasks == 0) return;
  if (workers_.empty() || num_tasks == 1 || running_.exchange(true, std::memory_order_acquire)) {
    for (size_t i = 0; i < num_tasks; ++i) task(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    task_ = &task;
    num_tasks_ = num_tasks;
    num_homes_ = std::min({num_tasks, num_threads(), kMaxHomes});
    homes_claimed_.store(0, std::memory_order_relaxed);
    next_task_.store(num_homes_, std::memory_order_relaxed);
    done_tasks_.store(0, std::memory_order_relaxed);
    open_.store(true);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  run_tasks(0);
  // Tasks other threads took may still be running; then no worker may enter
  // the job any more, and those inside leave at once (no task is left).
  while (done_tasks_.load(std::memory_order_acquire) != num_tasks) cpu_relax();
  open_.store(false);
  while (active_.load() != 0) cpu_relax();
  running_.store(false, std::memory_order_release);
}

void WorkerPool::worker_loop(size_t thread) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t now = generation_.load(std::memory_order_acquire);
    for (int spin = 0; now == seen && spin < kSpinIterations; ++spin) {
      cpu_relax();
      now = generation_.load(std::memory_order_acquire);
    }
    if (now == seen) {
      std::unique_lock<std::mutex> lock(wake_mutex_);
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      now = generation_.load(std::memory_order_acquire);
    }
    seen = now;
    if (stopping_.load()) return;
    // Enter, then check the job is still the one seen and still open: the
    // caller closes it before it waits for active_ to drain (all seq_cst),
    // so either it waits for us or we see it closed and touch nothing.
    active_.fetch_add(1);
    if (open_.load() && generation_.load() == now) run_tasks(thread);
    active_.fetch_sub(1, std::memory_order_release);
  }
}

}  // namespace ember
