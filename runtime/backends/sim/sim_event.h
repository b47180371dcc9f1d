// runtime/backends/sim/sim_event.h: events of the sim backend.
//
// An event has a generation counter: each record() takes the next generation at
// submit time; the stream worker completes it in order, stamping a steady-clock
// time and the stream's pending error (so an event recorded after a failure
// reports that failure). Generations complete in increasing order.
//
// A thread waiting on an event runs blocks of the launch running on the
// stream that recorded it (ThreadPool::help with that stream's tag, as
// SimStream::synchronize does): on a 2-core host it is then one of the
// launch's lanes instead of a third thread, and it is on a core when the
// record completes instead of parked. The tag is only compared with pool jobs'
// tags, never dereferenced.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "npurt/backend.h"

namespace npurt::sim {

class SimEvent final : public BackendEvent {
 public:
  explicit SimEvent(bool timing) : timing_(timing) {}

  uint64_t recorded_generation() const override { return recorded_.load(std::memory_order_acquire); }
  bool completed(uint64_t generation) const override {
    return completed_.load(std::memory_order_acquire) >= generation;
  }
  Status wait(uint64_t generation) override;
  int64_t timestamp_ns() const override;

  // Called at submit time of a record command on the stream whose pool jobs
  // carry `stream_tag`: the generation it will complete.
  uint64_t next_generation(const void* stream_tag) {
    stream_tag_.store(stream_tag, std::memory_order_relaxed);
    return recorded_.fetch_add(1, std::memory_order_acq_rel) + 1;
  }
  // Called by the stream worker when the record command runs.
  void complete(uint64_t generation, const Status& stream_error);
  bool timing() const { return timing_; }

 private:
  bool spin_and_help(uint64_t generation);

  const bool timing_;
  // The recording stream's pool tag (latest record): whose launch a waiter helps.
  std::atomic<const void*> stream_tag_{nullptr};
  std::atomic<uint64_t> recorded_{0};
  std::atomic<uint64_t> completed_{0};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int64_t timestamp_ns_ = -1;  // guarded by mu_
  Status error_;               // guarded by mu_: stream error at the latest completion
  int waiters_ = 0;            // guarded by mu_
};

}  // namespace npurt::sim
