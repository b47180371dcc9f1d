// runtime/backends/sim/spin_wait.h: bounded busy-wait before blocking.
//
// Stream workers and waiters spin for a few tens of microseconds before they
// park on a condition variable: a futex sleep/wake round trip costs several
// microseconds, more than the whole enqueue+synchronize budget (5 us).
//
// After kPureSpin the loop also yields the core now and then: when the host is
// oversubscribed (more runnable threads than cores), the thread we wait for is
// often runnable but not running, and pure spinning would burn our whole time
// slice keeping it off the core. When it is running on another core, the
// handoff happens well within kPureSpin and yield is never reached.
#pragma once

#include <chrono>
#include <thread>

namespace npurt::sim {

constexpr std::chrono::microseconds kSpinBudget{40};
constexpr std::chrono::microseconds kPureSpin{4};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Returns true as soon as pred() holds, false after the spin budget.
template <class Pred>
bool spin_until(Pred&& pred) {
  if (pred()) return true;
  const auto start = std::chrono::steady_clock::now();
  const auto yield_from = start + kPureSpin, deadline = start + kSpinBudget;
  for (unsigned i = 0;; ++i) {
    cpu_relax();  // one pause is ~40-140 cycles: poll often, the wake-up latency is the point
    if (pred()) return true;
    if ((i & 31) == 31) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return false;
      if (now >= yield_from) std::this_thread::yield();
    }
  }
}

}  // namespace npurt::sim
