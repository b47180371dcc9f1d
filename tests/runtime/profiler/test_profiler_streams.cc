// The profiler wired into the runtime: real sim streams, a real (trivial) kernel
// launch with several blocks, copies, memsets, events and pool allocations.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "npurt/memory_pool.h"
#include "npurt/profiler.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"

namespace npurt::profiler {
namespace {

std::atomic<int> g_blocks_run{0};

// A sim kernel entry that only spins a little per block (no GM access).
void spin_kernel(void* const*, size_t) {
  auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
  while (std::chrono::steady_clock::now() < end) {
  }
  g_blocks_run.fetch_add(1);
}

const Activity* find(const Profile& p, const std::string& name) {
  for (const Activity& a : p.activities)
    if (a.name == name) return &a;
  return nullptr;
}

TEST(ProfilerStreams, RecordsLaunchCopiesMemsetEventsAndPool) {
  Device dev;
  Stream s = Stream::create(dev);
  MemoryPool& pool = device_context(dev).pool();
  std::vector<float> host(4096, 1.0f), back(4096, 0.0f);
  start();
  DataPtr buf = pool.allocate(host.size() * sizeof(float), s);
  s.memcpy_async(buf.get(), host.data(), host.size() * sizeof(float), CopyKind::kHostToDevice);
  s.memset_async(buf.get(), 0, 1024);
  KernelLaunch kl;
  kl.kernel_name = "spin_kernel";
  kl.sim_entry = &spin_kernel;
  kl.num_blocks = 4;
  g_blocks_run = 0;
  s.launch(kl);
  Event e(dev);
  e.record(s);
  s.memcpy_async(back.data(), buf.get(), back.size() * sizeof(float), CopyKind::kDeviceToHost);
  s.synchronize();
  buf.reset();
  Profile p = stop();
  ASSERT_EQ(g_blocks_run.load(), 4);

  const Activity* launch = find(p, "spin_kernel");
  ASSERT_NE(launch, nullptr) << p.table();
  EXPECT_EQ(launch->kind, ActivityKind::kKernel);
  EXPECT_EQ(launch->num_blocks, 4u);
  EXPECT_EQ(launch->stream, s.id());
  EXPECT_TRUE(launch->executed && launch->ok);
  ASSERT_EQ(launch->blocks.size(), 4u);
  for (const BlockSpan& b : launch->blocks) {
    EXPECT_GE(b.end_ns - b.start_ns, 200000);
    EXPECT_GE(b.start_ns, launch->start_ns);
    EXPECT_LE(b.end_ns, launch->end_ns);
  }
  for (const char* name : {"copy H2D", "memset", "event record", "copy D2H"})
    EXPECT_NE(find(p, name), nullptr) << name << "\n" << p.table();
  EXPECT_EQ(find(p, "copy H2D")->bytes, 4096 * sizeof(float));
  // Stream order is preserved in device time.
  for (size_t i = 1; i < p.activities.size(); ++i)
    EXPECT_LE(p.activities[i - 1].end_ns, p.activities[i].start_ns);

  ASSERT_GE(p.memory.size(), 2u);
  EXPECT_TRUE(p.memory.front().is_alloc);
  EXPECT_EQ(p.memory.front().bytes, MemoryPool::round_size(4096 * sizeof(float)));
  EXPECT_EQ(p.memory.front().stream, s.id());
  EXPECT_FALSE(p.memory.back().is_alloc);
  EXPECT_EQ(p.memory.back().allocated_after + int64_t(p.memory.back().bytes),
            p.memory.front().allocated_after);
}

TEST(ProfilerStreams, FailedWorkIsMarkedNotOk) {
  Device dev;
  Stream s = Stream::create(dev);
  start();
  s.host_func([] { throw InvalidArgument("test: argument 'x': deliberate failure"); });
  EXPECT_THROW(s.synchronize(), InvalidArgument);
  Profile p = stop();
  const Activity* f = find(p, "host function");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->ok);
}

TEST(ProfilerStreams, NothingIsRecordedWhenOff) {
  Device dev;
  Stream s = Stream::create(dev);
  std::vector<char> h(256);
  DataPtr buf = device_context(dev).pool().allocate(256, s);
  s.memcpy_async(buf.get(), h.data(), 256, CopyKind::kHostToDevice);
  start();
  Profile p = stop();  // the copy above was enqueued before the session
  s.synchronize();
  EXPECT_TRUE(p.activities.empty());
}

}  // namespace
}  // namespace npurt::profiler
