// aicore/sync.h: intra-core synchronisation: PipeBarrier<pipe>() and
// SetFlag/WaitFlag<HardEvent>(id).
//
// The simulated core executes every instruction synchronously, so these have
// no effect on results; they feed the full-level pipe model, which reports an
// access that depends on another pipe's access without an ordering flag,
// barrier or queue hand-off in between (ErrorSync2), unpaired flags (ErrorSync3)
// and a SetFlag on an already set (event, id) (ErrorSync4). Event IDs are 0..7
// (A2/A3/310P); PipeBarrier<PIPE_S> is not allowed. Pipes issue their own
// instructions in order in the model (bisheng's auto-sync inserts same-pipe
// barriers), except that two MTE2 copies into one 32-B UB block need
// PipeBarrier<PIPE_MTE2> (or a flag round trip) in between: ErrorSync1
// (pipe_model.h).
#pragma once

#include <cstdint>

#include "aicore/core_context.h"
#include "aicore/macros.h"
#include "npurt/export.h"

// X(name, source pipe, destination pipe)
#define NPURT_HARD_EVENTS(X)                                                          \
  X(MTE2_MTE1, MTE2, MTE1) X(MTE1_MTE2, MTE1, MTE2) X(MTE1_M, MTE1, M) X(M_MTE1, M, MTE1) \
  X(MTE2_V, MTE2, V) X(V_MTE2, V, MTE2) X(MTE3_V, MTE3, V) X(V_MTE3, V, MTE3) X(M_V, M, V) \
  X(V_M, V, M) X(V_V, V, V) X(MTE3_MTE1, MTE3, MTE1) X(MTE1_MTE3, MTE1, MTE3)             \
  X(MTE1_V, MTE1, V) X(MTE2_M, MTE2, M) X(M_MTE2, M, MTE2) X(V_MTE1, V, MTE1)             \
  X(M_FIX, M, FIX) X(FIX_M, FIX, M) X(MTE3_MTE2, MTE3, MTE2) X(MTE2_MTE3, MTE2, MTE3)     \
  X(S_V, S, V) X(V_S, V, S) X(S_MTE2, S, MTE2) X(MTE2_S, MTE2, S) X(S_MTE3, S, MTE3)      \
  X(MTE3_S, MTE3, S) X(MTE2_FIX, MTE2, FIX) X(FIX_MTE2, FIX, MTE2) X(FIX_S, FIX, S)       \
  X(M_S, M, S) X(FIX_MTE3, FIX, MTE3) X(MTE1_FIX, MTE1, FIX) X(FIX_MTE1, FIX, MTE1)       \
  X(FIX_FIX, FIX, FIX)

namespace AscendC {

enum class HardEvent : uint8_t {
#define NPURT_X(name, src, dst) name,
  NPURT_HARD_EVENTS(NPURT_X)
#undef NPURT_X
  MAX
};

using TEventID = int8_t;

}  // namespace AscendC

namespace npurt::sim {

constexpr int kNumHardEvents = static_cast<int>(AscendC::HardEvent::MAX);
constexpr int kNumEventIds = 8;

struct EventPipes {
  Pipe src;
  Pipe dst;
};

constexpr EventPipes event_pipes(AscendC::HardEvent e) {
  constexpr EventPipes table[] = {
#define NPURT_X(name, s, d) {Pipe::s, Pipe::d},
      NPURT_HARD_EVENTS(NPURT_X)
#undef NPURT_X
  };
  return table[static_cast<int>(e)];
}

NPURT_PUBLIC_BEGIN
const char* hard_event_name(AscendC::HardEvent e);
void sync_set_flag(CoreContext* c, AscendC::HardEvent e, int32_t id);
void sync_wait_flag(CoreContext* c, AscendC::HardEvent e, int32_t id);
void sync_barrier(CoreContext* c, pipe_t p);
NPURT_PUBLIC_END

}  // namespace npurt::sim

namespace AscendC {

template <pipe_t pipe>
inline void PipeBarrier() {
  npurt::sim::CoreContext* c = npurt::sim::core();
  if (npurt::sim::checks_on(c)) npurt::sim::sync_barrier(c, pipe);
}

template <HardEvent event>
inline void SetFlag(int32_t eventID) {
  npurt::sim::CoreContext* c = npurt::sim::core();
  if (npurt::sim::checks_on(c)) npurt::sim::sync_set_flag(c, event, eventID);
}

template <HardEvent event>
inline void WaitFlag(int32_t eventID) {
  npurt::sim::CoreContext* c = npurt::sim::core();
  if (npurt::sim::checks_on(c)) npurt::sim::sync_wait_flag(c, event, eventID);
}

}  // namespace AscendC

// The intrinsic spelling some kernels use directly.
inline void pipe_barrier(pipe_t pipe) {
  npurt::sim::CoreContext* c = npurt::sim::core();
  if (npurt::sim::checks_on(c)) npurt::sim::sync_barrier(c, pipe);
}
