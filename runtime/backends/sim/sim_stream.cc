// runtime/backends/sim/sim_stream.cc: the worker loop and command execution.
#include "backends/sim/sim_stream.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <iterator>
#include <mutex>
#include <sstream>
#include <vector>

#include "backends/sim/asymmetric_fence.h"
#include "backends/sim/sim_backend.h"
#include "backends/sim/sim_event.h"
#include "exec/spin_wait.h"
#include "backends/sim/work_queue.h"
#include "exec/profiler.h"
#include "exec/thread_pool.h"

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
  const bool light_fence = asymmetric_fence_available();  // see the park handshake below
  WorkQueue<Item> queue{light_fence};  // producers: submit(); consumer: run()
  std::mutex mu;                    // parking, waiting and the error; never taken per item
  std::condition_variable work_cv;  // worker parks here
  std::condition_variable done_cv;  // synchronize() blocks here
  Status error;                     // guarded by mu
  std::string name;                 // guarded by mu
  alignas(64) std::atomic<bool> parked{false};    // the worker sleeps (or is about to) on work_cv
  std::atomic<bool> stop{false};                  // the stream is being destroyed
  std::atomic<bool> has_error{false};             // error is set; lets readers skip mu when clean
  alignas(64) std::atomic<uint64_t> completed{0};  // written by the worker only
  alignas(64) std::atomic<int> waiters{0};
  // The worker runs a launch of several blocks on the pool (set before its job
  // is pushed, cleared when it ended): a waiter then spins and helps instead
  // of parking, and a parked waiter is woken to help (synchronize()).
  std::atomic<bool> in_launch{false};
  const bool pool_lanes = ThreadPool::compute().num_threads() > 1;

  void run();
  bool wait_for_work();
  void finish(Item& item, const Status& st);
  Status execute(Item& item);
  void record_failure(const Item& item, const Status& st);
  Status resolve_range(const void* p, size_t bytes, const char* what, GmRegion* region) const;
  Status prepare(Command& c, std::vector<GmRegion>& regions);
  Status prepare_launch(const KernelLaunch& kl, std::vector<GmRegion>& regions);
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

// Region names of launch arguments: static strings (GmRegion::label), so naming
// a region on every launch copies a pointer. Built once for 256 arguments (far
// more than any kernel takes); beyond that a region is named "arg".
const char* arg_region_name(size_t i) {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> v;
    for (size_t k = 0; k < 256; ++k) v.push_back("arg " + std::to_string(k));
    return v;
  }();
  return i < kNames.size() ? kNames[i].c_str() : "arg";
}

// Runs on the enqueuing thread for every launch: strings are built only when
// resolution fails (the dispatch hot path budget is ~1 us in total).
Status SimStream::State::prepare_launch(const KernelLaunch& kl, std::vector<GmRegion>& regions) {
  regions.reserve(kl.args.size() + 2);  // args + workspace + tiling (the capacity is kept)
  const GmResolver* resolver = backend->resolver(device);  // one lock-free lookup for all args
  // The device pointers among the arguments, resolved in one resolver call per
  // kGmResolveBatch of them (one pool lock for a typical launch's arguments).
  const void* ptrs[kGmResolveBatch];
  size_t index[kGmResolveBatch];
  for (size_t i = 0; i < kl.args.size();) {
    size_t m = 0;
    for (; i < kl.args.size() && m < kGmResolveBatch; ++i) {
      if (i < 64 && (kl.scalar_arg_mask >> i) & 1u) continue;
      if (!kl.args[i]) continue;  // absent optional input
      ptrs[m] = kl.args[i];
      index[m++] = i;
    }
    const size_t first = regions.size();
    regions.resize(first + m);
    const size_t found = resolver && m ? (*resolver)(ptrs, m, &regions[first]) : 0;
    for (size_t k = 0; k < found; ++k) regions[first + k].label = arg_region_name(index[k]);
    if (found < m) {
      regions.resize(first + found);
      return Status(StatusCode::kKernelFault,
                    "argument " + std::to_string(index[found]) + " (" + hex(ptrs[found]) +
                        ") is not a device allocation of sim:" + std::to_string(device) +
                        " (args not allocated by the npurt pool)");
    }
  }
  if (kl.workspace) {
    GmRegion r;
    Status st = resolve_range(kl.workspace, kl.workspace_bytes, "workspace", &r);
    if (!st.is_ok()) return Status(StatusCode::kKernelFault, st.message());
    r.label = "workspace";
    regions.push_back(std::move(r));
  }
  return Status();  // the tiling region is added by submit(): inline tiling bytes move with the Command
}

