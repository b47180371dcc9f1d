// runtime/backends/sim/sim_stream.cc: the worker loop and command execution.
#include "backends/sim/sim_stream.h"

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <iterator>
#include <mutex>
#include <sstream>

#include "backends/sim/sim_backend.h"
#include "backends/sim/sim_event.h"
#include "backends/sim/spin_wait.h"
#include "exec/profiler.h"

namespace npurt::sim {

namespace {

// A queued command plus what was resolved at submit time.
struct Item {
  Command cmd;
  AicoreLaunch launch;                   // kLaunch: regions resolved at submit (inline: no extra allocation)
  Status pre_error;                      // resolution failed: recorded when the item runs
};

// The stream whose worker runs on this thread (synchronize from inside its own
// work would wait for itself forever).
thread_local const void* t_worker_of = nullptr;

std::string hex(const void* p) {
  std::ostringstream os;
  os << p;
  return os.str();
}

}  // namespace

struct SimStream::State {
  SimBackend* backend;
  int device;
  std::mutex mu;
  std::condition_variable work_cv;  // worker parks here
  std::condition_variable done_cv;  // synchronize() blocks here
  std::deque<Item> queue;           // guarded by mu
  bool parked = false;              // guarded by mu
  bool stop = false;                // guarded by mu
  Status error;                     // guarded by mu
  std::atomic<bool> has_error{false};  // error is set; lets synchronize skip mu when clean
  std::string name;                 // guarded by mu
  std::atomic<uint64_t> submitted{0};
  std::atomic<uint64_t> completed{0};
  std::atomic<int> waiters{0};

