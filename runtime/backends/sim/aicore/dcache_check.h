// runtime/backends/sim/aicore/dcache_check.h: the checks of GM scalar writes
// against the core's data cache (the model is described in aicore/dcache.h).
//
// The checks are opt-in for now (NPURT_SIM_DCACHE_CHECK=1, read at the first
// scalar write, or set_dcache_check): kernels outside kernels/linalg/ still
// write GM by SetValue without cleaning (docs/aicore.md lists them). When on,
// they run at levels basic and full.
// A block's DCacheLog lists the 64 B GM lines it scalar-wrote (`written`) and
// the ones not cleaned since (`dirty`; may hold duplicates, a clean removes all
// copies). Both are empty for kernels without GM SetValue, so the launch-level
// check costs nothing for them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npurt::sim {

struct CoreState;
struct LaunchView;

struct DCacheLog {
  std::vector<uintptr_t> written;
  std::vector<uintptr_t> dirty;
  void clear() {
    written.clear();
    dirty.clear();
  }
};

bool dcache_check_enabled();
void set_dcache_check(bool on);  // overrides NPURT_SIM_DCACHE_CHECK (tests)

using LineOwner = std::pair<uintptr_t, uint32_t>;  // (GM line, block)

// Block end: records ErrorDCacheClean for the first dirty line (never throws).
void dcache_end_of_block(CoreState& st);
// Appends the block's distinct written lines to `out` (as (line, block)).
void dcache_take_lines(CoreState& st, uint32_t block, std::vector<LineOwner>& out);

struct DCacheShare {
  uint32_t first_block = 0, second_block = 0;
  std::string detail;
};
// After the launch: a line two blocks scalar-wrote, if any (sorts `lines`).
bool find_dcache_share(const LaunchView& v, std::vector<LineOwner>& lines, DCacheShare* out);

}  // namespace npurt::sim
