// runtime/exec/thread_pool.h: the compute worker pool (internal).
//
// One process-wide pool sized to the host's hardware threads runs the blocks of
// simulated kernel launches (and any other data-parallel host work of the sim
// backend). parallel_for is safe to call from several stream threads at once;
// the calling thread participates, so nested or concurrent calls cannot deadlock.
//
// Lanes: at most num_threads() threads run the indices of one call at once (the
// caller, pool helpers, and threads that help() while they wait for it), so a
// job never has more runnable threads than the host has cores for it.
#pragma once

#include <cstddef>
#include <functional>

namespace npurt {

class ThreadPool {
 public:
  static ThreadPool& compute();  // NPURT_NUM_THREADS or std::thread::hardware_concurrency()

  // Runs fn(i) for every i in [0, n), spread over the pool and the calling
  // thread; returns when all calls returned. fn must not throw.
  void parallel_for(size_t n, const std::function<void(size_t)>& fn);
  size_t num_threads() const;

  // The tag of the calls this thread makes from now on (nullptr: untagged).
  // A sim stream's worker tags its calls with its stream, so a thread waiting
  // for that stream can find and help the launch it waits for.
  static void set_thread_tag(const void* tag);

  // Joins a running call made with `tag` while it has unclaimed indices and a
  // free lane, and runs its indices until none are left (kRan if it ran at
  // least one). When every lane is taken, asks a pool helper to hand its lane
  // over after its current index and returns kLaneAsked: the lane is then kept
  // for a later help() of the waiter (the owner finishes the call if it never
  // comes). Cheap (one relaxed load) when no call is running. fn must be safe
  // to run on the calling thread, as on any pool thread; it runs there under
  // the default floating-point environment, whatever the caller set
  // (exec/float_env.h: no FTZ/DAZ, round to nearest).
  enum class Help { kNothing, kRan, kLaneAsked };
  Help help(const void* tag);

  explicit ThreadPool(size_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace npurt
