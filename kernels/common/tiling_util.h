// kernels/common/tiling_util.h: host-side tiling arithmetic shared by the
// built-in kernel families (and usable by users' kernels).
//
// Two decisions every streaming kernel makes: how to split N items over the
// profile's vector cores (each core's share a multiple of `align` so GM offsets
// of every core stay 32-byte aligned), and how many items fit one UB tile when
// every item needs `ub_bytes_per_item` bytes across all queues and buffers
// (double buffering counted by the caller). Tiles are multiples of `align`.
#pragma once

#include <algorithm>
#include <cstdint>

#include "npurt/chip_profile.h"
#include "npurt/small_vector.h"

namespace npurt::kernels {

inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
inline uint64_t round_up(uint64_t a, uint64_t b) { return ceil_div(a, b) * b; }

// Elements per 32-byte block.
inline uint32_t block_elems(uint32_t itemsize) { return itemsize >= 32 ? 1 : 32 / itemsize; }

struct CoreSplit {
  uint32_t num_blocks = 0;   // 0 when total == 0
  uint64_t per_core = 0;     // items per core; the last core may get fewer
};

// Splits `total` items over at most profile.vector_cores cores, giving each at
// least `min_per_core` items (small inputs stay on one core).
inline CoreSplit split_over_cores(uint64_t total, uint64_t align, uint64_t min_per_core,
                                  const ChipProfile& profile) {
  CoreSplit s;
  if (total == 0) return s;
  uint64_t cores = std::max<uint64_t>(1, profile.vector_cores);
  uint64_t want = std::clamp<uint64_t>(total / std::max<uint64_t>(1, min_per_core), 1, cores);
  s.per_core = round_up(ceil_div(total, want), std::max<uint64_t>(1, align));
  s.num_blocks = static_cast<uint32_t>(ceil_div(total, s.per_core));
  return s;
}

// Largest multiple of `align` items whose UB footprint fits `ub_bytes`, capped
// at `cap` items rounded up to `align`. Returns 0 when not even `align` items fit.
inline uint32_t fit_tile(uint64_t ub_bytes, uint64_t ub_bytes_per_item, uint64_t align, uint64_t cap) {
  uint64_t fit = ub_bytes / std::max<uint64_t>(1, ub_bytes_per_item);
  fit = fit / align * align;
  uint64_t capped = round_up(std::max<uint64_t>(cap, 1), align);
  return static_cast<uint32_t>(std::min<uint64_t>({fit, capped, uint64_t{1} << 30}));
}

// UB bytes a kernel may plan for: the usable UB (GetCoreMemSize) less a margin
// for TPipe bookkeeping and small scratch buffers.
inline uint64_t ub_budget(const ChipProfile& profile, uint64_t reserve = 1024) {
  return profile.ub_usable_bytes > reserve ? profile.ub_usable_bytes - reserve : 0;
}

}  // namespace npurt::kernels
