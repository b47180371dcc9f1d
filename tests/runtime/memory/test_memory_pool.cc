// Unit tests of the caching allocator: rounding, alignment, segments, split and
// coalesce, best fit, stream-ordered reuse, record_stream, limits and OOM,
// empty_cache, no-caching mode, graph pools, bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "backends/sim/sim_backend.h"
#include "runtime/exec/gate.h"
#include "runtime/memory/pool_test.h"
#include "npurt/memory_pool.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "npurt/stream.h"

namespace npurt {
namespace {

using test::KiB;
using test::MiB;
using test::PoolTest;

TEST(PoolRounding, MatchesTorchNpuRule) {
  auto ref = [](size_t n) { return std::max<size_t>(512, (n + 32 + 511) / 512 * 512); };
  for (size_t n : {size_t(1), size_t(15), size_t(33), size_t(479), size_t(480), size_t(481), size_t(512),
                   size_t(1023), size_t(1024), MiB - 32, MiB, 10 * MiB + 1, size_t(1) << 33})
    EXPECT_EQ(MemoryPool::round_size(n), ref(n)) << n;
  EXPECT_EQ(MemoryPool::round_size(480), 512u);
  EXPECT_EQ(MemoryPool::round_size(481), 1024u);
  EXPECT_GE(MemoryPool::round_size(~size_t(0)), size_t(1) << 62);  // no wrap-around
}

TEST_F(PoolTest, EveryBlockIs128ByteAligned) {
  std::vector<DataPtr> live;
  for (size_t n : {size_t(1), size_t(15), size_t(33), size_t(1023), size_t(4097), 300 * KiB + 7, MiB - 1,
                   MiB + 3, 5 * MiB + 1, 12 * MiB + 5}) {
    for (int k = 0; k < 3; ++k) {
      live.push_back(pool.allocate(n, k % 2 ? s1 : s2));
      uintptr_t p = reinterpret_cast<uintptr_t>(live.back().get());
      EXPECT_EQ(p % 128, 0u) << n;
      EXPECT_EQ(p % 512, 0u) << n;  // every split offset is a multiple of 512
      EXPECT_EQ(live.back().size(), n);
    }
  }
}

TEST_F(PoolTest, SegmentSizesFollowSmallAndLargeRules) {
  DataPtr a = pool.allocate(KiB, s1);
  EXPECT_EQ(st("segment.small_pool.current"), 1);
  EXPECT_EQ(st("reserved_bytes.small_pool.current"), int64_t(2 * MiB));
  DataPtr b = pool.allocate(5 * MiB, s1);
  EXPECT_EQ(st("segment.large_pool.current"), 1);
  EXPECT_EQ(st("reserved_bytes.large_pool.current"), int64_t(20 * MiB));
  DataPtr c = pool.allocate(31 * MiB + 1, s1);  // > 10 MiB: own segment rounded to 2 MiB
  EXPECT_EQ(st("segment.large_pool.current"), 2);
  EXPECT_EQ(st("reserved_bytes.large_pool.current"), int64_t(20 * MiB + 32 * MiB));
  EXPECT_EQ(st("reserved_bytes.all.current"), int64_t(54 * MiB));
  EXPECT_EQ(st("allocated_bytes.all.current"),
            int64_t(MemoryPool::round_size(KiB) + MemoryPool::round_size(5 * MiB) + 32 * MiB));
  EXPECT_EQ(st("requested_bytes.all.current"), int64_t(KiB + 5 * MiB + 31 * MiB + 1));
}

TEST_F(PoolTest, SplitsAndCoalescesWithinASegment) {
  DataPtr a = pool.allocate(KiB, s1), b = pool.allocate(KiB, s1), c = pool.allocate(KiB, s1);
  char* base = static_cast<char*>(a.get());
  EXPECT_EQ(static_cast<char*>(b.get()), base + 1536);
  EXPECT_EQ(static_cast<char*>(c.get()), base + 3072);
  EXPECT_EQ(st("segment.all.current"), 1);
  EXPECT_EQ(st("inactive_split.all.current"), 1);  // the tail of the segment
  b.reset();
  EXPECT_EQ(st("inactive_split.all.current"), 2);  // hole between a and c
  a.reset();
  EXPECT_EQ(st("inactive_split.all.current"), 2);  // a merged with b's hole
  EXPECT_EQ(st("inactive_split_bytes.all.current"), int64_t(2 * MiB - 1536));
  c.reset();
  EXPECT_EQ(st("inactive_split.all.current"), 0);  // one block = the whole segment
  // A 1 MiB block fits only if the three blocks and the tail were merged again.
  DataPtr big = pool.allocate(MiB - 32, s1);
  EXPECT_EQ(static_cast<char*>(big.get()), base);
  EXPECT_EQ(st("segment.all.current"), 1);
}

TEST_F(PoolTest, BestFitPicksTheSmallestFreeBlockThatFits) {
  DataPtr x1 = pool.allocate(4 * KiB, s1), sep1 = pool.allocate(KiB, s1);
  DataPtr x2 = pool.allocate(8 * KiB, s1), sep2 = pool.allocate(KiB, s1);
  DataPtr x3 = pool.allocate(16 * KiB, s1), sep3 = pool.allocate(KiB, s1);
  void* p2 = x2.get();
  x1.reset();
  x3.reset();
  x2.reset();
  DataPtr y = pool.allocate(6 * KiB, s1);  // 6656 rounded: too big for x1 (4608), fits x2 (8704)
  EXPECT_EQ(y.get(), p2);
  DataPtr z = pool.allocate(3 * KiB, s1);  // x1's hole is now the best fit
  EXPECT_EQ(static_cast<char*>(z.get()), static_cast<char*>(sep1.get()) - 4608);
}

TEST_F(PoolTest, BlockFreedOnOneStreamIsNotReusedByAnotherWhileWorkIsPending) {
  // 14 MiB - 32 rounds to exactly one 14 MiB segment: no remainder to confuse best fit.
  const size_t n = 14 * MiB - 32;
  test::Gate gate;
  gate.block(s1);
  DataPtr a = pool.allocate(n, s1);
  char* pa = static_cast<char*>(a.get());
  a.reset();  // stream-ordered free while s1 is still busy
  DataPtr same = pool.allocate(n, s1);
  EXPECT_EQ(static_cast<char*>(same.get()), pa) << "reuse on the freeing stream is immediate";
  same.reset();
  DataPtr other = pool.allocate(n, s2);
  char* po = static_cast<char*>(other.get());
  EXPECT_TRUE(po + n <= pa || po >= pa + n) << "s2 got memory s1 may still use";
  EXPECT_EQ(st("segment.all.current"), 2);
  gate.open();
  s1.synchronize();
  DataPtr later = pool.allocate(n, s2);
  EXPECT_EQ(static_cast<char*>(later.get()), pa) << "after s1 reached the free, s2 may reuse it";
  EXPECT_EQ(st("segment.all.current"), 2);
}

TEST_F(PoolTest, RecordStreamDelaysReuseEvenOnTheAllocatingStream) {
  test::Gate gate;
  DataPtr a = pool.allocate(64 * KiB, s1);
  char* pa = static_cast<char*>(a.get());
  gate.block(s2);
  pool.record_stream(a, s2);
  a.reset();
  EXPECT_EQ(st("active.all.current"), 1) << "pending block still counts as active";
  DataPtr b = pool.allocate(64 * KiB, s1);
  EXPECT_NE(static_cast<char*>(b.get()), pa) << "s2 may still be using the block";
  b.reset();
  gate.open();
  s2.synchronize();
  DataPtr c = pool.allocate(64 * KiB, s1);
  EXPECT_EQ(static_cast<char*>(c.get()), pa);
}

TEST_F(PoolTest, LimitRaisesOutOfMemoryWithABreakdown) {
  pool.set_limit(4 * MiB);
  EXPECT_EQ(pool.limit(), 4 * MiB);
  DataPtr small = pool.allocate(KiB, s1);
  try {
    pool.allocate(3 * MiB, s1);  // needs a 20 MiB segment
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    std::string m = e.what();
    EXPECT_EQ(e.code(), StatusCode::kOutOfMemory);
    for (const char* part : {"npurt.MemoryPool.allocate", "sim:0", "tried to allocate 3.00 MiB", "(3145728 bytes",
                             "1.50 KiB allocated", "reserved but unallocated", "in graph pools", "limit 4.00 MiB",
                             "device total", "set_limit", "NPURT_MEMORY_LIMIT"})
      EXPECT_NE(m.find(part), std::string::npos) << "missing '" << part << "' in: " << m;
    EXPECT_EQ(m.find("NPURT_NO_CACHING=1:"), std::string::npos);
  }
  EXPECT_EQ(st("num_ooms"), 1);
  DataPtr again = pool.allocate(KiB, s1);  // still usable
  EXPECT_TRUE(again);
}

TEST_F(PoolTest, OomRetryReturnsCachedSegmentsBeforeFailing) {
  pool.set_limit(21 * MiB);
  pool.allocate(KiB, s1).reset();  // leaves a cached 2 MiB small segment
  EXPECT_EQ(st("reserved_bytes.all.current"), int64_t(2 * MiB));
  DataPtr big = pool.allocate(5 * MiB, s1);  // 2 + 20 > 21: must drop the cache first
  EXPECT_TRUE(big);
  EXPECT_EQ(st("num_alloc_retries"), 1);
  EXPECT_EQ(st("num_ooms"), 0);
  EXPECT_EQ(st("reserved_bytes.all.current"), int64_t(20 * MiB));
}

TEST_F(PoolTest, DeviceBudgetExhaustionIsAnOutOfMemoryError) {
  sim::SimBackend tiny(1, 64 * MiB);
  MemoryPool p(&tiny, 0, dev);
  DataPtr a = p.allocate(40 * MiB, s1);
  EXPECT_THROW(p.allocate(40 * MiB, s1), OutOfMemoryError);
  try {
    p.allocate(40 * MiB, s1);
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("device total 64.00 MiB"), std::string::npos) << e.what();
  }
  a.reset();
  DataPtr b = p.allocate(40 * MiB, s1);  // the freed block is reused
  EXPECT_TRUE(b);
  EXPECT_EQ(tiny.reserved(0), 42 * MiB);  // 40 MiB + 512 rounded to 2 MiB
}

TEST_F(PoolTest, HugeRequestFailsCleanly) {
  EXPECT_THROW(pool.allocate(size_t(1) << 62, s1), OutOfMemoryError);
  EXPECT_THROW(pool.allocate(~size_t(0), s1), OutOfMemoryError);
  EXPECT_EQ(st("allocated_bytes.all.current"), 0);
  EXPECT_TRUE(pool.allocate(KiB, s1));
}

TEST_F(PoolTest, EmptyCacheReturnsOnlyFullyFreeSegmentsWhoseWorkFinished) {
  DataPtr keep = pool.allocate(KiB, s1);
  pool.allocate(5 * MiB, s1).reset();
  EXPECT_EQ(st("segment.all.current"), 2);
  test::Gate gate;
  gate.block(s2);
  pool.allocate(24 * MiB, s2).reset();  // too big for the cached 20 MiB block; freed while s2 is busy
  EXPECT_EQ(st("segment.all.current"), 3);
  pool.empty_cache();
  EXPECT_EQ(st("segment.all.current"), 2) << "kept: the live 1 KiB segment and s2's busy one";
  EXPECT_EQ(st("reserved_bytes.all.current"), int64_t(2 * MiB + 26 * MiB));
  gate.open();
  s2.synchronize();
  pool.empty_cache();
  EXPECT_EQ(st("segment.all.current"), 1);
  keep.reset();
  pool.empty_cache();
  EXPECT_EQ(st("reserved_bytes.all.current"), 0);
  EXPECT_EQ(st("num_device_alloc"), st("num_device_free"));
}

TEST_F(PoolTest, NoCachingFreesEachBlockAfterItsStreamWork) {
  pool.set_caching(false);
  EXPECT_FALSE(pool.caching());
  DataPtr a = pool.allocate(KiB, s1);
  DataPtr b = pool.allocate(KiB, s1);
  EXPECT_EQ(st("segment.all.current"), 2) << "every block is its own segment";
  a.reset();
  EXPECT_EQ(st("segment.all.current"), 1) << "idle stream: returned at once";
  test::Gate gate;
  gate.block(s1);
  b.reset();
  EXPECT_EQ(st("segment.all.current"), 1) << "s1 may still use it";
  gate.open();
  s1.synchronize();
  pool.empty_cache();  // processes pending frees
  EXPECT_EQ(st("segment.all.current"), 0);
  EXPECT_EQ(st("reserved_bytes.all.current"), 0);
}

TEST(PoolEnv, NoCachingAndLimitFromEnvironment) {
  Device dev{DeviceType::kSim, 0};
  setenv("NPURT_NO_CACHING", "1", 1);
  setenv("NPURT_MEMORY_LIMIT", "3M", 1);
  MemoryPool p(backend_for(DeviceType::kSim), 0, dev);
  unsetenv("NPURT_NO_CACHING");
  unsetenv("NPURT_MEMORY_LIMIT");
  EXPECT_FALSE(p.caching());
  EXPECT_EQ(p.limit(), 3 * MiB);
  setenv("NPURT_MEMORY_LIMIT", "lots", 1);
  EXPECT_THROW(MemoryPool(backend_for(DeviceType::kSim), 0, dev), InvalidArgument);
  unsetenv("NPURT_MEMORY_LIMIT");
}

TEST(PoolEnv, ParseMemoryLimit) {
  EXPECT_EQ(parse_memory_limit("1073741824", 0), 1073741824u);
  EXPECT_EQ(parse_memory_limit("8G", 0), 8ull << 30);
  EXPECT_EQ(parse_memory_limit("512m", 0), 512ull << 20);
  EXPECT_EQ(parse_memory_limit("1.5GiB", 0), 3ull << 29);
  EXPECT_EQ(parse_memory_limit("50%", 1000), 500u);
  for (const char* bad : {"", "abc", "-1", "12Q", "150%"}) {
    try {
      parse_memory_limit(bad, 1000);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("npurt.parse_memory_limit: argument 'text'"), std::string::npos);
    }
  }
}

