// runtime/memory/free_index.cc: the free-block indexes and the stats table.
#include <cinttypes>
#include <cstdio>

#include "memory/pool_internal.h"

namespace npurt {

FreeIndex::FreeIndex(bool small) : small_(small) {
  if (small_) heads_.assign(kBins, nullptr);
}

std::vector<std::pair<std::string, int64_t>> PoolStats::to_list() const {
  static const char* kKinds[kNumStatKinds] = {"allocation",      "segment",        "active",
                                              "inactive_split",  "allocated_bytes", "reserved_bytes",
                                              "active_bytes",    "inactive_split_bytes", "requested_bytes"};
  static const char* kPools[3] = {"all", "small_pool", "large_pool"};
  std::vector<std::pair<std::string, int64_t>> out;
  out.reserve(kNumStatKinds * 3 * 4 + 6);
  for (int k = 0; k < kNumStatKinds; ++k)
    for (int p = 0; p < 3; ++p) {
      std::string prefix = std::string(kKinds[k]) + "." + kPools[p] + ".";
      const Stat& s = stat[k][p];
      out.emplace_back(prefix + "current", s.current);
      out.emplace_back(prefix + "peak", s.peak);
      out.emplace_back(prefix + "allocated", s.allocated);
      out.emplace_back(prefix + "freed", s.freed);
    }
  out.emplace_back("num_alloc_retries", num_alloc_retries);
  out.emplace_back("num_ooms", num_ooms);
  out.emplace_back("num_device_alloc", num_device_alloc);
  out.emplace_back("num_device_free", num_device_free);
  out.emplace_back("graph_pool_bytes.current", graph_pool_bytes);
  return out;
}

void PoolStats::reset_peaks() {
  for (auto& kind : stat)
    for (Stat& s : kind) s.peak = s.current;
}

std::string format_bytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[48];
  if (u == 0) std::snprintf(buf, sizeof buf, "%" PRIu64 " B", bytes);
  else std::snprintf(buf, sizeof buf, "%.2f %s", v, kUnits[u]);
  return buf;
}

}  // namespace npurt
