// runtime/exec/thread_pool.cc: the compute worker pool.
//
// Design: a parallel_for call publishes a Job (fn, n, an atomic next-index
// counter and an atomic pending counter) on a shared queue. Workers and the
// calling thread claim indices with fetch_add until exhausted; the caller then
// waits for the in-flight calls of *its* job only. Several jobs may be active at
// once (one per calling stream thread); a worker helps the oldest job that still
// has unclaimed indices. Because the caller always drains its own job, progress
// never depends on a free worker, so concurrent and nested calls cannot deadlock.
//
// Completion is lock-free: pending = n + the helpers inside the job. A helper
// joins under the pool mutex (only while the job still has unclaimed indices,
// so pending > 0 then) and leaves with one fetch_sub of (indices it ran + 1):
// its last touch of the job, which lives on the caller's stack. The caller
// polls pending without the lock (a finishing helper no longer waits for the
// mutex the caller's polling kept taking and releasing) and, if it blocks,
// waits on the pool's done_cv, which the helper that brings pending to 0
// notifies under the mutex (the pool outlives every job). The caller re-checks pending == 0 under the mutex before it
// removes its job and returns, so no helper can join after that.
//
// Idle workers spin (exec/spin_wait.h, kIdleSpinBudget) on `queued`, a
// lock-free mirror of jobs.size(), before they block on the condition variable:
// a launch that follows the previous one within the budget starts on every
// lane at once instead of waiting 7-32 us for a parked helper to wake
// (docs/performance-history.md "Launch fixed cost (wave 10)"). The mirror is only a
// hint: the decision to run or wait is re-taken under the mutex as before, so
// a stale value costs a lock round, never a lost job.
//
// Lanes and waiters that help (wave 11): a job admits at most `threads` lanes
// (its owner + joiners; `lanes`, raised under the mutex, lowered by a leaving
// joiner before its final fetch_sub). Besides pool helpers, a thread waiting
// for the job's stream (help(), from SimStream::synchronize) may join: on a
// 2-core host the waiter, the stream worker (owner) and a pool helper are three
// runnable threads for two cores, and a waiter that runs blocks instead of
// spinning beside them removes the third one and is on a core when the launch
// ends. When the lanes are full, the waiter asks for a lane (handover) and a pool helper
// leaves after its current index, reserving its lane for the waiter. A helper that finds
// no joinable job idles until a new job is pushed (`pushes`), so a full job
// does not keep it polling the mutex.
#include "exec/thread_pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "exec/float_env.h"
#include "exec/spin_wait.h"

namespace npurt {

namespace {

struct Job {
  const std::function<void(size_t)>* fn;
  size_t n;
  const void* tag = nullptr;  // the owner's thread tag (ThreadPool::set_thread_tag)
  std::atomic<size_t> next{0};
  // Threads inside the job, owner included; raised under the pool mutex only.
  std::atomic<size_t> lanes{1};
  // Lane hand-over to a waiter: kAsked when a waiter found every lane taken;
  // the next pool helper to finish an index moves it to kReserved and leaves;
  // a reserved lane is the waiter's (helpers do not take it) until it joins.
  enum Handover : int { kNone = 0, kAsked = 1, kReserved = 2 };
  std::atomic<int> handover{kNone};
  // Indices not yet finished + helpers inside the job; 0 = the job is over and
  // no helper touches it any more. Joins happen under the pool mutex.
  std::atomic<size_t> pending{0};

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
  // A pool helper's share: as run_some, but hands its lane to a waiter that
  // asked for one (handover) after the index it is running.
  size_t run_until_handover() {
    size_t ran = 0;
    for (;;) {
      int asked = kAsked;
      if (handover.load(std::memory_order_relaxed) == kAsked &&
          handover.compare_exchange_strong(asked, kReserved, std::memory_order_relaxed))
        break;
      size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= n) break;
      (*fn)(i);
      ++ran;
    }
    return ran;
  }
  bool exhausted() const { return next.load(std::memory_order_relaxed) >= n; }
  // With the pool mutex held: enters the job if it has unclaimed indices and a
  // free lane (pending > 0 then, so the owner is still waiting for it). A
  // helper does not take a lane reserved for a waiter; the waiter clears the
  // reservation when it joins.
  bool try_join(size_t max_lanes, bool waiter) {
    const size_t reserved = !waiter && handover.load(std::memory_order_relaxed) == kReserved ? 1 : 0;
    if (exhausted() || lanes.load(std::memory_order_relaxed) + reserved >= max_lanes) return false;
    if (waiter) handover.store(kNone, std::memory_order_relaxed);
    lanes.fetch_add(1, std::memory_order_relaxed);
    pending.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  // A joiner's exit after running `ran` indices: its last touch of the job
  // (which lives on the owner's stack). True if it ended the job.
  bool leave(size_t ran) {
    lanes.fetch_sub(1, std::memory_order_relaxed);
    const size_t left = ran + 1;
    return pending.fetch_sub(left, std::memory_order_acq_rel) == left;
  }
};

thread_local const void* t_job_tag = nullptr;

// How long parallel_for re-checks for its helpers' end before blocking: a
// helper still running its last index usually ends within tens of us, and the
// wake-up of a blocked thread cost ~65 us on the VM (docs/performance.md
// "Sum bandwidth (wave 9)").
constexpr std::chrono::microseconds kWaitSpin{200};

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
  std::condition_variable done_cv;  // a job's pending reached 0 (callers wait with mu)
  std::deque<Job*> jobs;  // jobs that may still have unclaimed indices
  bool stop = false;
  std::vector<std::thread> workers;
  size_t threads = 1;
  // jobs.size() (written under mu) and stop, readable without mu: what an idle
  // worker polls before it blocks.
  std::atomic<size_t> queued{0};
  std::atomic<bool> stopping{false};
  // Jobs pushed so far (written under mu): what an idle helper waits to change.
  std::atomic<uint64_t> pushes{0};

