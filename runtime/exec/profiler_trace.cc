// runtime/exec/profiler_trace.cc: Chrome trace event JSON export of a Profile.
//
// Layout (Perfetto / chrome://tracing, "JSON Object Format"):
//   pid 0 "host"             one track per host thread: enqueue marks, graph
//                            replays and user ranges ("X" events)
//   pid 1 + device ordinal   "sim:0" ...: one track per stream (tid = stream id)
//                            with the executed work ("X"), one track per
//                            simulated core (tid = kCoreTidBase + block index)
//                            with the blocks of each launch, and a counter
//                            "pool memory" (allocated / reserved bytes)
//   flows                    "s" at the enqueue mark -> "f" (bp "e") at the start
//                            of the execution slice, id = correlation id
// Timestamps are microseconds since the session started. Every event has
// name, ph, ts, pid, tid; "X" has dur; "C" has args; flows have id and cat.
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "npurt/profiler.h"
#include "npurt/status.h"

namespace npurt::profiler {

namespace {

constexpr int64_t kCoreTidBase = 1000000;
constexpr double kMarkUs = 0.001;  // enqueue marks: the flow source needs a slice to bind to

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

int device_pid(const Device& d) { return 1 + int(d.type) * 1000 + d.index; }

class TraceWriter {
 public:
  explicit TraceWriter(int64_t origin_ns) : origin_(origin_ns) { os_ << "{\"traceEvents\":[\n"; }

  double us(int64_t t_ns) const { return double(t_ns - origin_) / 1e3; }

  // Opens one event object with the keys every event has; the caller adds the rest.
  std::ostringstream& begin(const std::string& name, const char* ph, double ts, int pid,
                            int64_t tid, const char* cat) {
    os_ << (first_ ? "" : ",\n") << "{\"name\":" << quote(name) << ",\"ph\":\"" << ph
        << "\",\"ts\":" << num(ts) << ",\"pid\":" << pid << ",\"tid\":" << tid
        << ",\"cat\":\"" << cat << "\"";
    first_ = false;
    return os_;
  }
  void metadata(const char* what, int pid, int64_t tid, const std::string& value) {
    os_ << (first_ ? "" : ",\n") << "{\"name\":\"" << what << "\",\"ph\":\"M\",\"pid\":" << pid
        << ",\"tid\":" << tid << ",\"args\":{\"name\":" << quote(value) << "}}";
    first_ = false;
  }
  std::string finish() {
    os_ << "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"npurt profiler\"}}\n";
    return os_.str();
  }

 private:
  std::ostringstream os_;
  int64_t origin_;
  bool first_ = true;
};

void write_activity(TraceWriter& w, const Activity& a) {
  int pid = device_pid(a.device);
  double enq = w.us(a.enqueue_ns);
  std::string id = std::to_string(a.id);
  w.begin("enqueue " + a.name, "X", enq, 0, a.host_thread, "enqueue")
      << ",\"dur\":" << num(kMarkUs) << ",\"args\":{\"id\":" << quote(id) << "}}";
  if (!a.executed) return;
  double start = w.us(a.start_ns), dur = double(a.end_ns - a.start_ns) / 1e3;
  auto& ev = w.begin(a.name, "X", start, pid, int64_t(a.stream), activity_kind_name(a.kind));
  ev << ",\"dur\":" << num(dur) << ",\"args\":{\"id\":" << quote(id)
     << ",\"stream\":" << quote(a.stream_name) << ",\"ok\":" << (a.ok ? "true" : "false");
  if (a.kind == ActivityKind::kKernel)
    ev << ",\"kernel\":" << quote(a.kernel) << ",\"num_blocks\":" << a.num_blocks
       << ",\"shapes\":" << quote(a.shapes) << ",\"dtypes\":" << quote(a.dtypes)
       << ",\"tiling\":" << quote(a.tiling);
  if (a.bytes) ev << ",\"bytes\":" << a.bytes;
  if (a.flops > 0) ev << ",\"flops\":" << num(a.flops);
  ev << "}}";
  w.begin("enqueue", "s", enq, 0, a.host_thread, "flow") << ",\"id\":" << quote(id) << "}";
  w.begin("enqueue", "f", start, pid, int64_t(a.stream), "flow")
      << ",\"id\":" << quote(id) << ",\"bp\":\"e\"}";
  for (const BlockSpan& b : a.blocks)
    w.begin(a.name, "X", w.us(b.start_ns), pid, kCoreTidBase + b.block, "block")
        << ",\"dur\":" << num(double(b.end_ns - b.start_ns) / 1e3) << ",\"args\":{\"id\":"
        << quote(id) << ",\"block\":" << b.block << ",\"thread\":" << b.thread << "}}";
}

void write_tracks(TraceWriter& w, const Profile& p) {
  w.metadata("process_name", 0, 0, "host");
  for (const ThreadInfo& t : p.threads) w.metadata("thread_name", 0, t.id, t.name);
  std::set<std::pair<int, std::string>> processes;
  std::set<std::pair<int, int64_t>> streams, cores;
  for (const Activity& a : p.activities) {
    int pid = device_pid(a.device);
    processes.insert({pid, a.device.str()});
    if (a.executed && streams.insert({pid, int64_t(a.stream)}).second)
      w.metadata("thread_name", pid, int64_t(a.stream), a.stream_name);
    for (const BlockSpan& b : a.blocks)
      if (cores.insert({pid, b.block}).second)
        w.metadata("thread_name", pid, kCoreTidBase + b.block, "core " + std::to_string(b.block));
  }
  for (const MemoryEvent& m : p.memory) processes.insert({device_pid(m.device), m.device.str()});
  for (const auto& pr : processes) w.metadata("process_name", pr.first, 0, pr.second);
}

}  // namespace

std::string Profile::chrome_trace_json() const {
  TraceWriter w(start_ns);
  write_tracks(w, *this);
  for (const Activity& a : activities) write_activity(w, a);
  for (const HostSpan& s : spans)
    w.begin(s.name, "X", w.us(s.start_ns), 0, s.host_thread, s.category.c_str())
        << ",\"dur\":" << num(double(s.end_ns - s.start_ns) / 1e3)
        << ",\"args\":{\"detail\":" << quote(s.detail) << "}}";
  for (const MemoryEvent& m : memory) {
    int pid = device_pid(m.device);
    w.begin("pool memory", "C", w.us(m.t_ns), pid, 0, "memory")
        << ",\"args\":{\"allocated\":" << m.allocated_after << ",\"reserved\":" << m.reserved_after
        << "}}";
    w.begin(m.is_alloc ? "alloc" : "free", "i", w.us(m.t_ns), 0, m.host_thread, "memory")
        << ",\"s\":\"t\",\"args\":{\"bytes\":" << m.bytes << ",\"pool\":" << quote(m.pool)
        << ",\"stream\":" << m.stream << ",\"device\":" << quote(m.device.str()) << "}}";
  }
  return w.finish();
}

void Profile::export_chrome_trace(const std::string& path) const {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f)
    throw_error(StatusCode::kNotFound, "npurt.profiler.export_chrome_trace: argument 'path': cannot "
                                       "open '" + path + "' for writing");
  f << chrome_trace_json();
  f.close();
  if (!f)
    throw_error(StatusCode::kNotFound, "npurt.profiler.export_chrome_trace: argument 'path': "
                                       "writing '" + path + "' failed");
}

}  // namespace npurt::profiler