TEST_F(PoolTest, BadStreamsAreRejectedWithoutSideEffects) {
  try {
    pool.allocate(KiB, Stream());
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("npurt.MemoryPool.allocate: argument 'stream': null"), std::string::npos);
  }
  Stream closed = Stream::create(dev);
  closed.close();
  EXPECT_THROW(pool.allocate(KiB, closed), InvalidArgument);
  EXPECT_EQ(pool.allocate(0, s1).get(), nullptr);
  EXPECT_EQ(st("segment.all.current"), 0);
}

TEST_F(PoolTest, FindAllocationCoversRequestedBytesOnly) {
  DataPtr a = pool.allocate(1000, s1);
  const void* base = nullptr;
  size_t size = 0;
  char* p = static_cast<char*>(a.get());
  ASSERT_TRUE(pool.find_allocation(p + 999, &base, &size));
  EXPECT_EQ(base, a.get());
  EXPECT_EQ(size, 1000u);
  EXPECT_FALSE(pool.find_allocation(p + 1000, &base, &size)) << "padding is not part of the allocation";
  a.reset();
  EXPECT_FALSE(pool.find_allocation(p, &base, &size));
  std::vector<char> host(100);
  pool.register_external(host.data(), host.size());
  ASSERT_TRUE(pool.find_allocation(host.data() + 50, &base, &size));
  EXPECT_EQ(size, 100u);
  pool.unregister_external(host.data());
  EXPECT_FALSE(pool.find_allocation(host.data(), &base, &size));
}

