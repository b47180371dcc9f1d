// runtime/exec/graph_capture.cc: capture sessions (begin / record / join / end)
// and the capture-rule checks of graph_capture.h.
//
// A CaptureSession is the CaptureSink of every stream in one capture. Each
// member stream has a frontier: the nodes its next node depends on. A node takes
// the frontier as its dependencies and becomes the new frontier; an event record
// remembers the frontier; an event wait merges the remembered frontier in. The
// process-wide session list (g_mu) serves joins and the mode checks; a
// session's own mutex guards its nodes (streams of one capture may be used from
// several threads).
#include <algorithm>
#include <mutex>
#include <string_view>
#include <thread>

#include "exec/deferred_flush.h"
#include "exec/graph_capture.h"
#include "exec/graph_internal.h"
#include "exec/profiler.h"
#include "exec/stream_impl.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt {

namespace capture_detail {
std::atomic<int> g_active_captures{0};
}  // namespace capture_detail

namespace {

thread_local CaptureMode t_mode = CaptureMode::kGlobal;

// The capture clock: every recorded node takes the next value; graph-pool
// allocations note the current one (capture_note_allocation). A leaf mutex
// guards the noted allocations because the pool calls in under its own lock.
std::atomic<uint64_t> g_node_seq{1};
struct NotedAllocation {
  const void* ptr;
  uint64_t bytes;
  uint64_t stream_id;
  uint64_t seq;
};
std::mutex g_alloc_mu;
std::vector<NotedAllocation> g_allocs;  // guarded by g_alloc_mu

// Removes the noted allocations of `stream_ids`; returns them.
std::vector<NotedAllocation> take_allocations(const std::vector<uint64_t>& stream_ids) {
  std::lock_guard<std::mutex> lk(g_alloc_mu);
  std::vector<NotedAllocation> mine, rest;
  for (const NotedAllocation& a : g_allocs)
    (std::find(stream_ids.begin(), stream_ids.end(), a.stream_id) != stream_ids.end() ? mine : rest).push_back(a);
  g_allocs.swap(rest);
  return mine;
}

[[noreturn]] void capture_error(const std::string& where, const std::string& reason, int cann_code,
                                const char* cann_name) {
  throw CaptureError(where + ": " + reason + " [" + cann_name + " " + std::to_string(cann_code) + "]");
}

std::string stream_name(const StreamImpl* s) { return "stream " + std::to_string(s->id()); }

class CaptureSession final : public CaptureSink {
 public:
  struct Member {
    Stream stream;
    uint32_t lane = 0;
    std::vector<uint32_t> frontier;
  };

  CaptureSession(const Stream& origin, CaptureMode mode, GraphPoolHandle pool)
      : mode(mode), thread(std::this_thread::get_id()), pool(std::move(pool)) {
    members.push_back(Member{origin, 0, {}});
  }

  void record(StreamImpl& s, Command&& cmd) override {
    std::lock_guard<std::mutex> lk(mu);
    Member& m = *member(&s);
    switch (cmd.kind) {
      case Command::Kind::kEventRecord:
        remember_event(cmd.event, m.frontier);
        return;
      case Command::Kind::kEventWait:
        merge_event(m, cmd.event, "npurt.Stream.wait_event");
        return;
      default:
        break;
    }
    GraphNode node;
    node.lane = m.lane;
    node.stream_id = s.id();
    node.deps = m.frontier;
    node.cmd = std::move(cmd);
    node.cmd.profile_id = 0;
    node.seq = g_node_seq.fetch_add(1, std::memory_order_relaxed);
    if (node.cmd.kind == Command::Kind::kLaunch) node.op = profiler::take_launch_annotation();
    m.frontier.assign(1, static_cast<uint32_t>(nodes.size()));
    nodes.push_back(std::move(node));
  }

