// runtime/memory/memory_pool.cc: MemoryPool's public API (see npurt/memory_pool.h).
//
// The fast path (a cached small block on the same stream) is: one lock, a
// bitmap scan to the first non-empty bin, an intrusive-list pop and a few stat
// updates; no heap allocation.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "exec/stream_impl.h"
#include "exec/profiler.h"
#include "memory/pool_impl.h"
#include "npurt/status.h"
#include "npurt/stream.h"

namespace npurt {

namespace {

// Live pools, so that a dying stream can be forgotten by every pool.
std::mutex& registry_mu() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}
std::vector<MemoryPool*>& registry() {
  static auto* pools = new std::vector<MemoryPool*>;
  return *pools;
}

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

}  // namespace

void forget_stream_in_all_pools(StreamImpl* s);  // used by exec/stream.cc

DataPtr& DataPtr::operator=(DataPtr&& o) noexcept {
  if (this != &o) {
    reset();
    ptr_ = o.ptr_;
    size_ = o.size_;
    block_ = o.block_;
    pool_ = o.pool_;
    o.ptr_ = nullptr;
    o.size_ = 0;
    o.block_ = nullptr;
    o.pool_ = nullptr;
  }
  return *this;
}

void DataPtr::reset() {
  if (block_ && pool_) pool_->free_block(block_);
  ptr_ = nullptr;
  size_ = 0;
  block_ = nullptr;
  pool_ = nullptr;
}

