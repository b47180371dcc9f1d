// runtime/backends/sim/aicore/copy_elision.cc: pending GM -> UB copies
// ("mirrors") of the simulator; see copy_elision.h and aicore/mirror.h.
#include "backends/sim/aicore/copy_elision.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "aicore/mirror.h"
#include "backends/sim/aicore/load_copy.h"
#include "backends/sim/aicore/stream_window.h"

namespace npurt::sim {

bool copy_elision_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("NPURT_SIM_COPY_ELISION");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return on;
}

namespace {

// One thread's counts, alone on its cache line. Only its thread writes it;
// copy_elision_counts() reads it under the registry lock (relaxed atomics, so
// the concurrent read is defined; a count in flight may be missed).
struct alignas(64) CountShard {
  std::atomic<uint64_t> elided{0};
  std::atomic<uint64_t> materialized{0};
};

struct CountRegistry {
  std::mutex mu;
  std::vector<CountShard*> live;
  CopyElisionCounts retired;  // counts of threads that exited
};

// Leaked: threads may still count while static destructors run at exit.
CountRegistry& count_registry() {
  static CountRegistry* r = new CountRegistry;
  return *r;
}

// The fast path reads an initial-exec pointer (no __tls_get_addr per copy);
// the owner with the destructor is only touched on a thread's first count.
thread_local CountShard* t_shard __attribute__((tls_model("initial-exec"))) = nullptr;

// Registers the thread's shard on first use and retires it at thread exit.
struct ShardOwner {
  CountShard* shard = nullptr;
  ~ShardOwner() {
    if (!shard) return;
    CountRegistry& r = count_registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.retired.elided += shard->elided.load(std::memory_order_relaxed);
    r.retired.materialized += shard->materialized.load(std::memory_order_relaxed);
    r.live.erase(std::find(r.live.begin(), r.live.end(), shard));
    delete shard;
    t_shard = nullptr;  // never a dangling shard, should this thread count again while exiting
  }
};

CountShard& my_shard() {
  if (__builtin_expect(t_shard != nullptr, 1)) return *t_shard;
  thread_local ShardOwner owner;
  owner.shard = new CountShard;
  CountRegistry& r = count_registry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    r.live.push_back(owner.shard);
  }
  t_shard = owner.shard;
  return *t_shard;
}

void bump(std::atomic<uint64_t>& c) { c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }

}  // namespace

CopyElisionCounts copy_elision_counts() {
  CountRegistry& r = count_registry();
  std::lock_guard<std::mutex> lock(r.mu);
  CopyElisionCounts sum = r.retired;
  for (const CountShard* s : r.live) {
    sum.elided += s->elided.load(std::memory_order_relaxed);
    sum.materialized += s->materialized.load(std::memory_order_relaxed);
  }
  return sum;
}

void materialize_mirror(BufferRecord* r) {
  bump(my_shard().materialized);
  uint8_t* dst = r->addr + r->mirror_off;
  const uint64_t bytes = r->mirror_bytes;
  r->mirror_bytes = 0;  // first: a fault-free copy either way, never done twice
  if (bytes >= kLoadCopyMinBytes) load_copy(dst, r->mirror_src, bytes);
  else std::memcpy(dst, r->mirror_src, bytes);
}

const uint8_t* mirror_read(BufferRecord* r, const uint8_t* p, uint64_t bytes) {
  const uint8_t* m = r->addr + r->mirror_off;
  const uint64_t mb = r->mirror_bytes;
  if (p >= m && bytes <= mb && uint64_t(p - m) <= mb - bytes) {
    const uint8_t* gm = r->mirror_src + (p - m);
    note_stream_read(gm, bytes);  // the vector loop prefetches ahead of it (stream_window.h)
    return gm;
  }
  if (p < m + mb && m < p + bytes) materialize_mirror(r);  // partial overlap: read real UB
  return p;
}

