// runtime/backends/sim/sim_stream.h: a sim stream = a FIFO served by one worker thread.
//
// Invariants:
//   - Commands run one at a time, in submit order, on the worker thread.
//   - submitted_ counts submits, completed_ counts finished commands; mark() is
//     submitted_ and reached(m) is completed_ >= m (a monotonic timeline).
//   - The first failure is kept (later ones are dropped) until synchronize() or
//     query() returns and clears it; its message is "<stream name>: <command>: <reason>".
//   - Device pointers of copies and launches are resolved when submitted (on
//     the caller's thread); an unresolvable pointer turns the command into a
//     recorded failure at its place in the FIFO.
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
