// npurt/graph.h: stream graphs: capture stream work into a DAG, replay it as one unit.
//
//   npurt::Graph::begin_capture(s);                 // s: a non-default stream
//   y = npurt::ops::add(x, x, s);                   // recorded, not executed
//   npurt::Graph g = npurt::Graph::end_capture(s);  // validated and instantiated
//   g.replay(s);                                    // runs the recorded work
//
// Capture (CUDA stream capture / CANN aclmdlRICapture*): between begin and end,
// every Command enqueued on the capturing stream (launches with tiling resolved,
// copies, memsets, host functions, event record/wait) is recorded instead of
// executed. Another stream joins the capture by waiting on an event recorded
// inside it, and must join back (the origin waits on an event recorded on it
// after its last work) before end_capture.
//
// Invariants:
//   - An illegal operation while capturing throws CaptureError before anything is
//     recorded; the capture itself stays valid (except a failed end_capture, which
//     discards the capture and leaves every stream usable).
//   - Nodes are kept in capture order, which is a topological order of the DAG.
//   - Allocations on capturing streams come from the graph's private pool; its
//     blocks stay reserved until every graph sharing the pool is destroyed, so
//     each replay uses the captured addresses.
//   - replay(s) enqueues one unit on s: work queued on s before runs before the
//     graph, work queued after runs after it; independent branches (captured on
//     different streams) run concurrently on the device. A kernel fault inside a
//     replay surfaces at the next synchronize of s.
//   - A Graph handle is shared ownership; destruction waits for nothing: replays
//     in flight keep the graph (and its pool) alive until they finished.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "npurt/memory_pool.h"
#include "npurt/op_def.h"
#include "npurt/stream.h"
#include "npurt/tensor.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

// CUDA/CANN capture modes. kGlobal: while the capture runs, unsafe calls
// (synchronize/query of streams, events or the device, blocking copies) are
// rejected in every thread whose interaction mode is kGlobal, and in the thread
// that began it. kThreadLocal: only in the thread that began it. kRelaxed: never
// (except on the capturing streams themselves, which can never be synchronized).
enum class CaptureMode : uint8_t { kGlobal = 0, kThreadLocal = 1, kRelaxed = 2 };
const char* capture_mode_name(CaptureMode m);

// Sets this thread's interaction mode (aclmdlRICaptureThreadExchangeMode /
// cudaThreadExchangeStreamCaptureMode); returns the previous one.
CaptureMode exchange_thread_capture_mode(CaptureMode mode);

// A graph-private memory pool; graphs captured with the same handle share it.
// The pool is released when the last handle (and the last graph using it) goes.
class GraphPoolHandle {
 public:
  GraphPoolHandle() = default;
  static GraphPoolHandle create(Device device);
  bool valid() const { return state_ != nullptr; }
  GraphPoolId id() const;
  Device device() const;
  struct State;
  explicit GraphPoolHandle(std::shared_ptr<State> s) : state_(std::move(s)) {}
  const std::shared_ptr<State>& state() const { return state_; }

 private:
  std::shared_ptr<State> state_;
};

// One recorded node, for introspection.
struct GraphNodeInfo {
  uint32_t id = 0;
  std::string kind;              // "launch", "copy", "memset", "host"
  std::string name;              // kernel name, copy kind ("D2D"), ...
  std::string op;                // launches made by the dispatcher: the OpDef name ("add"); else ""
  uint32_t lane = 0;             // 0: the origin stream; k: the k-th joined stream
  uint64_t stream_id = 0;        // the stream it was captured on
  size_t bytes = 0;              // copies and memsets
  uint32_t num_blocks = 0;       // launches
  std::vector<uint32_t> deps;    // ids of the nodes it depends on directly
};

// A rebinding of one slot (see Graph::add_binding) to another tensor.
struct GraphBinding {
  uint32_t slot = 0;
  Tensor tensor;
};

struct GraphState;  // internal (exec/graph_internal.h)

class Graph {
 public:
  Graph() = default;  // null handle

  // Starts capturing `stream`. `pool`: share another graph's pool (default: a new one).
  // Throws CaptureError: default stream (107031), already capturing (107027).
  static void begin_capture(const Stream& stream, CaptureMode mode = CaptureMode::kGlobal,
                            const GraphPoolHandle& pool = GraphPoolHandle());
  // Ends the capture begun on `stream` and instantiates the graph. Throws
  // CaptureError: not capturing (107029), not the origin stream (107036), wrong
  // thread (107038), unjoined streams (107025: the capture is discarded).
  static Graph end_capture(const Stream& stream);
  // Discards the capture begun on `stream` (no-op when it is not capturing).
  static void abort_capture(const Stream& stream);
  // True while `stream` records into a capture (as origin or joined stream).
  static bool is_capturing(const Stream& stream);

  bool valid() const { return state_ != nullptr; }
  Device device() const;
  size_t num_nodes() const;
  std::vector<GraphNodeInfo> nodes() const;
  std::string to_dot() const;
  std::string to_json() const;
  GraphPoolHandle pool() const;
  uint64_t replay_count() const;  // replays enqueued so far

  // Enqueues the graph on `stream` (same device; not capturing: 107030).
  void replay(const Stream& stream) const;
  // Same, with slots rebound to other tensors for this replay only.
  void replay(const Stream& stream, Span<const GraphBinding> bindings) const;

  // Declares a binding slot for a tensor the graph uses (captured input or
  // output). Every recorded pointer inside its bytes (launch arguments, copy and
  // memset endpoints) is patched at replay when the slot is rebound. Throws
  // InvalidArgument when no node uses the tensor. Returns the slot index.
  // A tensor allocated inside the capture (an output) may share its address
  // with a temporary the capture freed before allocating it: only nodes
  // recorded after the tensor's allocation are patched, so rebinding outputs is
  // as safe as rebinding inputs.
  uint32_t add_binding(const Tensor& captured);
  size_t num_bindings() const;

  GraphState* state() const { return state_.get(); }
  explicit Graph(std::shared_ptr<GraphState> s) : state_(std::move(s)) {}

 private:
  std::shared_ptr<GraphState> state_;
};

}  // namespace npurt
NPURT_PUBLIC_END