  void run();
  Status execute(Item& item);
  void record_failure(const Item& item, const Status& st);
  Status resolve_range(const void* p, size_t bytes, const char* what, GmRegion* region) const;
  Status prepare(Item& item);
  Status prepare_launch(Item& item);
};

Status SimStream::State::resolve_range(const void* p, size_t bytes, const char* what,
                                       GmRegion* region) const {
  GmRegion r;
  if (!backend->resolve(device, p, &r))
    return Status(StatusCode::kInvalidArgument,
                  std::string(what) + " " + hex(p) + " is not inside any allocation of sim:" +
                      std::to_string(device) + " (device pointers must come from the npurt pool)");
  uintptr_t b = reinterpret_cast<uintptr_t>(p);
  if (b + bytes > r.end)
    return Status(StatusCode::kInvalidArgument,
                  std::string(what) + " " + hex(p) + " + " + std::to_string(bytes) + " bytes overruns its allocation (" +
                      (r.what.empty() ? "allocation of " + std::to_string(r.end - r.begin) + " bytes" : r.what) +
                      ", " + std::to_string(r.end - r.begin) + " bytes at " +
                      hex(reinterpret_cast<const void*>(r.begin)) + ")");
  if (region) *region = r;
  return Status();
}

// Region names of the first launch arguments: short literals fit std::string's
// inline buffer, so naming a region costs no allocation and no formatting.
std::string arg_region_name(size_t i) {
  static const char* const kNames[] = {"arg 0", "arg 1", "arg 2",  "arg 3",  "arg 4",  "arg 5",
                                       "arg 6", "arg 7", "arg 8",  "arg 9",  "arg 10", "arg 11",
                                       "arg 12", "arg 13", "arg 14", "arg 15"};
  return i < std::size(kNames) ? std::string(kNames[i]) : "arg " + std::to_string(i);
}

// Runs on the enqueuing thread for every launch: strings are built only when
// resolution fails (the dispatch hot path budget is ~1 us in total).
Status SimStream::State::prepare_launch(Item& item) {
  const KernelLaunch& kl = *item.cmd.launch;
  AicoreLaunch* launch = &item.launch;
  launch->launch = &kl;
  launch->profile = &backend->profile(device);
  launch->regions.reserve(kl.args.size() + 2);  // one allocation: args + workspace + tiling
  const std::shared_ptr<const GmResolver> resolver = backend->resolver(device);  // one lookup for all args
  for (size_t i = 0; i < kl.args.size(); ++i) {
    if (i < 64 && (kl.scalar_arg_mask >> i) & 1u) continue;
    if (!kl.args[i]) continue;  // absent optional input
    GmRegion r;
    if (!resolver || !(*resolver)(kl.args[i], &r))
      return Status(StatusCode::kKernelFault,
                    "argument " + std::to_string(i) + " (" + hex(kl.args[i]) + ") is not a device allocation of sim:" +
                        std::to_string(device) + " (args not allocated by the npurt pool)");
    r.what = arg_region_name(i);
    launch->regions.push_back(std::move(r));
  }
  if (kl.workspace) {
    GmRegion r;
    Status st = resolve_range(kl.workspace, kl.workspace_bytes, "workspace", &r);
    if (!st.is_ok()) return Status(StatusCode::kKernelFault, st.message());
    r.what = "workspace";
    launch->regions.push_back(std::move(r));
  }
  if (!kl.tiling.empty()) {
    GmRegion r;
    r.begin = reinterpret_cast<uintptr_t>(kl.tiling.data());
    r.end = r.begin + kl.tiling.size();
    r.what = "tiling";
    launch->regions.push_back(std::move(r));
  }
  return Status();
}

Status SimStream::State::prepare(Item& item) {
  Command& c = item.cmd;
  switch (c.kind) {
    case Command::Kind::kCopy: {
      if (c.bytes == 0) return Status();
      if (!c.dst || !c.src) return Status(StatusCode::kInvalidArgument, c.dst ? "source is null" : "destination is null");
      bool dst_dev = c.copy_kind == CopyKind::kHostToDevice || c.copy_kind == CopyKind::kDeviceToDevice;
      bool src_dev = c.copy_kind == CopyKind::kDeviceToHost || c.copy_kind == CopyKind::kDeviceToDevice;
      if (dst_dev) {
        Status st = resolve_range(c.dst, c.bytes, "destination", nullptr);
        if (!st.is_ok()) return st;
      }
      if (src_dev) return resolve_range(c.src, c.bytes, "source", nullptr);
      return Status();
    }
    case Command::Kind::kMemset:
      if (c.bytes == 0) return Status();
      return resolve_range(c.dst, c.bytes, "destination", nullptr);
    case Command::Kind::kLaunch:
      if (!c.launch) return Status(StatusCode::kInvalidArgument, "launch command without a KernelLaunch");
      if (!c.launch->sim_entry) return Status(StatusCode::kUnimplemented, "kernel has no sim entry point");
      return prepare_launch(item);
    case Command::Kind::kEventRecord:
    case Command::Kind::kEventWait:
      if (!dynamic_cast<SimEvent*>(c.event.get()))
        return Status(StatusCode::kInvalidArgument, "event does not belong to the sim backend");
      if (c.kind == Command::Kind::kEventRecord)
        c.event_generation = static_cast<SimEvent*>(c.event.get())->next_generation();
      return Status();
    case Command::Kind::kHostFunc:
      return c.host_fn ? Status() : Status(StatusCode::kInvalidArgument, "empty host function");
  }
  return Status(StatusCode::kInternal, "unknown command kind");
}

Status SimStream::State::execute(Item& item) {
  if (!item.pre_error.is_ok()) return item.pre_error;
  Command& c = item.cmd;
  switch (c.kind) {
    case Command::Kind::kCopy:
      if (c.bytes) parallel_memcpy(c.dst, c.src, c.bytes);
      return Status();
    case Command::Kind::kMemset:
      if (c.bytes) parallel_memset(c.dst, c.memset_value, c.bytes);
      return Status();
    case Command::Kind::kLaunch:
      return run_aicore_kernel(item.launch);
    case Command::Kind::kHostFunc:
      return capture_status(c.host_fn);
    case Command::Kind::kEventRecord: {
      Status pending;
      {
        std::lock_guard<std::mutex> lk(mu);
        pending = error;
      }
      static_cast<SimEvent*>(c.event.get())->complete(c.event_generation, pending);
      return Status();
    }
    case Command::Kind::kEventWait:
      static_cast<SimEvent*>(c.event.get())->wait(c.event_generation);
      return Status();
  }
  return Status(StatusCode::kInternal, "unknown command kind");
}

void SimStream::State::record_failure(const Item& item, const Status& st) {
  std::lock_guard<std::mutex> lk(mu);
  if (!error.is_ok()) return;  // the first failure wins
  std::string prefix = name.empty() ? "stream on sim:" + std::to_string(device) : name;
  error = Status(st.code(), prefix + ": " + item.cmd.describe() + ": " + st.message());
  has_error.store(true, std::memory_order_release);
}

void SimStream::State::run() {
  t_worker_of = this;
  uint64_t taken = 0;
  for (;;) {
    Item item;
    {
      std::unique_lock<std::mutex> lk(mu);
      if (queue.empty()) {
        lk.unlock();
        spin_until([&] { return submitted.load(std::memory_order_acquire) != taken; });
        lk.lock();
        while (queue.empty() && !stop) {
          parked = true;
          work_cv.wait(lk);
          parked = false;
        }
        if (queue.empty()) return;  // stopped and drained
      }
      item = std::move(queue.front());
      queue.pop_front();
      ++taken;
    }
    Status st;
    {
      profiler::ExecScope timing(item.cmd.profile_id);  // no-op unless profiled
      st = execute(item);
      if (!st.is_ok()) timing.set_failed();
    }
    if (!st.is_ok()) record_failure(item, st);
    item = Item();  // release captures and staging buffers before completion is visible
    completed.fetch_add(1);
    if (waiters.load() > 0) {
      std::lock_guard<std::mutex> lk(mu);
      done_cv.notify_all();
    }
  }
}

SimStream::SimStream(SimBackend* backend, int device) : st_(std::make_shared<State>()) {
  st_->backend = backend;
  st_->device = device;
  std::shared_ptr<State> st = st_;
  worker_ = std::thread([st] { st->run(); });
}

SimStream::~SimStream() {
  {
    std::lock_guard<std::mutex> lk(st_->mu);
    st_->stop = true;
    if (st_->parked) st_->work_cv.notify_one();
  }
  if (worker_.get_id() == std::this_thread::get_id())
    worker_.detach();  // released from inside our own work: the worker exits after draining
  else
    worker_.join();
}

void SimStream::set_name(const std::string& name) {
  std::lock_guard<std::mutex> lk(st_->mu);
  st_->name = name;
}

void SimStream::submit(Command&& cmd) {
  Item item;
  item.cmd = std::move(cmd);
  item.pre_error = st_->prepare(item);
  std::lock_guard<std::mutex> lk(st_->mu);
  st_->queue.push_back(std::move(item));
  st_->submitted.fetch_add(1, std::memory_order_release);
  if (st_->parked) st_->work_cv.notify_one();
}

Status SimStream::synchronize() {
  State& s = *st_;
  if (t_worker_of == &s)
    return Status(StatusCode::kFailedPrecondition,
                  "synchronize called from work running on the same stream (it would wait for itself)");
  uint64_t target = s.submitted.load(std::memory_order_acquire);
  auto done = [&] { return s.completed.load() >= target; };
  std::unique_lock<std::mutex> lk(s.mu, std::defer_lock);
  if (!spin_until(done)) {
    lk.lock();
    s.waiters.fetch_add(1);
    s.done_cv.wait(lk, done);
    s.waiters.fetch_sub(1);
  } else {
    // The failure of a finished command is published before completed is
    // bumped, so a clean stream needs no lock (the worker may be holding it).
    if (!s.has_error.load(std::memory_order_acquire)) return Status();
    lk.lock();
  }
  Status err = std::move(s.error);
  s.error = Status();
  s.has_error.store(false, std::memory_order_relaxed);
  return err;
}

bool SimStream::query(Status* error) {
  State& s = *st_;
  bool idle = s.completed.load() >= s.submitted.load();
  std::lock_guard<std::mutex> lk(s.mu);
  if (error) *error = std::move(s.error);
  s.error = Status();
  s.has_error.store(false, std::memory_order_relaxed);
  return idle;
}

uint64_t SimStream::mark() { return st_->submitted.load(std::memory_order_acquire); }

bool SimStream::reached(uint64_t m) const { return st_->completed.load(std::memory_order_acquire) >= m; }

}  // namespace npurt::sim
