// runtime/backends/sim/aicore/aicore_launch.cc: runs a kernel launch as
// num_blocks simulated cores on ThreadPool::compute().
//
// Each pool thread keeps one CoreState (arenas reused across blocks and
// launches). A block runs the entry thunk with the thread's core context bound;
// a failing check throws CoreFault, which unwinds the kernel (destructors run)
// to this file, where the block's first diagnostic is kept and the other blocks
// carry on. At level full, each block's GM write ranges are compared across
// blocks after all blocks finished.
#include "backends/sim/aicore/aicore_launch.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "backends/sim/aicore/copy_elision.h"
#include "backends/sim/aicore/core_state.h"
#include "exec/thread_pool.h"
#include "exec/profiler.h"

namespace npurt::sim {

namespace {

CoreState& thread_core_state() {
  thread_local std::unique_ptr<CoreState> state(new CoreState);
  return *state;
}

// The per-launch state. One is kept per launching thread (a stream worker) and
// reused: its vectors keep their capacity, so a steady stream of launches does
// no heap allocation here (a tiny op's launch used to allocate the region and
// slot vectors on every run). Reset by begin() before each use.
struct LaunchRun {
  LaunchView view;
  std::mutex mu;
  std::vector<AicoreDiagnostic> faults;               // guarded by mu
  std::vector<std::vector<ByteRange>> writes;         // full: per block, written by that block only
  std::vector<LineOwner> scalar_lines;                // guarded by mu: GM lines of scalar writes
  bool in_use = false;                                // the thread's instance is taken (re-entry gets a fresh one)

  void begin(const KernelLaunch& L, const ChipProfile* profile) {
    view.launch = &L;
    view.profile = profile;
    faults.clear();
    writes.clear();  // full only; the inner vectors are moved in from CoreState
    scalar_lines.clear();
  }
};

// Claims the calling thread's LaunchRun for one run_aicore_kernel call.
class LaunchRunLease {
 public:
  LaunchRunLease() {
    // Heap-held (208 bytes): libnpurt's static TLS block must stay small (cube_packed_cache.cc).
    thread_local std::unique_ptr<LaunchRun> cached_run;
    if (!cached_run) cached_run = std::make_unique<LaunchRun>();
    LaunchRun& cached = *cached_run;
    if (!cached.in_use) {
      run_ = &cached;
      cached.in_use = true;
    } else {
      fresh_ = std::make_unique<LaunchRun>();  // nested use on one thread: not the hot path
      run_ = fresh_.get();
    }
  }
  ~LaunchRunLease() {
    if (!fresh_) run_->in_use = false;
  }
  LaunchRunLease(const LaunchRunLease&) = delete;
  LaunchRunLease& operator=(const LaunchRunLease&) = delete;
  LaunchRun& get() { return *run_; }

 private:
  LaunchRun* run_ = nullptr;
  std::unique_ptr<LaunchRun> fresh_;
};

std::string format(const KernelLaunch& L, uint32_t block, const std::string& api,
                   const char* code, const std::string& detail) {
  return "kernel '" + std::string(L.kernel_name ? L.kernel_name : "") + "' block " +
         std::to_string(block) + "/" + std::to_string(L.num_blocks) + ": " + api + ": " + code +
         ": " + detail;
}

void run_block(LaunchRun& run, uint32_t block) {
  CoreState& st = thread_core_state();
  bool finished = false;
  try {
    st.begin_block(run.view, block);
    tls_core = &st.ctx;
    run.view.launch->sim_entry(run.view.slots.data(), run.view.slots.size());
    finished = true;
  } catch (const CoreFault&) {
  } catch (const std::exception& e) {
    record_fault(st, Diag::kException, "kernel", std::string("the kernel threw: ") + e.what());
  } catch (...) {
    record_fault(st, Diag::kException, "kernel", "the kernel threw a non-standard exception");
  }
  if (finished && tls_core) {
    st.end_of_kernel_checks();
    dcache_end_of_block(st);
  }
  drop_mirrors(st);  // UB contents do not outlive the block
  tls_core = nullptr;
  if (st.ctx.level == SimCheckLevel::kFull) run.writes[block] = std::move(st.gm_writes);
  st.gm_writes.clear();
  // Kernels without GM scalar writes never lock here; one block shares no line.
  if (!st.dcache.empty() && run.view.launch->num_blocks > 1) {
    std::lock_guard<std::mutex> lock(run.mu);
    dcache_take_lines(st, block, run.scalar_lines);
  }
  if (!st.fault.set) return;
  const KernelLaunch& L = *run.view.launch;
  AicoreDiagnostic d{diag_name(st.fault.code), st.fault.api, block, st.fault.detail, ""};
  d.message = format(L, block, d.api, d.code.c_str(), d.detail);
  std::lock_guard<std::mutex> lock(run.mu);
  run.faults.push_back(std::move(d));
}

// Full level: GM bytes written by two different blocks (atomics were not logged).
bool find_overlap(LaunchRun& run, AicoreDiagnostic* out) {
  struct Item {
    uintptr_t begin, end;
    uint32_t block;
  };
  std::vector<Item> items;
  for (uint32_t b = 0; b < run.writes.size(); ++b)
    for (const ByteRange& r : run.writes[b]) items.push_back({r.first, r.second, b});
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.block < b.block;
  });
  // Sweep: remember the range reaching furthest so far and its block.
  uintptr_t reach = 0;
  uint32_t reach_block = 0;
  for (const Item& it : items) {
    if (it.begin < reach && it.block != reach_block) {
      const GmRegion* r = find_region(run.view, it.begin);
      std::string where = r ? "'" + r->name() + "'+" + hex(it.begin - r->begin) : hex(it.begin);
      uint32_t first = std::min(reach_block, it.block), second = std::max(reach_block, it.block);
      out->code = diag_name(Diag::kMultiCoreWrite);
      out->api = "GM write";
      out->block = second;
      out->detail = "blocks " + std::to_string(first) + " and " + std::to_string(second) +
                    " both write GM at " + where + " (" +
                    std::to_string(std::min(reach, it.end) - it.begin) +
                    " B overlap); blocks of one launch must write disjoint GM unless they use "
                    "SetAtomicAdd";
      out->message = format(*run.view.launch, second, out->api, out->code.c_str(), out->detail);
      return true;
    }
    if (it.end > reach) {
      reach = it.end;
      reach_block = it.block;
    }
  }
  return false;
}

