// runtime/backends/sim/aicore/copy_elision.h: the write side and bookkeeping
// of the simulator's copy elision (read side: aicore/mirror.h).
//
// Per launch, collect_readonly() turns KernelLaunch::readonly_arg_mask into
// the byte ranges (the device allocations of those arguments) a GM -> UB copy
// may mirror instead of copying. NPURT_SIM_COPY_ELISION=0 (read once) leaves
// the list empty, so every copy is done eagerly. Mirrors never outlive a
// block: run_block drops them when the kernel returns, begin_block again, and
// TPipe Reset, a later TPipe's construction and InitBuffer materialize them
// first, because the buffers' UB bytes may then be reached through other records.
#pragma once

#include <cstdint>

#include "aicore/buffer_record.h"
#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

// Copies shorter than this are done eagerly (the bookkeeping would cost more).
constexpr uint64_t kElideMinBytes = 256;

bool copy_elision_enabled();

// Process-wide counts, for tests and profiling: copies left pending, and
// pending copies later performed. Each thread counts into its own cache line
// (plain relaxed load + store, no `lock` prefix) and copy_elision_counts()
// sums the live threads' lines plus what exited threads left: one shared
// counter bumped on every elided tile by both kernel threads bounced its line
// between the cores once per tile (float16 16 Mi sum -5 % wall without it,
// docs/performance-history.md "Float32 sum per-thread stream (wave 10)").
struct CopyElisionCounts {
  uint64_t elided = 0;
  uint64_t materialized = 0;
};
CopyElisionCounts copy_elision_counts();
void collect_readonly(const KernelLaunch& L, LaunchView& v);
// Records a mirror for a contiguous GM -> UB copy of `bytes` from src into dst
// when allowed; returns false when the caller must copy. Either way dst's old
// mirror is dropped (the write covers it) or materialized (it does not).
bool elide_copy_in(CoreContext* c, const LocalRef& dst, const uint8_t* src, uint64_t bytes);
// Forgets every mirror of the core without copying (the block ended).
void drop_mirrors(CoreState& st);
// Materializes every mirror of the core (the UB layout is about to change).
void settle_mirrors(CoreState& st);

}  // namespace npurt::sim
