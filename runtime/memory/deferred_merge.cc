// runtime/memory/deferred_merge.cc: the small-block fast path of the caching
// allocator. A freed small block whose only mergeable neighbour is the free
// block after it (typically the free rest of its segment) stays split until an
// operation needs the merged block; an allocation of its size on its stream
// takes it straight back.
//
// Why: a loop of tiny ops frees a 512-byte result and allocates the next one
// of the same size on the same stream. The eager pool merged the block into
// the segment's free rest (FreeIndex moves, a block_starts extract, a recycled
// PoolBlock) and split it off again at the same address on the next call (a
// new PoolBlock, a block_starts insert, FreeIndex moves): about a seventh of
// the calling thread's instructions per `x + y` (docs/performance.md
// "Tiny ops (wave 9)").
//
// Invariants (besides those of pool_internal.h):
//   - At most one block is deferred (Impl::deferred): a free small block of the
//     default pool, not indexed, not pending, whose prev neighbour is allocated
//     or pending and whose next neighbour n is free, indexed, counted as split,
//     with the same stream tag and the same free mark (the later of the two, as
//     the merge would keep).
//   - The stats are the eager pool's: deferring and reusing make the same
//     Stat add/sub calls the merge and the split would, so current, peak,
//     allocated and freed of every statistic match exactly.
//   - Only defer_merge and reuse_deferred run while a block is deferred; every
//     other operation that walks or changes blocks settles it first (the merge,
//     without stats: they already count it merged), so nothing else sees it.
//   - Reuse happens only where the eager pool's best fit would pick the merged
//     block and split it at the same address: the same size, the merged
//     block's tag acceptable for the stream, and no other block in the bins
//     best fit scans before the merged block's (which heads its bin: it was
//     the last block indexed there).
#include <algorithm>

#include "exec/stream_impl.h"
#include "memory/pool_impl.h"

namespace npurt {

bool MemoryPool::Impl::defer_merge(PoolBlock* b) {
  settle();  // at most one deferred block
  const Segment* seg = b->segment;
  const PoolBlock* p = b->prev;
  PoolBlock* n = b->next;
  if (!caching || !seg->small || seg->pool != &default_pool || !p || !(p->allocated || p->pending) || !n ||
      n->allocated || n->pending || !n->indexed || !n->counted_split || n->stream != b->stream)
    return false;
  // What insert_free's merge does to the stats: unindex(n), then index the merged block (split: it has a prev).
  stats.sub(kStatInactiveSplit, true, 1);
  stats.sub(kStatInactiveSplitBytes, true, static_cast<int64_t>(n->size));
  stats.add(kStatInactiveSplit, true, 1);
  stats.add(kStatInactiveSplitBytes, true, static_cast<int64_t>(b->size + n->size));
  b->free_mark = n->free_mark = std::max(b->free_mark, n->free_mark);
  deferred = b;
  return true;
}

PoolBlock* MemoryPool::Impl::reuse_deferred(size_t size, StreamImpl* s) {
  PoolBlock* b = deferred;
  if (!b) return nullptr;
  PoolBlock* n = b->next;
  const size_t merged = b->size + n->size;
  if (b->size != size || !caching || &pool_for(s) != &default_pool || !(b->stream == s || block_ready(b)) ||
      !default_pool.small.none_below(size, merged, n)) {
    settle();
    return nullptr;
  }
  deferred = nullptr;
  // The eager split indexes the rest last, at its bin's head: so does this (list order decides later fits).
  default_pool.small.erase(n);
  default_pool.small.insert(n);
  // What unindex(merged) and split(merged, size) do to the stats (the rest has a prev: split).
  stats.sub(kStatInactiveSplit, true, 1);
  stats.sub(kStatInactiveSplitBytes, true, static_cast<int64_t>(merged));
  stats.add(kStatInactiveSplit, true, 1);
  stats.add(kStatInactiveSplitBytes, true, static_cast<int64_t>(n->size));
  return b;
}

void MemoryPool::Impl::settle() {
  PoolBlock* b = deferred;
  if (!b) return;
  deferred = nullptr;
  PoolBlock* n = b->next;
  FreeIndex& index = default_pool.small;
  index.erase(n);
  n->counted_split = false;
  drop_start(n);
  b->next = n->next;
  if (n->next) n->next->prev = b;
  b->size += n->size;
  recycle(n);
  b->counted_split = true;  // b->prev exists: counted as split since the free
  index.insert(b);
}

}  // namespace npurt