  Member* member(const StreamImpl* s) {
    for (Member& m : members)
      if (m.stream.impl() == s) return &m;
    return nullptr;
  }
  const std::vector<uint32_t>* event_deps(const BackendEvent* e) const {
    for (const auto& ev : events)
      if (ev.first.get() == e) return &ev.second;
    return nullptr;
  }
  void remember_event(const std::shared_ptr<BackendEvent>& e, const std::vector<uint32_t>& deps) {
    for (auto& ev : events)
      if (ev.first == e) {
        ev.second = deps;
        return;
      }
    events.emplace_back(e, deps);
  }
  // Stream m waits on e: e must have been recorded inside this capture (or never).
  void merge_event(Member& m, const std::shared_ptr<BackendEvent>& e, const char* where) {
    const std::vector<uint32_t>* deps = event_deps(e.get());
    if (!deps) {
      if (e->recorded_generation() == 0) return;  // never recorded: nothing to wait for
      capture_error(where, "argument 'event': " + stream_name(m.stream.impl()) +
                               " is capturing and the event was recorded outside the capture (an external "
                               "dependency); record it inside the capture or wait before begin_capture",
                    107024, "ACL_ERROR_RT_STREAM_CAPTURE_DEPENDENCY");
    }
    for (uint32_t d : *deps)
      if (std::find(m.frontier.begin(), m.frontier.end(), d) == m.frontier.end()) m.frontier.push_back(d);
  }

  std::mutex mu;
  const CaptureMode mode;
  const std::thread::id thread;
  GraphPoolHandle pool;
  std::vector<Member> members;  // [0]: the origin stream
  std::vector<GraphNode> nodes;
  std::vector<std::pair<std::shared_ptr<BackendEvent>, std::vector<uint32_t>>> events;
};

std::mutex g_mu;
std::vector<std::shared_ptr<CaptureSession>> g_sessions;  // guarded by g_mu

CaptureSession* session_of(const StreamImpl* s) {
  CaptureSink* sink = s->capture();
  for (auto& p : g_sessions)
    if (p.get() == sink) return p.get();
  return nullptr;
}

// Under g_mu: whether this thread may make unsafe calls (sync, query, blocking copies).
const CaptureSession* prohibiting_session() {
  if (t_mode == CaptureMode::kRelaxed) return nullptr;
  std::thread::id me = std::this_thread::get_id();
  for (auto& p : g_sessions) {
    if (p->thread == me && p->mode != CaptureMode::kRelaxed) return p.get();
    if (t_mode == CaptureMode::kGlobal && p->mode == CaptureMode::kGlobal) return p.get();
  }
  return nullptr;
}

void check_thread_allowed(const char* where) {
  const CaptureSession* p = prohibiting_session();
  if (!p) return;
  bool mine = p->thread == std::this_thread::get_id();
  capture_error(where, std::string("illegal while ") + stream_name(p->members[0].stream.impl()) + " is capturing in " +
                           capture_mode_name(p->mode) + " mode" + (mine ? " in this thread" : " in another thread") +
                           " (synchronizing, querying and blocking copies are rejected; if this call is safe, use "
                           "exchange_thread_capture_mode(relaxed) in this thread)",
                107041, "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC");
}

std::vector<uint64_t> member_ids(const CaptureSession& s) {
  std::vector<uint64_t> ids;
  for (const auto& m : s.members) ids.push_back(m.stream.impl()->id());
  return ids;
}

// The graph-pool allocations of the capture, as node indexes (nodes are in
// clock order, so the first node after an allocation is a binary search).
std::vector<CaptureAllocation> capture_allocations(const CaptureSession& s) {
  std::vector<CaptureAllocation> out;
  for (const NotedAllocation& a : take_allocations(member_ids(s))) {
    auto it = std::lower_bound(s.nodes.begin(), s.nodes.end(), a.seq,
                               [](const GraphNode& n, uint64_t seq) { return n.seq < seq; });
    out.push_back(CaptureAllocation{reinterpret_cast<uintptr_t>(a.ptr), a.bytes,
                                    static_cast<uint32_t>(it - s.nodes.begin())});
  }
  return out;
}

// Detaches every stream of `s` and stops their graph-pool allocation. Under g_mu.
void detach_session(CaptureSession& s) {
  (void)take_allocations(member_ids(s));  // an aborted capture's are of no use
  MemoryPool& pool = device_context(s.pool.device()).pool();
  for (auto& m : s.members) {
    m.stream.impl()->set_capture(nullptr);
    Status ignored = capture_status([&] { pool.end_allocate_to_graph_pool(s.pool.id(), m.stream); });
    (void)ignored;
  }
  auto it = std::find_if(g_sessions.begin(), g_sessions.end(), [&](auto& p) { return p.get() == &s; });
  if (it != g_sessions.end()) {
    g_sessions.erase(it);
    capture_detail::g_active_captures.fetch_sub(1, std::memory_order_relaxed);
  }
}

// Side streams whose last work the origin's frontier does not depend on.
std::string unjoined_streams(const CaptureSession& s) {
  std::vector<char> reach(s.nodes.size(), 0);
  std::vector<uint32_t> todo = s.members[0].frontier;
  while (!todo.empty()) {
    uint32_t n = todo.back();
    todo.pop_back();
    if (reach[n]) continue;
    reach[n] = 1;
    for (uint32_t d : s.nodes[n].deps) todo.push_back(d);
  }
  std::string out;
  for (size_t i = 1; i < s.members.size(); ++i)
    for (uint32_t n : s.members[i].frontier)
      if (!reach[n]) {
        out += (out.empty() ? "" : ", ") + stream_name(s.members[i].stream.impl());
        break;
      }
  return out;
}

}  // namespace

