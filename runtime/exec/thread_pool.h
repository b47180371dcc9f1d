// runtime/exec/thread_pool.h: the compute worker pool (internal).
//
// One process-wide pool sized to the host's hardware threads runs the blocks of
// simulated kernel launches (and any other data-parallel host work of the sim
// backend). parallel_for is safe to call from several stream threads at once;
// the calling thread participates, so nested or concurrent calls cannot deadlock.
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

  explicit ThreadPool(size_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace npurt
