// A thread in SimStream::synchronize runs blocks of the launch it waits for
// (ThreadPool::help with the stream as tag): every block still runs once, for
// 1, 2 and many blocks; a fault in a block the waiter ran is reported by that
// synchronize like any other; waiters of two streams each help only their own
// stream's launch; a host function that synchronizes another stream (a stream
// worker waiting) helps that stream's launch. A thread in Event::synchronize
// runs blocks of the launch on the stream that recorded the event, a fault in
// one of them reaches the event's waiter and the stream, and it runs no block
// of another stream's launch. Run under TSan by tools/test.sh
// (npurt_test_backends_sim).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "exec/thread_pool.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/stream.h"

namespace npurt {
namespace {

const Device kDev{DeviceType::kSim, 0};

// What the blocks of launches tagged k (0 or 1, the tiling's first byte) saw.
struct Seen {
  std::atomic<int> runs{0};
  std::mutex mu;
  std::set<std::thread::id> threads;  // guarded by mu
  void clear() {
    runs = 0;
    std::lock_guard<std::mutex> lk(mu);
    threads.clear();
  }
  bool ran_on(std::thread::id t) {
    std::lock_guard<std::mutex> lk(mu);
    return threads.count(t) != 0;
  }
};
Seen g_seen[2];
std::atomic<std::thread::id> g_throw_on{};  // a block run on this thread throws

// Tiling: [tag, block microseconds (2 bytes)].
void probe_entry(void* const* slots, size_t n) {
  const uint8_t* tiling = static_cast<const uint8_t*>(slots[n - 1]);
  Seen& seen = g_seen[tiling[0]];
  {
    std::lock_guard<std::mutex> lk(seen.mu);
    seen.threads.insert(std::this_thread::get_id());
  }
  uint16_t us;
  std::memcpy(&us, tiling + 1, sizeof us);
  std::this_thread::sleep_for(std::chrono::microseconds(us));
  seen.runs++;
  if (g_throw_on.load() == std::this_thread::get_id()) throw std::runtime_error("probe fault");
}

KernelLaunch probe_launch(uint8_t tag, uint32_t blocks, uint16_t block_us) {
  KernelLaunch l;
  l.kernel_name = "help_probe";
  l.sim_entry = &probe_entry;
  l.num_blocks = blocks;
  l.tiling.resize(3);
  l.tiling[0] = tag;
  std::memcpy(l.tiling.data() + 1, &block_us, sizeof block_us);
  return l;
}

bool pool_has_helpers() { return ThreadPool::compute().num_threads() >= 2; }

// Returns once a block of a launch tagged k ran (its job is on the pool): an
// event's waiter helps a launch that is running or begins within its spin,
// and a parked stream worker's wake-up may take longer than that.
void wait_until_running(uint8_t k) {
  for (;;) {
    {
      std::lock_guard<std::mutex> lk(g_seen[k].mu);
      if (!g_seen[k].threads.empty()) return;
    }
    std::this_thread::yield();
  }
}

TEST(SimStreamHelp, WaiterRunsBlocksOfItsLaunchOneTwoMany) {
  Stream s = Stream::create(kDev);
  for (uint32_t blocks : {1u, 2u, 40u}) {
    g_seen[0].clear();
    s.launch(probe_launch(0, blocks, 2000));
    s.synchronize();
    EXPECT_EQ(g_seen[0].runs.load(), static_cast<int>(blocks)) << blocks;
    // 40 blocks of 2 ms: the waiter gets a lane (free, or handed over by the
    // pool helper after its block) long before the launch ends.
    if (blocks == 40 && pool_has_helpers()) {
      EXPECT_TRUE(g_seen[0].ran_on(std::this_thread::get_id())) << "the waiting caller ran no block";
    }
  }
}

TEST(SimStreamHelp, FaultInABlockTheWaiterRanIsReported) {
  if (!pool_has_helpers()) GTEST_SKIP() << "a 1-thread pool runs every block on the stream worker";
  Stream s = Stream::create(kDev);
  g_seen[0].clear();
  g_throw_on = std::this_thread::get_id();
  s.launch(probe_launch(0, 40, 2000));
  try {
    s.synchronize();
    ADD_FAILURE() << "no fault reported";
  } catch (const KernelFault& e) {
    EXPECT_NE(std::string(e.what()).find("the kernel threw: probe fault"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("help_probe"), std::string::npos) << e.what();
  }
  g_throw_on = std::thread::id();
  EXPECT_EQ(g_seen[0].runs.load(), 40) << "the other blocks carried on";
  s.launch(probe_launch(0, 8, 100));
  EXPECT_NO_THROW(s.synchronize()) << "the stream stays usable";
}

TEST(SimStreamHelp, WaitersOfTwoStreamsHelpOnlyTheirOwn) {
  Stream a = Stream::create(kDev), b = Stream::create(kDev);
  g_seen[0].clear();
  g_seen[1].clear();
  auto waiter = [](Stream s, uint8_t tag) {
    for (int r = 0; r < 3; ++r) {
      s.launch(probe_launch(tag, 20, 1000));
      s.synchronize();
    }
    EXPECT_FALSE(g_seen[1 - tag].ran_on(std::this_thread::get_id())) << "a waiter ran another stream's block";
  };
  std::thread ta(waiter, a, uint8_t(0)), tb(waiter, b, uint8_t(1));
  ta.join();
  tb.join();
  EXPECT_EQ(g_seen[0].runs.load(), 60);
  EXPECT_EQ(g_seen[1].runs.load(), 60);
}

TEST(SimStreamHelp, HostFunctionWaitingForAnotherStreamHelpsIt) {
  Stream a = Stream::create(kDev), b = Stream::create(kDev);
  g_seen[1].clear();
  std::atomic<bool> host_done{false};
  std::atomic<std::thread::id> host_thread{};
  b.launch(probe_launch(1, 40, 2000));
  a.host_func([&] {
    host_thread = std::this_thread::get_id();
    b.synchronize();  // stream a's worker waits for b (and may run its blocks)
    host_done = true;
  });
  a.synchronize();
  EXPECT_TRUE(host_done.load());
  EXPECT_EQ(g_seen[1].runs.load(), 40);
  if (pool_has_helpers()) {
    EXPECT_TRUE(g_seen[1].ran_on(host_thread.load())) << "the waiting stream worker ran no block";
  }
  b.synchronize();
}

TEST(SimStreamHelp, EventWaiterRunsBlocksOfTheRecordingStream) {
  Stream s = Stream::create(kDev);
  Event e(kDev);
  for (uint32_t blocks : {1u, 2u, 40u}) {
    g_seen[0].clear();
    s.launch(probe_launch(0, blocks, 2000));
    s.record_event(e);
    if (blocks == 40) wait_until_running(0);
    e.synchronize();
    EXPECT_EQ(g_seen[0].runs.load(), static_cast<int>(blocks)) << blocks;
    if (blocks == 40 && pool_has_helpers()) {
      EXPECT_TRUE(g_seen[0].ran_on(std::this_thread::get_id())) << "the event's waiter ran no block";
    }
  }
  EXPECT_NO_THROW(s.synchronize());
}

TEST(SimStreamHelp, FaultInABlockTheEventWaiterRanIsReported) {
  if (!pool_has_helpers()) GTEST_SKIP() << "a 1-thread pool runs every block on the stream worker";
  Stream s = Stream::create(kDev);
  Event e(kDev);
  g_seen[0].clear();
  g_throw_on = std::this_thread::get_id();
  s.launch(probe_launch(0, 40, 2000));
  s.record_event(e);
  wait_until_running(0);
  try {
    e.synchronize();
    ADD_FAILURE() << "no fault reported to the event's waiter";
  } catch (const KernelFault& err) {
    EXPECT_NE(std::string(err.what()).find("the kernel threw: probe fault"), std::string::npos) << err.what();
  }
  g_throw_on = std::thread::id();
  EXPECT_EQ(g_seen[0].runs.load(), 40) << "the other blocks carried on";
  EXPECT_THROW(s.synchronize(), KernelFault) << "the stream keeps the failure for its own synchronize";
  s.launch(probe_launch(0, 8, 100));
  EXPECT_NO_THROW(s.synchronize()) << "the stream stays usable";
}

TEST(SimStreamHelp, EventWaiterHelpsOnlyTheRecordingStream) {
  Stream a = Stream::create(kDev), b = Stream::create(kDev);
  Event e(kDev);
  g_seen[0].clear();
  g_seen[1].clear();
  a.launch(probe_launch(0, 40, 2000));
  b.launch(probe_launch(1, 40, 2000));
  b.record_event(e);
  wait_until_running(0);
  e.synchronize();
  EXPECT_EQ(g_seen[1].runs.load(), 40);
  EXPECT_FALSE(g_seen[0].ran_on(std::this_thread::get_id())) << "the event's waiter ran another stream's block";
  a.synchronize();
  EXPECT_EQ(g_seen[0].runs.load(), 40);
}

}  // namespace
}  // namespace npurt
