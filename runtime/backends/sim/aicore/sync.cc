// runtime/backends/sim/aicore/sync.cc: PipeBarrier and SetFlag/WaitFlag on the
// full-level pipe model, with parameter checks at basic.
#include <string>

#include "aicore/sync.h"
#include "backends/sim/aicore/core_state.h"

namespace npurt::sim {

const char* hard_event_name(AscendC::HardEvent e) {
  static const char* const names[] = {
#define NPURT_X(name, s, d) #name,
      NPURT_HARD_EVENTS(NPURT_X)
#undef NPURT_X
  };
  int i = static_cast<int>(e);
  return i >= 0 && i < kNumHardEvents ? names[i] : "?";
}

namespace {

// The parameter checks of SetFlag/WaitFlag (every level but off).
void check_event(AscendC::HardEvent e, int32_t id, const char* api) {
  if (static_cast<int>(e) >= kNumHardEvents)
    raise_fault(Diag::kParam, api, "invalid HardEvent");
  if (id < 0 || id >= kNumEventIds)
    raise_fault(Diag::kParam, api,
                "event ID " + std::to_string(id) + " is outside 0..7 (HardEvent::" +
                    hard_event_name(e) + ")");
}

// The modelled flag (full level only: basic has no pipe model to look up,
// and every tile of a kernel sets and waits flags).
PipeModel::Flag& flag_of(CoreContext* c, AscendC::HardEvent e, int32_t id) {
  return state_of(c).pipes.flags[static_cast<int>(e)][id];
}

}  // namespace

void sync_set_flag(CoreContext* c, AscendC::HardEvent e, int32_t id) {
  check_event(e, id, "SetFlag");
  if (c->level != SimCheckLevel::kFull) return;
  PipeModel::Flag& f = flag_of(c, e, id);
  if (f.set)
    raise_fault(Diag::kSync4, "SetFlag",
                std::string("SetFlag<HardEvent::") + hard_event_name(e) + ">(" +
                    std::to_string(id) + ") while the same event ID is still set (no WaitFlag "
                    "in between; a later PIPE_ALL barrier would hang)");
  f.set = true;
  for (uint32_t& v : f.clock) v = 0;
  state_of(c).pipes.snapshot(event_pipes(e).src, f.clock);
}

void sync_wait_flag(CoreContext* c, AscendC::HardEvent e, int32_t id) {
  check_event(e, id, "WaitFlag");
  if (c->level != SimCheckLevel::kFull) return;
  PipeModel::Flag& f = flag_of(c, e, id);
  if (!f.set)
    raise_fault(Diag::kSync3, "WaitFlag",
                std::string("WaitFlag<HardEvent::") + hard_event_name(e) + ">(" +
                    std::to_string(id) + ") without a preceding SetFlag (the NPU would wait "
                    "forever)");
  f.set = false;
  state_of(c).pipes.merge(event_pipes(e).dst, f.clock);
}

void sync_barrier(CoreContext* c, pipe_t p) {
  if (p == PIPE_S)
    raise_fault(Diag::kParam, "PipeBarrier", "PipeBarrier<PIPE_S> is not allowed");
  if (p > PIPE_FIX) raise_fault(Diag::kParam, "PipeBarrier", "invalid pipe");
  // A single-pipe barrier orders that pipe with itself (its earlier copies
  // complete first, pipe_model.h); only PIPE_ALL orders pipes against each other.
  if (c->level != SimCheckLevel::kFull) return;
  if (p == PIPE_ALL) state_of(c).pipes.barrier_all();
  else state_of(c).pipes.barrier(p == PIPE_FIX ? Pipe::FIX : static_cast<Pipe>(p));
}

}  // namespace npurt::sim
