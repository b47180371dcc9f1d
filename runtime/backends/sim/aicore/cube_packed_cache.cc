// cube_packed_cache.cc: the per-thread packed-operand cache of Mmad (see
// cube_packed_cache.h). Two entries per thread (one A, one B): the reuse it
// serves is "the same operand as the previous Mmad", so one slot each is
// enough and the invalidation check stays two range comparisons per LoadData.
#include "backends/sim/aicore/cube_packed_cache.h"

#include <atomic>

namespace npurt::sim::cube {
namespace {

struct Entry {
  PackKey key;
  bool valid = false;
  std::vector<uint8_t> data;  // packed elements (float or bf16 bits)
};

struct Cache {
  Entry op[2];
};

Cache& cache() {
  thread_local Cache c;
  return c;
}

// Global so that tests see the counts of the worker threads that ran the blocks.
std::atomic<uint64_t> g_hits{0}, g_misses{0};

}  // namespace

template <class E>
E* packed_buffer(Operand which, const PackKey& key, uint64_t elems, bool* hit) {
  Entry& e = cache().op[static_cast<int>(which)];
  *hit = key.src != nullptr && e.valid && e.key == key;
  (*hit ? g_hits : g_misses).fetch_add(1, std::memory_order_relaxed);
  if (!*hit) {
    e.data.resize(elems * sizeof(E));
    e.key = key;
    e.valid = key.src != nullptr;  // an operand outside L0A / L0B is packed but never reused
  }
  return reinterpret_cast<E*>(e.data.data());
}

template float* packed_buffer<float>(Operand, const PackKey&, uint64_t, bool*);
template uint16_t* packed_buffer<uint16_t>(Operand, const PackKey&, uint64_t, bool*);

void note_l0_write(const uint8_t* p, uint64_t bytes) {
  for (Entry& e : cache().op)
    if (e.valid && p < e.key.src + e.key.bytes && e.key.src < p + bytes) e.valid = false;
}

PackedCacheStats packed_cache_stats() {
  return {g_hits.load(std::memory_order_relaxed), g_misses.load(std::memory_order_relaxed)};
}

}  // namespace npurt::sim::cube
