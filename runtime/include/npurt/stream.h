// npurt/stream.h: streams and events, the user-facing handles over BackendStream.
//
// A Stream is an asynchronous FIFO of device work on one device. Handles are
// cheap to copy (shared ownership); the underlying queue is destroyed after the
// last handle goes and its work has drained.
//
// Invariants:
//   - Enqueueing never blocks on execution.
//   - Order is kept within a stream and across events (record/wait).
//   - Each device has a default stream; each host thread has a current stream
//     per device (initially the default stream). StreamGuard sets it for a scope.
//   - An error raised by stream work surfaces from the next synchronize()/query()
//     of that stream (as the matching npurt::Error subclass), or from an event
//     recorded after the failing work. The stream stays usable.
//   - Every enqueue goes through StreamImpl::submit, so graph capture (exec/graph)
//     can record instead of execute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "npurt/backend.h"
#include "npurt/device.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

class StreamImpl;
class EventImpl;
class Event;

class Stream {
 public:
  Stream() = default;  // null handle
  static Stream create(Device device);          // a new stream
  static Stream default_stream(Device device);  // the device's default stream
  static Stream current(Device device);         // this thread's current stream
  static Stream current();                      // ... on the current device
  static void set_current(const Stream& s);     // for s.device(), this thread

  bool valid() const { return impl_ != nullptr; }
  Device device() const;
  uint64_t id() const;           // unique per process, 0 for null
  bool is_default() const;

  void synchronize() const;      // waits, throws the recorded error
  bool query() const;            // true when idle; throws the recorded error
  void wait_event(const Event& e) const;
  void record_event(Event& e) const;

  // Async work. Host pointers must stay valid until the work ran (synchronize or an event).
  void memcpy_async(void* dst, const void* src, size_t bytes, CopyKind kind) const;
  void memset_async(void* dst, int value, size_t bytes) const;
  // The stream takes the launch description by value: the rvalue overload moves
  // it (through a Command) into the stream's queue, the other copies it, so the
  // caller may reuse or destroy its KernelLaunch as soon as launch() returns.
  // Throws InvalidArgument (nothing enqueued) when num_blocks is outside [1, 65535].
  void launch(KernelLaunch&& launch) const;
  void launch(const KernelLaunch& launch) const;
  void host_func(std::function<void()> fn) const;

  // Marks the stream closed (later use throws InvalidArgument "stream is closed"),
  // then waits for the work already enqueued: nothing enqueued is lost. A fault
  // recorded by that work is thrown here (the stream is closed either way).
  void close();
  bool closed() const;

  StreamImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<StreamImpl>& shared_impl() const { return impl_; }
  friend bool operator==(const Stream& a, const Stream& b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const Stream& a, const Stream& b) { return a.impl_ != b.impl_; }

  explicit Stream(std::shared_ptr<StreamImpl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<StreamImpl> impl_;
};

// Sets the current stream of its device for this thread; restores on destruction.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& s);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  Stream previous_;
};

class Event {
 public:
  explicit Event(Device device = Device(), bool enable_timing = true);
  void record(const Stream& s) { s.record_event(*this); }
  void record() { record(Stream::current(device())); }
  void synchronize() const;      // waits for the latest record; throws its stream's error
  bool query() const;            // true when the latest record completed (or never recorded)
  // Milliseconds from this event's latest record to `end`'s; both must have completed.
  double elapsed_ms(const Event& end) const;
  Device device() const;
  bool timing() const;

  EventImpl* impl() const { return impl_.get(); }

 private:
  std::shared_ptr<EventImpl> impl_;
};

// Waits for every stream of the device (nr.synchronize(device)).
void synchronize_device(Device device);

}  // namespace npurt
NPURT_PUBLIC_END
