// runtime/backends/sim/aicore/gm_order.h: the full-level check of GM ordering
// inside one core (what the NPU's DMA engines punish, ascend-facts.md 2.5/2.6).
//
// The sim runs each DataCopy synchronously, but on the NPU an MTE3 copy
// (UB -> GM) is only issued when DataCopy returns: a later MTE2 copy
// (GM -> UB) of the same GM bytes can overtake it and read stale data unless
// SetFlag/WaitFlag<MTE3_MTE2>, PipeBarrier<PIPE_ALL> or a chain of flags /
// queue hand-offs through other pipes orders the read after the write
// (ErrorSync2). Two MTE3 copies into overlapping GM may complete out of order
// unless PipeBarrier<PIPE_MTE3> (or PIPE_ALL, or a round trip) separates them
// (ErrorSync1); two atomic-add copies commute and are never flagged.
//
// Invariant: GmOrderLog::pending holds every MTE3 GM write of the block whose
// op number (the pipe model's MTE3 clock, pipe_model.h) is not yet known
// complete both to MTE2 (vc[MTE2][MTE3]) and to MTE3 itself (done[MTE3]);
// entries known complete to both are dropped on the next access, so queue
// pipelines keep the log a few tiles long. Only UB <-> GM DataCopy/DataCopyPad
// are modelled (the cube's GM -> L1 and Fixpipe copies are not).
#pragma once

#include <cstdint>
#include <vector>

namespace npurt::sim {

struct CoreState;

struct GmOrderLog {
  // One MTE3 copy: count blocks of block bytes, start to start stride apart.
  struct Write {
    uintptr_t begin = 0, end = 0;  // [begin, end): the whole span
    uint64_t block = 0, stride = 0;
    uint32_t op = 0;               // MTE3 op number of the copy
    bool atomic = false;
    const char* api = nullptr;
  };
  std::vector<Write> pending;

  void clear() { pending.clear(); }
};

// A GM region of one copy: count blocks of block bytes, stride apart.
struct GmSpan {
  uintptr_t begin;
  uint64_t block, stride;
  uint32_t count;
};

// Full level: checks an MTE2 read of s against the pending MTE3 writes and
// raises ErrorSync2 naming the GM offset, both APIs and the missing flag.
void gm_order_read(CoreState& st, const GmSpan& s, const char* api);
// Full level, after the copy's UB side went through the pipe model: checks an
// MTE3 write of s against pending MTE3 writes (ErrorSync1), then records it.
void gm_order_write(CoreState& st, const GmSpan& s, bool atomic, const char* api);

}  // namespace npurt::sim
