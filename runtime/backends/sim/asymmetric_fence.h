// runtime/backends/sim/asymmetric_fence.h: a store-load fence split between a
// hot side (every submit) and a cold side (a worker about to park).
//
// Why: the sim stream's park handshake is a Dekker pattern: the producer
// stores the queue link and then loads `parked`; the worker stores `parked`
// and then loads the link. Each side needs a store-load fence. On x86 a
// seq_cst store is an xchg, which waits until the store buffer has drained and
// the line (last read by the worker's core, which polls it) has arrived: perf
// put ~5 % of the caller's time per tiny launch on that one instruction. The
// worker parks rarely (after ~40 us idle), so the cost can move there:
// membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) makes every running thread of
// the process execute a full fence (by IPI; a thread not running passed one
// when it was switched out), so the producer side needs only a compiler
// barrier (the scheme of folly's asymmetricLightBarrier/HeavyBarrier).
//
// Invariants:
//   - light() pairs with heavy(): for a light side "store A; light(); load B"
//     and a heavy side "store B; heavy(); load A", at least one load sees the
//     other side's store.
//   - When the kernel lacks the expedited membarrier (registration failed),
//     light() is a seq_cst fence, and heavy() too: correct, only slower.
#pragma once

#include <atomic>

namespace npurt::sim {

// True once the process registered for expedited private membarrier (done on
// the first call; thread-safe).
bool asymmetric_fence_available();

// The hot side: a compiler barrier when available, else a full fence.
inline void asymmetric_light_fence(bool available) {
  if (available)
    std::atomic_signal_fence(std::memory_order_seq_cst);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

// The cold side: a process-wide fence when available, else a full fence.
void asymmetric_heavy_fence();

}  // namespace npurt::sim
