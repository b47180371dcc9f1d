// sdk_python/bindings/profiler_bindings.cpp: the profiler, as `_npurt._profiler`.
//
// Thin conversion layer over npurt/profiler.h: start/stop a session, and the
// Profile's data (activities, memory events, spans, op summary) as read-only
// objects; trace export and the text table are the C++ ones. The Python module
// npurt.profiler builds `nr.profile()`, plotting and NPURT_PROFILE on top.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "npurt/profiler.h"

namespace npurt::python {

void bind_profiler(nb::module_& m) {
  namespace prof = npurt::profiler;
  nb::module_ p = m.def_submodule("_profiler", "Profiler (use npurt.profile / npurt.profiler).");

  nb::class_<prof::BlockSpan>(p, "BlockSpan", "One simulated core's share of a sim launch.")
      .def_ro("block", &prof::BlockSpan::block)
      .def_ro("thread", &prof::BlockSpan::thread)
      .def_ro("start_ns", &prof::BlockSpan::start_ns)
      .def_ro("end_ns", &prof::BlockSpan::end_ns);

  nb::class_<prof::Activity>(p, "Activity", "One unit of stream work, enqueue to device end.")
      .def_prop_ro("kind", [](const prof::Activity& a) { return prof::activity_kind_name(a.kind); })
      .def_ro("id", &prof::Activity::id)
      .def_ro("device", &prof::Activity::device)
      .def_ro("stream", &prof::Activity::stream)
      .def_ro("stream_name", &prof::Activity::stream_name)
      .def_ro("name", &prof::Activity::name)
      .def_ro("kernel", &prof::Activity::kernel)
      .def_ro("shapes", &prof::Activity::shapes)
      .def_ro("dtypes", &prof::Activity::dtypes)
      .def_ro("tiling", &prof::Activity::tiling)
      .def_ro("num_blocks", &prof::Activity::num_blocks)
      .def_ro("bytes", &prof::Activity::bytes)
      .def_ro("flops", &prof::Activity::flops)
      .def_ro("mem_bytes", &prof::Activity::mem_bytes)
      .def_ro("enqueue_ns", &prof::Activity::enqueue_ns)
      .def_ro("start_ns", &prof::Activity::start_ns)
      .def_ro("end_ns", &prof::Activity::end_ns)
      .def_ro("host_thread", &prof::Activity::host_thread)
      .def_ro("exec_thread", &prof::Activity::exec_thread)
      .def_ro("executed", &prof::Activity::executed)
      .def_ro("ok", &prof::Activity::ok)
      .def_ro("blocks", &prof::Activity::blocks)
      .def_prop_ro("device_ns", &prof::Activity::device_ns)
      .def("__repr__", [](const prof::Activity& a) {
        return "<Activity " + a.name + " " + prof::activity_kind_name(a.kind) + " on " +
               a.stream_name + " " + std::to_string(a.device_ns()) + " ns>";
      });

  nb::class_<prof::MemoryEvent>(p, "MemoryEvent", "A pool allocation or free.")
      .def_ro("t_ns", &prof::MemoryEvent::t_ns)
      .def_ro("device", &prof::MemoryEvent::device)
      .def_ro("is_alloc", &prof::MemoryEvent::is_alloc)
      .def_ro("ptr", &prof::MemoryEvent::ptr)
      .def_ro("bytes", &prof::MemoryEvent::bytes)
      .def_ro("pool", &prof::MemoryEvent::pool)
      .def_ro("stream", &prof::MemoryEvent::stream)
      .def_ro("allocated_after", &prof::MemoryEvent::allocated_after)
      .def_ro("reserved_after", &prof::MemoryEvent::reserved_after)
      .def_ro("host_thread", &prof::MemoryEvent::host_thread);

  nb::class_<prof::HostSpan>(p, "HostSpan", "A host interval: graph replay or user range.")
      .def_ro("name", &prof::HostSpan::name)
      .def_ro("category", &prof::HostSpan::category)
      .def_ro("detail", &prof::HostSpan::detail)
      .def_ro("start_ns", &prof::HostSpan::start_ns)
      .def_ro("end_ns", &prof::HostSpan::end_ns)
      .def_ro("host_thread", &prof::HostSpan::host_thread);

  nb::class_<prof::OpStats>(p, "OpStats", "One row of the op summary.")
      .def_ro("name", &prof::OpStats::name)
      .def_prop_ro("kind", [](const prof::OpStats& s) { return prof::activity_kind_name(s.kind); })
      .def_ro("calls", &prof::OpStats::calls)
      .def_ro("total_ns", &prof::OpStats::total_ns)
      .def_ro("min_ns", &prof::OpStats::min_ns)
      .def_ro("max_ns", &prof::OpStats::max_ns)
      .def_ro("flops", &prof::OpStats::flops)
      .def_ro("bytes", &prof::OpStats::bytes)
      .def_prop_ro("mean_ns", &prof::OpStats::mean_ns)
      .def_prop_ro("gbps", &prof::OpStats::gbps)
      .def_prop_ro("gflops", &prof::OpStats::gflops);

  nb::class_<prof::Profile>(p, "Profile", "The merged records of one profiling session.")
      .def_ro("activities", &prof::Profile::activities)
      .def_ro("memory", &prof::Profile::memory)
      .def_ro("spans", &prof::Profile::spans)
      .def_ro("start_ns", &prof::Profile::start_ns)
      .def_ro("stop_ns", &prof::Profile::stop_ns)
      .def_ro("incomplete", &prof::Profile::incomplete)
      .def_prop_ro("threads",
                   [](const prof::Profile& pr) {
                     nb::dict d;
                     for (const auto& t : pr.threads) d[nb::int_(t.id)] = t.name;
                     return d;
                   })
      .def("op_summary",
           [](const prof::Profile& pr, const std::string& sort_by) {
             return pr.op_summary(prof::sort_key_from_name(sort_by, "npurt.Profile.op_summary"));
           },
           nb::arg("sort_by") = "device_time")
      .def("table",
           [](const prof::Profile& pr, const std::string& sort_by, size_t limit) {
             return pr.table(prof::sort_key_from_name(sort_by, "npurt.Profile.table"), limit);
           },
           nb::arg("sort_by") = "device_time", nb::arg("limit") = 0)
      .def("chrome_trace_json", &prof::Profile::chrome_trace_json)
      .def("export_chrome_trace", &prof::Profile::export_chrome_trace, nb::arg("path"));

  p.def("start",
        [](bool record_blocks, bool record_memory, int64_t drain_timeout_ms) {
          prof::Options o;
          o.record_blocks = record_blocks;
          o.record_memory = record_memory;
          o.drain_timeout_ms = drain_timeout_ms;
          prof::start(o);
        },
        nb::arg("record_blocks") = true, nb::arg("record_memory") = true,
        nb::arg("drain_timeout_ms") = 30000);
  p.def("stop", &prof::stop, nb::call_guard<nb::gil_scoped_release>(),
        "Stops the session (waits for profiled work still in flight) and returns its Profile.");
  p.def("is_running", &prof::is_running);
  p.def("clock_ns", &prof::clock_ns);
  p.def("add_range", &prof::add_range, nb::arg("name"), nb::arg("start_ns"), nb::arg("end_ns"));
}

}  // namespace npurt::python