  void pop_front_job() {
    jobs.pop_front();
    queued.store(jobs.size(), std::memory_order_relaxed);
  }

  // With mu held: joins the oldest job a helper may join (unclaimed indices, a
  // free lane not reserved for a waiter), dropping exhausted jobs at the
  // front; nullptr if none.
  Job* find_joinable() {
    while (!jobs.empty() && jobs.front()->exhausted()) pop_front_job();
    for (Job* j : jobs)
      if (j->try_join(threads, false)) return j;
    return nullptr;
  }

  // With mu held and nothing to join since push number `seen`: spins (mu
  // released) for the idle budget until a job is pushed or the pool stops,
  // then blocks until then. The caller re-scans under mu.
  void idle_wait(std::unique_lock<std::mutex>& lk, uint64_t seen) {
    auto woken = [&] { return pushes.load(std::memory_order_relaxed) != seen || stopping.load(std::memory_order_relaxed); };
    lk.unlock();
    spin_until(woken, kIdleSpinBudget);
    lk.lock();
    cv.wait(lk, [&] { return stop || pushes.load(std::memory_order_relaxed) != seen; });
  }

  void worker_loop() {
    std::unique_lock<std::mutex> lk(mu);
    for (;;) {
      if (stop) return;
      const uint64_t seen = pushes.load(std::memory_order_relaxed);
      Job* job = find_joinable();
      if (!job) {
        idle_wait(lk, seen);
        continue;
      }
      // Our lane and + 1 in pending (taken by find_joinable) keep the owner
      // from returning (and destroying the job on its stack) until leave(),
      // our last touch of it.
      lk.unlock();
      const bool last = job->leave(job->run_until_handover());
      lk.lock();
      if (last) done_cv.notify_all();  // the owner may be blocked (only pool members touched here)
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

void ThreadPool::set_thread_tag(const void* tag) { t_job_tag = tag; }

ThreadPool::Help ThreadPool::help(const void* tag) {
  Impl& p = *impl_;
  if (p.queued.load(std::memory_order_relaxed) == 0) return Help::kNothing;
  Job* job = nullptr;
  {
    std::lock_guard<std::mutex> lk(p.mu);
    for (Job* j : p.jobs)
      if (j->tag == tag && !j->exhausted()) {
        job = j;
        break;
      }
    if (!job) return Help::kNothing;
    if (!job->try_join(p.threads, true)) {
      if (job->exhausted()) return Help::kNothing;
      int none = Job::kNone;
      job->handover.compare_exchange_strong(none, Job::kAsked, std::memory_order_relaxed);
      return Help::kLaneAsked;
    }
  }
  size_t ran = 0;
  {
    ScopedDefaultFloatEnv env;  // a borrowed (user) thread: blocks see the runtime's FP environment
    ran = job->run_some();
  }
  if (job->leave(ran)) {
    std::lock_guard<std::mutex> lk(p.mu);
    p.done_cv.notify_all();
  }
  return ran ? Help::kRan : Help::kNothing;
}

void ThreadPool::parallel_for(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  if (n == 1 || impl_->workers.empty()) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  Job job;
  job.fn = &fn;
  job.n = n;
  job.tag = t_job_tag;
  job.pending.store(n, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    impl_->jobs.push_back(&job);
    impl_->queued.store(impl_->jobs.size(), std::memory_order_relaxed);
    impl_->pushes.store(impl_->pushes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  if (n - 1 >= impl_->workers.size())
    impl_->cv.notify_all();
  else
    for (size_t i = 0; i + 1 < n; ++i) impl_->cv.notify_one();
  const size_t ran = job.run_some();
  auto finished = [&] { return job.pending.load(std::memory_order_acquire) == 0; };
  const bool over = job.pending.fetch_sub(ran, std::memory_order_acq_rel) == ran;
  // Re-check without the lock (yielding the core) before blocking: see kWaitSpin.
  if (!over) spin_until(finished, kWaitSpin);
  std::unique_lock<std::mutex> lk(impl_->mu);
  impl_->done_cv.wait(lk, finished);  // under mu: no helper can join after this
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
