// runtime/exec/graph_exec.cc: instantiate (validate + plan) and replay.
//
// Replay is one host-function Command on the caller's stream (the "graph
// executor"): when the stream reaches it, it submits every node to the graph's
// internal lane streams (one per captured stream, so independent branches run
// concurrently), with backend events for cross-lane edges, then waits for the
// lanes and rethrows the first failure, which becomes the stream's error. The
// caller's host cost is one submit, whatever the node count; the stream order
// (work before, graph, work after) holds because the executor finishes only
// after the whole graph did.
// A backend with its own graphs (ascend: aclmdlRI, Backend::instantiate_graph)
// replays a graph without bindings by one launch of that graph on the caller's
// stream instead; replays with bindings (patched pointers) use the lanes.
#include <algorithm>
#include <atomic>

#include "core/runtime_internal.h"
#include "exec/graph_capture.h"
#include "exec/graph_internal.h"
#include "exec/profiler.h"
#include "exec/stream_impl.h"
#include "npurt/status.h"

namespace npurt {

namespace {

std::atomic<uint64_t> g_next_graph_id{1};
constexpr uint64_t kLaneTrackBase = uint64_t(1) << 32;

// The replay plan: which cross-lane waits precede each node, which nodes record
// an event. A lane that already waited for node j of lane M need not wait for
// earlier nodes of M (lanes are FIFOs).
void build_plan(GraphState& g) {
  size_t n = g.nodes.size();
  g.waits.assign(n, {});
  g.events.assign(n, nullptr);
  g.generations.assign(n, 0);
  std::vector<int64_t> waited(size_t(g.num_lanes) * g.num_lanes, -1);  // [lane][source lane]
  for (size_t i = 0; i < n; ++i) {
    uint32_t lane = g.nodes[i].lane;
    std::vector<int64_t> latest(g.num_lanes, -1);
    for (uint32_t d : g.nodes[i].deps)
      if (g.nodes[d].lane != lane) latest[g.nodes[d].lane] = std::max<int64_t>(latest[g.nodes[d].lane], d);
    for (uint32_t m = 0; m < g.num_lanes; ++m) {
      int64_t& w = waited[size_t(lane) * g.num_lanes + m];
      if (latest[m] <= w) continue;
      w = latest[m];
      g.waits[i].push_back(static_cast<uint32_t>(w));
      if (!g.events[w]) g.events[w] = g.backend->create_event(g.backend_index, false);
    }
  }
}

void validate_node(const GraphNode& node, size_t i) {
  const Command& c = node.cmd;
  std::string what = "npurt.Graph.end_capture: node " + std::to_string(i) + " (" + c.describe() + ")";
  switch (c.kind) {
    case Command::Kind::kLaunch:
      if (!c.launch.sim_entry && !c.launch.device_function)
        throw CaptureError(what + ": kernel has no entry point for this backend");
      break;
    case Command::Kind::kCopy:
      if (!c.dst || !c.src) throw CaptureError(what + ": null copy endpoint");
      break;
    case Command::Kind::kMemset:
      if (!c.dst) throw CaptureError(what + ": null memset destination");
      break;
    case Command::Kind::kHostFunc:
      if (!c.host_fn) throw CaptureError(what + ": empty host function");
      break;
    default:
      throw CaptureError(what + ": event commands are edges, not nodes (internal error)");
  }
  for (uint32_t d : node.deps)
    if (d >= i) throw CaptureError(what + ": dependency on later node " + std::to_string(d) + " (internal error)");
}

std::string graph_label(const GraphState& g) {
  return "graph " + std::to_string(g.id) + ", " + std::to_string(g.nodes.size()) + " nodes";
}

// Submits one node (with its profiler id when a session runs) to its lane.
void submit_node(GraphState& g, size_t i, Command&& c) {
  const GraphNode& node = g.nodes[i];
  if (profiler::enabled()) c.profile_id = profiler::on_submit(c, g.lane_ids[node.lane], g.device, node.op);
  g.lanes[node.lane]->submit(std::move(c));
}

// Runs on the replay stream's worker. `patched`: node -> rebound command.
void run_graph(GraphState& g, const std::vector<std::pair<uint32_t, Command>>* patched) {
  std::lock_guard<std::mutex> lk(g.run_mu);
  profiler::SpanScope span("graph replay", "graph", profiler::enabled() ? graph_label(g) : std::string(), g.device);
  size_t next_patch = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    BackendStream& lane = *g.lanes[g.nodes[i].lane];
    for (uint32_t w : g.waits[i]) {
      Command wait;
      wait.kind = Command::Kind::kEventWait;
      wait.event = g.events[w];
      wait.event_generation = g.generations[w];
      lane.submit(std::move(wait));
    }
    if (patched && next_patch < patched->size() && (*patched)[next_patch].first == i) {
      submit_node(g, i, Command((*patched)[next_patch++].second));
    } else {
      submit_node(g, i, Command(g.nodes[i].cmd));
    }
    if (g.events[i]) {
      Command rec;
      rec.kind = Command::Kind::kEventRecord;
      rec.event = g.events[i];
      lane.submit(std::move(rec));
      g.generations[i] = g.events[i]->recorded_generation();
    }
  }
  Status first;
  for (auto& lane : g.lanes) {
    if (!lane) continue;
    Status st = lane->synchronize();
    if (first.is_ok() && !st.is_ok()) first = st;
  }
  first.throw_if_error();
}

}  // namespace

