// runtime/backends/sim/sim_backend.h: the simulated NPU backend (host side).
//
// Device memory is host memory: segments are mmap'ed, 2 MiB aligned, with
// transparent huge pages requested. Each device has a memory budget
// (NPURT_SIM_MEMORY: bytes, "16G" or "50%" of RAM; default min(16 GiB, RAM/2))
// so running out of device memory is reproducible. Streams are SimStreams
// (one worker thread each); kernels run through sim::run_aicore_kernel.
//
// Invariants:
//   - reserved(device) never exceeds total_memory(device).
//   - A kernel only touches GM regions resolved at submit time through the
//     device's resolver (installed by the runtime: the device's memory pool
//     plus external regions). Resolution happens on the submitting thread,
//     because the pool may legally recycle a block after a stream-ordered free.
//   - A resolver, once installed, lives as long as the backend: resolver()
//     hands out a raw pointer read with one acquire load (no lock, no reference
//     count: the launch path runs on every tiny op, and a shared_ptr copy's
//     atomic increments bounced a cache line between callers and workers), so a
//     replaced resolver may still be in use by a submitting thread. Resolvers
//     are installed once per device context, so keeping them costs a few bytes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/sim/aicore/aicore_launch.h"
#include "npurt/backend.h"

namespace npurt::sim {

// Finds the allocations containing [ptrs[i], ptrs[i]+1) for i in [0, n): sets
// regions[i].begin / .end to each one's base and base + size (names are left
// to the caller: it runs per launch, so callers name the region and describe
// it only in error messages). Returns how many pointers were resolved before
// the first one in no known region (n when all were). A launch resolves its
// arguments in calls of at most kGmResolveBatch pointers (one pool lock per
// call instead of one per argument; resolvers may use stack arrays of that size).
constexpr size_t kGmResolveBatch = 16;
using GmResolver = std::function<size_t(const void* const* ptrs, size_t n, GmRegion* regions)>;

class SimBackend final : public Backend {
 public:
  static SimBackend& instance();  // NPURT_SIM_DEVICES devices, created once

  SimBackend(int devices, uint64_t memory_per_device);
  ~SimBackend() override;

  DeviceType type() const override { return DeviceType::kSim; }
  const char* name() const override { return "sim"; }
  int device_count() const override { return static_cast<int>(devices_.size()); }
  const ChipProfile& profile(int device) const override;
  uint64_t total_memory(int device) const override;

  void* allocate_segment(int device, size_t bytes) override;
  void free_segment(int device, void* ptr, size_t bytes) override;
  size_t segment_alignment() const override { return kSegmentAlignment; }

  std::unique_ptr<BackendStream> create_stream(int device) override;
  std::shared_ptr<BackendEvent> create_event(int device, bool timing) override;
  void copy_sync(void* dst, const void* src, size_t bytes, CopyKind kind, int device) override;

  // GM region lookup for launches and copies on `device`.
  void set_resolver(int device, GmResolver resolver);
  bool resolve(int device, const void* ptr, GmRegion* region) const;
  // The resolver itself (may be null), for resolving several pointers with one
  // lookup: a launch resolves all its arguments on the enqueuing thread. Valid
  // until the backend is destroyed, even after set_resolver replaced it.
  const GmResolver* resolver(int device) const;

  uint64_t reserved(int device) const;  // bytes currently mapped for segments

  static constexpr size_t kSegmentAlignment = size_t(2) << 20;

 private:
  struct DeviceState {
    uint64_t budget = 0;
    std::atomic<uint64_t> reserved{0};
    std::atomic<const GmResolver*> resolver{nullptr};  // the current one, or null
    std::vector<std::unique_ptr<const GmResolver>> installed;  // guarded by resolver_mu_: every one ever set
  };
  DeviceState& state(int device, const char* where) const;

  std::vector<std::unique_ptr<DeviceState>> devices_;
  const ChipProfile* profile_;
  mutable std::mutex resolver_mu_;
};

// memcpy / memset spread over ThreadPool::compute() for large sizes, so a
// copy uses every core like a STREAM copy does.
void parallel_memcpy(void* dst, const void* src, size_t bytes);
void parallel_memset(void* dst, int value, size_t bytes);

}  // namespace npurt::sim
