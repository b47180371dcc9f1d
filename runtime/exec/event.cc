// runtime/exec/event.cc: Event (record / wait / synchronize / elapsed time).
//
// An Event wraps one BackendEvent. Each record takes the next generation (at
// submit time, in the backend); waits and synchronize() target the generation
// recorded last when they are called, like CUDA events.
#include <memory>

#include "core/runtime_internal.h"
#include "exec/deferred_flush.h"
#include "exec/graph_capture.h"
#include "exec/stream_impl.h"
#include "npurt/status.h"
#include "npurt/stream.h"

namespace npurt {

class EventImpl {
 public:
  EventImpl(Device device, bool timing)
      : device_(device), timing_(timing) {
    DeviceContextImpl& ctx = device_context_impl(device);
    event_ = ctx.backend().create_event(ctx.backend_index(), timing);
  }
  Device device() const { return device_; }
  bool timing() const { return timing_; }
  const std::shared_ptr<BackendEvent>& backend() const { return event_; }

 private:
  Device device_;
  bool timing_;
  std::shared_ptr<BackendEvent> event_;
};

namespace {

EventImpl& checked_event(const Event& e, const char* where) {
  if (!e.impl()) throw_invalid_argument(where, "event", "null event");
  return *e.impl();
}

void check_same_backend(const StreamImpl& s, const EventImpl& e, const char* where) {
  if (s.device().type != e.device().type)
    throw_invalid_argument(where, "event", "event on " + e.device().str() + " cannot be used with a stream on " +
                                               s.device().str());
}

}  // namespace

Event::Event(Device device, bool enable_timing) : impl_(std::make_shared<EventImpl>(device, enable_timing)) {}

Device Event::device() const { return impl_->device(); }
bool Event::timing() const { return impl_->timing(); }

void Event::synchronize() const {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  EventImpl& e = checked_event(*this, "npurt.Event.synchronize");
  capture_check_event_sync("npurt.Event.synchronize", e.backend().get());
  uint64_t gen = e.backend()->recorded_generation();
  if (gen == 0) return;
  e.backend()->wait(gen).throw_if_error();
}

bool Event::query() const {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  EventImpl& e = checked_event(*this, "npurt.Event.query");
  capture_check_event_sync("npurt.Event.query", e.backend().get());
  return e.backend()->completed(e.backend()->recorded_generation());
}

double Event::elapsed_ms(const Event& end) const {
  const char* where = "npurt.Event.elapsed_ms";
  EventImpl& a = checked_event(*this, where);
  EventImpl& b = checked_event(end, where);
  if (!a.timing() || !b.timing())
    throw_invalid_argument(where, a.timing() ? "end" : "self", "event was created with enable_timing=false");
  for (EventImpl* e : {&a, &b}) {
    uint64_t gen = e->backend()->recorded_generation();
    if (gen == 0) throw_invalid_argument(where, e == &a ? "self" : "end", "event was never recorded");
    if (!e->backend()->completed(gen))
      throw_invalid_argument(where, e == &a ? "self" : "end", "event has not completed yet (synchronize it first)");
  }
  return static_cast<double>(b.backend()->timestamp_ns() - a.backend()->timestamp_ns()) / 1e6;
}

void Stream::record_event(Event& e) const {
  const char* where = "npurt.Stream.record_event";
  StreamImpl* s = checked_stream(*this, where);
  EventImpl& ev = checked_event(e, where);
  check_same_backend(*s, ev, where);
  Command c;
  c.kind = Command::Kind::kEventRecord;
  c.event = ev.backend();
  s->submit(std::move(c));
}

void Stream::wait_event(const Event& e) const {
  const char* where = "npurt.Stream.wait_event";
  StreamImpl* s = checked_stream(*this, where);
  EventImpl& ev = checked_event(e, where);
  check_same_backend(*s, ev, where);
  if (capture_on_wait_event(*this, ev.backend())) return;  // recorded as a graph edge (exec/graph_capture.h)
  uint64_t gen = ev.backend()->recorded_generation();
  if (gen == 0) return;  // never recorded: nothing to wait for (CUDA semantics)
  Command c;
  c.kind = Command::Kind::kEventWait;
  c.event = ev.backend();
  c.event_generation = gen;
  s->submit(std::move(c));
}

}  // namespace npurt
