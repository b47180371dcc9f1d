// The compute pool: every index runs exactly once, callers participate,
// concurrent and nested calls complete, and the caller returns only after its
// helpers finish (whether they end inside its short re-check window or after it).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "exec/thread_pool.h"

namespace npurt {
namespace {

TEST(ThreadPool, EveryIndexRunsExactlyOnce) {
  ThreadPool pool(4);
  EXPECT_EQ(pool.num_threads(), 4u);
  for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(15), size_t(1023)}) {
    std::vector<std::atomic<int>> hits(n);
    pool.parallel_for(n, [&](size_t i) { hits[i]++; });
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << n << " " << i;
  }
}

TEST(ThreadPool, ConcurrentAndNestedCallersComplete) {
  ThreadPool pool(3);
  std::atomic<long> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 6; ++t)
    callers.emplace_back([&] {
      for (int r = 0; r < 50; ++r)
        pool.parallel_for(8, [&](size_t i) {
          pool.parallel_for(4, [&](size_t j) { total += static_cast<long>(i * 4 + j); });
        });
    });
  for (auto& c : callers) c.join();
  EXPECT_EQ(total.load(), 6L * 50 * (31 * 32 / 2));
}

TEST(ThreadPool, CallerWaitsForAHelperShorterOrLongerThanItsSpin) {
  ThreadPool pool(2);
  for (int us : {0, 50, 5000}) {  // ends at once, inside the 200 us re-check window, and long after it
    std::atomic<int> done{0};
    std::thread::id caller = std::this_thread::get_id();
    pool.parallel_for(2, [&](size_t) {
      if (std::this_thread::get_id() != caller) std::this_thread::sleep_for(std::chrono::microseconds(us));
      done++;
    });
    ASSERT_EQ(done.load(), 2) << us;
  }
}

TEST(ThreadPool, SingleThreadPoolRunsOnTheCaller) {
  ThreadPool pool(1);
  std::thread::id caller = std::this_thread::get_id();
  bool all_on_caller = true;
  pool.parallel_for(10, [&](size_t) { all_on_caller &= std::this_thread::get_id() == caller; });
  EXPECT_TRUE(all_on_caller);
  EXPECT_GE(ThreadPool::compute().num_threads(), 1u);
}

}  // namespace
}  // namespace npurt
