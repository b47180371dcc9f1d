// sdk_python/bindings/streams.cpp: nr.Stream, nr.Event, current stream, synchronize.
//
// nr.Stream and nr.Event are the runtime's handles (shared ownership). Using a
// stream as a context manager makes it this thread's current stream on its
// device for the block; the previous one is restored on exit, also when blocks
// nest. Every wait releases the GIL, so other Python threads keep running and
// stream work that calls back into Python (host functions) cannot deadlock.
#include <string>
#include <vector>

#include "bindings.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt::python {
namespace {

// Streams replaced by `with stream:` blocks of this thread, innermost last.
thread_local std::vector<Stream> t_saved_streams;

Stream& stream_enter(Stream& s) {
  check_stream_open(s, "npurt.Stream.__enter__", "self");
  t_saved_streams.push_back(Stream::current(s.device()));
  Stream::set_current(s);
  return s;
}

void stream_exit(Stream& s) {
  if (t_saved_streams.empty()) return;
  Stream previous = std::move(t_saved_streams.back());
  t_saved_streams.pop_back();
  // A closed previous stream cannot be current again: fall back to the default.
  Stream::set_current(previous.closed() ? Stream::default_stream(s.device()) : previous);
}

const Event& event_arg(nb::handle h, const char* where, const char* arg) {
  if (!nb::isinstance<Event>(h)) {
    throw_invalid_argument(where, arg, std::string("expected an npurt.Event, got ") +
                                           nb::type_name(h.type()).c_str());
  }
  return nb::cast<const Event&>(h);
}

std::string stream_repr(const Stream& s) {
  if (!s.valid()) return "npurt.Stream(null)";
  return "npurt.Stream(id=" + std::to_string(s.id()) + ", device='" + s.device().str() + "'" +
         (s.is_default() ? ", default" : "") + (s.closed() ? ", closed" : "") + ")";
}

void bind_stream_class(nb::module_& m) {
  nb::class_<Stream>(m, "Stream",
                     "An asynchronous FIFO of device work. `with s:` makes it the current stream.")
      .def("__init__",
           [](Stream* self, nb::handle device) { new (self) Stream(Stream::create(device_arg(device, "npurt.Stream"))); },
           nb::arg("device") = nb::none(), "A new stream on `device` (default: the current device).")
      .def_prop_ro("device", &Stream::device)
      .def_prop_ro("id", &Stream::id)
      .def_prop_ro("is_default", &Stream::is_default)
      .def_prop_ro("closed", &Stream::closed)
      .def("synchronize",
           [](const Stream& s) {
             check_stream_open(s, "npurt.Stream.synchronize", "self");
             nb::gil_scoped_release release;
             s.synchronize();
           },
           "Waits for all queued work; raises the error of failed work (e.g. nr.KernelFault).")
      .def("query",
           [](const Stream& s) {
             check_stream_open(s, "npurt.Stream.query", "self");
             return s.query();
           },
           "True when all queued work has finished; raises the error of failed work.")
      .def("wait_event",
           [](const Stream& s, nb::handle e) {
             check_stream_open(s, "npurt.Stream.wait_event", "self");
             s.wait_event(event_arg(e, "npurt.Stream.wait_event", "event"));
           },
           nb::arg("event"), "Later work on this stream waits for the event's latest record.")
      .def("record_event",
           [](const Stream& s, nb::handle e) {
             check_stream_open(s, "npurt.Stream.record_event", "self");
             Event event = e.is_none() ? Event(s.device()) : event_arg(e, "npurt.Stream.record_event", "event");
             s.record_event(event);
             return event;
           },
           nb::arg("event") = nb::none(), "Records `event` (a new one if None) here and returns it.")
      .def("close", &Stream::close, "Marks the stream closed: later use raises InvalidArgumentError.")
      .def("__enter__", &stream_enter, nb::rv_policy::reference)
      .def("__exit__", [](Stream& s, nb::args) { stream_exit(s); })
      .def("__eq__", [](const Stream& a, nb::handle b) { return nb::isinstance<Stream>(b) && nb::cast<const Stream&>(b) == a; }, nb::arg("other").none())
      .def("__ne__", [](const Stream& a, nb::handle b) { return !(nb::isinstance<Stream>(b) && nb::cast<const Stream&>(b) == a); }, nb::arg("other").none())
      .def("__hash__", [](const Stream& s) { return s.id(); })
      .def("__repr__", &stream_repr);
}

void bind_event_class(nb::module_& m) {
  nb::class_<Event>(m, "Event", "A marker in a stream's work, for cross-stream waits and timing.")
      .def("__init__",
           [](Event* self, nb::handle device, bool enable_timing) {
             new (self) Event(device_arg(device, "npurt.Event"), enable_timing);
           },
           nb::arg("device") = nb::none(), nb::arg("enable_timing") = true)
      .def("record",
           [](Event& e, nb::handle stream) {
             if (stream.is_none()) return e.record();  // the current stream of the event's device
             e.record(stream_arg(stream, nb::none(), "npurt.Event.record"));
           },
           nb::arg("stream") = nb::none(), "Records on `stream` (default: the current stream of the event's device).")
      .def("synchronize",
           [](const Event& e) {
             nb::gil_scoped_release release;
             e.synchronize();
           },
           "Waits for the latest record; raises the error of the stream's failed work.")
      .def("query", &Event::query, "True when the latest record has completed (or there is none).")
      .def("elapsed_time", [](const Event& start, nb::handle end) {
             return start.elapsed_ms(event_arg(end, "npurt.Event.elapsed_time", "end"));
           },
           nb::arg("end"), "Milliseconds between this event's latest record and `end`'s.")
      .def_prop_ro("device", &Event::device)
      .def_prop_ro("enable_timing", &Event::timing)
      .def("__repr__", [](const Event& e) {  // no query(): a repr must not raise stream errors
        return "npurt.Event(device='" + e.device().str() + "', enable_timing=" + (e.timing() ? "True" : "False") + ")";
      });
}

}  // namespace

void bind_streams(nb::module_& m) {
  bind_stream_class(m);
  bind_event_class(m);
  m.def("current_stream", [](nb::handle device) { return Stream::current(device_arg(device, "npurt.current_stream")); },
        nb::arg("device") = nb::none(), "This thread's current stream on `device` (default: current device).");
  m.def("default_stream", [](nb::handle device) { return Stream::default_stream(device_arg(device, "npurt.default_stream")); },
        nb::arg("device") = nb::none(), "The device's default stream.");
  m.def("synchronize",
        [](nb::handle device) {
          Device d = device_arg(device, "npurt.synchronize");
          nb::gil_scoped_release release;
          synchronize_device(d);
        },
        nb::arg("device") = nb::none(), "Waits for every stream of the device (default: current device).");
}

}  // namespace npurt::python
