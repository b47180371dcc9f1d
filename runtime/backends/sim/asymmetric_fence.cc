// runtime/backends/sim/asymmetric_fence.cc: membarrier registration and the
// heavy side of the asymmetric fence (see asymmetric_fence.h).
#include "backends/sim/asymmetric_fence.h"

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace npurt::sim {

namespace {

#if defined(__linux__) && defined(SYS_membarrier) && !defined(NPURT_TSAN_FENCES)
long membarrier(int cmd) { return syscall(SYS_membarrier, cmd, 0u, 0); }

// Registration is needed once per process before PRIVATE_EXPEDITED may be used.
bool register_expedited() {
  const long supported = membarrier(MEMBARRIER_CMD_QUERY);
  if (supported < 0 || !(supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return false;
  return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}
#else  // no membarrier, or under TSan (which cannot see its IPI fences): plain fences
bool register_expedited() { return false; }
#endif

}  // namespace

bool asymmetric_fence_available() {
  static const bool available = register_expedited();  // thread-safe static init
  return available;
}

void asymmetric_heavy_fence() {
#if defined(NPURT_TSAN_FENCES)
  tsan_fence();
#else
#if defined(__linux__) && defined(SYS_membarrier)
  if (asymmetric_fence_available()) {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // this thread's own side
    if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return;
  }
#endif
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace npurt::sim