std::shared_ptr<GraphState> instantiate_graph(Device device, std::vector<GraphNode> nodes, uint32_t num_lanes,
                                              GraphPoolHandle pool, std::vector<CaptureAllocation> allocations) {
  for (size_t i = 0; i < nodes.size(); ++i) validate_node(nodes[i], i);
  auto g = std::make_shared<GraphState>();
  DeviceContextImpl& ctx = device_context_impl(device);
  g->device = device;
  g->backend = &ctx.backend();
  g->backend_index = ctx.backend_index();
  g->nodes = std::move(nodes);
  g->num_lanes = std::max<uint32_t>(num_lanes, 1);
  g->pool = std::move(pool);
  g->allocations = std::move(allocations);
  g->id = g_next_graph_id.fetch_add(1, std::memory_order_relaxed);
  build_plan(*g);
  // Lanes nobody recorded a node on need no stream.
  std::vector<char> used(g->num_lanes, 0);
  for (const GraphNode& n : g->nodes) used[n.lane] = 1;
  for (uint32_t l = 0; l < g->num_lanes; ++l) {
    std::unique_ptr<BackendStream> s;
    // Lanes have no Stream handle; the profiler gets track ids of their own, above
    // the range of Stream ids (which count from 1) so that names never collide.
    uint64_t track = kLaneTrackBase + profiler::new_stream_id();
    if (used[l]) {
      std::string name = "graph " + std::to_string(g->id) + " lane " + std::to_string(l);
      s = g->backend->create_stream(g->backend_index);
      s->set_name(name + " on " + device.str());
      profiler::name_stream(track, name);
    }
    g->lanes.push_back(std::move(s));
    g->lane_ids.push_back(track);
  }
  std::vector<const Command*> cmds;
  for (const GraphNode& n : g->nodes) cmds.push_back(&n.cmd);
  g->native = g->backend->instantiate_graph(g->backend_index, cmds);
  return g;
}

GraphState::~GraphState() {
  native.reset();  // before the nodes whose buffers it uses
  lanes.clear();   // drained already: the last replay synchronized them
  events.clear();
  nodes.clear();   // launches and keep-alive buffers go before the pool
}

// ---- Graph: replay and bindings ------------------------------------------------------

