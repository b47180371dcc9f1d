// runtime/backends/sim/sim_stream.h: a sim stream = a FIFO served by one worker thread.
//
// The hand-off is a WorkQueue (work_queue.h): submit() fills a recycled node
// and links it without touching any lock the worker takes; the worker spins
// briefly when idle and then parks, and a producer takes the stream mutex only
// to wake a parked worker. Finished nodes go back to the producers, so the
// memory a command allocated on the caller is freed or reused on the caller.
// The park handshake's store-load fence is asymmetric (asymmetric_fence.h):
// free for the producer, a process-wide membarrier for a worker about to park.
//
// Invariants:
//   - Commands run one at a time, in submit order, on the worker thread; any
//     number of threads may submit. The worker spreads a launch's blocks (and a
//     large copy's parts) over ThreadPool::compute(), tagged with this stream:
//     a thread waiting in synchronize() runs some of them too (at most
//     num_threads() lanes at once), so on a 2-core host the waiter is one of
//     the two lanes instead of a third thread competing with them.
//   - The queue's push count counts submits, completed counts finished
//     commands; mark() is the push count and reached(m) is completed >= m (a
//     monotonic timeline: the n-th push is the n-th command to run).
//   - Host-function captures, keep-alive buffers and events of a command are
//     released on the worker before its completion is counted; its
//     KernelLaunch (a value inside the node: plain memory) is overwritten when
//     a producer reuses the node, or freed with it.
//   - A launch's tiling region points at the tiling bytes inside the node
//     (where the move put them), never at the submitter's Command.
//   - The first failure is kept (later ones are dropped) until synchronize() or
//     query() returns and clears it; its message is "<stream name>: <command>: <reason>".
//   - Device pointers of copies and launches are resolved when submitted (on
//     the caller's thread); an unresolvable pointer turns the command into a
//     recorded failure at its place in the FIFO.
//     Resolution runs before submit's first store into the queue node, so
//     the pool's lock does not wait for the node's lines (see submit()).
//   - Destruction drains the queue; the worker owns the shared state, so a
//     stream may be released from its own worker (e.g. inside a host function).
#pragma once

#include <memory>
#include <string>
#include <thread>

#include "npurt/backend.h"

namespace npurt::sim {

class SimBackend;

class SimStream final : public BackendStream {
 public:
  SimStream(SimBackend* backend, int device);
  ~SimStream() override;

  void submit(Command&& cmd) override;
  Status synchronize() override;
  bool query(Status* error) override;
  uint64_t mark() override;
  bool reached(uint64_t mark) const override;
  void set_name(const std::string& name) override;

  struct State;

 private:
  std::shared_ptr<State> st_;
  std::thread worker_;
};

}  // namespace npurt::sim
