// cube_packed_cache.cc: the per-thread packed-operand cache of Mmad (see
// cube_packed_cache.h). kPackedSlots entries per operand and thread, replaced
// least recently used first: the reuse it serves is "an operand of one of the
// last few Mmads" (attention alternates its resident Q with each P tile), so a
// few slots suffice and both the lookup and the invalidation check stay a
// handful of comparisons per Mmad / LoadData.
#include "backends/sim/aicore/cube_packed_cache.h"

#include <atomic>
#include <memory>

namespace npurt::sim::cube {
namespace {

struct Entry {
  PackKey key;
  bool valid = false;
  uint64_t used = 0;          // the cache's clock at the last lookup that returned this entry
  std::vector<uint8_t> data;  // packed elements (float or bf16 bits)
};

struct Cache {
  Entry op[2][kPackedSlots];
  uint64_t clock = 0;
};

// On the heap, not a thread_local Cache: libnpurt's whole TLS block must fit
// glibc's static TLS surplus when Python dlopens it (cube_prefetch.cc), and
// these 584 bytes left too little for a library with initial-exec TLS loaded
// after npurt (tests/python/tools/test_tls_relocations.py, kTlsBudget).
Cache& cache() {
  thread_local std::unique_ptr<Cache> c;
  if (!c) c = std::make_unique<Cache>();
  return *c;
}

// Global so that tests see the counts of the worker threads that ran the blocks.
std::atomic<uint64_t> g_hits{0}, g_misses{0};

// The entry of `key` if valid, else the slot to refill: an invalid one first,
// then the least recently used.
Entry& find_slot(Entry (&slots)[kPackedSlots], const PackKey& key, bool* hit) {
  Entry* victim = &slots[0];
  for (Entry& e : slots) {
    if (e.valid && e.key == key) {
      *hit = true;
      return e;
    }
    if (victim->valid && (!e.valid || e.used < victim->used)) victim = &e;
  }
  *hit = false;
  return *victim;
}

}  // namespace

template <class E>
E* packed_buffer(Operand which, const PackKey& key, uint64_t elems, bool* hit) {
  Cache& c = cache();
  // A key outside L0A / L0B (src == nullptr) never matches (valid entries
  // have a source) and its entry is left invalid: packed, never reused.
  Entry& e = find_slot(c.op[static_cast<int>(which)], key, hit);
  (*hit ? g_hits : g_misses).fetch_add(1, std::memory_order_relaxed);
  e.used = ++c.clock;
  if (!*hit) {
    e.data.resize(elems * sizeof(E));
    e.key = key;
    e.valid = key.src != nullptr;
  }
  return reinterpret_cast<E*>(e.data.data());
}

template float* packed_buffer<float>(Operand, const PackKey&, uint64_t, bool*);
template uint16_t* packed_buffer<uint16_t>(Operand, const PackKey&, uint64_t, bool*);

void note_l0_write(const uint8_t* p, uint64_t bytes) {
  for (auto& slots : cache().op)
    for (Entry& e : slots)
      if (e.valid && p < e.key.src + e.key.bytes && e.key.src < p + bytes) e.valid = false;
}

PackedCacheStats packed_cache_stats() {
  return {g_hits.load(std::memory_order_relaxed), g_misses.load(std::memory_order_relaxed)};
}

}  // namespace npurt::sim::cube