// find_allocations: the batch form resolves like find_allocation, pointer by
// pointer, and stops at the first pointer in no allocation.
TEST_F(PoolTest, FindAllocationsMatchesFindAllocation) {
  DataPtr a = pool.allocate(1000, s1), b = pool.allocate(3 * MiB, s1), c = pool.allocate(1, s1);
  std::vector<char> host(100);
  pool.register_external(host.data(), host.size());
  char* pa = static_cast<char*>(a.get());
  char* pb = static_cast<char*>(b.get());
  const void* ptrs[] = {pa, pb + 3 * MiB - 1, c.get(), host.data() + 99, pa + 999, pa + 1000, pb};
  const size_t n = sizeof ptrs / sizeof ptrs[0];
  const void* bases[n];
  size_t sizes[n];
  ASSERT_EQ(pool.find_allocations(ptrs, 5, bases, sizes), 5u);
  for (size_t i = 0; i < 5; ++i) {
    const void* base = nullptr;
    size_t size = 0;
    ASSERT_TRUE(pool.find_allocation(ptrs[i], &base, &size));
    EXPECT_EQ(bases[i], base) << i;
    EXPECT_EQ(sizes[i], size) << i;
  }
  EXPECT_EQ(sizes[1], 3 * MiB);
  EXPECT_EQ(pool.find_allocations(ptrs, n, bases, sizes), 5u) << "pa + 1000 is padding";
  EXPECT_EQ(pool.find_allocations(ptrs, 0, bases, sizes), 0u);
  c.reset();
  EXPECT_EQ(pool.find_allocations(ptrs, 3, bases, sizes), 2u) << "a freed block is in no allocation";
  pool.unregister_external(host.data());
}

