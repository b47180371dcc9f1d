// runtime/memory/pool_internal.h: blocks, segments, free indexes and stats of
// the caching allocator (internal to memory/).
//
// Invariants:
//   - A Segment is one backend allocation; its blocks tile it exactly and are
//     linked in address order (prev/next). Only neighbours in one segment coalesce.
//   - A block is in exactly one state: allocated, pending (freed, waiting for
//     record_stream marks or, without caching, for its own stream), or free
//     (in the FreeIndex of its segment's PoolSet; the one deferred block of
//     deferred_merge.cc is free but not indexed: its merge is postponed).
//   - Every block of a segment has exactly one entry in the pool's block_starts
//     (key: its ptr, value: the block, iterator kept in PoolBlock::start).
//   - A free block carries the stream that freed it and that stream's mark at
//     the free: it is reusable at once on that stream, and on any other stream
//     once the mark is reached (stream == nullptr: reusable everywhere).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "npurt/memory_pool.h"

namespace npurt {

class StreamImpl;
struct Segment;
struct PoolSet;

// Every block of a pool by start address (MemoryPool::Impl::block_starts).
using BlockStarts = std::map<uintptr_t, PoolBlock*>;

// PoolBlock is forward-declared in the public header.
struct PoolBlock {
  char* ptr = nullptr;
  size_t size = 0;       // rounded block size
  size_t requested = 0;  // bytes asked for (allocated blocks)
  Segment* segment = nullptr;
  PoolBlock* prev = nullptr;  // address-ordered neighbours inside the segment
  PoolBlock* next = nullptr;
  PoolBlock* bin_prev = nullptr;  // small-pool bin list links
  PoolBlock* bin_next = nullptr;
  StreamImpl* stream = nullptr;  // allocated: allocation stream; free: the stream that freed it
  uint64_t free_mark = 0;
  BlockStarts::iterator start;   // this block's entry in block_starts (while in a segment)
  bool allocated = false;
  bool pending = false;
  bool indexed = false;        // in a FreeIndex
  bool counted_split = false;  // counted in inactive_split when indexed
  std::vector<StreamImpl*> uses;                          // record_stream streams
  std::vector<std::pair<StreamImpl*, uint64_t>> waits;    // pending: marks to reach
};

bool block_ready(const PoolBlock* b);  // free tag reached (or no stream)

// Free blocks of one size class family. Small pool: one intrusive list per
// 512-byte size and a bitmap of non-empty bins (no heap use); large pool: a
// std::set ordered by (size, address).
class FreeIndex {
 public:
  explicit FreeIndex(bool small);
  void insert(PoolBlock* b);
  void erase(PoolBlock* b);
  // Smallest block >= size for which ok(b) holds; nullptr if none.
  template <class Ok>
  PoolBlock* best_fit(size_t size, Ok&& ok);
  bool small() const { return small_; }
  // Small index: true when no block but `skip` (alone in its bin) lies in the
  // bins best_fit(size) scans before the bin of `limit` bytes, i.e. best fit
  // would reach a block of `limit` bytes at its bin's head first.
  bool none_below(size_t size, size_t limit, const PoolBlock* skip) const;

 private:
  static constexpr size_t kUnit = 512;
  static constexpr size_t kBins = (size_t(2) << 20) / kUnit + 1;  // up to a whole 2 MiB segment
  static constexpr size_t kWords = (kBins + 63) / 64;
  static_assert(kWords <= 128, "summary covers 128 words");
  size_t next_bin(size_t from) const;  // first non-empty bin >= from, kBins if none
  void set_bit(size_t bin);
  void clear_bit(size_t bin);

