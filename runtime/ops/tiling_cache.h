// runtime/ops/tiling_cache.h: per-op cache of resolved plans (internal).
//
// A plan is everything the dispatcher derives from the argument specs alone:
// the inferred outputs, the tiling bytes, numBlocks, workspace sizes and cost.
// The key is a flat int64 sequence (profile, per input dtype/rank/dims [and
// strides], per attribute type/value) built on the stack; lookup hashes it and
// compares the full key, so a hit allocates nothing.
//
// Invariants: plans are immutable and shared (a plan handed out stays valid
// after clear()); entries only exist for specs that passed every check; the
// cache is bounded (kMaxEntries per op; cleared when full, as shapes are
// usually few); thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "npurt/dispatch.h"
#include "npurt/op_def.h"
#include "npurt/small_vector.h"

namespace npurt {

struct TilingPlan {
  std::vector<TensorSpec> outputs;
  uint32_t num_blocks = 1;
  SmallVector<uint8_t, 128> tiling;
  uint64_t op_workspace_bytes = 0;
  uint64_t total_workspace_bytes = 0;  // system (if used) + op
  OpCost cost;
};

using CacheKey = SmallVector<int64_t, 64>;

uint64_t hash_key(const CacheKey& key);

class TilingCache {
 public:
  static constexpr size_t kMaxEntries = 4096;

  std::shared_ptr<const TilingPlan> find(const CacheKey& key, uint64_t hash) const;
  // Returns the stored plan (an equal key inserted meanwhile by another thread wins).
  std::shared_ptr<const TilingPlan> insert(const CacheKey& key, uint64_t hash,
                                           std::shared_ptr<const TilingPlan> plan);
  TilingCacheStats stats() const;
  void clear();

 private:
  struct Entry {
    CacheKey key;
    std::shared_ptr<const TilingPlan> plan;
  };
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, std::vector<Entry>> map_;
  size_t size_ = 0;
  mutable std::atomic<uint64_t> hits_{0};
  mutable std::atomic<uint64_t> misses_{0};
};

// What the registry stores per op. Never destroyed before process exit.
struct RegisteredOp {
  OpDef def;
  std::string where;     // "npurt.ops.<name>", built once for error messages
  mutable TilingCache cache;  // logically a memo of def
};

}  // namespace npurt
