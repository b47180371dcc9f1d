// runtime/backends/backend_registry.cc: backend_for(type).
//
// sim is created on first use and always available. ascend is probed once
// (dlopen of AscendCL); the result, or the reason it is unavailable, is cached
// for the life of the process. Both backends are leaked on purpose: stream
// worker threads may still use them while static objects are destroyed.
#include <mutex>

#include "backends/ascend/ascend_backend.h"
#include "backends/sim/sim_backend.h"
#include "npurt/backend.h"

namespace npurt {

namespace {

struct AscendProbe {
  std::once_flag once;
  Backend* backend = nullptr;
  std::string reason;
};

AscendProbe& ascend_probe() {
  static AscendProbe* probe = new AscendProbe;
  std::call_once(probe->once, [] {
    std::string reason;
    std::unique_ptr<Backend> b;
    Status st = capture_status([&] { b = ascend::create_ascend_backend(&reason); });
    if (!st.is_ok()) reason = "creating the ascend backend failed: " + st.message();
    if (!b && reason.empty()) reason = "AscendCL reported no usable device";
    probe->backend = b.release();
    probe->reason = probe->backend ? "" : reason;
  });
  return *probe;
}

}  // namespace

Backend* backend_for(DeviceType type) {
  switch (type) {
    case DeviceType::kSim: return &sim::SimBackend::instance();
    case DeviceType::kAscend: return ascend_probe().backend;
  }
  return nullptr;
}

std::string backend_unavailable_reason(DeviceType type) {
  switch (type) {
    case DeviceType::kSim: return "";
    case DeviceType::kAscend: return ascend_probe().reason;
  }
  return "unknown device type";
}

}  // namespace npurt
