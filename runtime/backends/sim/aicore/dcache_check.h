// runtime/backends/sim/aicore/dcache_check.h: the checks of GM scalar writes
// against the core's data cache (the model is described in aicore/dcache.h).
//
// The checks are on by default since every built-in kernel passes them (wave
// 13); NPURT_SIM_DCACHE_CHECK=0 (read at the first scalar write) or
// set_dcache_check(false) turns them off. When on, they run at levels basic
// and full.
// A block's DCacheLog is the set of 64 B GM lines it scalar-wrote: open
// addressing (`slots`, 0 = empty, a power of two at most half full) with, per
// line, the clean epoch of its last scalar write (`wrote`). A line is dirty
// while that epoch is the current one: a whole-cache clean starts a new epoch
// (O(1) however many lines were written), a one-line clean zeroes the line's
// epoch. A line is stored once however often it is written, so the per-block
// bookkeeping is bounded by the lines touched, not the writes. The log is empty
// (count 0) for kernels without GM SetValue, so resetting it and the
// launch-level check cost nothing for them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npurt::sim {

struct CoreState;
struct LaunchView;

struct DCacheLog {
  std::vector<uintptr_t> slots;
  std::vector<uint32_t> wrote;
  size_t count = 0;
  uint32_t epoch = 1;  // never 0: 0 marks a line cleaned on its own
  bool empty() const { return count == 0; }
  void clear();
  void insert(uintptr_t line);  // a scalar write: the line is dirty in this epoch
  void clean(uintptr_t line);   // DataCacheCleanAndInvalid of one line
  void clean_all();             // ... of the entire cache
  bool dirty(size_t slot) const { return slots[slot] != 0 && wrote[slot] == epoch; }

 private:
  size_t find(uintptr_t line) const;  // the line's slot, or the empty slot it would take
  void grow();
};

bool dcache_check_enabled();
void set_dcache_check(bool on);  // overrides NPURT_SIM_DCACHE_CHECK (tests)
void reset_dcache_check();       // forget the override: read the variable again (tests)

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
