// runtime/backends/sim/aicore/core_state.h: the checker state of one simulated
// core (internal to aicore/*.cc).
//
// One CoreState per worker thread is reused for every block that thread runs;
// begin_block() resets it for the block, so nothing leaks from one block (or
// launch) into the next. It owns the local memory arenas (UB eagerly, L1/L0
// lazily, 4 KiB aligned), the BufferRecords TPipe hands out, the full-level
// models (UB shadow bytes, pipe clocks, GM write log) and the first fault of
// the block. Invariant: while a block runs, tls_core == &state.ctx.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aicore/buffer_record.h"
#include "aicore/core_context.h"
#include "aicore/fault.h"
#include "aicore/global_tensor.h"
#include "aicore/local_access.h"
#include "aicore/tpipe.h"
#include "backends/sim/aicore/aicore_launch.h"
#include "backends/sim/aicore/dcache_check.h"
#include "backends/sim/aicore/gm_order.h"
#include "backends/sim/aicore/pipe_model.h"

namespace npurt::sim {

// Thrown by raise_fault after the fault is recorded; caught at the block boundary.
struct CoreFault {};

struct RecordedFault {
  bool set = false;
  Diag code = Diag::kParam;
  std::string api;
  std::string detail;
};

using ByteRange = std::pair<uintptr_t, uintptr_t>;  // [first, second)

// What every block of one launch shares (read-only while blocks run).
struct LaunchView {
  const KernelLaunch* launch = nullptr;
  const ChipProfile* profile = nullptr;
  std::vector<GmRegion> regions;  // sorted by begin
  std::vector<void*> slots;       // args..., workspace, tiling
  std::vector<ByteRange> readonly;  // copy elision: allocations of read-only args (copy_elision.h)
};

struct CoreState {
  CoreContext ctx;
  const LaunchView* view = nullptr;
  BufferRecord records[kMaxPipeBuffers];
  uint32_t records_used = 0;
  std::vector<uint8_t> ub_written;  // full: 1 per UB byte once written
  PipeModel pipes;                  // full
  std::vector<ByteRange> gm_writes; // full: merged GM byte ranges this block wrote
  GmOrderLog gm_order;              // full: MTE3 GM writes not yet ordered (gm_order.h)
  DCacheLog dcache;                 // basic/full: GM lines of scalar writes (dcache_check.h)
  RecordedFault fault;

  CoreState() = default;
  CoreState(const CoreState&) = delete;
  CoreState& operator=(const CoreState&) = delete;
  ~CoreState();

  void begin_block(const LaunchView& v, uint32_t block);
  // End-of-kernel checks (leaks, unpaired flags); records a fault, never throws.
  void end_of_kernel_checks();
  uint8_t* ensure_pool(Pool p);

  bool in_ub(const uint8_t* p) const {
    return ctx.pool_base[0] && p >= ctx.pool_base[0] && p < ctx.pool_base[0] + arena_bytes[0];
  }
  uint64_t ub_offset(const uint8_t* p) const { return uint64_t(p - ctx.pool_base[0]); }

  uint64_t arena_bytes[kNumPools] = {};
};

CoreState& state_of(CoreContext* c);
// Records the first fault of the block (later ones are dropped).
void record_fault(CoreState& s, Diag code, const char* api, std::string detail);

// Formatting helpers for diagnostics.
std::string hex(uint64_t v);
// "UB+0x1a0" / "L1+0x40" for local addresses, hex host address otherwise.
std::string local_addr(const CoreContext* c, const uint8_t* p);
const GmRegion* find_region(const LaunchView& v, uintptr_t p);
// "'name'+0x40" for a GM address inside a launch region, hex otherwise.
std::string gm_where(const LaunchView& v, uintptr_t p);

// Basic-level checks only (no shadow, pipe model or write log), raising the
// precise diagnostic when they fail; for span checks of multi-block copies.
void check_local_bounds(CoreContext* c, const LocalRef& r, uint64_t offset, uint64_t bytes,
                        const AccessSpec& spec);
void check_gm_bounds(CoreContext* c, const GmRef& g, const uint8_t* p, uint64_t bytes,
                     uint32_t align, const char* api, Access a);
void log_gm_write(CoreContext* c, const uint8_t* p, uint64_t bytes);  // full: GM write log

}  // namespace npurt::sim
