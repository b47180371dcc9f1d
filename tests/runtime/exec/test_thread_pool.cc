// The compute pool: every index runs exactly once, callers participate,
// concurrent and nested calls complete, and the caller returns only after its
// helpers finish (whether they end inside its short re-check window or after it,
// many short jobs from several callers),
// idle helpers pick up jobs whether they are still spinning or parked, and they
// park (no CPU) once the idle spin budget is over.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "exec/spin_wait.h"
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

// Completion is lock-free (a helper's last touch of the job is one fetch_sub):
// many short jobs from several callers, some indices slow, must each return
// only after every index of that job ended (a caller returning early would
// see `inside` > 0, and TSan would flag the helper touching the dead job).
TEST(ThreadPool, CallerReturnsOnlyAfterEveryIndexEnded) {
  ThreadPool pool(3);
  std::atomic<int> bad{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      for (int r = 0; r < 500; ++r) {
        std::atomic<int> inside{0}, ran{0};
        pool.parallel_for(2 + (r + t) % 5, [&](size_t i) {
          inside++;
          if ((i + r) % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(20));
          ran++;
          inside--;
        });
        if (inside.load() != 0 || ran.load() != 2 + (r + t) % 5) bad++;
      }
    });
  for (auto& c : callers) c.join();
  EXPECT_EQ(bad.load(), 0);
}

// Jobs spaced around the helpers' idle spin budget (250 us): a helper still
// spinning and a parked one both take part, and every index runs once.
TEST(ThreadPool, IdleHelpersTakeJobsWhileSpinningOrParked) {
  ThreadPool pool(3);
  const int gaps_us[] = {0, 10, 100, 240, 260, 400, 2000};
  for (int r = 0; r < 70; ++r) {
    std::this_thread::sleep_for(std::chrono::microseconds(gaps_us[r % 7]));
    std::vector<std::atomic<int>> hits(64);
    pool.parallel_for(hits.size(), [&](size_t i) { hits[i]++; });
    for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 1) << "round " << r << " index " << i;
  }
}

// A pool destroyed while its helpers spin, and one destroyed after they parked,
// both join (a helper spinning must see the stop flag).
TEST(ThreadPool, DestroyedWhileHelpersSpinOrPark) {
  for (int wait_us : {0, 50, 1000}) {
    ThreadPool pool(4);
    std::atomic<int> n{0};
    pool.parallel_for(16, [&](size_t) { n++; });
    std::this_thread::sleep_for(std::chrono::microseconds(wait_us));
    ASSERT_EQ(n.load(), 16) << wait_us;
  }
}

static double process_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

// Idle helpers spin for a bounded time only: over 200 ms of idleness after a
// job, 3 helpers that kept spinning would use up to 600 ms of CPU; parked they
// use ~0 (the bound leaves room for the spin budget itself and a loaded host).
TEST(ThreadPool, IdleHelpersParkAfterTheSpinBudget) {
  ThreadPool pool(4);
  pool.parallel_for(64, [](size_t) {});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the budget
  const double before = process_cpu_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_LT(process_cpu_ms() - before, 40.0);
  static_assert(kIdleSpinBudget < std::chrono::milliseconds(20), "the wait above must outlast the spin");
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