const char* capture_mode_name(CaptureMode m) {
  switch (m) {
    case CaptureMode::kGlobal: return "global";
    case CaptureMode::kThreadLocal: return "thread_local";
    case CaptureMode::kRelaxed: return "relaxed";
  }
  return "unknown";
}

CaptureMode exchange_thread_capture_mode(CaptureMode mode) {
  CaptureMode old = t_mode;
  t_mode = mode;
  return old;
}

void Graph::begin_capture(const Stream& stream, CaptureMode mode, const GraphPoolHandle& pool) {
  detail::flush_deferred_work();  // a deferred array launch goes first (exec/deferred_flush.h)
  const char* where = "npurt.Graph.begin_capture";
  StreamImpl* s = checked_stream(stream, where);
  if (s->is_default())
    capture_error(where, "argument 'stream': the default stream of " + s->device().str() +
                             " cannot be captured (use a stream made with Stream::create)",
                  107031, "ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT");
  if (pool.valid() && pool.device() != s->device())
    throw_invalid_argument(where, "pool", "graph pool is on " + pool.device().str() + " but the stream is on " +
                                              s->device().str());
  std::lock_guard<std::mutex> lk(g_mu);
  if (s->capture())
    capture_error(where, "argument 'stream': " + stream_name(s) + " is already capturing", 107027,
                  "ACL_ERROR_RT_STREAM_CAPTURED");
  GraphPoolHandle p = pool.valid() ? pool : GraphPoolHandle::create(s->device());
  device_context(s->device()).pool().begin_allocate_to_graph_pool(p.id(), stream);
  auto session = std::make_shared<CaptureSession>(stream, mode, std::move(p));
  g_sessions.push_back(session);
  capture_detail::g_active_captures.fetch_add(1, std::memory_order_relaxed);
  s->set_capture(session.get());
}

Graph Graph::end_capture(const Stream& stream) {
  const char* where = "npurt.Graph.end_capture";
  StreamImpl* s = checked_stream(stream, where);
  std::shared_ptr<CaptureSession> keep;
  std::vector<CaptureAllocation> allocations;
  {
    std::lock_guard<std::mutex> lk(g_mu);
    CaptureSession* session = session_of(s);
    if (!session)
      capture_error(where, "argument 'stream': " + stream_name(s) + " is not capturing", 107029,
                    "ACL_ERROR_RT_STREAM_NOT_CAPTURED");
    if (session->members[0].stream.impl() != s)
      capture_error(where, "argument 'stream': " + stream_name(s) + " joined the capture begun on " +
                               stream_name(session->members[0].stream.impl()) + "; end it on that stream",
                    107036, "ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED");
    if (session->mode != CaptureMode::kRelaxed && session->thread != std::this_thread::get_id())
      capture_error(where, std::string("the capture was begun in another thread in ") +
                               capture_mode_name(session->mode) + " mode; end it in that thread (or capture in relaxed mode)",
                    107038, "ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD");
    for (auto& p : g_sessions)
      if (p.get() == session) keep = p;
    std::lock_guard<std::mutex> slk(session->mu);
    std::string unjoined = unjoined_streams(*session);
    allocations = capture_allocations(*session);
    detach_session(*session);
    if (!unjoined.empty())
      capture_error(where, unjoined + " did not join back into " + stream_name(s) +
                               " before the end (record an event on it after its last work and wait on it from " +
                               stream_name(s) + "); the capture was discarded",
                    107025, "ACL_ERROR_RT_STREAM_CAPTURE_UNJOINED");
  }
  uint32_t lanes = static_cast<uint32_t>(keep->members.size());
  return Graph(instantiate_graph(s->device(), std::move(keep->nodes), lanes, keep->pool, std::move(allocations)));
}

