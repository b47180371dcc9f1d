// runtime/ops/c_api_graph.cc: the stream-graph part of the C API (npurt/npurt.h,
// C API 0.2) over npurt::Graph (npurt/graph.h).
//
// A npurtGraph owns one Graph handle; the graph's state lives on while replays
// enqueued before npurtGraphDestroy still need it (Graph is shared ownership).
#include <cstring>
#include <string>
#include <vector>

#include "npurt/graph.h"
#include "npurt/npurt.h"
#include "ops/c_api_internal.h"

namespace {

using npurt::c_api::guarded;
using npurt::c_api::require;
using npurt::c_api::stream_arg;

npurt::CaptureMode mode_arg(int mode, const char* fn) {
  require(mode >= NPURT_CAPTURE_MODE_GLOBAL && mode <= NPURT_CAPTURE_MODE_RELAXED, fn, "mode",
          "unknown capture mode (use NPURT_CAPTURE_MODE_GLOBAL, _THREAD_LOCAL or _RELAXED)");
  return static_cast<npurt::CaptureMode>(mode);
}

const npurt::Graph& graph_arg(npurtGraph g, const char* fn) {
  require(g != nullptr, fn, "graph", "is NULL");
  return g->graph;
}

std::vector<npurt::GraphBinding> bindings_arg(const npurtGraphBinding* b, size_t n, const char* fn) {
  require(b != nullptr || n == 0, fn, "bindings", "is NULL but num_bindings is not 0");
  std::vector<npurt::GraphBinding> out(n);
  for (size_t i = 0; i < n; ++i) {
    std::string arg = "bindings[" + std::to_string(i) + "]";
    if (b[i].struct_size < sizeof(npurtGraphBinding))
      npurt::throw_invalid_argument(fn, arg, "struct_size is smaller than sizeof(npurtGraphBinding)");
    if (!b[i].tensor) npurt::throw_invalid_argument(fn, arg + ".tensor", "is NULL");
    out[i] = npurt::GraphBinding{b[i].slot, b[i].tensor->tensor};
  }
  return out;
}

}  // namespace

extern "C" {

npurtStatus npurtStreamBeginCapture(npurtStream stream, const npurtCaptureOptions* options) {
  return guarded([&] {
    const char* fn = "npurtStreamBeginCapture";
    const npurt::Stream& s = stream_arg(stream, fn);
    npurt::CaptureMode mode = npurt::CaptureMode::kGlobal;
    npurt::GraphPoolHandle pool;
    if (options) {
      require(options->struct_size >= sizeof(npurtCaptureOptions), fn, "options",
              "struct_size is smaller than sizeof(npurtCaptureOptions)");
      mode = mode_arg(options->mode, fn);
      if (options->share_pool_with) pool = options->share_pool_with->graph.pool();
    }
    npurt::Graph::begin_capture(s, mode, pool);
  });
}

npurtStatus npurtStreamEndCapture(npurtStream stream, npurtGraph* graph) {
  return guarded([&] {
    const char* fn = "npurtStreamEndCapture";
    const npurt::Stream& s = stream_arg(stream, fn);
    require(graph != nullptr, fn, "graph", "is NULL");
    *graph = nullptr;
    npurt::Graph g = npurt::Graph::end_capture(s);
    *graph = new npurtGraph_t{std::move(g)};
  });
}

npurtStatus npurtStreamAbortCapture(npurtStream stream) {
  return guarded([&] { npurt::Graph::abort_capture(stream_arg(stream, "npurtStreamAbortCapture")); });
}

npurtStatus npurtStreamIsCapturing(npurtStream stream, int* capturing) {
  return guarded([&] {
    const char* fn = "npurtStreamIsCapturing";
    const npurt::Stream& s = stream_arg(stream, fn);
    require(capturing != nullptr, fn, "capturing", "is NULL");
    *capturing = npurt::Graph::is_capturing(s) ? 1 : 0;
  });
}

npurtStatus npurtThreadExchangeCaptureMode(npurtCaptureMode* mode) {
  return guarded([&] {
    const char* fn = "npurtThreadExchangeCaptureMode";
    require(mode != nullptr, fn, "mode", "is NULL");
    npurt::CaptureMode old = npurt::exchange_thread_capture_mode(mode_arg(*mode, fn));
    *mode = static_cast<npurtCaptureMode>(old);
  });
}

npurtStatus npurtGraphReplay(npurtGraph graph, const npurtGraphBinding* bindings, size_t num_bindings,
                             npurtStream stream) {
  return guarded([&] {
    const char* fn = "npurtGraphReplay";
    const npurt::Graph& g = graph_arg(graph, fn);
    const npurt::Stream& s = stream_arg(stream, fn);
    if (num_bindings == 0 && bindings == nullptr) {
      g.replay(s);
      return;
    }
    std::vector<npurt::GraphBinding> b = bindings_arg(bindings, num_bindings, fn);
    g.replay(s, npurt::Span<const npurt::GraphBinding>(b.data(), b.size()));
  });
}

npurtStatus npurtGraphAddBinding(npurtGraph graph, npurtTensor captured, uint32_t* slot) {
  return guarded([&] {
    const char* fn = "npurtGraphAddBinding";
    require(graph != nullptr, fn, "graph", "is NULL");
    require(captured != nullptr, fn, "captured", "is NULL");
    require(slot != nullptr, fn, "slot", "is NULL");
    *slot = graph->graph.add_binding(captured->tensor);
  });
}

npurtStatus npurtGraphGetNodeCount(npurtGraph graph, size_t* count) {
  return guarded([&] {
    const char* fn = "npurtGraphGetNodeCount";
    const npurt::Graph& g = graph_arg(graph, fn);
    require(count != nullptr, fn, "count", "is NULL");
    *count = g.num_nodes();
  });
}

npurtStatus npurtGraphDump(npurtGraph graph, npurtGraphDumpFormat format, char* buffer, size_t capacity,
                           size_t* length) {
  return guarded([&] {
    const char* fn = "npurtGraphDump";
    const npurt::Graph& g = graph_arg(graph, fn);
    require(format == NPURT_GRAPH_DUMP_DOT || format == NPURT_GRAPH_DUMP_JSON, fn, "format",
            "unknown format (use NPURT_GRAPH_DUMP_DOT or NPURT_GRAPH_DUMP_JSON)");
    require(length != nullptr, fn, "length", "is NULL");
    std::string text = format == NPURT_GRAPH_DUMP_DOT ? g.to_dot() : g.to_json();
    *length = text.size() + 1;
    if (!buffer) return;
    if (capacity < text.size() + 1)
      npurt::throw_invalid_argument(fn, "capacity", std::to_string(capacity) + " bytes is too small: the dump needs " +
                                                        std::to_string(text.size() + 1) +
                                                        " (call with buffer NULL to ask for the size)");
    std::memcpy(buffer, text.c_str(), text.size() + 1);
  });
}

npurtStatus npurtGraphDestroy(npurtGraph graph) {
  return guarded([&] { delete graph; });
}

}  // extern "C"