TEST_F(PoolTest, GraphPoolsAreSeparateAndKeptUntilReleased) {
  GraphPoolId g = pool.create_graph_pool();
  pool.begin_allocate_to_graph_pool(g, s1);
  EXPECT_THROW(pool.begin_allocate_to_graph_pool(g, s1), Error);
  DataPtr in_graph = pool.allocate(KiB, s1);
  DataPtr other_stream = pool.allocate(KiB, s2);  // s2 is not capturing
  pool.end_allocate_to_graph_pool(g, s1);
  EXPECT_THROW(pool.end_allocate_to_graph_pool(g, s1), InvalidArgument);
  EXPECT_EQ(st("graph_pool_bytes.current"), int64_t(2 * MiB));
  DataPtr outside = pool.allocate(KiB, s1);
  EXPECT_EQ(static_cast<char*>(outside.get()), static_cast<char*>(other_stream.get()) + 1536)
      << "after capture, s1 allocates from the default pool again";
  void* gp = in_graph.get();
  in_graph.reset();
  const void* base;
  size_t size;
  EXPECT_TRUE(pool.find_allocation(gp, &base, &size)) << "graph blocks stay valid for replay";
  pool.empty_cache();
  EXPECT_EQ(st("graph_pool_bytes.current"), int64_t(2 * MiB)) << "empty_cache keeps graph pools";
  pool.release_graph_pool(g);
  EXPECT_EQ(st("graph_pool_bytes.current"), 0);
  EXPECT_THROW(pool.release_graph_pool(g), InvalidArgument);
}

TEST_F(PoolTest, StatsKeysFollowPyTorchNames) {
  DataPtr a = pool.allocate(KiB, s1);
  auto stats = pool.stats();
  for (const char* key : {"allocated_bytes.all.current", "allocated_bytes.all.peak", "reserved_bytes.large_pool.freed",
                          "active_bytes.small_pool.allocated", "inactive_split_bytes.all.current",
                          "requested_bytes.all.peak", "allocation.all.current", "segment.all.current",
                          "num_alloc_retries", "num_ooms", "num_device_alloc", "num_device_free",
                          "graph_pool_bytes.current"}) {
    bool found = false;
    for (auto& kv : stats) found |= kv.first == key;
    EXPECT_TRUE(found) << key;
  }
  a.reset();
  EXPECT_EQ(st("allocated_bytes.all.peak"), 1536);
  pool.reset_peak_stats();
  EXPECT_EQ(st("allocated_bytes.all.peak"), 0);
  EXPECT_NE(pool.describe_usage().find("sim:0 pool"), std::string::npos);
}

}  // namespace
}  // namespace npurt
