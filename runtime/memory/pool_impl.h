// runtime/memory/pool_impl.h: MemoryPool::Impl, the state behind one device pool.
//
// Everything here runs under `mu` (one mutex per pool). pool_core.cc holds the
// block/segment mechanics (best fit, split, coalesce, stream-ordered tags,
// pending frees, segment release, OOM message); deferred_merge.cc the
// small-block fast path; memory_pool.cc the public API.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "memory/pool_internal.h"
#include "memory/spin_mutex.h"
#include "npurt/export.h"
#include "npurt/backend.h"

namespace npurt {

constexpr size_t kMinBlockSize = 512;
constexpr size_t kSmallSize = size_t(1) << 20;       // rounded requests <= 1 MiB: small pool
constexpr size_t kSmallBuffer = size_t(2) << 20;     // small segments
constexpr size_t kMinLargeAlloc = size_t(10) << 20;  // requests <= 10 MiB carve ...
constexpr size_t kLargeBuffer = size_t(20) << 20;    // ... 20 MiB segments
constexpr size_t kRoundLarge = size_t(2) << 20;      // bigger ones round to 2 MiB
constexpr size_t kBlockAlignment = 128;

struct NPURT_HIDDEN MemoryPool::Impl {
  Backend* backend = nullptr;
  int index = 0;
  Device device;

  mutable SpinMutex mu;
  PoolSet default_pool;
  std::map<GraphPoolId, std::unique_ptr<PoolSet>> graph_pools;
  GraphPoolId next_graph = 1;
  std::vector<std::pair<StreamImpl*, PoolSet*>> capturing;  // streams allocating to a graph pool
  std::map<uintptr_t, Segment*> segments;                   // by base address
  // Every block of every segment by its start address. The blocks tile their
  // segments, so the last entry at or below an address inside a segment is the
  // block holding it: find_allocation (once per kernel argument) is one
  // O(log n) lookup instead of a walk over the segment's blocks. Entries change
  // only where blocks are born or die (new_segment, split, coalescing,
  // release_segment), by the iterator each block keeps (PoolBlock::start), so
  // split inserts with an exact hint and coalescing erases without a search;
  // extracted map nodes are kept in spare_starts (at most 1024) and reused, so
  // split/coalesce cause no heap traffic in steady state.
  BlockStarts block_starts;
  std::vector<BlockStarts::node_type> spare_starts;
  std::vector<PoolBlock*> pending;                          // freed, waiting for marks
  std::map<uintptr_t, std::pair<size_t, int>> externals;    // wrapped external memory: size, refs
  PoolBlock* spare = nullptr;                               // recycled nodes, linked by `next`
  // A freed small block whose merge into the free block after it is postponed
  // (deferred_merge.cc): the next allocation of its size on its stream takes it
  // back without a split; any other operation settles (merges) it first.
  PoolBlock* deferred = nullptr;
  uint64_t limit = 0;                                       // 0 = none
  bool caching = true;
  uint64_t reserved = 0;
  PoolStats stats;

  ~Impl();

  // Finds or makes a block of `size` for stream s; nullptr on OOM (after retries).
  PoolBlock* allocate_locked(size_t size, StreamImpl* s, std::unique_lock<SpinMutex>& lk);
  void free_locked(PoolBlock* b);
  PoolBlock* mark_allocated(PoolBlock* b, StreamImpl* s);  // b (free, unindexed, final size) becomes s's

  PoolSet& pool_for(StreamImpl* s);
  PoolBlock* search(PoolSet& ps, size_t size, StreamImpl* s);
  PoolBlock* new_segment(PoolSet& ps, size_t size);
  void split(PoolBlock* b, size_t size);
  void index_free(PoolBlock* b);
  void unindex(PoolBlock* b);
  void insert_free(PoolBlock* b);  // coalesce with free neighbours, then index
  void finish_free(PoolBlock* b);  // block is free from now on
  // deferred_merge.cc: the small-block fast path (one block at most, see there).
  bool defer_merge(PoolBlock* b);                      // instead of insert_free(b); false: not eligible
  PoolBlock* reuse_deferred(size_t size, StreamImpl* s);  // the deferred block, or nullptr (then settled)
  void settle();                                       // merges the deferred block, if any (stats unchanged)
  void process_pending();
  bool segment_releasable(const Segment* seg) const;
  void release_segment(Segment* seg);
  uint64_t release_cached(bool include_default);  // fully free segments; returns bytes
  bool waiting_on_streams() const;  // cached memory that stream progress would free
  void forget(StreamImpl* s);
  std::string oom_message(size_t requested, size_t size) const;

  PoolBlock* new_block();
  void recycle(PoolBlock* b);
  // block_starts[b->ptr] = b, reusing a spare node; `hint`: the entry after it (or end()).
  void add_start(PoolBlock* b, BlockStarts::const_iterator hint);
  void drop_start(PoolBlock* b);  // erases b's entry, keeping the node as a spare
  const PoolBlock* block_at(uintptr_t p) const;  // the block holding p, or nullptr
  bool find_locked(const void* ptr, const void** base, size_t* size) const;  // MemoryPool::find_allocation
};

}  // namespace npurt
