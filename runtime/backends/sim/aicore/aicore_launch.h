// runtime/backends/sim/aicore/aicore_launch.h: how the sim backend runs a kernel
// on simulated AI cores (internal interface between backends/sim and aicore/).
//
// The sim backend resolves every GM pointer of a launch (arguments, workspace,
// tiling) to the device allocation that contains it and passes those regions;
// the simulated core checks every GM access against them. run_aicore_kernel runs
// launch.num_blocks simulated cores on ThreadPool::compute(), each with its own
// UB/L1/L0 arenas of the profile's size, and returns the first diagnostic as a
// kKernelFault Status (kernel name, block index, API, addresses, rule broken).
// A failing core stops alone; the process and other launches are unaffected.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npurt/backend.h"
#include "npurt/chip_profile.h"
#include "npurt/status.h"

namespace npurt::sim {

struct GmRegion {
  uintptr_t begin = 0;
  uintptr_t end = 0;     // exclusive: begin + requested allocation size
  std::string what;      // a description built by the caller (tests, resolvers); may be empty
  // A static name ("arg 0", "workspace", "tiling"): what the sim stream sets on
  // every launch, so naming a region copies a pointer, not a string. Wins over `what`.
  const char* label = nullptr;
  std::string name() const { return label ? std::string(label) : what; }
};

struct AicoreLaunch {
  const KernelLaunch* launch = nullptr;
  const ChipProfile* profile = nullptr;
  std::vector<GmRegion> regions;
};

Status run_aicore_kernel(const AicoreLaunch& launch);

// One diagnostic of a launch, structured (the Status message is its text).
struct AicoreDiagnostic {
  std::string code;     // "ErrorGmRead", "ErrorLeak", ... (aicore/fault.h)
  std::string api;      // "DataCopy", "TQue::DeQue", "kernel end", ...
  uint32_t block = 0;   // block index that faulted
  std::string detail;   // addresses, sizes and the rule broken
  std::string message;  // "kernel 'k' block 3/8: DataCopy: ErrorGmRead: ..."
};

// What run_aicore_kernel found: the first diagnostic of every faulted block in
// block order, then (level full) at most one multi-core write overlap.
struct AicoreReport {
  std::vector<AicoreDiagnostic> diagnostics;
};

// As above; also fills *report (may be null). The returned Status carries the
// diagnostic of the lowest faulted block (or the overlap) and how many blocks faulted.
Status run_aicore_kernel(const AicoreLaunch& launch, AicoreReport* report);

}  // namespace npurt::sim
