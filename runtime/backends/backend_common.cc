// runtime/backends/backend_common.cc: names and descriptions shared by all backends.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "npurt/backend.h"
#include "npurt/sim_check.h"

namespace npurt {

const char* copy_kind_name(CopyKind k) {
  switch (k) {
    case CopyKind::kHostToHost: return "H2H";
    case CopyKind::kHostToDevice: return "H2D";
    case CopyKind::kDeviceToHost: return "D2H";
    case CopyKind::kDeviceToDevice: return "D2D";
  }
  return "?";
}

// The level used when NPURT_SIM_CHECK is unset: a build option (CMake
// NPURT_SIM_CHECK_DEFAULT, conan option sim_check) so packagers can pick it.
#ifndef NPURT_SIM_CHECK_DEFAULT
#define NPURT_SIM_CHECK_DEFAULT 1
#endif
static_assert(NPURT_SIM_CHECK_DEFAULT >= 0 && NPURT_SIM_CHECK_DEFAULT <= 2,
              "NPURT_SIM_CHECK_DEFAULT must be 0 (off), 1 (basic) or 2 (full)");

// The level launches use, read from the environment once: a getenv per launch
// was ~300 instructions of a ~5,000-instruction tiny-op dispatch. -1 = not read yet.
static std::atomic<int> g_sim_check_level{-1};

SimCheckLevel sim_check_level() {
  int v = g_sim_check_level.load(std::memory_order_relaxed);
  if (v < 0) {
    v = static_cast<int>(sim_check_level_from_env());
    g_sim_check_level.store(v, std::memory_order_relaxed);
  }
  return static_cast<SimCheckLevel>(v);
}

void set_sim_check_level(SimCheckLevel level) {
  g_sim_check_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

SimCheckLevel reload_sim_check_level() {
  const SimCheckLevel level = sim_check_level_from_env();
  set_sim_check_level(level);
  return level;
}

SimCheckLevel sim_check_level_from_env() {
  const char* v = std::getenv("NPURT_SIM_CHECK");
  if (!v || !*v) return static_cast<SimCheckLevel>(NPURT_SIM_CHECK_DEFAULT);
  if (std::strcmp(v, "off") == 0 || std::strcmp(v, "0") == 0) return SimCheckLevel::kOff;
  if (std::strcmp(v, "full") == 0 || std::strcmp(v, "2") == 0) return SimCheckLevel::kFull;
  return SimCheckLevel::kBasic;
}

std::string Command::describe() const {
  switch (kind) {
    case Kind::kCopy:
      return std::string("copy ") + copy_kind_name(copy_kind) + " " + std::to_string(bytes) + " bytes";
    case Kind::kMemset:
      return "memset " + std::to_string(bytes) + " bytes";
    case Kind::kLaunch:
      return std::string("launch ") + (launch.kernel_name && *launch.kernel_name ? launch.kernel_name : "<unnamed kernel>");
    case Kind::kHostFunc: return "host function";
    case Kind::kEventRecord: return "event record";
    case Kind::kEventWait: return "event wait";
  }
  return "command";
}

}  // namespace npurt
