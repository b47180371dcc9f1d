// runtime/backends/ascend/device_profile.h: the ChipProfile of a real device.
//
// Tiling reads core counts and buffer sizes from the ChipProfile. On a real
// NPU npurt starts from the built-in profile whose model matches the SoC name
// AscendCL reports (aclrtGetSocName), then overrides what the device itself
// reports (aclrtGetDeviceInfo: cube/vector/AI-core counts, global memory, L2),
// because virtualised or binned parts expose fewer cores than the datasheet.
//
// Invariants:
//   - builtin_profile_name_for_soc() returns "" for SoCs npurt has no profile
//     for (e.g. Ascend310B, Ascend950); the backend then refuses the device
//     with a message naming the SoC instead of guessing its UB size.
//   - Attributes the device did not report (value <= 0) keep the built-in value.
#pragma once

#include <cstdint>
#include <string>

#include "npurt/chip_profile.h"

namespace npurt::ascend {

// "Ascend910B3" -> "Ascend910B3"; "Ascend910B4-1" -> "Ascend910B4";
// "Ascend910_9391" -> "Ascend910_93"; "Ascend310P1" -> "Ascend310P3" (same core design).
std::string builtin_profile_name_for_soc(const std::string& soc_name);

struct DeviceAttributes {
  int64_t aicore_cores = -1;   // ACL_DEV_ATTR_AICORE_CORE_NUM
  int64_t cube_cores = -1;     // ACL_DEV_ATTR_CUBE_CORE_NUM
  int64_t vector_cores = -1;   // ACL_DEV_ATTR_VECTOR_CORE_NUM
  int64_t global_mem = -1;     // ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE
  int64_t l2_bytes = -1;       // ACL_DEV_ATTR_L2_CACHE_SIZE
};

// The built-in profile for `soc_name` with the device's reported values applied.
// Throws Unavailable naming the SoC when npurt has no profile for it.
ChipProfile device_chip_profile(const std::string& soc_name, const DeviceAttributes& attrs);

}  // namespace npurt::ascend
