// runtime/backends/sim/aicore/pipe_model.h: the full-level model of the core's
// pipes (S, V, M, MTE1, MTE2, MTE3, FIX) used to find missing synchronisation.
//
// Each pipe p keeps a vector clock vc[p]: vc[p][p] counts p's operations and
// vc[p][q] is the latest operation of q that p is known to run after.
// SetFlag<SRC_DST> stores vc[SRC]; WaitFlag<SRC_DST> merges it into vc[DST];
// PipeBarrier<PIPE_ALL> joins all clocks; queue hand-offs snapshot and merge the
// same way (tque.cc). Every 32-B UB block remembers its last writer (pipe, op
// number, API) and the last op number of each reading pipe. An access on pipe
// p conflicts (ErrorSync2) with an earlier write (RAW/WAW) or read (WAR) by
// another pipe q whose op number exceeds vc[p][q]. Pipes are in-order, so
// same-pipe dependencies never conflict; scalar (PIPE_S) reads complete when
// issued, so they never cause write-after-read conflicts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aicore/core_context.h"
#include "aicore/sync.h"

namespace npurt::sim {

struct PipeModel {
  using Clock = uint32_t[kNumPipes];
  struct BlockUse {
    uint32_t write_op = 0;
    uint8_t write_pipe = 0xff;
    const char* write_api = nullptr;
    uint32_t read_op[kNumPipes] = {};
  };
  struct Flag {
    bool set = false;
    uint32_t clock[kNumPipes] = {};
  };

  Clock vc[kNumPipes] = {};
  Flag flags[kNumHardEvents][kNumEventIds];
  std::vector<BlockUse> ub;

  void reset(uint64_t ub_bytes);
  // Returns an empty string, or what the access conflicts with.
  std::string access(Pipe p, Access a, uint64_t ub_offset, uint64_t bytes, const char* api);
  void snapshot(Pipe p, uint32_t* out) const;   // out |= vc[p] (element-wise max)
  void merge(Pipe p, const uint32_t* in);       // vc[p] = max(vc[p], in)
  void barrier_all();
};

const char* pipe_name(Pipe p);

}  // namespace npurt::sim
