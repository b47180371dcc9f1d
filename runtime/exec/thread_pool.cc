// runtime/exec/thread_pool.cc: the compute worker pool.
//
// Design: a parallel_for call publishes a Job (fn, n, an atomic next-index
// counter and a done counter) on a shared queue. Workers and the calling
// thread claim indices with fetch_add until exhausted; the caller then waits
// for the in-flight calls of *its* job only. Several jobs may be active at once
// (one per calling stream thread); a worker helps the oldest job that still has
// unclaimed indices. Because the caller always drains its own job, progress
// never depends on a free worker, so concurrent and nested calls cannot deadlock.
//
// Idle workers spin (exec/spin_wait.h, kIdleSpinBudget) on `queued`, a
// lock-free mirror of jobs.size(), before they block on the condition variable:
// a launch that follows the previous one within the budget starts on every
// lane at once instead of waiting 7-32 us for a parked helper to wake
// (docs/performance.md "Launch fixed cost (wave 10)"). The mirror is only a
// hint: the decision to run or wait is re-taken under the mutex as before, so
// a stale value costs a lock round, never a lost job.
#include "exec/thread_pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "exec/spin_wait.h"

namespace npurt {

namespace {

struct Job {
  const std::function<void(size_t)>* fn;
  size_t n;
  std::atomic<size_t> next{0};
  size_t done = 0;     // guarded by the pool mutex
  int helpers = 0;     // workers currently inside run_some; guarded by the pool mutex
  std::condition_variable cv;  // waits with the pool mutex

  // Claims and runs indices until none are left; returns how many it ran.
  size_t run_some() {
    size_t ran = 0;
    for (;;) {
      size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= n) break;
      (*fn)(i);
      ++ran;
    }
    return ran;
  }
  bool exhausted() const { return next.load(std::memory_order_relaxed) >= n; }
};

// How long parallel_for re-checks for its helpers' end before blocking.
constexpr int kWaitSpinUs = 200;

size_t threads_from_env() {
  if (const char* s = std::getenv("NPURT_NUM_THREADS")) {
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (end != s && *end == '\0' && v > 0 && v <= 4096) return static_cast<size_t>(v);
  }
  unsigned hc = std::thread::hardware_concurrency();
  return hc ? hc : 1;
}

}  // namespace

struct ThreadPool::Impl {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Job*> jobs;  // jobs that may still have unclaimed indices
  bool stop = false;
  std::vector<std::thread> workers;
  size_t threads = 1;
  // jobs.size() (written under mu) and stop, readable without mu: what an idle
  // worker polls before it blocks.
  std::atomic<size_t> queued{0};
  std::atomic<bool> stopping{false};

  void pop_front_job() {
    jobs.pop_front();
    queued.store(jobs.size(), std::memory_order_relaxed);
  }

  // With mu held and no job queued: spins (mu released) for the idle budget
  // until a job is queued or the pool stops. The caller re-checks under mu.
  void idle_spin(std::unique_lock<std::mutex>& lk) {
    lk.unlock();
    spin_until([&] {
      return queued.load(std::memory_order_relaxed) != 0 || stopping.load(std::memory_order_relaxed);
    }, kIdleSpinBudget);
    lk.lock();
  }

  void worker_loop() {
    std::unique_lock<std::mutex> lk(mu);
    for (;;) {
      if (jobs.empty() && !stop) idle_spin(lk);
      cv.wait(lk, [&] { return stop || !jobs.empty(); });
      if (stop) return;
      Job* job = jobs.front();
      if (job->exhausted()) {
        pop_front_job();
        continue;
      }
      // helpers > 0 keeps the owner from returning (and destroying the job on
      // its stack) until we stop touching it.
      ++job->helpers;
      lk.unlock();
      size_t ran = job->run_some();
      lk.lock();
      job->done += ran;
      --job->helpers;
      if (job->helpers == 0 && job->done == job->n) job->cv.notify_all();
    }
  }
};

ThreadPool::ThreadPool(size_t threads) : impl_(new Impl) {
  impl_->threads = threads ? threads : 1;
  // The caller participates, so threads-1 helpers give `threads` lanes.
  for (size_t i = 1; i < impl_->threads; ++i)
    impl_->workers.emplace_back([this] { impl_->worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    impl_->stop = true;
    impl_->stopping.store(true, std::memory_order_relaxed);
  }
  impl_->cv.notify_all();
  for (auto& t : impl_->workers) t.join();
  delete impl_;
}

ThreadPool& ThreadPool::compute() {
  // Leaked on purpose: stream threads may still call into it during static
  // destruction at process exit.
  static ThreadPool* pool = new ThreadPool(threads_from_env());
  return *pool;
}

size_t ThreadPool::num_threads() const { return impl_->threads; }

void ThreadPool::parallel_for(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  if (n == 1 || impl_->workers.empty()) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  Job job;
  job.fn = &fn;
  job.n = n;
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    impl_->jobs.push_back(&job);
    impl_->queued.store(impl_->jobs.size(), std::memory_order_relaxed);
  }
  if (n - 1 >= impl_->workers.size())
    impl_->cv.notify_all();
  else
    for (size_t i = 0; i + 1 < n; ++i) impl_->cv.notify_one();
  size_t ran = job.run_some();
  std::unique_lock<std::mutex> lk(impl_->mu);
  job.done += ran;
  auto finished = [&] { return job.done == n && job.helpers == 0; };
  // A helper still running its last index usually ends within tens of us;
  // re-checking for a short while (yielding the core) avoids the wake-up of
  // a blocked thread, which cost ~65 us on the VM (docs/performance.md
  // "Sum bandwidth (wave 9)"). Then block as before.
  const auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(kWaitSpinUs);
  while (!finished() && std::chrono::steady_clock::now() < spin_until) {
    lk.unlock();
    std::this_thread::yield();
    lk.lock();
  }
  job.cv.wait(lk, finished);
  // Remove our job if no worker popped it yet; after this no worker can see it.
  for (auto it = impl_->jobs.begin(); it != impl_->jobs.end(); ++it) {
    if (*it == &job) {
      impl_->jobs.erase(it);
      impl_->queued.store(impl_->jobs.size(), std::memory_order_relaxed);
      break;
    }
  }
}

}  // namespace npurt