// The launch's tiling bytes as a GM region; taken from the KernelLaunch inside
// the queue node (its final address: inline bytes moved there with the Command).
static void add_tiling_region(const KernelLaunch& kl, std::vector<GmRegion>& regions) {
  if (kl.tiling.empty()) return;
  GmRegion r;
  r.begin = reinterpret_cast<uintptr_t>(kl.tiling.data());
  r.end = r.begin + kl.tiling.size();
  r.label = "tiling";
  regions.push_back(std::move(r));
}

Status SimStream::State::prepare(Command& c, std::vector<GmRegion>& regions) {
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
      if (!c.launch.sim_entry) return Status(StatusCode::kUnimplemented, "kernel has no sim entry point");
      return prepare_launch(c.launch, regions);
    case Command::Kind::kEventRecord:
    case Command::Kind::kEventWait:
      if (!dynamic_cast<SimEvent*>(c.event.get()))
        return Status(StatusCode::kInvalidArgument, "event does not belong to the sim backend");
      if (c.kind == Command::Kind::kEventRecord)
        c.event_generation = static_cast<SimEvent*>(c.event.get())->next_generation(this);  // run()'s pool tag
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
      if (c.launch.num_blocks > 1 && pool_lanes) {
        // Dekker with synchronize's park: we store in_launch then load
        // waiters; a waiter stores waiters then loads in_launch (all seq_cst),
        // so a parked waiter is woken to help, or sees in_launch and spins.
        in_launch.store(true, std::memory_order_seq_cst);
        if (waiters.load(std::memory_order_seq_cst) > 0) {
          std::lock_guard<std::mutex> lk(mu);
          done_cv.notify_all();
        }
        Status st = run_aicore_kernel(item.launch);
        in_launch.store(false, std::memory_order_relaxed);
        return st;
      }
      return run_aicore_kernel(item.launch);
    case Command::Kind::kHostFunc:
      return capture_status(c.host_fn);
    case Command::Kind::kEventRecord: {
      Status pending;
      if (has_error.load(std::memory_order_acquire)) {  // only this thread sets it
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

// Spins for the idle budget (kIdleSpinBudget: a caller's round trip between
// two launches, so back-to-back work never pays the futex wake-up of a parked
// worker, 29-40 us on the VM), then parks until a producer linked a node
// behind the stub or the stream stops. Returns false when stopped with nothing
// left to run.
//
// Park handshake (no lost wake-up, no lock per push): the worker stores
// parked = true and then loads the stub's link; a producer stores that link
// (the idle worker's stub is the producers' tail) and then loads parked. All
// four are seq_cst, so at least one side sees the other: either the worker
// finds the new node, or the producer sees parked and notifies under mu
// (which the worker holds from its check until it waits). Where the expedited
// membarrier exists, the producer's store-load fence is only a compiler
// barrier and the worker's side carries the cost (asymmetric_fence.h): the
// producer's link store then needs no xchg on the line the worker polls.
bool SimStream::State::wait_for_work() {
  auto ready = [&] { return queue.front(std::memory_order_seq_cst) || stop.load(std::memory_order_seq_cst); };
  if (!spin_until(ready, kIdleSpinBudget)) {
    std::unique_lock<std::mutex> lk(mu);
    parked.store(true, std::memory_order_seq_cst);
    if (light_fence) asymmetric_heavy_fence();
    while (!ready()) work_cv.wait(lk);
    parked.store(false, std::memory_order_relaxed);
  }
  return queue.front() != nullptr;
}

// After an item ran: release what it holds that the program may observe
// (host-function captures, staging buffers, events) before completion is
// visible. The KernelLaunch (a value inside the node's Command) and the region
// buffer stay in the node: plain memory, overwritten by the producer that
// recycles the node (which frees a heap-spilled args/tiling buffer, if any, on
// its own thread), so the worker does no cross-thread free.
void SimStream::State::finish(Item& item, const Status& st) {
  if (!st.is_ok()) record_failure(item, st);
  Command& c = item.cmd;
  if (c.host_fn) c.host_fn = nullptr;
  if (c.event) c.event.reset();
  if (c.keep_alive) c.keep_alive.reset();
  if (!item.pre_error.is_ok()) item.pre_error = Status();
}

void SimStream::State::run() {
  t_worker_of = this;
  ThreadPool::set_thread_tag(this);  // synchronize() finds and helps our launches by it
  for (;;) {
    WorkQueue<Item>::Node* node = queue.front();
    if (!node) {
      if (!wait_for_work()) return;  // stopped and drained
      continue;
    }
    queue.pop();  // node is the stub now: producers leave it alone
    Item& item = node->value;
    Status st;
    {
      profiler::ExecScope timing(item.cmd.profile_id);  // no-op unless profiled
      st = execute(item);
      if (!st.is_ok()) timing.set_failed();
    }
    finish(item, st);
    completed.fetch_add(1, std::memory_order_seq_cst);
    if (waiters.load(std::memory_order_seq_cst) > 0) {
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
  st_->stop.store(true, std::memory_order_seq_cst);
  {
    std::lock_guard<std::mutex> lk(st_->mu);  // the worker is waiting or has not checked stop yet
    st_->work_cv.notify_one();
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

namespace {

// Asks for the node's lines in exclusive state without stalling. A recycled
// node was last read by the worker's core, so each store into it needs that
// core's copy invalidated; a store waits in the store buffer, and the next
// locked instruction (the pool's and the queue's spin locks) waits for all of
// them: perf put ~28 % of submit on the first lock after the node was written.
// A prefetch for writing starts those transfers early and holds no store
// buffer entry, so they overlap with the resolution below.
inline void prefetch_for_write(const void* p, size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (size_t off = 0; off < bytes; off += 64) {
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__ volatile("prefetchw %0" : : "m"(*(c + off)));  // a no-op hint on CPUs without PRFCHW
#else
    __builtin_prefetch(c + off, 1, 3);
#endif
  }
}

}  // namespace

// Fills a recycled node on the caller's thread. Everything that needs a lock
// (the pool lookups of the launch's arguments) runs before the first store
// into the node, into a per-thread scratch vector, so those locks do not wait
// for the node's lines. The command, its KernelLaunch included, is moved into
// the node (inline args and tiling: a copy of their bytes; a heap-spilled
// buffer changes hands and the node's previous one is freed here, on a
// producer), and the node's region vector keeps its capacity, so a steady
// stream of launches allocates nothing from submit to completion.
void SimStream::submit(Command&& cmd) {
  State& s = *st_;
  WorkQueue<Item>::Node* node = s.queue.acquire();
  Item& item = node->value;
  prefetch_for_write(node, sizeof *node);
  const std::vector<GmRegion>& old_regions = item.launch.regions;  // reads only: no store before the locks
  if (old_regions.capacity()) prefetch_for_write(old_regions.data(), old_regions.capacity() * sizeof(GmRegion));
  thread_local std::vector<GmRegion> regions;  // this thread's scratch; prepare() calls no user code
  regions.clear();
  try {
    Status pre = s.prepare(cmd, regions);
    item.cmd = std::move(cmd);
    const bool launch = pre.is_ok() && item.cmd.kind == Command::Kind::kLaunch;
    item.launch.launch = launch ? &item.cmd.launch : nullptr;
    item.launch.profile = launch ? &s.backend->profile(s.device) : nullptr;
    // + 1 for the tiling region: assign() alone would size a new node's vector
    // exactly and the push below would reallocate it (perf: ~0.5 % of a tiny op).
    if (item.launch.regions.capacity() < regions.size() + 1) item.launch.regions.reserve(regions.size() + 1);
    item.launch.regions.assign(regions.begin(), regions.end());
    if (launch) add_tiling_region(item.cmd.launch, item.launch.regions);
    item.pre_error = std::move(pre);
  } catch (...) {
    s.queue.give_back(node);
    throw;
  }
  const WorkQueue<Item>::Node* next = nullptr;
  s.queue.push(node, &next);
  asymmetric_light_fence(s.light_fence);  // the link store above before the parked load
  if (s.parked.load(std::memory_order_seq_cst)) {
    std::lock_guard<std::mutex> lk(s.mu);
    s.work_cv.notify_one();
  }
  // Start the transfers of the node the next submit will write while the
  // caller does other work.
  if (next) prefetch_for_write(next, sizeof *next);
}

// Waits until the work pushed so far completed. While it waits, the caller
// runs blocks of this stream's running launch (ThreadPool::help with the
// stream as tag): on a 2-core host it is then one of the launch's two lanes
// instead of a third runnable thread beside them, and it is on a core when
// the launch ends (docs/performance-history.md "Launch edges (wave 11)").
Status SimStream::synchronize() {
  State& s = *st_;
  if (t_worker_of == &s)
    return Status(StatusCode::kFailedPrecondition,
                  "synchronize called from work running on the same stream (it would wait for itself)");
  uint64_t target = s.queue.pushed();
  auto done = [&] { return s.completed.load(std::memory_order_seq_cst) >= target; };
  ThreadPool& pool = ThreadPool::compute();
  ThreadPool::Help helped = ThreadPool::Help::kNothing;
  unsigned polls = 0;
  // Tries to help every 64 polls (one lock-free load while no launch runs; the
  // pool mutex only while one does), from the first: a help ends the spin
  // (and restarts its budget below).
  auto done_or_helped = [&] {
    if (done()) return true;
    if ((polls++ & 63) != 0) return false;
    helped = pool.help(&s);
    return helped == ThreadPool::Help::kRan;
  };
  std::unique_lock<std::mutex> lk(s.mu, std::defer_lock);
  // Yield after 2 us of pure spinning (not kPureSpin's 4): the caller of a
  // multi-block launch often shares its core with the pool helper or the
  // stream worker it waits for, which then starts sooner. Not from the first
  // poll: a tiny op's round trip (~2.6 us) then paid a system call (+0.15 us),
  // while yielding at once gained ~4 % on 1 Mi float32 sums (docs/performance-history.md
  // "Launch fixed cost (wave 10)").
  // After a help, wait for the rest (the owner's last block, the commands
  // behind the launch) spinning for the idle budget: this thread ran a lane,
  // so it holds a core the launch no longer needs, and parking here cost a
  // ~20 us wake-up at the end of every call.
  bool ran_blocks = false;
  for (;;) {
    if (spin_until(done_or_helped, ran_blocks ? kIdleSpinBudget : kSpinBudget, std::chrono::microseconds(2))) {
      if (!done()) {  // helped: wait for the rest on the core we hold
        ran_blocks = true;
        continue;
      }
      // The failure of a finished command is published before completed is
      // bumped, so a clean stream needs no lock.
      if (!s.has_error.load(std::memory_order_acquire)) return Status();
      lk.lock();
      break;
    }
    // A pool helper hands us its lane after the block it is running: keep
    // spinning for it (at most one block of that helper; once the launch has
    // no unclaimed blocks help() says kNothing and we park).
    if (helped == ThreadPool::Help::kLaneAsked) continue;
    // The worker is inside a multi-block launch whose job we did not find yet
    // (about to be pushed) or whose last blocks run: spin on, help or return.
    if (s.in_launch.load(std::memory_order_seq_cst)) continue;
    lk.lock();
    s.waiters.fetch_add(1, std::memory_order_seq_cst);
    s.done_cv.wait(lk, [&] { return done() || s.in_launch.load(std::memory_order_seq_cst); });
    s.waiters.fetch_sub(1);
    if (done()) break;
    lk.unlock();  // a launch began (the worker was parked or busy when we parked): help it
    polls = 0;
  }
  Status err = std::move(s.error);
  s.error = Status();
  s.has_error.store(false, std::memory_order_relaxed);
  return err;
}

bool SimStream::query(Status* error) {
  State& s = *st_;
  bool idle = s.completed.load() >= s.queue.pushed();
  if (!s.has_error.load(std::memory_order_acquire)) {
    if (error) *error = Status();
    return idle;
  }
  std::lock_guard<std::mutex> lk(s.mu);
  if (error) *error = std::move(s.error);
  s.error = Status();
  s.has_error.store(false, std::memory_order_relaxed);
  return idle;
}

// The push count lives on the producers' cache line: a caller marking right
// after its own submit does not fetch a line from the worker's core.
uint64_t SimStream::mark() { return st_->queue.pushed(); }

bool SimStream::reached(uint64_t m) const { return st_->completed.load(std::memory_order_acquire) >= m; }

}  // namespace npurt::sim
