// runtime/exec/profiler.cc: profiler session state, per-thread buffers and the hooks.
//
// Correlation ids carry their session in the high bits (session << 40 | seq), so
// work enqueued in one session and executed after it stopped is never counted
// in a later session. The in-flight counter (submits minus executions of the
// current session) lets stop() wait until profiled work has finished.
#include "exec/profiler.h"

#include <chrono>
#include <thread>
#include <unordered_map>

#include "exec/profiler_records.h"
#include "npurt/status.h"

namespace npurt::profiler {

namespace detail {
std::atomic<bool> g_enabled{false};
std::atomic<bool> g_record_blocks{true};
std::atomic<bool> g_record_memory{true};
}  // namespace detail

namespace {

constexpr int kSessionShift = 40;

struct Global {
  std::mutex mu;  // guards buffers, stream_names, running, options, start time
  std::vector<std::shared_ptr<detail::ThreadBuffer>> buffers;
  std::unordered_map<uint64_t, std::string> stream_names;
  uint32_t next_thread_id = 1;
  bool running = false;
  Options options;
  int64_t start_ns = 0;
  std::atomic<uint32_t> session{0};
  std::atomic<uint64_t> next_seq{1};
  std::atomic<int64_t> in_flight{0};
  std::atomic<uint64_t> next_stream{1};
};

Global& global() {
  static Global* g = new Global();  // never destroyed: hooks may run during exit
  return *g;
}

thread_local std::shared_ptr<detail::ThreadBuffer> t_buffer;
thread_local std::shared_ptr<const OpAnnotation> t_pending_annotation;
thread_local std::shared_ptr<const OpAnnotation> t_pending_label;  // host functions
thread_local uint64_t t_exec_id = 0;

detail::ThreadBuffer* this_thread_buffer() {
  if (!t_buffer) {
    auto buf = std::make_shared<detail::ThreadBuffer>();
    Global& g = global();
    std::lock_guard<std::mutex> lk(g.mu);
    buf->thread_id = g.next_thread_id++;
    g.buffers.push_back(buf);
    t_buffer = std::move(buf);
  }
  return t_buffer.get();
}

uint32_t session_of(uint64_t id) { return static_cast<uint32_t>(id >> kSessionShift); }

bool id_in_current_session(uint64_t id) {
  return id != 0 && session_of(id) == global().session.load(std::memory_order_relaxed);
}

}  // namespace

namespace detail {

LockedBuffer::LockedBuffer() : buf_(this_thread_buffer()), lock_(buf_->mu) {
  uint32_t s = global().session.load(std::memory_order_relaxed);
  if (buf_->session != s) buf_->clear_for(s);
}

Collected collect_session(uint32_t session) {
  Global& g = global();
  Collected out;
  std::lock_guard<std::mutex> lk(g.mu);
  for (auto& buf : g.buffers) {
    std::lock_guard<std::mutex> blk(buf->mu);
    if (buf->session != session) continue;
    auto copy = std::make_unique<ThreadBuffer>();
    copy->thread_id = buf->thread_id;
    copy->session = session;
    copy->submits.swap(buf->submits);
    copy->execs.swap(buf->execs);
    copy->blocks.swap(buf->blocks);
    copy->memory.swap(buf->memory);
    copy->spans.swap(buf->spans);
    out.threads.push_back(std::move(copy));
  }
  // Buffers of threads that have exited (only the registry holds them) are done.
  std::vector<std::shared_ptr<ThreadBuffer>> live;
  for (auto& buf : g.buffers)
    if (buf.use_count() > 1) live.push_back(std::move(buf));
  g.buffers.swap(live);
  return out;
}

std::string stream_name(uint64_t stream_id) {
  Global& g = global();
  std::lock_guard<std::mutex> lk(g.mu);
  auto it = g.stream_names.find(stream_id);
  if (it != g.stream_names.end()) return it->second;
  return "stream " + std::to_string(stream_id);
}

}  // namespace detail

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

uint64_t new_stream_id() { return global().next_stream.fetch_add(1, std::memory_order_relaxed); }

void name_stream(uint64_t stream_id, const std::string& name) {
  Global& g = global();
  std::lock_guard<std::mutex> lk(g.mu);
  g.stream_names[stream_id] = name;
}

void annotate_next_launch(OpAnnotation annotation) {
  if (!annotations_wanted()) return;
  t_pending_annotation = std::make_shared<const OpAnnotation>(std::move(annotation));
}

std::shared_ptr<const OpAnnotation> take_launch_annotation() { return std::move(t_pending_annotation); }

void annotate_next_submit(std::string label, std::string detail) {
  if (!enabled()) return;
  OpAnnotation a;
  a.op = std::move(label);
  a.tiling = std::move(detail);
  t_pending_label = std::make_shared<const OpAnnotation>(std::move(a));
}

uint64_t on_submit(const Command& cmd, uint64_t stream_id, Device device, std::shared_ptr<const OpAnnotation> op) {
  if (!enabled()) return 0;
  Global& g = global();
  uint32_t session = g.session.load(std::memory_order_relaxed);
  uint64_t id = (uint64_t(session) << kSessionShift) |
                g.next_seq.fetch_add(1, std::memory_order_relaxed);
  detail::SubmitRecord r;
  r.id = id;
  r.stream = stream_id;
  r.t = now_ns();
  r.device = device;
  r.kind = cmd.kind;
  r.copy_kind = cmd.copy_kind;
  r.bytes = cmd.bytes;
  if (cmd.kind == Command::Kind::kLaunch) {
    r.kernel = cmd.launch.kernel_name ? cmd.launch.kernel_name : "";
    r.num_blocks = cmd.launch.num_blocks;
    r.op = op ? std::move(op) : std::move(t_pending_annotation);
    t_pending_annotation.reset();
  } else if (cmd.kind == Command::Kind::kHostFunc) {
    r.op = std::move(t_pending_label);
    t_pending_label.reset();
  }
  // Only the sim backend times execution (ExecScope in its stream worker) so far;
  // waiting at stop() for work no backend will report would only stall.
  if (device.type == DeviceType::kSim) g.in_flight.fetch_add(1, std::memory_order_relaxed);
  detail::LockedBuffer buf;
  buf->submits.push_back(std::move(r));
  return id;
}

ExecScope::ExecScope(uint64_t id) : id_(id) {
  if (id_ == 0) return;
  start_ = now_ns();
  t_exec_id = id_;
}

ExecScope::~ExecScope() {
  if (id_ == 0) return;
  t_exec_id = 0;
  int64_t end = now_ns();
  if (!id_in_current_session(id_)) return;
  {
    detail::LockedBuffer buf;
    buf->execs.push_back(detail::ExecRecord{id_, start_, end, ok_});
  }
  global().in_flight.fetch_sub(1, std::memory_order_release);  // ExecScope runs on sim only
}

uint64_t current_exec_id() { return t_exec_id; }

BlockScope::BlockScope(uint64_t id, uint32_t block) : id_(id), block_(block) {
  if (id_ != 0 && blocks_enabled()) start_ = now_ns();
  else id_ = 0;
}

BlockScope::~BlockScope() {
  if (id_ == 0) return;
  int64_t end = now_ns();
  if (!id_in_current_session(id_)) return;
  detail::LockedBuffer buf;
  buf->blocks.push_back(detail::BlockRecord{id_, block_, start_, end});
}

void on_memory(const MemoryHook& event) {
  if (event.is_alloc && any_capture_active()) capture_note_allocation(event.ptr, event.bytes, event.stream_id, event.pool);
  if (!enabled() || !detail::g_record_memory.load(std::memory_order_relaxed)) return;
  int64_t t = now_ns();
  detail::LockedBuffer buf;
  buf->memory.push_back(detail::MemoryRecord{event, t});
}

void record_span(std::string name, const char* category, std::string detail, Device device,
                 int64_t start_ns, int64_t end_ns) {
  if (!enabled()) return;
  detail::LockedBuffer buf;
  buf->spans.push_back(detail::SpanRecord{std::move(name), category, std::move(detail), device,
                                          start_ns, end_ns});
}

SpanScope::SpanScope(const char* name, const char* category, std::string detail, Device device)
    : name_(name), category_(category), detail_(std::move(detail)), device_(device),
      active_(enabled()) {
  if (active_) start_ = now_ns();
}

SpanScope::~SpanScope() {
  if (active_) record_span(name_, category_, std::move(detail_), device_, start_, now_ns());
}

int64_t clock_ns() { return now_ns(); }

void add_range(const std::string& name, int64_t start_ns, int64_t end_ns) {
  record_span(name, "range", "", Device(), start_ns, end_ns);
}

Range::Range(std::string name) : name_(std::move(name)), active_(enabled()) {
  if (active_) start_ns_ = now_ns();
}

Range::~Range() {
  if (active_) record_span(std::move(name_), "range", "", Device(), start_ns_, now_ns());
}

void start(const Options& options) {
  Global& g = global();
  std::lock_guard<std::mutex> lk(g.mu);
  if (g.running)
    throw_error(StatusCode::kFailedPrecondition,
                "npurt.profiler.start: a profiling session is already running (stop it first)");
  if (options.drain_timeout_ms < 0)
    throw_invalid_argument("npurt.profiler.start", "options.drain_timeout_ms", "must be >= 0");
  g.options = options;
  g.running = true;
  g.in_flight.store(0);
  g.session.fetch_add(1);
  g.start_ns = now_ns();
  detail::g_record_blocks.store(options.record_blocks, std::memory_order_relaxed);
  detail::g_record_memory.store(options.record_memory, std::memory_order_relaxed);
  detail::g_enabled.store(true, std::memory_order_release);
}

Profile stop() {
  Global& g = global();
  Options options;
  int64_t start_ns;
  {
    std::lock_guard<std::mutex> lk(g.mu);
    if (!g.running)
      throw_error(StatusCode::kFailedPrecondition,
                  "npurt.profiler.stop: no profiling session is running (call start first)");
    detail::g_enabled.store(false, std::memory_order_release);
    options = g.options;
    start_ns = g.start_ns;
  }
  // New work is no longer tagged; wait for tagged work still queued on streams.
  int64_t deadline = now_ns() + options.drain_timeout_ms * 1000000;
  while (g.in_flight.load(std::memory_order_acquire) > 0 && now_ns() < deadline)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  int64_t stop_ns = now_ns();
  uint32_t session = g.session.load();
  Profile p = detail::merge(detail::collect_session(session), start_ns, stop_ns);
  std::lock_guard<std::mutex> lk(g.mu);
  g.running = false;
  return p;
}

bool is_running() {
  Global& g = global();
  std::lock_guard<std::mutex> lk(g.mu);
  return g.running;
}

}  // namespace npurt::profiler
