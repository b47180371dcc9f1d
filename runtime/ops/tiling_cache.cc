// runtime/ops/tiling_cache.cc: the per-op plan cache.
#include "tiling_cache.h"

namespace npurt {

uint64_t hash_key(const CacheKey& key) {
  // 64-bit mix per word (splitmix64 finaliser) folded FNV-style: cheap and well spread.
  uint64_t h = 0xcbf29ce484222325ull ^ key.size();
  for (int64_t v : key) {
    uint64_t z = static_cast<uint64_t>(v) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    h = (h ^ (z ^ (z >> 31))) * 0x100000001b3ull;
  }
  return h;
}

std::shared_ptr<const TilingPlan> TilingCache::find(const CacheKey& key, uint64_t hash) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(hash);
    if (it != map_.end())
      for (const Entry& e : it->second)
        if (e.key == key) {
          hits_.fetch_add(1, std::memory_order_relaxed);
          return e.plan;
        }
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

std::shared_ptr<const TilingPlan> TilingCache::insert(const CacheKey& key, uint64_t hash,
                                                      std::shared_ptr<const TilingPlan> plan) {
  std::lock_guard<std::mutex> lock(mu_);
  if (size_ >= kMaxEntries) {
    map_.clear();
    size_ = 0;
  }
  auto& bucket = map_[hash];
  for (const Entry& e : bucket)
    if (e.key == key) return e.plan;
  bucket.push_back(Entry{key, plan});
  ++size_;
  return plan;
}

TilingCacheStats TilingCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  TilingCacheStats s;
  s.hits = hits_.load(std::memory_order_relaxed);
  s.misses = misses_.load(std::memory_order_relaxed);
  s.entries = size_;
  return s;
}

void TilingCache::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  map_.clear();
  size_ = 0;
  hits_ = 0;
  misses_ = 0;
}

}  // namespace npurt
