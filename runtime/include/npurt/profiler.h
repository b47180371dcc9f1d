// npurt/profiler.h: the process-wide profiler (C++ API behind `nr.profile()`).
//
//   npurt::profiler::start();
//   ... launches, copies, allocations on any thread and stream ...
//   npurt::profiler::Profile p = npurt::profiler::stop();
//   p.export_chrome_trace("trace.json");     // Perfetto / chrome://tracing
//   std::cout << p.table(npurt::profiler::SortKey::kDeviceTime);
//
// What is recorded, per device: every command submitted to a backend stream
// (kernel launches with op name, kernel, numBlocks, shapes/dtypes/tiling when
// the dispatcher annotates them; copies and memsets with bytes; host functions;
// event record/wait) with its enqueue time on the host and its start/end on the
// device, the per-block spread of sim launches, pool allocations and frees
// (size, pool, stream, allocated/reserved bytes after), and graph replays.
//
// Invariants:
//   - At most one session runs at a time; start() while running throws
//     FailedPrecondition. stop() without start() throws too.
//   - When no session runs the hooks cost one relaxed atomic load.
//   - Records go to per-thread buffers; stop() waits (bounded) for profiled
//     work still in flight on sim streams, then merges. (The ascend backend
//     does not time execution yet: its work shows enqueue times only.) Work that has not run by
//     then is reported with executed == false and counted in Profile::incomplete.
//   - Timestamps are steady-clock nanoseconds (the clock of BackendEvent).
//   - A Profile is plain data: copyable, independent of the runtime.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npurt/backend.h"
#include "npurt/device.h"

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt::profiler {

enum class ActivityKind : uint8_t { kKernel, kCopy, kMemset, kHostFunc, kEventRecord, kEventWait };
const char* activity_kind_name(ActivityKind k);  // "kernel", "copy", "memset", ...

// One simulated core's share of a sim launch.
struct BlockSpan {
  uint32_t block = 0;    // block index = simulated core id within the launch
  uint32_t thread = 0;   // profiler id of the host thread that ran it
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// One unit of stream work, from enqueue on the host to its end on the device.
struct Activity {
  ActivityKind kind = ActivityKind::kKernel;
  uint64_t id = 0;               // correlation id (enqueue <-> execution), unique per session
  Device device;
  uint64_t stream = 0;           // stream track id (see stream_name)
  std::string stream_name;
  std::string name;              // op name if annotated, else kernel name / "copy H2D" / ...
  std::string kernel;            // kernel name (launches)
  std::string shapes, dtypes, tiling;  // dispatcher annotation (may be empty)
  uint32_t num_blocks = 0;
  uint64_t bytes = 0;            // copy / memset bytes
  double flops = 0;              // declared by the OpDef (0: unknown)
  double mem_bytes = 0;          // bytes moved as declared by the OpDef (0: unknown)
  int64_t enqueue_ns = 0;
  int64_t start_ns = 0, end_ns = 0;  // on the device; 0 when not executed
  uint32_t host_thread = 0;      // profiler thread id of the enqueuing thread
  uint32_t exec_thread = 0;      // profiler thread id of the stream worker
  bool executed = false;
  bool ok = true;                // false when the work recorded a failure
  std::vector<BlockSpan> blocks; // sim launches with block recording
  int64_t device_ns() const { return executed ? end_ns - start_ns : 0; }
};

struct MemoryEvent {
  int64_t t_ns = 0;
  Device device;
  bool is_alloc = true;          // false: free
  uint64_t ptr = 0;
  uint64_t bytes = 0;            // block size handed out / returned
  std::string pool;              // "small_pool", "large_pool", "graph_pool" ...
  uint64_t stream = 0;           // the allocation's stream id (0: unknown)
  int64_t allocated_after = 0;   // pool allocated bytes after this event
  int64_t reserved_after = 0;    // pool reserved bytes after this event
  uint32_t host_thread = 0;
};

// A host-side interval (graph replay, user ranges).
struct HostSpan {
  std::string name;
  std::string category;          // "graph", "range"
  std::string detail;
  Device device;
  int64_t start_ns = 0, end_ns = 0;
  uint32_t host_thread = 0;
};

struct ThreadInfo {
  uint32_t id = 0;
  std::string name;              // "host thread 1", "stream worker", ...
};

// Aggregate of all activities sharing a name (msprof's op summary row).
struct OpStats {
  std::string name;
  ActivityKind kind = ActivityKind::kKernel;
  int64_t calls = 0;
  int64_t total_ns = 0, min_ns = 0, max_ns = 0;
  double flops = 0, bytes = 0;   // summed over calls that declared them
  double mean_ns() const { return calls ? double(total_ns) / double(calls) : 0.0; }
  double gbps() const { return total_ns > 0 && bytes > 0 ? bytes / double(total_ns) : 0.0; }
  double gflops() const { return total_ns > 0 && flops > 0 ? flops / double(total_ns) : 0.0; }
};

enum class SortKey : uint8_t { kDeviceTime, kCalls, kMeanTime, kMaxTime, kName };
// "device_time", "calls", "mean", "max", "name"; throws InvalidArgument naming `where`.
SortKey sort_key_from_name(const std::string& name, const char* where = "npurt.profiler");

class Profile {
 public:
  std::vector<Activity> activities;   // sorted by enqueue time
  std::vector<MemoryEvent> memory;    // sorted by time
  std::vector<HostSpan> spans;
  std::vector<ThreadInfo> threads;
  int64_t start_ns = 0, stop_ns = 0;
  uint64_t incomplete = 0;            // profiled work that had not run at stop()

  // Executed activities grouped by name (sorted by `key`, largest first except kName).
  std::vector<OpStats> op_summary(SortKey key = SortKey::kDeviceTime) const;
  // The op summary as a fixed-width text table; limit 0 = all rows.
  std::string table(SortKey key = SortKey::kDeviceTime, size_t limit = 0) const;
  // Chrome trace event JSON (one track per stream and per simulated core,
  // flows from enqueue to execution, pool memory counters).
  std::string chrome_trace_json() const;
  void export_chrome_trace(const std::string& path) const;  // throws NotFound on I/O failure
};

struct Options {
  bool record_blocks = true;     // per-block spans of sim launches
  bool record_memory = true;     // pool allocations and frees
  int64_t drain_timeout_ms = 30000;  // stop(): longest wait for in-flight work
};

void start(const Options& options = Options());
Profile stop();
bool is_running();

// The profiler's clock (steady clock, ns) and a user range on the calling
// thread's host track (recorded only while a session runs; category "range").
int64_t clock_ns();
void add_range(const std::string& name, int64_t start_ns, int64_t end_ns);

// RAII form of add_range for the enclosing scope.
class Range {
 public:
  explicit Range(std::string name);
  ~Range();
  Range(const Range&) = delete;
  Range& operator=(const Range&) = delete;

 private:
  std::string name_;
  int64_t start_ns_ = 0;
  bool active_ = false;
};

}  // namespace npurt::profiler
NPURT_PUBLIC_END
