// sdk_python/bindings/graph_bindings.cpp: stream graphs (npurt/graph.h) for nr.Graph.
//
// Thin conversion only: the capture rules, replay and rebinding live in libnpurt.
// sdk_python/npurt/graphs.py builds nr.Graph / nr.graphed on top of these.
#include <nanobind/stl/pair.h>

#include <string>
#include <vector>

#include "bindings.h"
#include "npurt/graph.h"
#include "npurt/status.h"
#include "npurt/tensor.h"

namespace npurt::python {
namespace {

CaptureMode mode_arg(const std::string& mode, const char* where) {
  if (mode == "global") return CaptureMode::kGlobal;
  if (mode == "thread_local") return CaptureMode::kThreadLocal;
  if (mode == "relaxed") return CaptureMode::kRelaxed;
  throw_invalid_argument(where, "mode", "'" + mode + "' is not one of 'global', 'thread_local', 'relaxed'");
}

nb::dict node_dict(const GraphNodeInfo& n) {
  nb::dict d;
  d["id"] = n.id;
  d["kind"] = n.kind;
  d["name"] = n.name;
  d["lane"] = n.lane;
  d["stream"] = n.stream_id;
  d["bytes"] = n.bytes;
  d["num_blocks"] = n.num_blocks;
  d["deps"] = n.deps;
  return d;
}

void bind_graph_class(nb::module_& m) {
  nb::class_<GraphPoolHandle>(m, "GraphPool", "A graph-private memory pool; graphs captured with it share it.")
      .def_prop_ro("id", &GraphPoolHandle::id)
      .def_prop_ro("device", &GraphPoolHandle::device)
      .def("__repr__", [](const GraphPoolHandle& p) {
        return "npurt.GraphPool(id=" + std::to_string(p.id()) + ", device='" + p.device().str() + "')";
      });
  nb::class_<Graph>(m, "_Graph", "An instantiated stream graph (use nr.Graph).")
      .def_prop_ro("num_nodes", &Graph::num_nodes)
      .def_prop_ro("device", &Graph::device)
      .def_prop_ro("pool", &Graph::pool)
      .def_prop_ro("replay_count", &Graph::replay_count)
      .def_prop_ro("num_bindings", &Graph::num_bindings)
      .def("nodes",
           [](const Graph& g) {
             nb::list out;
             for (const GraphNodeInfo& n : g.nodes()) out.append(node_dict(n));
             return out;
           })
      .def("to_dot", &Graph::to_dot)
      .def("to_json", &Graph::to_json)
      .def("add_binding", &Graph::add_binding, nb::arg("captured"))
      .def("replay", [](const Graph& g, const Stream& s) { g.replay(s); }, nb::arg("stream"))
      .def("replay_bound",
           [](const Graph& g, const Stream& s, const std::vector<std::pair<uint32_t, Tensor>>& binds) {
             std::vector<GraphBinding> b;
             b.reserve(binds.size());
             for (const auto& p : binds) b.push_back(GraphBinding{p.first, p.second});
             g.replay(s, Span<const GraphBinding>(b.data(), b.size()));
           },
           nb::arg("stream"), nb::arg("bindings"));
}

}  // namespace

void bind_graphs(nb::module_& m) {
  bind_graph_class(m);
  m.def("_graph_begin_capture",
        [](const Stream& s, const std::string& mode, const GraphPoolHandle* pool) {
          Graph::begin_capture(s, mode_arg(mode, "npurt.Graph.capture"), pool ? *pool : GraphPoolHandle());
        },
        nb::arg("stream"), nb::arg("mode") = "global", nb::arg("pool").none() = nb::none());
  m.def("_graph_end_capture", &Graph::end_capture, nb::arg("stream"));
  m.def("_graph_abort_capture", &Graph::abort_capture, nb::arg("stream"));
  m.def("is_capturing", &Graph::is_capturing, nb::arg("stream"), "True while `stream` records into a graph capture.");
  m.def("graph_pool_handle",
        [](nb::handle device) { return GraphPoolHandle::create(device_arg(device, "npurt.graph_pool_handle")); },
        nb::arg("device") = nb::none(), "A new graph-private pool to share between graphs (pass as pool=).");
  m.def("exchange_thread_capture_mode",
        [](const std::string& mode) {
          return std::string(capture_mode_name(
              exchange_thread_capture_mode(mode_arg(mode, "npurt.exchange_thread_capture_mode"))));
        },
        nb::arg("mode"), "Sets this thread's capture interaction mode; returns the previous one.");
}

}  // namespace npurt::python
