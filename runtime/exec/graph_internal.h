// runtime/exec/graph_internal.h: the data behind a Graph (internal).
//
// GraphNodes come from capture (graph_capture.cc) in capture order, which is a
// topological order: every dependency of node i has an index < i. GraphState is
// the instantiated, immutable graph plus its replay machinery (graph_exec.cc):
// one internal backend stream per lane, events for cross-lane edges, and the
// binding slots.
//
// Invariants:
//   - nodes, plan and slots never change after instantiation except add_binding,
//     which appends a slot under slots_mu.
//   - Replays of one graph run one at a time (run_mu): lanes and event
//     generations are per graph.
//   - The pool handle is released only when the state dies, i.e. after the last
//     replay holding it has finished.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/profiler.h"
#include "npurt/backend.h"
#include "npurt/graph.h"

namespace npurt {

struct GraphNode {
  Command cmd;                  // as recorded (event record/wait become edges)
  uint32_t lane = 0;
  uint64_t stream_id = 0;
  std::vector<uint32_t> deps;   // direct dependencies (indexes < own index)
  uint64_t seq = 0;             // capture clock when recorded (graph_capture.cc)
  std::shared_ptr<const profiler::OpAnnotation> op;  // dispatcher's description (launches)
};

// A graph-pool allocation made during the capture, and the first node recorded
// after it: nodes before that index touched the address range only through
// temporaries the capture had freed before this allocation reused the memory.
struct CaptureAllocation {
  uintptr_t base = 0;
  uint64_t bytes = 0;
  uint32_t first_node = 0;
};

struct GraphPoolHandle::State {
  Device device;
  GraphPoolId id = 0;
  ~State();  // release_graph_pool
};

// Where a bound tensor's address is recorded.
struct PatchSite {
  uint32_t node = 0;
  enum class Field : uint8_t { kArg, kDst, kSrc } field = Field::kArg;
  uint32_t arg = 0;     // kArg: argument index
  uint64_t offset = 0;  // recorded pointer - tensor base
};

struct BindingSlot {
  Tensor captured;
  std::vector<PatchSite> sites;
};

struct GraphState {
  Device device;
  Backend* backend = nullptr;
  int backend_index = 0;
  std::vector<GraphNode> nodes;
  std::vector<CaptureAllocation> allocations;  // for add_binding
  std::vector<uint64_t> lane_ids;              // profiler track ids of the lanes
  uint32_t num_lanes = 1;
  GraphPoolHandle pool;

  // Replay plan, built by instantiate(): before node i, wait for the event
  // recorded after each node in waits[i]; after node i, record events[i] if set.
  std::vector<std::vector<uint32_t>> waits;
  std::vector<std::shared_ptr<BackendEvent>> events;
  std::vector<std::unique_ptr<BackendStream>> lanes;
  // The backend's own graph (ascend: aclmdlRI) for replays without bindings;
  // null when the backend has none for these nodes (sim).
  std::unique_ptr<BackendGraph> native;
  std::vector<uint64_t> generations;  // scratch of the running replay (run_mu)
  std::mutex run_mu;

  std::mutex slots_mu;
  std::vector<BindingSlot> slots;
  uint64_t id = 0;
  std::atomic<uint64_t> replays{0};

  ~GraphState();
};

// Builds the replay plan, lanes and events; validates the nodes. Throws
// CaptureError naming the node when a node cannot be replayed.
std::shared_ptr<GraphState> instantiate_graph(Device device, std::vector<GraphNode> nodes, uint32_t num_lanes,
                                              GraphPoolHandle pool, std::vector<CaptureAllocation> allocations = {});

// Short node description for dumps and errors ("launch add_kernel", "copy D2D").
std::string graph_node_kind(const Command& c);
std::string graph_node_name(const Command& c);

}  // namespace npurt
