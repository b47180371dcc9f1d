// tests/runtime/backends/sim/aicore/aicore_test_util.h: launching kernels on
// the simulated AI core directly (no sim backend, no registry) in tests.
//
// SimLaunch owns the GM buffers of one launch. Each buffer becomes a GM region
// of exactly the requested size (the host allocation is larger and 64-B
// aligned), so overruns past the requested end are caught by the checker.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "backends/sim/aicore/aicore_launch.h"
#include "kernel_operator.h"
#include "npurt/chip_profile.h"

// A test kernel with the (x, z, workspace, tiling) signature the tests launch.
#define AICORE_TEST_KERNEL(name)                                                                   \
  extern "C" __global__ __aicore__ void name([[maybe_unused]] GM_ADDR x, [[maybe_unused]] GM_ADDR z, \
                                             [[maybe_unused]] GM_ADDR workspace,             \
                                             [[maybe_unused]] GM_ADDR tiling)

namespace aicore_test {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

class SimLaunch {
 public:
  explicit SimLaunch(npurt::SimKernelEntry entry, const char* name = "test_kernel") {
    launch_.kernel_name = name;
    launch_.sim_entry = entry;
  }

  // A GM buffer of n elements registered as the next kernel argument.
  template <class T>
  T* gm(size_t n, const std::string& what = "") {
    size_t bytes = n * sizeof(T);
    size_t alloc = (bytes + 64 + 63) / 64 * 64;  // slack after the end: overruns stay in host memory
    void* p = std::aligned_alloc(64, alloc);
    std::memset(p, 0xCD, alloc);
    buffers_.emplace_back(p);
    auto b = reinterpret_cast<uintptr_t>(p);
    regions_.push_back({b, b + bytes, what.empty() ? "arg " + std::to_string(launch_.args.size()) : what});
    launch_.args.push_back(p);
    return static_cast<T*>(p);
  }

  template <class Tiling>
  void tiling(const Tiling& t) {
    launch_.tiling.assign(reinterpret_cast<const uint8_t*>(&t),
                          reinterpret_cast<const uint8_t*>(&t) + sizeof(t));
  }

  void workspace(size_t bytes) {
    void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    buffers_.emplace_back(p);
    launch_.workspace = p;
    launch_.workspace_bytes = bytes;
  }

  void scalar_arg(uint64_t bits) {
    void* slot;
    std::memcpy(&slot, &bits, sizeof slot);
    launch_.scalar_arg_mask |= uint64_t{1} << launch_.args.size();
    launch_.args.push_back(slot);
  }

  npurt::Status run(uint32_t blocks, npurt::SimCheckLevel level,
                    npurt::sim::AicoreReport* report = nullptr, bool truncate = false) {
    launch_.num_blocks = blocks;
    launch_.check_level = level;
    launch_.truncate_datacopy = truncate;
    npurt::sim::AicoreLaunch a;
    a.launch = &launch_;
    a.profile = profile_;
    a.regions = regions_;
    return npurt::sim::run_aicore_kernel(a, report);
  }

  void set_profile(const npurt::ChipProfile& p) { profile_ = &p; }
  npurt::KernelLaunch& launch() { return launch_; }

 private:
  npurt::KernelLaunch launch_;
  const npurt::ChipProfile* profile_ = &npurt::chip_profile("Ascend910B3");
  std::vector<npurt::sim::GmRegion> regions_;
  std::vector<std::unique_ptr<void, FreeDeleter>> buffers_;
};

constexpr npurt::SimCheckLevel kOff = npurt::SimCheckLevel::kOff;
constexpr npurt::SimCheckLevel kBasic = npurt::SimCheckLevel::kBasic;
constexpr npurt::SimCheckLevel kFull = npurt::SimCheckLevel::kFull;

inline const char* level_name(npurt::SimCheckLevel l) {
  return l == kOff ? "off" : l == kBasic ? "basic" : "full";
}

// One launch (or a sequence) of an (x, z, workspace, tiling) kernel over n
// floats each: x[i] = i / 2 + 1, z zeroed. After `entry`, each of `then` runs
// on the same buffers while the launches stay clean; x and z are read back.
struct XzRun {
  npurt::Status status;
  npurt::sim::AicoreReport report;
  std::vector<float> x, z;
};

inline XzRun run_xz(npurt::SimKernelEntry entry, const char* name, npurt::SimCheckLevel level,
                    uint32_t n, uint32_t blocks, std::initializer_list<npurt::SimKernelEntry> then = {}) {
  SimLaunch L(entry, name);
  float* x = L.gm<float>(n, "x");
  float* z = L.gm<float>(n, "z");
  for (uint32_t i = 0; i < n; ++i) x[i] = float(i) * 0.5f + 1.0f;
  std::memset(z, 0, n * sizeof(float));
  XzRun r;
  r.status = L.run(blocks, level, &r.report);
  for (npurt::SimKernelEntry next : then) {
    if (!r.status.is_ok()) break;
    L.launch().sim_entry = next;
    r.status = L.run(blocks, level, &r.report);
  }
  r.x.assign(x, x + n);
  r.z.assign(z, z + n);
  return r;
}

}  // namespace aicore_test
