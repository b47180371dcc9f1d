// runtime/backends/sim/sim_event.cc
#include "backends/sim/sim_event.h"

#include <chrono>

#include "exec/spin_wait.h"
#include "exec/thread_pool.h"

namespace npurt::sim {

// Spins while the generation is pending, running blocks of the recording
// stream's launch when it has unclaimed ones (help every 64 polls: one relaxed
// load while no launch runs). True when the generation completed; false when
// there was nothing to help within the spin budget (the caller then parks).
// The first spin lasts kSpinBudget (40 us), as SimStream::synchronize's: enough
// for a worker that is awake to push the launch's job. Unlike synchronize, a
// parked event waiter is not woken when the launch begins (a stream worker
// waking from its park took ~90 us on the VM): it then waits for the record as
// before, without helping.
// After a help it waits for the rest with the idle budget: it ran a lane, so
// it holds a core the launch no longer needs, and a park here would cost a
// wake-up at the end (SimStream::synchronize does the same).
bool SimEvent::spin_and_help(uint64_t generation) {
  const void* tag = stream_tag_.load(std::memory_order_relaxed);
  ThreadPool& pool = ThreadPool::compute();
  ThreadPool::Help helped = ThreadPool::Help::kNothing;
  unsigned polls = 0;
  auto done_or_helped = [&] {
    if (completed(generation)) return true;
    if ((polls++ & 63) != 0) return false;
    helped = pool.help(tag);
    return helped == ThreadPool::Help::kRan;
  };
  bool ran_blocks = false;
  for (;;) {
    if (spin_until(done_or_helped, ran_blocks ? kIdleSpinBudget : kSpinBudget)) {
      if (completed(generation)) return true;
      ran_blocks = true;  // wait for the rest on the core we hold
      continue;
    }
    // A pool helper hands its lane over after its current block: keep spinning
    // for it (once the launch has no unclaimed blocks help() says kNothing).
    if (helped != ThreadPool::Help::kLaneAsked) return false;
  }
}

Status SimEvent::wait(uint64_t generation) {
  if (!spin_and_help(generation)) {
    std::unique_lock<std::mutex> lk(mu_);
    ++waiters_;
    cv_.wait(lk, [&] { return completed(generation); });
    --waiters_;
    return error_;
  }
  std::lock_guard<std::mutex> lk(mu_);
  return error_;
}

int64_t SimEvent::timestamp_ns() const {
  std::lock_guard<std::mutex> lk(mu_);
  return timestamp_ns_;
}

void SimEvent::complete(uint64_t generation, const Status& stream_error) {
  int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  std::lock_guard<std::mutex> lk(mu_);
  if (generation > completed_.load(std::memory_order_relaxed)) {
    timestamp_ns_ = now;
    error_ = stream_error;
    completed_.store(generation, std::memory_order_release);
  }
  if (waiters_) cv_.notify_all();
}

}  // namespace npurt::sim
