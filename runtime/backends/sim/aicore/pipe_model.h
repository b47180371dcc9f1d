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
// another pipe q whose op number exceeds vc[p][q]. Scalar (PIPE_S) reads
// complete when issued, so they never cause write-after-read conflicts.
//
// Same pipe (ErrorSync1): pipes issue in order, but the MTE2 DMA engine may
// complete two GM -> UB copies out of order, so a second MTE2 write into a
// UB block an earlier MTE2 write filled needs PipeBarrier<PIPE_MTE2> (or a
// round trip through another pipe's flags/queue hand-off) in between
// (ascend-facts.md 2.5). done[p] is the latest own op of p known complete
// before p's next op: PipeBarrier<p> and PIPE_ALL set it to vc[p][p], and a
// merge raises it to the clock's p entry (a flag set by p, passed on, and
// waited on by p again). Other same-pipe dependencies (vector after vector,
// MTE3 reading what it read before) keep the in-order assumption: bisheng's
// auto-sync inserts those barriers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aicore/core_context.h"
#include "aicore/fault.h"
#include "aicore/sync.h"

namespace npurt::sim {

struct PipeModel {
  using Clock = uint32_t[kNumPipes];
  static constexpr uint8_t kNoPipe = kNumPipes;  // write_pipe of a block never written
  struct BlockUse {
    uint32_t write_op = 0;
    uint8_t write_pipe = kNoPipe;
    const char* write_api = nullptr;
    uint32_t read_op[kNumPipes] = {};
  };
  struct Flag {
    bool set = false;
    uint32_t clock[kNumPipes] = {};
  };

  // What an access conflicts with: empty detail when it is in order.
  struct Hazard {
    Diag code = Diag::kSync2;
    std::string detail;
  };

  Clock vc[kNumPipes] = {};
  uint32_t done[kNumPipes] = {};  // see the header comment (same pipe)
  Flag flags[kNumHardEvents][kNumEventIds];
  std::vector<BlockUse> ub;

  void reset(uint64_t ub_bytes);
  Hazard access(Pipe p, Access a, uint64_t ub_offset, uint64_t bytes, const char* api);
  void snapshot(Pipe p, uint32_t* out) const;   // out |= vc[p] (element-wise max)
  void merge(Pipe p, const uint32_t* in);       // vc[p] = max(vc[p], in); done[p] too
  void barrier(Pipe p) { done[static_cast<int>(p)] = vc[static_cast<int>(p)][static_cast<int>(p)]; }
  void barrier_all();
};

// Pipes whose own writes into one UB block must be separated by a barrier:
// MTE2 (GM -> UB DataCopy / DataCopyPad).
constexpr bool same_pipe_waw_checked(Pipe p) { return p == Pipe::MTE2; }

const char* pipe_name(Pipe p);

}  // namespace npurt::sim