void collect_readonly(const KernelLaunch& L, LaunchView& v) {
  v.readonly.clear();
  if (L.readonly_arg_mask == 0 || !copy_elision_enabled()) return;
  for (size_t i = 0; i < L.args.size() && i < 64; ++i) {
    if (((L.readonly_arg_mask >> i) & 1u) == 0 || ((L.scalar_arg_mask >> i) & 1u) != 0) continue;
    if (L.args[i] == nullptr) continue;
    if (const GmRegion* g = find_region(v, reinterpret_cast<uintptr_t>(L.args[i])))
      v.readonly.push_back({g->begin, g->end});
  }
}

namespace {

bool in_readonly(const LaunchView& v, const uint8_t* src, uint64_t bytes) {
  const auto b = reinterpret_cast<uintptr_t>(src);
  for (const ByteRange& r : v.readonly)
    if (b >= r.first && b <= r.second && bytes <= r.second - b) return true;
  return false;
}

// Copies the mirrored GM bytes of [lo, hi) (a piece of r's mirror) into UB;
// returns whether there was any.
bool materialize_piece(const BufferRecord* r, uint8_t* lo, uint8_t* hi) {
  if (hi <= lo) return false;
  const uint8_t* from = r->mirror_src + (lo - (r->addr + r->mirror_off));
  const auto n = static_cast<uint64_t>(hi - lo);
  if (n >= kLoadCopyMinBytes) load_copy(lo, from, n);
  else std::memcpy(lo, from, n);
  return true;
}

// r's mirror before a copy overwrites UB [lo, hi): the overwritten bytes need
// no materializing (the copy or its new mirror defines them), only the pieces
// of the mirror outside that range. A tiled kernel's shorter last tile in a
// buffer whose previous mirror was a full tile thus copies the tail it does
// not cover instead of the whole old tile (once per range of a split sum).
void settle_before_overwrite(BufferRecord* r, uint8_t* lo, uint8_t* hi) {
  uint8_t* m = r->addr + r->mirror_off;
  uint8_t* m_end = m + r->mirror_bytes;
  if (lo < m_end && m < hi) {  // overlapping: keep what lies outside [lo, hi)
    const bool head = materialize_piece(r, m, std::min(lo, m_end));
    const bool tail = materialize_piece(r, std::max(hi, m), m_end);
    if (head || tail) bump(my_shard().materialized);  // overwritten whole: dropped, not performed
    r->mirror_bytes = 0;
  } else {
    materialize_mirror(r);
  }
}

}  // namespace

bool elide_copy_in(CoreContext* c, const LocalRef& dst, const uint8_t* src, uint64_t bytes) {
  BufferRecord* r = dst.buf;
  if (r == nullptr) return false;
  if (r->mirror_bytes != 0) settle_before_overwrite(r, dst.ptr, dst.ptr + bytes);
  const LaunchView& v = *state_of(c).view;
  if (v.readonly.empty() || bytes < kElideMinBytes || pool_of(dst.pos) != Pool::kUB) return false;
  // At level off nothing bounded dst: mirror only what lies inside its record.
  if (dst.ptr < r->addr || bytes > r->bytes || uint64_t(dst.ptr - r->addr) > r->bytes - bytes) return false;
  if (!in_readonly(v, src, bytes)) return false;
  r->mirror_src = src;
  r->mirror_off = static_cast<uint32_t>(dst.ptr - r->addr);
  r->mirror_bytes = static_cast<uint32_t>(bytes);
  bump(my_shard().elided);
  return true;
}

void materialize_all_mirrors(CoreContext* c) {
  CoreState& st = state_of(c);
  for (uint32_t i = 0; i < st.records_used; ++i) settle(&st.records[i]);
}

// Mirrors are only ever set on records of the live layout, [0, records_used):
// pipe_init_buffer resets a record before reuse and pipe_reset settles them all
// before lowering records_used, so the records past it hold none. (A walk over
// all 64 records cost ~700 instructions per block.)
void drop_mirrors(CoreState& st) {
  for (uint32_t i = 0; i < st.records_used; ++i) st.records[i].mirror_bytes = 0;
}

void settle_mirrors(CoreState& st) {
  for (uint32_t i = 0; i < st.records_used; ++i) settle(&st.records[i]);
}

}  // namespace npurt::sim
