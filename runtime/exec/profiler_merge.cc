// runtime/exec/profiler_merge.cc: joins raw per-thread records into a Profile.
//
// Submit and execution records of one command are joined by correlation id;
// block records attach to their launch. Threads are named by what they did:
// a thread that executed stream work is a "stream worker", one that only ran
// blocks is a "compute worker", anything else is a "host thread".
#include <algorithm>
#include <unordered_map>

#include "exec/profiler_records.h"

namespace npurt::profiler {

const char* activity_kind_name(ActivityKind k) {
  switch (k) {
    case ActivityKind::kKernel: return "kernel";
    case ActivityKind::kCopy: return "copy";
    case ActivityKind::kMemset: return "memset";
    case ActivityKind::kHostFunc: return "host_func";
    case ActivityKind::kEventRecord: return "event_record";
    case ActivityKind::kEventWait: return "event_wait";
  }
  return "unknown";
}

namespace detail {
namespace {

ActivityKind kind_of(Command::Kind k) {
  switch (k) {
    case Command::Kind::kLaunch: return ActivityKind::kKernel;
    case Command::Kind::kCopy: return ActivityKind::kCopy;
    case Command::Kind::kMemset: return ActivityKind::kMemset;
    case Command::Kind::kHostFunc: return ActivityKind::kHostFunc;
    case Command::Kind::kEventRecord: return ActivityKind::kEventRecord;
    case Command::Kind::kEventWait: return ActivityKind::kEventWait;
  }
  return ActivityKind::kHostFunc;
}

const char* copy_short_name(CopyKind k) {
  switch (k) {
    case CopyKind::kHostToHost: return "copy H2H";
    case CopyKind::kHostToDevice: return "copy H2D";
    case CopyKind::kDeviceToHost: return "copy D2H";
    case CopyKind::kDeviceToDevice: return "copy D2D";
  }
  return "copy";
}

Activity activity_from(const SubmitRecord& s, uint32_t thread,
                       std::unordered_map<uint64_t, std::string>& names) {
  Activity a;
  a.kind = kind_of(s.kind);
  a.id = s.id;
  a.device = s.device;
  a.stream = s.stream;
  auto it = names.find(s.stream);
  if (it == names.end()) it = names.emplace(s.stream, stream_name(s.stream)).first;
  a.stream_name = it->second;
  a.enqueue_ns = s.t;
  a.host_thread = thread;
  a.bytes = s.bytes;
  a.num_blocks = s.num_blocks;
  switch (a.kind) {
    case ActivityKind::kKernel:
      a.kernel = s.kernel;
      a.name = s.op && !s.op->op.empty() ? s.op->op : a.kernel;
      if (s.op) {
        a.shapes = s.op->shapes;
        a.dtypes = s.op->dtypes;
        a.tiling = s.op->tiling;
        a.flops = s.op->flops;
        a.mem_bytes = s.op->bytes;
      }
      break;
    case ActivityKind::kCopy: a.name = copy_short_name(s.copy_kind); a.mem_bytes = double(s.bytes); break;
    case ActivityKind::kMemset: a.name = "memset"; a.mem_bytes = double(s.bytes); break;
    case ActivityKind::kHostFunc:  // graph replays are labelled (annotate_next_submit)
      a.name = s.op && !s.op->op.empty() ? s.op->op : "host function";
      if (s.op) a.tiling = s.op->tiling;
      break;
    case ActivityKind::kEventRecord: a.name = "event record"; break;
    case ActivityKind::kEventWait: a.name = "event wait"; break;
  }
  return a;
}

}  // namespace

Profile merge(Collected&& collected, int64_t start_ns, int64_t stop_ns) {
  Profile p;
  p.start_ns = start_ns;
  p.stop_ns = stop_ns;
  std::unordered_map<uint64_t, std::string> names;
  std::unordered_map<uint64_t, size_t> by_id;
  for (auto& t : collected.threads)
    for (const SubmitRecord& s : t->submits) {
      by_id[s.id] = p.activities.size();
      p.activities.push_back(activity_from(s, t->thread_id, names));
    }
  for (auto& t : collected.threads) {
    for (const ExecRecord& e : t->execs) {
      auto it = by_id.find(e.id);
      if (it == by_id.end()) continue;  // enqueued before the session started
      Activity& a = p.activities[it->second];
      a.start_ns = e.start;
      a.end_ns = e.end;
      a.ok = e.ok;
      a.executed = true;
      a.exec_thread = t->thread_id;
    }
    for (const BlockRecord& b : t->blocks) {
      auto it = by_id.find(b.id);
      if (it != by_id.end())
        p.activities[it->second].blocks.push_back(BlockSpan{b.block, t->thread_id, b.start, b.end});
    }
    for (const MemoryRecord& m : t->memory) {
      MemoryEvent e;
      e.t_ns = m.t;
      e.device = m.hook.device;
      e.is_alloc = m.hook.is_alloc;
      e.ptr = reinterpret_cast<uintptr_t>(m.hook.ptr);
      e.bytes = m.hook.bytes;
      e.pool = m.hook.pool ? m.hook.pool : "";
      e.stream = m.hook.stream_id;
      e.allocated_after = m.hook.allocated_after;
      e.reserved_after = m.hook.reserved_after;
      e.host_thread = t->thread_id;
      p.memory.push_back(std::move(e));
    }
    for (SpanRecord& s : t->spans)
      p.spans.push_back(HostSpan{std::move(s.name), s.category, std::move(s.detail), s.device,
                                 s.start, s.end, t->thread_id});
    const char* role = !t->execs.empty() ? "stream worker"
                       : (!t->blocks.empty() && t->submits.empty()) ? "compute worker"
                                                                      : "host thread";
    p.threads.push_back(ThreadInfo{t->thread_id, std::string(role) + " " + std::to_string(t->thread_id)});
  }
  for (Activity& a : p.activities) {
    if (!a.executed) ++p.incomplete;
    std::sort(a.blocks.begin(), a.blocks.end(),
              [](const BlockSpan& x, const BlockSpan& y) { return x.block < y.block; });
  }
  std::stable_sort(p.activities.begin(), p.activities.end(),
                   [](const Activity& x, const Activity& y) { return x.enqueue_ns < y.enqueue_ns; });
  std::stable_sort(p.memory.begin(), p.memory.end(),
                   [](const MemoryEvent& x, const MemoryEvent& y) { return x.t_ns < y.t_ns; });
  std::stable_sort(p.spans.begin(), p.spans.end(),
                   [](const HostSpan& x, const HostSpan& y) { return x.start_ns < y.start_ns; });
  std::sort(p.threads.begin(), p.threads.end(),
            [](const ThreadInfo& x, const ThreadInfo& y) { return x.id < y.id; });
  return p;
}

}  // namespace detail
}  // namespace npurt::profiler
