// npurt/device.h: device identity.
//
// A Device is a value (backend type + index). The runtime (npurt/runtime.h)
// owns one DeviceContext per device: its backend, chip profile, memory pool and
// default stream. Sim devices are numbered 0..NPURT_SIM_DEVICES-1.
#pragma once

#include <cstdint>
#include <string>

#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt {

enum class DeviceType : uint8_t { kSim = 0, kAscend = 1 };

struct Device {
  DeviceType type = DeviceType::kSim;
  int32_t index = 0;

  friend bool operator==(Device a, Device b) { return a.type == b.type && a.index == b.index; }
  friend bool operator!=(Device a, Device b) { return !(a == b); }
  std::string str() const;  // "sim:0", "ascend:1"
};

const char* device_type_name(DeviceType t);  // "sim", "ascend"

// Parses "sim", "sim:1", "ascend:0"; throws InvalidArgument.
Device parse_device(const std::string& s);

}  // namespace npurt
NPURT_PUBLIC_END