void Graph::abort_capture(const Stream& stream) {
  StreamImpl* s = checked_stream(stream, "npurt.Graph.abort_capture");
  std::lock_guard<std::mutex> lk(g_mu);
  CaptureSession* session = session_of(s);
  if (!session) return;
  std::shared_ptr<CaptureSession> keep;
  for (auto& p : g_sessions)
    if (p.get() == session) keep = p;
  std::lock_guard<std::mutex> slk(session->mu);
  detach_session(*session);
}

bool Graph::is_capturing(const Stream& stream) {
  StreamImpl* s = checked_stream(stream, "npurt.Graph.is_capturing");
  return s->capture() != nullptr;
}

// ---- GraphPoolHandle ------------------------------------------------------------

GraphPoolHandle GraphPoolHandle::create(Device device) {
  auto st = std::make_shared<State>();
  st->device = device;
  st->id = device_context(device).pool().create_graph_pool();
  return GraphPoolHandle(std::move(st));
}

GraphPoolHandle::State::~State() {
  Status ignored = capture_status([&] { device_context(device).pool().release_graph_pool(id); });
  (void)ignored;
}

GraphPoolId GraphPoolHandle::id() const { return state_ ? state_->id : 0; }
Device GraphPoolHandle::device() const { return state_ ? state_->device : Device(); }

// ---- checks (graph_capture.h) ------------------------------------------------------

void capture_note_allocation(const void* ptr, uint64_t bytes, uint64_t stream_id, const char* pool) {
  if (std::string_view(pool) != "graph_pool") return;  // captures allocate only from graph pools
  uint64_t seq = g_node_seq.load(std::memory_order_relaxed);
  std::lock_guard<std::mutex> lk(g_alloc_mu);
  g_allocs.push_back(NotedAllocation{ptr, bytes, stream_id, seq});
}

namespace capture_detail {

void check_sync_slow(const char* where, const StreamImpl* stream) {
  std::lock_guard<std::mutex> lk(g_mu);
  if (stream && stream->capture())
    capture_error(where, "argument 'stream': " + stream_name(stream) +
                             " is capturing: it cannot be synchronized or queried (its work is recorded, not run); "
                             "end the capture first",
                  107027, "ACL_ERROR_RT_STREAM_CAPTURED");
  check_thread_allowed(where);
}

void check_event_sync_slow(const char* where, const BackendEvent* event) {
  std::lock_guard<std::mutex> lk(g_mu);
  for (auto& p : g_sessions) {
    std::lock_guard<std::mutex> slk(p->mu);
    if (p->event_deps(event))
      capture_error(where, "argument 'event': the event was recorded inside the capture on " +
                               stream_name(p->members[0].stream.impl()) + " and has no completion to wait for",
                    107027, "ACL_ERROR_RT_STREAM_CAPTURED");
  }
  check_thread_allowed(where);
}

void check_device_sync_slow(const char* where, const Device& device) {
  std::lock_guard<std::mutex> lk(g_mu);
  for (auto& p : g_sessions)
    if (p->pool.device() == device)
      capture_error(where, "argument 'device': " + stream_name(p->members[0].stream.impl()) + " on " + device.str() +
                               " is capturing: the device cannot be synchronized",
                    107027, "ACL_ERROR_RT_STREAM_CAPTURED");
  check_thread_allowed(where);
}

bool on_wait_event_slow(const Stream& stream, const std::shared_ptr<BackendEvent>& event) {
  StreamImpl* s = stream.impl();
  std::lock_guard<std::mutex> lk(g_mu);
  if (CaptureSession* own = session_of(s)) {
    std::lock_guard<std::mutex> slk(own->mu);
    own->merge_event(*own->member(s), event, "npurt.Stream.wait_event");
    return true;
  }
  for (auto& p : g_sessions) {
    std::lock_guard<std::mutex> slk(p->mu);
    const std::vector<uint32_t>* deps = p->event_deps(event.get());
    if (!deps) continue;
    if (p->pool.device() != s->device())
      throw_invalid_argument("npurt.Stream.wait_event", "stream",
                             "cannot join a capture on " + p->pool.device().str() + " from " + s->device().str());
    if (s->is_default())
      capture_error("npurt.Stream.wait_event", "argument 'stream': the default stream cannot join a capture", 107031,
                    "ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT");
    device_context(s->device()).pool().begin_allocate_to_graph_pool(p->pool.id(), stream);
    p->members.push_back(CaptureSession::Member{stream, static_cast<uint32_t>(p->members.size()), *deps});
    s->set_capture(p.get());
    return true;
  }
  return false;
}

}  // namespace capture_detail

}  // namespace npurt
