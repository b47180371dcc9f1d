// runtime/exec/profiler.h: hooks through which the runtime feeds the profiler (internal).
//
// Callers guard every hook with `if (profiler::enabled())` so that, when no
// session runs, the cost on a hot path is one relaxed atomic load. Hooks are
// thread-safe and never throw; each appends to the calling thread's buffer.
//
// Who calls what:
//   backend stream submit  id = on_submit(cmd, stream_id, device)   (caller's thread)
//                           the returned id (0 = not profiled) travels with the command
//   stream worker          ExecScope scope(id); ... execute ...; scope.set_failed()
//   sim core runner        BlockScope b(id, block_index)   around one block (any thread)
//   dispatcher             annotate_next_launch(...) right before submitting the launch
//   memory pool            on_memory(...) after an allocation or free
//                           (also while a graph capture runs: capture needs the
//                           graph-pool allocations, see exec/graph_capture.h)
//   graph capture          take_launch_annotation() when recording a launch node
//   graph replay           annotate_next_submit(label) + the replay's host function on
//                           the caller's stream; on_submit(node, lane id, device, op)
//                           per node on the graph's lanes; SpanScope on the executor
//   stream creation        name_stream(stream_id, name)   (always; cheap, not hot)
//
// Invariant: an id from on_submit is passed to ExecScope exactly once, from the
// thread that executes the command; stop() waits for every such id to finish.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "exec/graph_capture.h"
#include "npurt/backend.h"
#include "npurt/device.h"
#include "npurt/profiler.h"

namespace npurt::profiler {

namespace detail {
extern std::atomic<bool> g_enabled;
extern std::atomic<bool> g_record_blocks;
extern std::atomic<bool> g_record_memory;
}  // namespace detail

inline bool enabled() { return detail::g_enabled.load(std::memory_order_relaxed); }
inline bool blocks_enabled() {
  return enabled() && detail::g_record_blocks.load(std::memory_order_relaxed);
}
inline bool memory_enabled() {
  return (enabled() && detail::g_record_memory.load(std::memory_order_relaxed)) || any_capture_active();
}
// Whether the dispatcher should describe its launches (annotate_next_launch):
// for a profiling session, and for graph capture (replays show op names).
inline bool annotations_wanted() { return enabled() || any_capture_active(); }

int64_t now_ns();                 // steady clock
uint64_t new_stream_id();         // unique per process, never 0
void name_stream(uint64_t stream_id, const std::string& name);

// What the dispatcher knows about the launch it is about to submit.
struct OpAnnotation {
  std::string op;                 // OpDef name
  std::string shapes;             // "[2, 3], [2, 3] -> [2, 3]"
  std::string dtypes;             // "float32, float32 -> float32"
  std::string tiling;             // "numBlocks=8 tile=1024 ..."
  double flops = 0;               // 0: not declared
  double bytes = 0;               // 0: not declared
};
// Consumed by the next on_submit of a launch on this thread (or by graph capture).
void annotate_next_launch(OpAnnotation annotation);
// Takes this thread's pending launch annotation (graph capture records it with
// the node, so replays name their launches); null when there is none.
std::shared_ptr<const OpAnnotation> take_launch_annotation();
// Names the next host-function submit of this thread (e.g. "graph replay");
// no-op unless a session runs.
void annotate_next_submit(std::string label, std::string detail);

// Returns the correlation id for the command (0 when no session runs). `op`:
// the launch's annotation when the caller has it (graph replay); otherwise
// the pending one of annotate_next_launch is used.
uint64_t on_submit(const Command& cmd, uint64_t stream_id, Device device,
                   std::shared_ptr<const OpAnnotation> op = nullptr);

// Times the execution of one submitted command on the stream worker.
class ExecScope {
 public:
  explicit ExecScope(uint64_t id);
  ~ExecScope();
  void set_failed() { ok_ = false; }
  ExecScope(const ExecScope&) = delete;
  ExecScope& operator=(const ExecScope&) = delete;

 private:
  uint64_t id_;
  int64_t start_ = 0;
  bool ok_ = true;
};

// The id of the command the calling thread is executing (0: none). Lets the
// sim core runner tag blocks without an extra parameter.
uint64_t current_exec_id();

// Times one block of a sim launch (any compute thread).
class BlockScope {
 public:
  BlockScope(uint64_t id, uint32_t block);
  ~BlockScope();
  BlockScope(const BlockScope&) = delete;
  BlockScope& operator=(const BlockScope&) = delete;

 private:
  uint64_t id_;
  uint32_t block_;
  int64_t start_ = 0;
};

struct MemoryHook {
  Device device;
  bool is_alloc = true;
  const void* ptr = nullptr;
  uint64_t bytes = 0;
  const char* pool = "";          // static string
  uint64_t stream_id = 0;
  int64_t allocated_after = 0;
  int64_t reserved_after = 0;
};
void on_memory(const MemoryHook& event);

// A host interval (graph replay).
class SpanScope {
 public:
  SpanScope(const char* name, const char* category, std::string detail, Device device);
  ~SpanScope();
  SpanScope(const SpanScope&) = delete;
  SpanScope& operator=(const SpanScope&) = delete;

 private:
  const char* name_;
  const char* category_;
  std::string detail_;
  Device device_;
  int64_t start_ = 0;
  bool active_;
};

void record_span(std::string name, const char* category, std::string detail, Device device,
                 int64_t start_ns, int64_t end_ns);

}  // namespace npurt::profiler
