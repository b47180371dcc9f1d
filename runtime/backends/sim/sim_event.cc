// runtime/backends/sim/sim_event.cc
#include "backends/sim/sim_event.h"

#include <chrono>

#include "exec/spin_wait.h"

namespace npurt::sim {

Status SimEvent::wait(uint64_t generation) {
  // Spin briefly first: most waits are for work that finishes within microseconds.
  spin_until([&] { return completed(generation); });
  std::unique_lock<std::mutex> lk(mu_);
  ++waiters_;
  cv_.wait(lk, [&] { return completed(generation); });
  --waiters_;
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
