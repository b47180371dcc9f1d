// runtime/exec/profiler_records.h: raw profiler records and per-thread buffers (internal).
//
// Hooks append raw records to the calling thread's ThreadBuffer; stop() takes
// every buffer's records of the current session and merges them into a Profile
// (profiler_merge.cc). Records are split by the thread that produces them: the
// enqueue of a command (caller's thread) and its execution (stream worker) are
// two records joined by the correlation id.
//
// Invariants:
//   - A buffer holds records of one session only: appending with a newer
//     session number first drops older records (left over from a stopped run).
//   - Each buffer has its own mutex: uncontended on append (only its thread
//     appends), taken by stop() to move records out.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/profiler.h"

namespace npurt::profiler::detail {

struct SubmitRecord {
  uint64_t id = 0;
  uint64_t stream = 0;
  int64_t t = 0;
  Device device;
  Command::Kind kind = Command::Kind::kLaunch;
  CopyKind copy_kind = CopyKind::kDeviceToDevice;
  uint32_t num_blocks = 0;
  uint64_t bytes = 0;
  const char* kernel = "";
  std::shared_ptr<const OpAnnotation> op;  // dispatcher annotation (launches)
};

struct ExecRecord {
  uint64_t id = 0;
  int64_t start = 0, end = 0;
  bool ok = true;
};

struct BlockRecord {
  uint64_t id = 0;
  uint32_t block = 0;
  int64_t start = 0, end = 0;
};

struct MemoryRecord {
  MemoryHook hook;
  int64_t t = 0;
};

struct SpanRecord {
  std::string name;
  const char* category = "";
  std::string detail;
  Device device;
  int64_t start = 0, end = 0;
};

struct ThreadBuffer {
  std::mutex mu;
  uint32_t thread_id = 0;  // 1, 2, ... in order of first record
  uint32_t session = 0;
  std::vector<SubmitRecord> submits;
  std::vector<ExecRecord> execs;
  std::vector<BlockRecord> blocks;
  std::vector<MemoryRecord> memory;
  std::vector<SpanRecord> spans;

  void clear_for(uint32_t new_session) {
    session = new_session;
    // Reserve so that the first records of a session do not pay for regrowth.
    submits.reserve(1024);
    execs.reserve(1024);
    blocks.reserve(4096);
    submits.clear();
    execs.clear();
    blocks.clear();
    memory.clear();
    spans.clear();
  }
};

// Everything stop() collected, grouped by thread.
struct Collected {
  std::vector<std::unique_ptr<ThreadBuffer>> threads;  // moved-out copies
};

// The calling thread's buffer, ready for appending records of the current session
// (locked by the returned guard).
class LockedBuffer {
 public:
  LockedBuffer();
  ThreadBuffer* operator->() { return buf_; }

 private:
  ThreadBuffer* buf_;
  std::lock_guard<std::mutex> lock_;
};

// Moves the current session's records out of every buffer.
Collected collect_session(uint32_t session);

// Stream names registered by name_stream().
std::string stream_name(uint64_t stream_id);

Profile merge(Collected&& collected, int64_t start_ns, int64_t stop_ns);

}  // namespace npurt::profiler::detail
