// ThreadPool::help: a thread waiting for a tagged parallel_for joins it. Every
// index still runs exactly once; a job never has more than num_threads() lanes
// at once (owner, helpers and waiters together); a waiter that finds the lanes
// full gets one handed over by a pool helper; a waiter only joins calls of its
// own tag; with nothing running, help() does nothing. Run under TSan by
// tools/test.sh (npurt_test_exec).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "exec/thread_pool.h"

namespace npurt {
namespace {

using Help = ThreadPool::Help;

// Counts the threads inside a job's indices at once and who ran what.
struct LaneProbe {
  std::atomic<int> inside{0}, max_inside{0};
  std::vector<std::atomic<int>> hits;
  std::mutex mu;
  std::set<std::thread::id> threads;  // guarded by mu
  explicit LaneProbe(size_t n) : hits(n) {}
  void run(size_t i, std::chrono::microseconds work) {
    const int now = ++inside;
    int seen = max_inside.load();
    while (now > seen && !max_inside.compare_exchange_weak(seen, now)) {
    }
    {
      std::lock_guard<std::mutex> lk(mu);
      threads.insert(std::this_thread::get_id());
    }
    std::this_thread::sleep_for(work);
    hits[i]++;
    --inside;
  }
  bool ran_on(std::thread::id t) {
    std::lock_guard<std::mutex> lk(mu);
    return threads.count(t) != 0;
  }
};

// The owner runs a tagged call on its own thread; the calling thread helps it
// until it ran an index or the call is over. Returns what help() last said.
Help help_until_ran(ThreadPool& pool, const void* tag, const std::atomic<bool>& over) {
  Help h = Help::kNothing;
  while (!over.load() && (h = pool.help(tag)) != Help::kRan) std::this_thread::yield();
  return h;
}

TEST(ThreadPoolHelp, NothingRunningMeansNothingToDo) {
  ThreadPool pool(2);
  int tag = 0;
  EXPECT_EQ(pool.help(&tag), Help::kNothing);
  EXPECT_EQ(pool.help(nullptr), Help::kNothing);
}

TEST(ThreadPoolHelp, WaiterGetsAHelpersLaneAndLanesStayCapped) {
  for (size_t threads : {size_t(2), size_t(3)}) {
    ThreadPool pool(threads);
    for (size_t n : {size_t(1), size_t(2), size_t(40)}) {
      int tag = 0;
      LaneProbe probe(n);
      std::atomic<bool> started{false}, over{false};
      std::thread owner([&] {
        ThreadPool::set_thread_tag(&tag);
        pool.parallel_for(n, [&](size_t i) {
          started = true;
          probe.run(i, std::chrono::microseconds(2000));
        });
        ThreadPool::set_thread_tag(nullptr);
        over = true;
      });
      while (!started.load()) std::this_thread::yield();
      const Help last = help_until_ran(pool, &tag, over);
      owner.join();
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(probe.hits[i].load(), 1) << threads << " " << n << " " << i;
      EXPECT_LE(probe.max_inside.load(), static_cast<int>(threads)) << threads << " " << n;
      // 40 indices of 2 ms leave the waiter ~80 ms to get a lane (handed over
      // after a helper's current index); 1 or 2 indices may all be taken first.
      if (n == 40) {
        EXPECT_EQ(last, Help::kRan) << threads;
        EXPECT_TRUE(probe.ran_on(std::this_thread::get_id())) << threads;
      }
    }
  }
}

TEST(ThreadPoolHelp, WaitersJoinOnlyCallsOfTheirTag) {
  ThreadPool pool(3);
  int tag_a = 0, tag_b = 0;
  LaneProbe a(30), b(30);
  std::atomic<int> started{0};
  std::atomic<bool> over_a{false}, over_b{false};
  auto owner = [&](int* tag, LaneProbe* probe, std::atomic<bool>* over) {
    ThreadPool::set_thread_tag(tag);
    pool.parallel_for(30, [&](size_t i) {
      if (i == 0) started++;
      probe->run(i, std::chrono::microseconds(1000));
    });
    ThreadPool::set_thread_tag(nullptr);
    *over = true;
  };
  std::thread oa(owner, &tag_a, &a, &over_a), ob(owner, &tag_b, &b, &over_b);
  while (started.load() < 2) std::this_thread::yield();
  std::thread wb([&] {
    help_until_ran(pool, &tag_b, over_b);
    EXPECT_FALSE(a.ran_on(std::this_thread::get_id())) << "waiter of b ran a's indices";
  });
  help_until_ran(pool, &tag_a, over_a);
  EXPECT_FALSE(b.ran_on(std::this_thread::get_id())) << "waiter of a ran b's indices";
  wb.join();
  oa.join();
  ob.join();
  for (size_t i = 0; i < 30; ++i) {
    ASSERT_EQ(a.hits[i].load(), 1) << i;
    ASSERT_EQ(b.hits[i].load(), 1) << i;
  }
  EXPECT_LE(a.max_inside.load(), 3);
  EXPECT_LE(b.max_inside.load(), 3);
}

// Many short tagged calls, waiters helping and giving up at random moments:
// every call still returns only after all its indices ended (TSan flags a
// waiter touching a job after the owner returned).
TEST(ThreadPoolHelp, ManyShortCallsWithWaitersComplete) {
  ThreadPool pool(2);
  int tag = 0;
  std::atomic<bool> stop{false};
  std::atomic<long> helped{0};
  std::thread waiter([&] {
    while (!stop.load())
      if (pool.help(&tag) == Help::kRan) helped++;
  });
  ThreadPool::set_thread_tag(&tag);
  int bad = 0;
  for (int r = 0; r < 2000; ++r) {
    std::atomic<int> inside{0}, ran{0};
    const size_t n = 2 + r % 7;
    pool.parallel_for(n, [&](size_t i) {
      inside++;
      if ((i + r) % 5 == 0) std::this_thread::sleep_for(std::chrono::microseconds(10));
      ran++;
      inside--;
    });
    if (inside.load() != 0 || ran.load() != static_cast<int>(n)) bad++;
  }
  ThreadPool::set_thread_tag(nullptr);
  stop = true;
  waiter.join();
  EXPECT_EQ(bad, 0);
}

#if defined(__x86_64__) || defined(__i386__)
// A waiter that set flush-to-zero / denormals-are-zero (as torch.set_flush_denormal
// does) runs the blocks it joins under the default MXCSR, and gets its own back:
// results must not depend on which thread ran a block.
TEST(ThreadPoolHelp, HelpingThreadRunsBlocksUnderTheDefaultFloatEnvironment) {
  constexpr unsigned kFtzDaz = 0x8040;
  ThreadPool pool(2);
  int tag = 0;
  std::atomic<bool> started{false}, over{false}, waiter_ran{false};
  std::atomic<unsigned> waiter_csr_in_blocks{0};
  std::thread::id waiter_id;
  std::atomic<bool> waiter_ready{false};
  std::thread owner([&] {
    while (!waiter_ready.load()) std::this_thread::yield();
    ThreadPool::set_thread_tag(&tag);
    pool.parallel_for(40, [&](size_t) {
      started = true;
      if (std::this_thread::get_id() == waiter_id) {
        waiter_ran = true;
        waiter_csr_in_blocks |= _mm_getcsr();
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    });
    ThreadPool::set_thread_tag(nullptr);
    over = true;
  });
  const unsigned before = _mm_getcsr();
  waiter_id = std::this_thread::get_id();
  _mm_setcsr(before | kFtzDaz);
  waiter_ready = true;
  while (!started.load()) std::this_thread::yield();
  while (!over.load()) pool.help(&tag);
  const unsigned after = _mm_getcsr();
  _mm_setcsr(before);
  owner.join();
  ASSERT_TRUE(waiter_ran.load()) << "the waiter never ran a block: the test proves nothing";
  EXPECT_EQ(waiter_csr_in_blocks.load() & kFtzDaz, 0u);
  EXPECT_EQ(after & kFtzDaz, kFtzDaz) << "the waiter's own environment was not restored";
}
#endif

}  // namespace
}  // namespace npurt
