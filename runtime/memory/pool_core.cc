// runtime/memory/pool_core.cc: block and segment mechanics of the caching allocator.
//
// Stream-ordered reuse: a free block is tagged (stream that freed it, that
// stream's mark at the free). Allocation on the same stream may take it at
// once (the new work is queued behind the old); another stream only once the
// mark is reached. Coalescing keeps a single valid tag: it merges neighbours of
// the same stream (keeping the later mark) or where one side is already ready.
#include <algorithm>
#include <chrono>
#include <iterator>
#include <thread>

#include "exec/stream_impl.h"
#include "memory/pool_impl.h"
#include "npurt/status.h"

namespace npurt {

bool block_ready(const PoolBlock* b) { return !b->stream || b->stream->reached(b->free_mark); }

MemoryPool::Impl::~Impl() {
  while (spare) {
    PoolBlock* n = spare->next;
    delete spare;
    spare = n;
  }
}

PoolBlock* MemoryPool::Impl::new_block() {
  if (!spare) return new PoolBlock;
  PoolBlock* b = spare;
  spare = b->next;
  b->next = nullptr;
  return b;
}

void MemoryPool::Impl::recycle(PoolBlock* b) {
  // Field by field: the vectors keep their capacity (no heap traffic on reuse).
  b->ptr = nullptr;
  b->size = b->requested = 0;
  b->segment = nullptr;
  b->prev = b->bin_prev = b->bin_next = nullptr;
  b->stream = nullptr;
  b->free_mark = 0;
  b->start = BlockStarts::iterator();
  b->allocated = b->pending = b->indexed = b->counted_split = false;
  b->uses.clear();
  b->waits.clear();
  b->next = spare;
  spare = b;
}

void MemoryPool::Impl::add_start(PoolBlock* b, BlockStarts::const_iterator hint) {
  auto key = reinterpret_cast<uintptr_t>(b->ptr);
  if (spare_starts.empty()) {
    b->start = block_starts.emplace_hint(hint, key, b);
    return;
  }
  BlockStarts::node_type nh = std::move(spare_starts.back());
  spare_starts.pop_back();
  nh.key() = key;
  nh.mapped() = b;
  b->start = block_starts.insert(hint, std::move(nh));
}

void MemoryPool::Impl::drop_start(PoolBlock* b) {
  BlockStarts::node_type nh = block_starts.extract(b->start);
  b->start = BlockStarts::iterator();
  if (spare_starts.size() < 1024) spare_starts.push_back(std::move(nh));
}

const PoolBlock* MemoryPool::Impl::block_at(uintptr_t p) const {
  auto it = block_starts.upper_bound(p);
  if (it == block_starts.begin()) return nullptr;
  const PoolBlock* b = std::prev(it)->second;
  return p < reinterpret_cast<uintptr_t>(b->ptr) + b->size ? b : nullptr;
}

PoolSet& MemoryPool::Impl::pool_for(StreamImpl* s) {
  for (auto& c : capturing)
    if (c.first == s) return *c.second;
  return default_pool;
}

PoolBlock* MemoryPool::Impl::search(PoolSet& ps, size_t size, StreamImpl* s) {
  if (!caching) return nullptr;
  return ps.index(size <= kSmallSize).best_fit(size, [s](const PoolBlock* b) {
    return b->stream == s || block_ready(b);
  });
}

PoolBlock* MemoryPool::Impl::new_segment(PoolSet& ps, size_t size) {
  bool small = size <= kSmallSize;
  size_t seg_size = !caching ? size
                    : small  ? kSmallBuffer
                    : size <= kMinLargeAlloc ? kLargeBuffer
                                             : (size + kRoundLarge - 1) / kRoundLarge * kRoundLarge;
  if (seg_size < size) return nullptr;  // overflow
  if (limit && reserved + seg_size > limit) return nullptr;
  void* p = backend->allocate_segment(index, seg_size);
  if (!p) return nullptr;
  if (reinterpret_cast<uintptr_t>(p) % kBlockAlignment) {
    backend->free_segment(index, p, seg_size);
    throw Error(StatusCode::kInternal, std::string("npurt.MemoryPool: backend '") + backend->name() +
                                           "' returned a segment that is not 128-byte aligned");
  }
  auto* seg = new Segment;
  seg->base = static_cast<char*>(p);
  seg->size = seg_size;
  seg->small = small;
  seg->pool = &ps;
  PoolBlock* b = new_block();
  b->ptr = seg->base;
  b->size = seg_size;
  b->segment = seg;
  seg->first = b;
  segments[reinterpret_cast<uintptr_t>(p)] = seg;
  add_start(b, block_starts.lower_bound(reinterpret_cast<uintptr_t>(p)));
  reserved += seg_size;
  stats.add(kStatSegment, small, 1);
  stats.add(kStatReservedBytes, small, static_cast<int64_t>(seg_size));
  ++stats.num_device_alloc;
  if (ps.graph) stats.graph_pool_bytes += static_cast<int64_t>(seg_size);
  return b;
}

void MemoryPool::Impl::index_free(PoolBlock* b) {
  b->counted_split = b->prev || b->next;
  if (b->counted_split) {
    stats.add(kStatInactiveSplit, b->segment->small, 1);
    stats.add(kStatInactiveSplitBytes, b->segment->small, static_cast<int64_t>(b->size));
  }
  b->segment->pool->index(b->segment->small).insert(b);
}

void MemoryPool::Impl::unindex(PoolBlock* b) {
  b->segment->pool->index(b->segment->small).erase(b);
  if (b->counted_split) {
    stats.sub(kStatInactiveSplit, b->segment->small, 1);
    stats.sub(kStatInactiveSplitBytes, b->segment->small, static_cast<int64_t>(b->size));
    b->counted_split = false;
  }
}

void MemoryPool::Impl::split(PoolBlock* b, size_t size) {
  size_t rest = b->size - size;
  bool small = b->segment->small;
  if (!(small ? rest >= kMinBlockSize : rest > kSmallSize)) return;
  PoolBlock* r = new_block();
  r->ptr = b->ptr + size;
  r->size = rest;
  r->segment = b->segment;
  r->prev = b;
  r->next = b->next;
  if (b->next) b->next->prev = r;
  b->next = r;
  b->size = size;
  add_start(r, std::next(b->start));
  r->stream = b->stream;  // the remainder keeps the free tag it had
  r->free_mark = b->free_mark;
  index_free(r);
}

void MemoryPool::Impl::insert_free(PoolBlock* b) {
  for (PoolBlock* n : {b->prev, b->next}) {
    if (!n || n->allocated || n->pending) continue;
    bool same = n->stream == b->stream;
    // Same stream: readiness is not needed, and asking would read the stream's
    // completion counter, a cache line its worker thread writes on every command.
    bool n_ready = same || block_ready(n);
    if (!same && !n_ready && !block_ready(b)) continue;  // two different pending tags
    unindex(n);
    if (same) {
      b->free_mark = std::max(b->free_mark, n->free_mark);
    } else if (!n_ready) {  // b is ready: the merged block inherits n's condition
      b->stream = n->stream;
      b->free_mark = n->free_mark;
    }
    if (n == b->prev) {  // b now starts at n's start: n's entry becomes b's
      drop_start(b);
      n->start->second = b;
      b->start = n->start;
      b->ptr = n->ptr;
      b->prev = n->prev;
      if (n->prev) n->prev->next = b;
      else b->segment->first = b;
    } else {
      drop_start(n);
      b->next = n->next;
      if (n->next) n->next->prev = b;
    }
    b->size += n->size;
    recycle(n);
  }
  index_free(b);
}

void MemoryPool::Impl::finish_free(PoolBlock* b) {
  Segment* seg = b->segment;
  stats.sub(kStatActive, seg->small, 1);
  stats.sub(kStatActiveBytes, seg->small, static_cast<int64_t>(b->size));
  b->pending = false;
  --seg->live_blocks;
  if (!defer_merge(b)) insert_free(b);  // deferred_merge.cc: the small-block fast path
  bool drop = !caching || (seg->pool->released);
  if (drop && seg->live_blocks == 0 && segment_releasable(seg)) release_segment(seg);
}

void MemoryPool::Impl::free_locked(PoolBlock* b) {
  Segment* seg = b->segment;
  stats.sub(kStatAllocation, seg->small, 1);
  stats.sub(kStatAllocatedBytes, seg->small, static_cast<int64_t>(b->size));
  stats.sub(kStatRequestedBytes, seg->small, static_cast<int64_t>(b->requested));
  b->allocated = false;
  b->requested = 0;
  StreamImpl* s = b->stream;
  b->free_mark = s ? s->mark() : 0;
  if (caching && b->uses.empty()) {
    finish_free(b);
    return;
  }
  // Other streams used the block (record_stream): even reuse on s must wait
  // for their work queued until now. Without caching, the segment is returned
  // only after s's own work finished too.
  b->pending = true;
  b->waits.clear();
  for (StreamImpl* u : b->uses)
    if (u != s) b->waits.emplace_back(u, u->mark());
  if (!caching && s) b->waits.emplace_back(s, b->free_mark);
  b->uses.clear();
  pending.push_back(b);
  process_pending();
}

void MemoryPool::Impl::process_pending() {
  size_t keep = 0;
  for (size_t i = 0; i < pending.size(); ++i) {
    PoolBlock* b = pending[i];
    bool done = std::all_of(b->waits.begin(), b->waits.end(),
                            [](const std::pair<StreamImpl*, uint64_t>& w) { return w.first->reached(w.second); });
    if (done) {
      b->waits.clear();
      pending[i] = nullptr;
      finish_free(b);  // may release a segment; never touches `pending`
    } else {
      pending[keep++] = b;
    }
  }
  pending.resize(keep);
}

bool MemoryPool::Impl::segment_releasable(const Segment* seg) const {
  if (seg->live_blocks) return false;
  for (const PoolBlock* b = seg->first; b; b = b->next)
    if (b->allocated || b->pending || !block_ready(b)) return false;
  return true;
}

void MemoryPool::Impl::release_segment(Segment* seg) {
  for (PoolBlock* b = seg->first; b;) {
    PoolBlock* n = b->next;
    if (b->indexed) unindex(b);
    drop_start(b);
    recycle(b);
    b = n;
  }
  backend->free_segment(index, seg->base, seg->size);
  segments.erase(reinterpret_cast<uintptr_t>(seg->base));
  reserved -= seg->size;
  stats.sub(kStatSegment, seg->small, 1);
  stats.sub(kStatReservedBytes, seg->small, static_cast<int64_t>(seg->size));
  ++stats.num_device_free;
  if (seg->pool->graph) stats.graph_pool_bytes -= static_cast<int64_t>(seg->size);
  delete seg;
}

uint64_t MemoryPool::Impl::release_cached(bool include_default) {
  settle();
  uint64_t bytes = 0;
  std::vector<Segment*> victims;
  for (auto& kv : segments) {
    Segment* seg = kv.second;
    bool eligible = seg->pool->graph ? seg->pool->released : include_default;
    if (eligible && segment_releasable(seg)) victims.push_back(seg);
  }
  for (Segment* seg : victims) {
    bytes += seg->size;
    release_segment(seg);
  }
  return bytes;
}

bool MemoryPool::Impl::waiting_on_streams() const {
  if (!pending.empty()) return true;
  for (auto& kv : segments) {
    const Segment* seg = kv.second;
    if (seg->live_blocks || (seg->pool->graph && !seg->pool->released)) continue;
    for (const PoolBlock* b = seg->first; b; b = b->next)
      if (!block_ready(b)) return true;
  }
  return false;
}

PoolBlock* MemoryPool::Impl::allocate_locked(size_t size, StreamImpl* s, std::unique_lock<SpinMutex>& lk) {
  if (!pending.empty()) process_pending();
  PoolBlock* b = reuse_deferred(size, s);  // deferred_merge.cc: no split needed; settles the block otherwise
  if (b) return mark_allocated(b, s);
  PoolSet& ps = pool_for(s);
  b = search(ps, size, s);
  if (b) unindex(b);
  if (!b) b = new_segment(ps, size);
  if (!b) {
    // Return every cached segment, search again, retry. Then wait for stream
    // work that still holds cached memory, repeating until nothing is left to wait for.
    ++stats.num_alloc_retries;
    for (bool first = true; !b; first = false) {
      if (!first) {
        if (!waiting_on_streams()) break;
        lk.unlock();
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        lk.lock();
        process_pending();
      }
      release_cached(true);
      if ((b = search(pool_for(s), size, s))) unindex(b);
      else b = new_segment(pool_for(s), size);
    }
    if (!b) return nullptr;
  }
  split(b, size);
  return mark_allocated(b, s);
}

PoolBlock* MemoryPool::Impl::mark_allocated(PoolBlock* b, StreamImpl* s) {
  b->allocated = true;
  b->stream = s;
  b->segment->live_blocks++;
  bool small = b->segment->small;
  stats.add(kStatAllocation, small, 1);
  stats.add(kStatAllocatedBytes, small, static_cast<int64_t>(b->size));
  stats.add(kStatActive, small, 1);
  stats.add(kStatActiveBytes, small, static_cast<int64_t>(b->size));
  return b;
}

void MemoryPool::Impl::forget(StreamImpl* s) {
  settle();
  for (auto& kv : segments)
    for (PoolBlock* b = kv.second->first; b; b = b->next) {
      if (b->stream == s) b->stream = nullptr;  // its work has drained: ready everywhere
      b->uses.erase(std::remove(b->uses.begin(), b->uses.end(), s), b->uses.end());
      b->waits.erase(std::remove_if(b->waits.begin(), b->waits.end(),
                                    [s](const std::pair<StreamImpl*, uint64_t>& w) { return w.first == s; }),
                     b->waits.end());
    }
  capturing.erase(std::remove_if(capturing.begin(), capturing.end(),
                                 [s](const std::pair<StreamImpl*, PoolSet*>& c) { return c.first == s; }),
                  capturing.end());
  process_pending();
}

std::string MemoryPool::Impl::oom_message(size_t requested, size_t size) const {
  uint64_t allocated = static_cast<uint64_t>(stats.stat[kStatAllocatedBytes][0].current);
  uint64_t unused = reserved - std::min<uint64_t>(reserved, allocated);
  uint64_t total = backend->total_memory(index);
  std::string m = "npurt.MemoryPool.allocate: out of memory on " + device.str() + ": tried to allocate " +
                  format_bytes(requested) + " (" + std::to_string(requested) + " bytes, block " +
                  format_bytes(size) + "); " + format_bytes(allocated) + " allocated, " + format_bytes(unused) +
                  " reserved but unallocated, " + format_bytes(static_cast<uint64_t>(stats.graph_pool_bytes)) +
                  " in graph pools; limit " + (limit ? format_bytes(limit) : std::string("none")) +
                  "; device total " + format_bytes(total) + ". ";
  if (limit && limit < total)
    m += "The pool limit was reached: raise it with set_limit() or NPURT_MEMORY_LIMIT, or free arrays you no longer need.";
  else if (unused >= size)
    m += "Reserved but unallocated memory is large: free blocks are split across partially used segments "
         "(fragmentation); freeing long-lived arrays lets whole segments be returned.";
  else
    m += "Free arrays you no longer need, or process the data in smaller pieces.";
  m += " (Cached free segments were already returned before this error.)";
  if (!caching) m += " Caching is off (NPURT_NO_CACHING=1): every allocation is its own segment.";
  return m;
}

}  // namespace npurt
