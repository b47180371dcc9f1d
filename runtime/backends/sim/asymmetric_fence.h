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
//   - Under ThreadSanitizer, which does not model atomic_thread_fence (g++
//     warns so) nor membarrier, the expedited form is never used and both
//     sides are a seq_cst read-modify-write of one shared word instead: the
//     RMWs are totally ordered, the later one reads from the earlier (acq_rel),
//     so the earlier side's store happens-before the later side's load, the
//     same guarantee as the fences, in a form TSan checks.
#pragma once

#include <atomic>

#if defined(__SANITIZE_THREAD__)
#define NPURT_TSAN_FENCES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NPURT_TSAN_FENCES 1
#endif
#endif

namespace npurt::sim {

#if defined(NPURT_TSAN_FENCES)
// The word both sides of the handshake RMW under TSan (see the invariants).
inline std::atomic<unsigned> g_tsan_fence_word{0};
inline void tsan_fence() { g_tsan_fence_word.fetch_add(1, std::memory_order_seq_cst); }
#endif

// True once the process registered for expedited private membarrier (done on
// the first call; thread-safe).
bool asymmetric_fence_available();

// The hot side: a compiler barrier when available, else a full fence.
inline void asymmetric_light_fence(bool available) {
#if defined(NPURT_TSAN_FENCES)
  (void)available;  // never true under TSan
  tsan_fence();
#else
  if (available)
    std::atomic_signal_fence(std::memory_order_seq_cst);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

// The cold side: a process-wide fence when available, else a full fence.
void asymmetric_heavy_fence();

}  // namespace npurt::sim