  struct BySize {
    bool operator()(const PoolBlock* a, const PoolBlock* b) const {
      return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
    }
  };
  bool small_;
  std::vector<PoolBlock*> heads_;  // small: kBins list heads
  uint64_t bitmap_[kWords] = {};   // bit per bin: list non-empty
  uint64_t summary_[2] = {};       // bit per bitmap_ word: word non-zero (two-level scan)
  std::set<PoolBlock*, BySize> large_;
};

// Hot path of every allocate/free: inline.
inline void FreeIndex::insert(PoolBlock* b) {
  b->indexed = true;
  if (!small_) {
    large_.insert(b);
    return;
  }
  size_t bin = b->size / kUnit;
  // LIFO: the block freed last is found first, so a stream tends to get back
  // its own (cache-warm, immediately reusable) block.
  b->bin_prev = nullptr;
  b->bin_next = heads_[bin];
  if (b->bin_next) b->bin_next->bin_prev = b;
  heads_[bin] = b;
  set_bit(bin);
}

inline void FreeIndex::set_bit(size_t bin) {
  size_t w = bin / 64;
  bitmap_[w] |= uint64_t(1) << (bin % 64);
  summary_[w / 64] |= uint64_t(1) << (w % 64);
}

inline void FreeIndex::clear_bit(size_t bin) {
  size_t w = bin / 64;
  bitmap_[w] &= ~(uint64_t(1) << (bin % 64));
  if (!bitmap_[w]) summary_[w / 64] &= ~(uint64_t(1) << (w % 64));
}

inline void FreeIndex::erase(PoolBlock* b) {
  b->indexed = false;
  if (!small_) {
    large_.erase(b);
    return;
  }
  size_t bin = b->size / kUnit;
  if (b->bin_prev) b->bin_prev->bin_next = b->bin_next;
  else heads_[bin] = b->bin_next;
  if (b->bin_next) b->bin_next->bin_prev = b->bin_prev;
  b->bin_prev = b->bin_next = nullptr;
  if (!heads_[bin]) clear_bit(bin);
}

inline bool FreeIndex::none_below(size_t size, size_t limit, const PoolBlock* skip) const {
  size_t bin = next_bin(size / kUnit);
  if (bin < kBins && heads_[bin] == skip && !skip->bin_next) bin = next_bin(bin + 1);
  return bin >= limit / kUnit;
}

inline size_t FreeIndex::next_bin(size_t from) const {
  if (from >= kBins) return kBins;
  size_t w = from / 64;
  uint64_t bits = bitmap_[w] & (~uint64_t(0) << (from % 64));
  if (!bits) {
    // Next non-empty word from the summary instead of scanning up to 64 words.
    size_t next = w + 1;
    for (;; next = (next / 64 + 1) * 64) {
      if (next >= kWords) return kBins;
      uint64_t sum = summary_[next / 64] & (~uint64_t(0) << (next % 64));
      if (sum) {
        w = (next / 64) * 64 + static_cast<size_t>(__builtin_ctzll(sum));
        break;
      }
    }
    if (w >= kWords) return kBins;
    bits = bitmap_[w];
  }
  size_t bin = w * 64 + static_cast<size_t>(__builtin_ctzll(bits));
  return bin < kBins ? bin : kBins;
}

template <class Ok>
PoolBlock* FreeIndex::best_fit(size_t size, Ok&& ok) {
  if (small_) {
    for (size_t bin = next_bin(size / kUnit); bin < kBins; bin = next_bin(bin + 1))
      for (PoolBlock* b = heads_[bin]; b; b = b->bin_next)
        if (ok(b)) return b;
    return nullptr;
  }
  PoolBlock key;
  key.size = size;
  for (auto it = large_.lower_bound(&key); it != large_.end(); ++it)
    if (ok(*it)) return *it;
  return nullptr;
}

// The free indexes of one pool (the default pool or a graph-private pool).
struct PoolSet {
  FreeIndex small{true};
  FreeIndex large{false};
  GraphPoolId graph = 0;  // 0: default pool
  bool released = false;  // graph pool: release_graph_pool was called
  FreeIndex& index(bool is_small) { return is_small ? small : large; }
};

struct Segment {
  char* base = nullptr;
  size_t size = 0;
  bool small = false;
  PoolSet* pool = nullptr;
  size_t live_blocks = 0;  // allocated or pending blocks
  PoolBlock* first = nullptr;
};

// One PyTorch-style statistic.
struct Stat {
  int64_t current = 0, peak = 0, allocated = 0, freed = 0;
  void add(int64_t n) {
    current += n;
    allocated += n;
    if (current > peak) peak = current;
  }
  void sub(int64_t n) {
    current -= n;
    freed += n;
  }
};

enum StatKind : int {
  kStatAllocation = 0,
  kStatSegment,
  kStatActive,
  kStatInactiveSplit,
  kStatAllocatedBytes,
  kStatReservedBytes,
  kStatActiveBytes,
  kStatInactiveSplitBytes,
  kStatRequestedBytes,
  kNumStatKinds
};

struct PoolStats {
  Stat stat[kNumStatKinds][3];  // [kind][0 all, 1 small_pool, 2 large_pool]
  int64_t num_alloc_retries = 0, num_ooms = 0, num_device_alloc = 0, num_device_free = 0;
  int64_t graph_pool_bytes = 0;

  void add(StatKind k, bool small, int64_t n) {
    stat[k][0].add(n);
    stat[k][small ? 1 : 2].add(n);
  }
  void sub(StatKind k, bool small, int64_t n) {
    stat[k][0].sub(n);
    stat[k][small ? 1 : 2].sub(n);
  }
  std::vector<std::pair<std::string, int64_t>> to_list() const;
  void reset_peaks();
};

std::string format_bytes(uint64_t bytes);  // "1.50 MiB (1572864 bytes)" style, short form

}  // namespace npurt
