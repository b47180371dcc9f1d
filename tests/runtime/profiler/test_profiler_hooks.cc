// Profiler core through its hooks, driven the way a backend stream drives them:
// submit on a caller thread, execute on a worker thread, blocks on others.
// Independent of any backend, so these pin down the profiler's own contract.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "exec/profiler.h"

namespace npurt::profiler {
namespace {

Command launch_cmd(const char* kernel, uint32_t blocks) {
  Command c;
  c.kind = Command::Kind::kLaunch;
  c.launch.kernel_name = kernel;
  c.launch.num_blocks = blocks;
  return c;
}

Command copy_cmd(size_t bytes, CopyKind kind) {
  Command c;
  c.kind = Command::Kind::kCopy;
  c.bytes = bytes;
  c.copy_kind = kind;
  return c;
}

void busy_for(std::chrono::microseconds d) {
  auto end = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < end) {
  }
}

// Executes `id` the way a sim stream worker does: ExecScope around block scopes.
void execute(uint64_t id, uint32_t blocks, std::chrono::microseconds per_block) {
  ExecScope scope(id);
  for (uint32_t b = 0; b < blocks; ++b) {
    BlockScope bs(current_exec_id(), b);
    busy_for(per_block);
  }
}

struct SessionGuard {  // never leave a session running after a failed assertion
  ~SessionGuard() {
    if (is_running()) stop();
  }
};

TEST(ProfilerHooks, DisabledHooksRecordNothingAndReturnZero) {
  ASSERT_FALSE(enabled());
  EXPECT_EQ(on_submit(launch_cmd("k", 1), 1, Device()), 0u);
  { ExecScope s(0); }
  on_memory(MemoryHook{});
  SessionGuard g;
  start();
  Profile p = stop();
  EXPECT_TRUE(p.activities.empty());
  EXPECT_TRUE(p.memory.empty());
}

TEST(ProfilerHooks, StartTwiceAndStopWithoutStartAreErrors) {
  SessionGuard g;
  EXPECT_THROW(stop(), Error);
  start();
  try {
    start();
    FAIL() << "second start() did not throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("already running"), std::string::npos) << e.what();
  }
  stop();
  Options bad;
  bad.drain_timeout_ms = -1;
  EXPECT_THROW(start(bad), InvalidArgument);
  EXPECT_FALSE(is_running());
}

TEST(ProfilerHooks, LaunchIsJoinedAcrossThreadsWithBlocksAndAnnotation) {
  SessionGuard g;
  start();
  uint64_t stream = new_stream_id();
  name_stream(stream, "compute stream");
  OpAnnotation ann;
  ann.op = "add";
  ann.shapes = "[1024], [1024] -> [1024]";
  ann.dtypes = "float32, float32 -> float32";
  ann.flops = 1024;
  ann.bytes = 3 * 4096;
  annotate_next_launch(ann);
  uint64_t id = on_submit(launch_cmd("add_kernel", 4), stream, Device{DeviceType::kSim, 0});
  uint64_t plain = on_submit(launch_cmd("mul_kernel", 1), stream, Device{DeviceType::kSim, 0});
  ASSERT_NE(id, 0u);
  ASSERT_NE(plain, id);
  std::thread worker([&] {
    execute(id, 4, std::chrono::microseconds(200));
    execute(plain, 1, std::chrono::microseconds(50));
  });
  worker.join();
  Profile p = stop();
  ASSERT_EQ(p.activities.size(), 2u);
  const Activity& a = p.activities[0];
  EXPECT_EQ(a.name, "add");
  EXPECT_EQ(a.kernel, "add_kernel");
  EXPECT_EQ(a.stream_name, "compute stream");
  EXPECT_EQ(a.num_blocks, 4u);
  EXPECT_EQ(a.dtypes, ann.dtypes);
  EXPECT_DOUBLE_EQ(a.mem_bytes, 3 * 4096);
  EXPECT_TRUE(a.executed);
  EXPECT_LE(a.enqueue_ns, a.start_ns);
  EXPECT_GE(a.device_ns(), 4 * 200000);
  EXPECT_NE(a.host_thread, a.exec_thread);
  ASSERT_EQ(a.blocks.size(), 4u);
  for (uint32_t b = 0; b < 4; ++b) {
    EXPECT_EQ(a.blocks[b].block, b);
    EXPECT_GE(a.blocks[b].start_ns, a.start_ns);
    EXPECT_LE(a.blocks[b].end_ns, a.end_ns);
  }
  // The annotation belongs to one launch only.
  EXPECT_EQ(p.activities[1].name, "mul_kernel");
  EXPECT_TRUE(p.activities[1].dtypes.empty());
}

TEST(ProfilerHooks, StopWaitsForInFlightWork) {
  SessionGuard g;
  start();
  uint64_t id = on_submit(copy_cmd(4096, CopyKind::kHostToDevice), new_stream_id(), Device());
  std::thread worker([id] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    execute(id, 0, std::chrono::microseconds(0));
  });
  Profile p = stop();
  worker.join();
  ASSERT_EQ(p.activities.size(), 1u);
  EXPECT_TRUE(p.activities[0].executed);
  EXPECT_EQ(p.activities[0].name, "copy H2D");
  EXPECT_EQ(p.activities[0].bytes, 4096u);
  EXPECT_EQ(p.incomplete, 0u);
}

