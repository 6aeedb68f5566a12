// WorkerPool: Ember's ThreadPool. N-1 worker threads plus the calling thread
// share each run(); workers spin briefly for the next job (runs come in quick
// succession while a model executes) and then sleep, so an idle pool costs
// no CPU. run() never allocates. Owned by the application or by Module.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/core/thread_pool.h"

namespace ember {

class WorkerPool final : public ThreadPool {
 public:
  // `num_threads` counts the calling thread; 0 means one per available core.
  explicit WorkerPool(size_t num_threads = 0);
  ~WorkerPool() override;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  size_t num_threads() const override { return workers_.size() + 1; }
  void run(size_t num_tasks, FunctionRef<void(size_t task)> task) override;

  // Cores this process may run on (its affinity mask), at least 1.
  static size_t available_cores();

 private:
  void worker_loop(size_t thread);
  void run_tasks(size_t thread);
  bool claim_home(size_t home);

  std::vector<std::thread> workers_;
  // One caller at a time; a second caller, or a task of the current job that
  // calls run() again, runs its tasks inline. A flag rather than
  // std::mutex::try_lock, which is undefined for a thread already holding it.
  std::atomic<bool> running_{false};

  // The current job. `generation_` changes when a job is posted; workers
  // compare it to the last one they saw. A worker joins a job only while it
  // is `open_`, counted in `active_`: the caller closes the job once every
  // task is done and then waits only for the workers inside it, never for
  // one that is asleep or not scheduled (on 2 busy vCPUs that can be ms).
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
  const FunctionRef<void(size_t)>* task_ = nullptr;
  size_t num_tasks_ = 0;
  // Task t < num_homes_ is thread t's "home" task (the caller is thread 0):
  // parallel_for gives chunk t of every operator to the same thread, so the
  // rows a thread writes in one operator are in its own cache when the next
  // operator reads them. A thread that finishes early takes home tasks not
  // yet claimed (a worker asleep or descheduled never holds the job up).
  // Tasks from num_homes_ on go to whoever asks first.
  static constexpr size_t kMaxHomes = 64;
  size_t num_homes_ = 0;
  std::atomic<uint64_t> homes_claimed_{0};
  std::atomic<size_t> next_task_{0};
  std::atomic<size_t> done_tasks_{0};
  std::atomic<bool> open_{false};
  std::atomic<size_t> active_{0};
};

}  // namespace ember
