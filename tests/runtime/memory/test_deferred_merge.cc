// Tests of the pool's small-block fast path (runtime/memory/deferred_merge.cc):
// a freed small block stays split from the free rest of its segment until an
// operation needs the merged block. The pool must behave exactly as the eager
// one: the same addresses and the same statistics (current, peak, allocated,
// freed) after every operation. empty_cache() settles the deferred block (and
// returns nothing here: the pinned block keeps the one segment), so a run that
// calls it after every operation is the eager pool.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "npurt/memory_pool.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"
#include "runtime/exec/gate.h"
#include "runtime/memory/pool_test.h"

namespace npurt {
namespace {

using test::KiB;
using test::MiB;
using StatList = std::vector<std::pair<std::string, int64_t>>;

struct Trace {
  std::vector<ptrdiff_t> offsets;  // of every allocation from the pinned block
  std::vector<StatList> stats;     // after every operation
};

// Random small allocations and frees on two streams (no stream work: every tag
// is ready), with many "free the newest, allocate its size again" steps (the
// tiny-op loop). settle_each_op: call empty_cache() after every operation.
Trace run_ops(const Stream& s1, const Stream& s2, uint64_t seed, bool settle_each_op) {
  MemoryPool pool(backend_for(DeviceType::kSim), 0, s1.device());
  std::mt19937_64 rng(seed);
  const size_t sizes[] = {1, 64, 500, 512, 600, 1024, 3000, 8 * KiB};
  DataPtr pin = pool.allocate(KiB, s1);
  const char* base = static_cast<const char*>(pin.get());
  std::vector<std::pair<DataPtr, size_t>> live;
  Trace t;
  auto allocate = [&](size_t n) {
    live.emplace_back(pool.allocate(n, rng() % 4 == 0 ? s2 : s1), n);
    t.offsets.push_back(static_cast<const char*>(live.back().first.get()) - base);
  };
  for (int step = 0; step < 3000; ++step) {
    const unsigned what = rng() % 8;
    if (live.empty() || (what < 3 && live.size() < 40)) {
      allocate(sizes[rng() % (sizeof sizes / sizeof sizes[0])]);
    } else if (what < 6) {  // the tiny-op loop: free the newest, allocate the same size
      const size_t n = live.back().second;
      live.pop_back();
      if (settle_each_op) pool.empty_cache();
      t.stats.push_back(pool.stats());
      allocate(n);
    } else {
      live.erase(live.begin() + static_cast<ptrdiff_t>(rng() % live.size()));
    }
    if (settle_each_op) pool.empty_cache();
    t.stats.push_back(pool.stats());
  }
  live.clear();
  if (settle_each_op) pool.empty_cache();
  t.stats.push_back(pool.stats());
  return t;
}

TEST(DeferredMerge, SameAddressesAndStatsAsTheEagerPool) {
  Device dev{DeviceType::kSim, 0};
  Stream s1 = Stream::create(dev), s2 = Stream::create(dev);
  for (uint64_t seed : {1u, 2u, 3u, 4u}) {
    const Trace fast = run_ops(s1, s2, seed, false);
    const Trace eager = run_ops(s1, s2, seed, true);
    ASSERT_EQ(fast.offsets, eager.offsets) << "seed " << seed;
    ASSERT_EQ(fast.stats.size(), eager.stats.size());
    for (size_t i = 0; i < fast.stats.size(); ++i) ASSERT_EQ(fast.stats[i], eager.stats[i]) << "seed " << seed << " op " << i;
  }
}

using DeferredMergeTest = test::PoolTest;

TEST_F(DeferredMergeTest, TinyLoopGetsTheSameBlockBackWithMergedStats) {
  DataPtr pin = pool.allocate(KiB, s1);
  const char* first = nullptr;
  for (int i = 0; i < 100; ++i) {
    DataPtr r = pool.allocate(64, s1);
    if (!first) first = static_cast<const char*>(r.get());
    EXPECT_EQ(static_cast<const char*>(r.get()), first) << i;
    EXPECT_EQ(st("inactive_split.all.current"), 1);  // the rest of the segment
    EXPECT_EQ(st("inactive_split_bytes.all.current"), int64_t(2 * MiB - 1536 - 512));  // KiB rounds to 1536 bytes
    r.reset();
    EXPECT_EQ(st("inactive_split.all.current"), 1) << "the freed block counts as merged into the rest";
    EXPECT_EQ(st("inactive_split_bytes.all.current"), int64_t(2 * MiB - 1536));
    EXPECT_EQ(st("allocation.all.current"), 1);
  }
  // Another size settles the deferred block: best fit splits the merged block at the same address.
  DataPtr other = pool.allocate(KiB, s1);
  EXPECT_EQ(static_cast<const char*>(other.get()), first);
  EXPECT_EQ(st("segment.all.current"), 1);
  EXPECT_EQ(st("inactive_split.all.current"), 1);
  EXPECT_EQ(st("inactive_split_bytes.all.current"), int64_t(2 * MiB - 2 * 1536));
}

TEST_F(DeferredMergeTest, FreedBlockIsNotHandedToAnotherStreamWhileItsWorkIsPending) {
  test::Gate gate;
  gate.block(s1);
  DataPtr pin = pool.allocate(KiB, s1);
  DataPtr a = pool.allocate(64, s1);
  const char* pa = static_cast<const char*>(a.get());
  a.reset();  // merges into the rest, which takes s1's pending tag
  a = pool.allocate(64, s1);
  EXPECT_EQ(static_cast<const char*>(a.get()), pa);
  a.reset();  // deferred: same tag as the rest
  DataPtr other = pool.allocate(64, s2);
  const char* po = static_cast<const char*>(other.get());
  const char* segment = static_cast<const char*>(pin.get());
  EXPECT_TRUE(po < segment || po >= segment + 2 * MiB) << "s2 got memory s1 may still use";
  EXPECT_EQ(st("segment.all.current"), 2);
  gate.open();
  s1.synchronize();
  DataPtr later = pool.allocate(64, s2);
  EXPECT_EQ(static_cast<const char*>(later.get()), pa) << "after s1 reached the free, s2 may reuse it";
}

TEST_F(DeferredMergeTest, ReleasingTheSegmentSettlesTheDeferredBlock) {
  DataPtr pin = pool.allocate(KiB, s1);
  for (int i = 0; i < 3; ++i) pool.allocate(64, s1).reset();
  const int64_t split_bytes = st("inactive_split_bytes.all.current");
  pin.reset();  // the pinned block merges with the whole rest, deferred block included
  EXPECT_EQ(st("inactive_split.all.current"), 0);
  EXPECT_EQ(st("inactive_split_bytes.all.current"), 0);
  EXPECT_EQ(split_bytes, int64_t(2 * MiB - 1536));
  pool.empty_cache();
  EXPECT_EQ(st("segment.all.current"), 0);
  EXPECT_EQ(st("reserved_bytes.all.current"), 0);
}

}  // namespace
}  // namespace npurt
