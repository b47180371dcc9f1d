// Property and concurrency tests of the caching allocator: thousands of random
// operations with invariants checked after each one, and 8 threads at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <vector>

#include "npurt/memory_pool.h"
#include "npurt/runtime.h"
#include "npurt/stream.h"

namespace npurt {
namespace {

constexpr size_t KiB = 1024, MiB = 1024 * 1024;

size_t random_size(std::mt19937_64& rng) {
  switch (rng() % 8) {
    case 0: return 1 + rng() % 64;
    case 1:
    case 2:
    case 3: return 1 + rng() % (16 * KiB);
    case 4:
    case 5: return 1 + rng() % MiB;
    case 6: return MiB + rng() % (9 * MiB);
    default: return 10 * MiB + rng() % (6 * MiB);
  }
}

struct Live {
  DataPtr ptr;
  size_t requested;
};

void check_invariants(const MemoryPool& pool, const std::vector<Live>& live) {
  // No two live allocations overlap (rounded block extents), every one aligned.
  std::vector<std::pair<uintptr_t, size_t>> spans;
  int64_t requested = 0, rounded = 0;
  for (const Live& l : live) {
    uintptr_t p = reinterpret_cast<uintptr_t>(l.ptr.get());
    ASSERT_EQ(p % 128, 0u);
    spans.emplace_back(p, MemoryPool::round_size(l.requested));
    requested += static_cast<int64_t>(l.requested);
    rounded += static_cast<int64_t>(MemoryPool::round_size(l.requested));
    // The address index (block starts) resolves the first and last byte exactly.
    for (uintptr_t q : {p, p + l.requested - 1}) {
      const void* base = nullptr;
      size_t size = 0;
      ASSERT_TRUE(pool.find_allocation(reinterpret_cast<const void*>(q), &base, &size));
      ASSERT_EQ(base, l.ptr.get());
      ASSERT_EQ(size, l.requested);
    }
    const void* base = nullptr;
    size_t size = 0;
    ASSERT_FALSE(pool.find_allocation(reinterpret_cast<const void*>(p + l.requested), &base, &size) &&
                 base == l.ptr.get())
        << "bytes past the request are not the allocation's";
  }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i)
    ASSERT_LE(spans[i - 1].first + spans[i - 1].second, spans[i].first) << "overlapping live blocks";
  std::map<std::string, int64_t> s;
  for (auto& kv : pool.stats()) s[kv.first] = kv.second;
  ASSERT_EQ(s["allocation.all.current"], static_cast<int64_t>(live.size()));
  ASSERT_EQ(s["requested_bytes.all.current"], requested);
  // Large blocks may keep an unsplit tail of up to 1 MiB; small blocks are exact.
  ASSERT_GE(s["allocated_bytes.all.current"], rounded);
  ASSERT_LE(s["allocated_bytes.all.current"], rounded + static_cast<int64_t>(live.size() * MiB));
  ASSERT_GE(s["active_bytes.all.current"], s["allocated_bytes.all.current"]);
  ASSERT_GE(s["reserved_bytes.all.current"], s["active_bytes.all.current"] + s["inactive_split_bytes.all.current"]);
  for (const char* k : {"allocation", "segment", "active", "inactive_split", "allocated_bytes", "reserved_bytes",
                        "active_bytes", "inactive_split_bytes", "requested_bytes"}) {
    std::string p = k;
    ASSERT_EQ(s[p + ".all.current"], s[p + ".small_pool.current"] + s[p + ".large_pool.current"]) << k;
    ASSERT_GE(s[p + ".all.peak"], s[p + ".all.current"]) << k;
    ASSERT_EQ(s[p + ".all.current"], s[p + ".all.allocated"] - s[p + ".all.freed"]) << k;
  }
  ASSERT_EQ(s["segment.all.current"], s["num_device_alloc"] - s["num_device_free"]);
}

TEST(PoolProperty, RandomOperationsKeepInvariants) {
  Device dev{DeviceType::kSim, 0};
  MemoryPool pool(backend_for(DeviceType::kSim), 0, dev);
  std::vector<Stream> streams = {Stream::create(dev), Stream::create(dev), Stream::create(dev)};
  std::mt19937_64 rng(12345);
  std::vector<Live> live;
  for (int op = 0; op < 4000; ++op) {
    unsigned r = rng() % 100;
    const Stream& s = streams[rng() % streams.size()];
    if (r < 55 || live.empty()) {
      size_t n = random_size(rng);
      live.push_back({pool.allocate(n, s), n});
      if (rng() % 10 == 0) pool.record_stream(live.back().ptr, streams[rng() % streams.size()]);
    } else if (r < 97) {
      size_t i = rng() % live.size();
      std::swap(live[i], live.back());
      live.pop_back();
    } else if (r < 99) {
      s.host_func([] {});  // keeps marks moving
    } else {
      pool.empty_cache();
    }
    check_invariants(pool, live);
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "after operation " << op;
      return;
    }
  }
  live.clear();
  for (auto& s : streams) s.synchronize();
  pool.empty_cache();
  EXPECT_EQ(pool.stat("reserved_bytes.all.current"), 0);
  EXPECT_EQ(pool.stat("active.all.current"), 0);
  EXPECT_EQ(pool.stat("inactive_split_bytes.all.current"), 0);
  EXPECT_EQ(pool.stat("num_device_alloc"), pool.stat("num_device_free"));
}

TEST(PoolConcurrency, EightThreadsAllocateAtOnce) {
  Device dev{DeviceType::kSim, 0};
  MemoryPool pool(backend_for(DeviceType::kSim), 0, dev);
  std::atomic<int> corrupted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      Stream s = Stream::create(dev);
      std::mt19937_64 rng(t);
      std::vector<std::pair<DataPtr, size_t>> mine;
      for (int i = 0; i < 1500; ++i) {
        if (mine.size() < 16 && rng() % 3) {
          size_t n = 1 + rng() % (rng() % 4 ? 8 * KiB : 3 * MiB);
          DataPtr p = pool.allocate(n, s);
          // sim device memory is host memory: tag it to detect handing one block to two owners
          std::memset(p.get(), t + 1, std::min<size_t>(n, 256));
          mine.emplace_back(std::move(p), n);
        } else if (!mine.empty()) {
          auto& victim = mine[rng() % mine.size()];
          const unsigned char* c = static_cast<const unsigned char*>(victim.first.get());
          for (size_t k = 0; k < std::min<size_t>(victim.second, 256); ++k)
            if (c[k] != t + 1) ++corrupted;
          std::swap(victim, mine.back());
          mine.pop_back();
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(corrupted.load(), 0);
  EXPECT_EQ(pool.stat("allocation.all.current"), 0);
  EXPECT_EQ(pool.stat("allocated_bytes.all.current"), 0);
  EXPECT_GT(pool.stat("allocation.all.allocated"), 1000);
}

}  // namespace
}  // namespace npurt