namespace {

GraphState& checked_graph(const std::shared_ptr<GraphState>& st, const char* where) {
  if (!st) throw_invalid_argument(where, "self", "null graph (use Graph::end_capture)");
  return *st;
}

void* patch_pointer(const PatchSite& site, const Tensor& t) { return static_cast<char*>(t.data()) + site.offset; }

void check_binding(const GraphState& g, const GraphBinding& b, size_t i, const char* where) {
  std::string arg = "bindings[" + std::to_string(i) + "]";
  if (b.slot >= g.slots.size())
    throw_invalid_argument(where, arg, "slot " + std::to_string(b.slot) + " does not exist (the graph has " +
                                           std::to_string(g.slots.size()) + " binding slots)");
  const Tensor& cap = g.slots[b.slot].captured;
  const Tensor& t = b.tensor;
  if (!t.defined()) throw_invalid_argument(where, arg, "undefined tensor");
  if (t.device() != g.device)
    throw_invalid_argument(where, arg, "tensor is on " + t.device().str() + ", the graph on " + g.device.str());
  if (t.dtype() != cap.dtype() || t.shape() != cap.shape())
    throw_invalid_argument(where, arg, "slot " + std::to_string(b.slot) + " was captured as " + cap.describe() +
                                           " but got " + t.describe() + " (shape and dtype must match)");
  if (t.strides() != cap.strides())
    throw_invalid_argument(where, arg, "tensor " + t.describe() + " has other strides than the captured one");
}

using Patches = std::vector<std::pair<uint32_t, Command>>;

std::shared_ptr<Patches> build_patches(const GraphState& g, Span<const GraphBinding> bindings) {
  auto out = std::make_shared<Patches>();
  auto command_for = [&](uint32_t node) -> Command& {
    for (auto& p : *out)
      if (p.first == node) return p.second;
    out->emplace_back(node, g.nodes[node].cmd);
    return out->back().second;
  };
  for (const GraphBinding& b : bindings) {
    for (const PatchSite& site : g.slots[b.slot].sites) {
      Command& c = command_for(site.node);
      if (site.field == PatchSite::Field::kArg) {
        c.launch.args[site.arg] = patch_pointer(site, b.tensor);  // the patch's own copy of the launch
      } else if (site.field == PatchSite::Field::kDst) {
        c.dst = patch_pointer(site, b.tensor);
      } else {
        c.src = patch_pointer(site, b.tensor);
      }
    }
  }
  std::sort(out->begin(), out->end(), [](auto& a, auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace

void Graph::replay(const Stream& stream) const { replay(stream, Span<const GraphBinding>()); }

void Graph::replay(const Stream& stream, Span<const GraphBinding> bindings) const {
  const char* where = "npurt.Graph.replay";
  GraphState& g = checked_graph(state_, where);
  StreamImpl* s = checked_stream(stream, where);
  if (s->device() != g.device)
    throw_invalid_argument(where, "stream", "stream is on " + s->device().str() + ", the graph on " + g.device.str());
  if (s->capture())
    throw CaptureError(std::string(where) + ": argument 'stream': stream " + std::to_string(s->id()) +
                       " is capturing; replaying a graph inside a capture is not supported "
                       "[ACL_ERROR_RT_STREAM_CAPTURE_UNSUPPORTED 107030]");
  if (bindings.empty() && g.native) {
    g.native->launch(s->backend());
    g.replays.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  Command c;
  c.kind = Command::Kind::kHostFunc;
  if (bindings.empty()) {
    c.host_fn = [st = state_] { run_graph(*st, nullptr); };
  } else {
    std::shared_ptr<Patches> patches;
    std::vector<Tensor> keep;
    {
      std::lock_guard<std::mutex> lk(g.slots_mu);
      for (size_t i = 0; i < bindings.size(); ++i) check_binding(g, bindings[i], i, where);
      patches = build_patches(g, bindings);
    }
    for (const GraphBinding& b : bindings) keep.push_back(b.tensor);
    auto holder = std::make_shared<std::vector<Tensor>>(std::move(keep));
    c.host_fn = [st = state_, patches, holder] { run_graph(*st, patches.get()); };
  }
  if (profiler::enabled()) profiler::annotate_next_submit("graph replay", graph_label(g));
  s->submit(std::move(c));
  g.replays.fetch_add(1, std::memory_order_relaxed);
}

uint32_t Graph::add_binding(const Tensor& captured) {
  const char* where = "npurt.Graph.add_binding";
  GraphState& g = checked_graph(state_, where);
  if (!captured.defined()) throw_invalid_argument(where, "captured", "undefined tensor");
  if (captured.device() != g.device)
    throw_invalid_argument(where, "captured", "tensor is on " + captured.device().str() + ", the graph on " +
                                                  g.device.str());
  uintptr_t base = reinterpret_cast<uintptr_t>(captured.data());
  uintptr_t end = base + std::max<size_t>(captured.nbytes(), 1);
  // A tensor allocated inside the capture owns its bytes only from its
  // allocation on; earlier nodes at these addresses used freed temporaries.
  uint32_t first = 0;
  for (const CaptureAllocation& a : g.allocations)
    if (base >= a.base && base < a.base + a.bytes) first = std::max(first, a.first_node);
  BindingSlot slot;
  slot.captured = captured;
  auto inside = [&](const void* p) {
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    return p && a >= base && a < end;
  };
  for (uint32_t i = first; i < g.nodes.size(); ++i) {
    const Command& c = g.nodes[i].cmd;
    auto site = [&](PatchSite::Field f, uint32_t arg, const void* p) {
      slot.sites.push_back(PatchSite{i, f, arg, reinterpret_cast<uintptr_t>(p) - base});
    };
    if (c.kind == Command::Kind::kLaunch) {
      const KernelLaunch& kl = c.launch;
      for (uint32_t a = 0; a < kl.args.size(); ++a) {
        bool scalar = a < 64 && ((kl.scalar_arg_mask >> a) & 1u);
        if (!scalar && inside(kl.args[a])) site(PatchSite::Field::kArg, a, kl.args[a]);
      }
    } else if (c.kind == Command::Kind::kCopy || c.kind == Command::Kind::kMemset) {
      if (inside(c.dst)) site(PatchSite::Field::kDst, 0, c.dst);
      if (c.kind == Command::Kind::kCopy && inside(c.src)) site(PatchSite::Field::kSrc, 0, c.src);
    }
  }
  if (slot.sites.empty())
    throw_invalid_argument(where, "captured", "no node of the graph uses tensor " + captured.describe() +
                                                  " (bind tensors the captured work reads or writes)");
  std::lock_guard<std::mutex> lk(g.slots_mu);
  g.slots.push_back(std::move(slot));
  return static_cast<uint32_t>(g.slots.size() - 1);
}

size_t Graph::num_bindings() const {
  GraphState& g = checked_graph(state_, "npurt.Graph.num_bindings");
  std::lock_guard<std::mutex> lk(g.slots_mu);
  return g.slots.size();
}

uint64_t Graph::replay_count() const {
  return checked_graph(state_, "npurt.Graph.replay_count").replays.load(std::memory_order_relaxed);
}

Device Graph::device() const { return checked_graph(state_, "npurt.Graph.device").device; }
size_t Graph::num_nodes() const { return checked_graph(state_, "npurt.Graph.num_nodes").nodes.size(); }
GraphPoolHandle Graph::pool() const { return checked_graph(state_, "npurt.Graph.pool").pool; }

}  // namespace npurt
