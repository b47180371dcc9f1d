// runtime/exec/spin_wait.h: bounded busy-wait before blocking.
//
// Stream workers, pool workers and waiters spin for a while before they park
// on a condition variable: a futex sleep/wake round trip costs several
// microseconds, more than the whole enqueue+synchronize budget (5 us), and on
// the shared VM waking a thread whose core went idle costs 30-65 us.
//
// After kPureSpin the loop also yields the core now and then: when the host is
// oversubscribed (more runnable threads than cores), the thread we wait for is
// often runnable but not running, and pure spinning would burn our whole time
// slice keeping it off the core. When it is running on another core, the
// handoff happens well within kPureSpin and yield is never reached.
//
// Budgets: kSpinBudget for a caller waiting for work to finish; kIdleSpinBudget
// for an idle worker (stream worker, pool helper) waiting for the next piece of
// work. The idle budget covers a caller's round trip between two launches (its
// own wake-up from synchronize plus the Python between calls, ~50-100 us on the
// VM), so back-to-back launches never pay a worker wake-up; an idle process
// still parks every thread after it (no CPU use at rest).
#pragma once

#include <chrono>
#include <thread>

namespace npurt {

constexpr std::chrono::microseconds kSpinBudget{40};
constexpr std::chrono::microseconds kIdleSpinBudget{250};
constexpr std::chrono::microseconds kPureSpin{4};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Returns true as soon as pred() holds, false after `budget`. Yielding starts
// after `pure` (checked every 32 polls).
template <class Pred>
bool spin_until(Pred&& pred, std::chrono::microseconds budget = kSpinBudget,
                std::chrono::microseconds pure = kPureSpin) {
  if (pred()) return true;
  const auto start = std::chrono::steady_clock::now();
  const auto yield_from = start + pure, deadline = start + budget;
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

}  // namespace npurt