TEST(ProfilerHooks, DrainTimeoutReportsIncompleteAndLateWorkStaysOut) {
  SessionGuard g;
  Options o;
  o.drain_timeout_ms = 10;
  start(o);
  uint64_t id = on_submit(launch_cmd("never_run", 1), new_stream_id(), Device());
  Profile p = stop();
  ASSERT_EQ(p.activities.size(), 1u);
  EXPECT_FALSE(p.activities[0].executed);
  EXPECT_EQ(p.incomplete, 1u);
  start();
  execute(id, 1, std::chrono::microseconds(1));  // runs during the next session
  Profile q = stop();
  EXPECT_TRUE(q.activities.empty());
}

TEST(ProfilerHooks, ManyThreadsSubmitConcurrently) {
  SessionGuard g;
  start();
  constexpr int kThreads = 4, kPerThread = 2000;
  std::vector<std::thread> threads;
  std::vector<std::vector<uint64_t>> ids(kThreads);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      uint64_t s = new_stream_id();
      for (int i = 0; i < kPerThread; ++i) {
        uint64_t id = on_submit(copy_cmd(64, CopyKind::kDeviceToDevice), s, Device());
        ids[t].push_back(id);
        execute(id, 0, std::chrono::microseconds(0));
      }
    });
  for (auto& th : threads) th.join();
  Profile p = stop();
  ASSERT_EQ(p.activities.size(), size_t(kThreads * kPerThread));
  std::set<uint64_t> unique;
  std::set<uint64_t> streams;
  for (const Activity& a : p.activities) {
    unique.insert(a.id);
    streams.insert(a.stream);
    EXPECT_TRUE(a.executed);
  }
  EXPECT_EQ(unique.size(), p.activities.size());
  EXPECT_EQ(streams.size(), size_t(kThreads));
  for (size_t i = 1; i < p.activities.size(); ++i)
    EXPECT_LE(p.activities[i - 1].enqueue_ns, p.activities[i].enqueue_ns);
}

TEST(ProfilerHooks, MemoryAndSpansAreRecordedInTimeOrder) {
  SessionGuard g;
  start();
  int x = 0;
  on_memory(MemoryHook{Device(), true, &x, 512, "small_pool", 7, 512, 2 << 20});
  {
    SpanScope s("graph replay", "graph", "12 nodes", Device());
    busy_for(std::chrono::microseconds(20));
  }
  on_memory(MemoryHook{Device(), false, &x, 512, "small_pool", 7, 0, 2 << 20});
  { Range r("user range"); }
  Profile p = stop();
  ASSERT_EQ(p.memory.size(), 2u);
  EXPECT_TRUE(p.memory[0].is_alloc);
  EXPECT_EQ(p.memory[0].allocated_after, 512);
  EXPECT_FALSE(p.memory[1].is_alloc);
  EXPECT_LE(p.memory[0].t_ns, p.memory[1].t_ns);
  EXPECT_EQ(p.memory[1].pool, "small_pool");
  ASSERT_EQ(p.spans.size(), 2u);
  EXPECT_EQ(p.spans[0].name, "graph replay");
  EXPECT_EQ(p.spans[0].detail, "12 nodes");
  EXPECT_GE(p.spans[0].end_ns - p.spans[0].start_ns, 20000);
  EXPECT_EQ(p.spans[1].category, "range");
}

TEST(ProfilerHooks, MemoryRecordingCanBeSwitchedOff) {
  SessionGuard g;
  Options o;
  o.record_memory = false;
  o.record_blocks = false;
  start(o);
  on_memory(MemoryHook{});
  uint64_t id = on_submit(launch_cmd("k", 2), 1, Device());
  execute(id, 2, std::chrono::microseconds(1));
  Profile p = stop();
  EXPECT_TRUE(p.memory.empty());
  ASSERT_EQ(p.activities.size(), 1u);
  EXPECT_TRUE(p.activities[0].blocks.empty());
}

}  // namespace
}  // namespace npurt::profiler