Status validate(const AicoreLaunch& a) {
  if (a.launch == nullptr) return Status(StatusCode::kInvalidArgument, "run_aicore_kernel: argument 'launch': null");
  const KernelLaunch& L = *a.launch;
  // Built on failure only: a kernel name past 15 characters made this a heap
  // string on every launch (~500 worker instructions of a 16-element add).
  auto where = [&] { return std::string("run_aicore_kernel(") + (L.kernel_name ? L.kernel_name : "") + ")"; };
  if (a.profile == nullptr)
    return Status(StatusCode::kInvalidArgument, where() + ": argument 'profile': null");
  if (L.sim_entry == nullptr)
    return Status(StatusCode::kInvalidArgument,
                  where() + ": argument 'sim_entry': the kernel has no sim entry point");
  if (L.num_blocks < 1 || L.num_blocks > 65535)
    return Status(StatusCode::kInvalidArgument,
                  where() + ": argument 'num_blocks': " + std::to_string(L.num_blocks) +
                      " is outside [1, 65535]");
  return Status();
}

// Regions sorted by start into `regions` (its capacity is reused); workspace
// and tiling get a region of their own when the caller did not describe them.
void launch_regions(const AicoreLaunch& a, std::vector<GmRegion>& regions) {
  regions.assign(a.regions.begin(), a.regions.end());
  auto covered = [&](const void* p) {
    auto u = reinterpret_cast<uintptr_t>(p);
    for (const GmRegion& r : regions)
      if (u >= r.begin && u < r.end) return true;
    return false;
  };
  const KernelLaunch& L = *a.launch;
  if (L.workspace && L.workspace_bytes && !covered(L.workspace)) {
    auto b = reinterpret_cast<uintptr_t>(L.workspace);
    regions.push_back({b, b + L.workspace_bytes, "workspace"});
  }
  if (!L.tiling.empty() && !covered(L.tiling.data())) {
    auto b = reinterpret_cast<uintptr_t>(L.tiling.data());
    regions.push_back({b, b + L.tiling.size(), "tiling"});
  }
  std::sort(regions.begin(), regions.end(),
            [](const GmRegion& x, const GmRegion& y) { return x.begin < y.begin; });
}

}  // namespace

Status run_aicore_kernel(const AicoreLaunch& a) { return run_aicore_kernel(a, nullptr); }

Status run_aicore_kernel(const AicoreLaunch& a, AicoreReport* report) {
  if (report) report->diagnostics.clear();
  Status bad = validate(a);
  if (!bad.is_ok()) return bad;
  const KernelLaunch& L = *a.launch;
  LaunchRunLease lease;
  LaunchRun& run = lease.get();
  run.begin(L, a.profile);
  launch_regions(a, run.view.regions);
  collect_readonly(L, run.view);
  run.view.slots.assign(L.args.begin(), L.args.end());
  run.view.slots.push_back(L.workspace);
  run.view.slots.push_back(L.tiling.empty() ? nullptr : const_cast<uint8_t*>(L.tiling.data()));
  if (L.check_level == SimCheckLevel::kFull) run.writes.resize(L.num_blocks);
  const uint64_t profile_id = profiler::current_exec_id();  // 0 unless profiled
  ThreadPool::compute().parallel_for(L.num_blocks, [&](size_t i) {
    profiler::BlockScope timing(profile_id, static_cast<uint32_t>(i));
    run_block(run, static_cast<uint32_t>(i));
  });
  std::sort(run.faults.begin(), run.faults.end(),
            [](const AicoreDiagnostic& x, const AicoreDiagnostic& y) { return x.block < y.block; });
  AicoreDiagnostic overlap;
  if (run.faults.empty() && L.check_level == SimCheckLevel::kFull && find_overlap(run, &overlap))
    run.faults.push_back(overlap);
  DCacheShare share;
  if (run.faults.empty() && !run.scalar_lines.empty() &&
      find_dcache_share(run.view, run.scalar_lines, &share)) {
    const char* code = diag_name(Diag::kDCacheShare);
    run.faults.push_back({code, "GlobalTensor::SetValue", share.second_block, share.detail,
                          format(L, share.second_block, "GlobalTensor::SetValue", code, share.detail)});
  }
  if (run.faults.empty()) return Status();
  std::string msg = run.faults.front().message;
  if (run.faults.size() > 1)
    msg += " [" + std::to_string(run.faults.size() - 1) + " more block(s) faulted]";
  if (report) report->diagnostics = std::move(run.faults);
  run.faults.clear();  // moved-from or reported: the next launch starts empty
  return Status(StatusCode::kKernelFault, msg);
}

}  // namespace npurt::sim