size_t MemoryPool::round_size(size_t n) {
  if (n > ~size_t(0) - 1024) return ~size_t(0) / kMinBlockSize * kMinBlockSize;  // unsatisfiable, no overflow
  size_t r = (n + 32 + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize;
  return std::max(kMinBlockSize, r);
}

MemoryPool::MemoryPool(Backend* backend, int device_index, Device device) : impl_(new Impl) {
  if (!backend) throw_invalid_argument("npurt.MemoryPool", "backend", "null backend");
  impl_->backend = backend;
  impl_->index = device_index;
  impl_->device = device;
  if (const char* lim = std::getenv("NPURT_MEMORY_LIMIT"); lim && *lim)
    impl_->limit = parse_memory_limit(lim, backend->total_memory(device_index));
  impl_->caching = !env_flag("NPURT_NO_CACHING");
  std::lock_guard<std::mutex> lk(registry_mu());
  registry().push_back(this);
}

MemoryPool::~MemoryPool() {
  {
    std::lock_guard<std::mutex> lk(registry_mu());
    auto& r = registry();
    r.erase(std::remove(r.begin(), r.end(), this), r.end());
  }
  // Queued stream work may still use cached blocks: wait before unmapping.
  std::unique_lock<SpinMutex> lk(impl_->mu);
  while (impl_->waiting_on_streams()) {
    lk.unlock();
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    lk.lock();
    impl_->process_pending();
  }
  impl_->settle();
  std::vector<Segment*> all;
  for (auto& kv : impl_->segments) all.push_back(kv.second);
  for (Segment* seg : all) impl_->release_segment(seg);  // live DataPtrs past this point are a caller bug
}

void forget_stream_in_all_pools(StreamImpl* s) {
  std::lock_guard<std::mutex> reg(registry_mu());
  for (MemoryPool* p : registry()) p->forget_stream(s);
}

void MemoryPool::forget_stream(StreamImpl* s) {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  impl_->forget(s);
}

// Pool name of a block for profiler memory events (exec/profiler.h).
static const char* profile_pool_name(const PoolBlock* b) {
  return b->segment->pool->graph ? "graph_pool" : b->segment->small ? "small_pool" : "large_pool";
}

DataPtr MemoryPool::allocate(size_t bytes, const Stream& stream) {
  if (bytes == 0) return DataPtr();
  const char* where = "npurt.MemoryPool.allocate";
  StreamImpl* s = checked_stream(stream, where);
  if (s->device() != impl_->device)
    throw_invalid_argument(where, "stream", "stream is on " + s->device().str() + " but the pool belongs to " +
                                                impl_->device.str());
  size_t size = round_size(bytes);
  std::unique_lock<SpinMutex> lk(impl_->mu);
  PoolBlock* b = impl_->allocate_locked(size, s, lk);
  if (!b) {
    ++impl_->stats.num_ooms;
    std::string msg = impl_->oom_message(bytes, size);
    lk.unlock();
    throw OutOfMemoryError(msg);
  }
  b->requested = bytes;
  impl_->stats.add(kStatRequestedBytes, b->segment->small, static_cast<int64_t>(bytes));
  if (profiler::memory_enabled())
    profiler::on_memory({impl_->device, true, b->ptr, b->size, profile_pool_name(b), s->id(),
                         impl_->stats.stat[kStatAllocatedBytes][0].current, static_cast<int64_t>(impl_->reserved)});
  return DataPtr(b->ptr, bytes, b, this);
}

void MemoryPool::free_block(PoolBlock* block) {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  if (!block->allocated) return;  // defensive: DataPtr guarantees a single free
  const bool profiled = profiler::memory_enabled();
  profiler::MemoryHook ev;  // filled before free_locked: the block may coalesce away
  if (profiled)
    ev = {impl_->device, false, block->ptr, block->size, profile_pool_name(block),
          block->stream ? block->stream->id() : 0, 0, 0};
  impl_->free_locked(block);
  if (profiled) {
    ev.allocated_after = impl_->stats.stat[kStatAllocatedBytes][0].current;
    ev.reserved_after = static_cast<int64_t>(impl_->reserved);
    profiler::on_memory(ev);
  }
}

void MemoryPool::record_stream(const DataPtr& p, const Stream& stream) {
  const char* where = "npurt.MemoryPool.record_stream";
  if (!p) return;
  StreamImpl* s = checked_stream(stream, where);
  if (p.pool() != this) throw_invalid_argument(where, "ptr", "allocation belongs to another pool");
  if (s->device() != impl_->device)
    throw_invalid_argument(where, "stream", "stream is on " + s->device().str() + ", allocation on " +
                                                impl_->device.str());
  std::lock_guard<SpinMutex> lk(impl_->mu);
  PoolBlock* b = p.block();
  if (s == b->stream || std::find(b->uses.begin(), b->uses.end(), s) != b->uses.end()) return;
  b->uses.push_back(s);
}

void MemoryPool::empty_cache() {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  impl_->process_pending();
  impl_->release_cached(true);
}

void MemoryPool::set_limit(uint64_t bytes) {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  impl_->limit = bytes;
  if (bytes && impl_->reserved > bytes) impl_->release_cached(true);  // shrink toward the new limit
}

uint64_t MemoryPool::limit() const {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  return impl_->limit;
}

void MemoryPool::set_caching(bool enabled) {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  impl_->caching = enabled;
  if (!enabled) impl_->release_cached(true);
}

bool MemoryPool::caching() const {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  return impl_->caching;
}

std::vector<std::pair<std::string, int64_t>> MemoryPool::stats() const {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  return impl_->stats.to_list();
}

int64_t MemoryPool::stat(const std::string& key) const {
  for (const auto& kv : stats())
    if (kv.first == key) return kv.second;
  return 0;
}

void MemoryPool::reset_peak_stats() {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  impl_->stats.reset_peaks();
}

bool MemoryPool::Impl::find_locked(const void* ptr, const void** base, size_t* size) const {
  uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  if (const PoolBlock* b = block_at(p)) {
    const Segment* seg = b->segment;
    uintptr_t bp = reinterpret_cast<uintptr_t>(b->ptr);
    // Graph-private blocks stay valid for replay even after capture freed them,
    // and a replayed node may use a larger block the capture freed and the pool
    // split for a later allocation at the same address: in a graph pool the
    // extent is the rest of the (reserved) segment.
    size_t n = seg->pool->graph ? reinterpret_cast<uintptr_t>(seg->base) + seg->size - bp
                                : b->allocated ? b->requested : 0;
    if (!n || p >= bp + n) return false;
    *base = b->ptr;
    *size = n;
    return true;
  }
  auto ext = externals.upper_bound(p);
  if (ext == externals.begin()) return false;
  --ext;
  if (p >= ext->first + ext->second.first) return false;
  *base = reinterpret_cast<const void*>(ext->first);
  *size = ext->second.first;
  return true;
}

bool MemoryPool::find_allocation(const void* ptr, const void** base, size_t* size) const {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  return impl_->find_locked(ptr, base, size);
}

size_t MemoryPool::find_allocations(const void* const* ptrs, size_t n, const void** bases, size_t* sizes) const {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  for (size_t i = 0; i < n; ++i)
    if (!impl_->find_locked(ptrs[i], &bases[i], &sizes[i])) return i;
  return n;
}

void MemoryPool::register_external(const void* ptr, size_t bytes) {
  if (!ptr || !bytes) return;
  std::lock_guard<SpinMutex> lk(impl_->mu);
  auto& e = impl_->externals[reinterpret_cast<uintptr_t>(ptr)];
  e.first = std::max(e.first, bytes);
  ++e.second;
}

void MemoryPool::unregister_external(const void* ptr) {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  auto it = impl_->externals.find(reinterpret_cast<uintptr_t>(ptr));
  if (it != impl_->externals.end() && --it->second.second <= 0) impl_->externals.erase(it);
}

GraphPoolId MemoryPool::create_graph_pool() {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  GraphPoolId id = impl_->next_graph++;
  auto ps = std::make_unique<PoolSet>();
  ps->graph = id;
  impl_->graph_pools[id] = std::move(ps);
  return id;
}

static PoolSet* live_graph_pool(MemoryPool::Impl& im, GraphPoolId id, const char* where) {
  auto it = im.graph_pools.find(id);
  if (it == im.graph_pools.end() || it->second->released)
    throw_invalid_argument(where, "pool", "unknown or released graph pool " + std::to_string(id));
  return it->second.get();
}

void MemoryPool::begin_allocate_to_graph_pool(GraphPoolId pool, const Stream& stream) {
  const char* where = "npurt.MemoryPool.begin_allocate_to_graph_pool";
  StreamImpl* s = checked_stream(stream, where);
  std::lock_guard<SpinMutex> lk(impl_->mu);
  PoolSet* ps = live_graph_pool(*impl_, pool, where);
  for (auto& c : impl_->capturing)
    if (c.first == s)
      throw Error(StatusCode::kFailedPrecondition,
                  std::string(where) + ": argument 'stream': stream " + std::to_string(s->id()) +
                      " already allocates to graph pool " + std::to_string(c.second->graph));
  impl_->capturing.emplace_back(s, ps);
}

void MemoryPool::end_allocate_to_graph_pool(GraphPoolId pool, const Stream& stream) {
  const char* where = "npurt.MemoryPool.end_allocate_to_graph_pool";
  StreamImpl* s = checked_stream(stream, where);
  std::lock_guard<SpinMutex> lk(impl_->mu);
  auto& c = impl_->capturing;
  auto it = std::find_if(c.begin(), c.end(), [&](const std::pair<StreamImpl*, PoolSet*>& e) {
    return e.first == s && e.second->graph == pool;
  });
  if (it == c.end())
    throw_invalid_argument(where, "stream", "stream " + std::to_string(s->id()) +
                                                " is not allocating to graph pool " + std::to_string(pool));
  c.erase(it);
}

void MemoryPool::release_graph_pool(GraphPoolId pool) {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  PoolSet* ps = live_graph_pool(*impl_, pool, "npurt.MemoryPool.release_graph_pool");
  ps->released = true;
  auto& c = impl_->capturing;
  c.erase(std::remove_if(c.begin(), c.end(), [&](const std::pair<StreamImpl*, PoolSet*>& e) { return e.second == ps; }),
          c.end());
  impl_->process_pending();
  impl_->release_cached(false);
  // The PoolSet object stays (segments with live blocks still point at it).
}

Device MemoryPool::device() const { return impl_->device; }

std::string MemoryPool::describe_usage() const {
  std::lock_guard<SpinMutex> lk(impl_->mu);
  const PoolStats& st = impl_->stats;
  return impl_->device.str() + " pool: " + format_bytes(static_cast<uint64_t>(st.stat[kStatAllocatedBytes][0].current)) +
         " allocated in " + std::to_string(st.stat[kStatAllocation][0].current) + " blocks, " +
         format_bytes(impl_->reserved) + " reserved in " + std::to_string(st.stat[kStatSegment][0].current) +
         " segments, limit " + (impl_->limit ? format_bytes(impl_->limit) : std::string("none")) +
         (impl_->caching ? "" : ", caching off");
}

}  // namespace npurt
