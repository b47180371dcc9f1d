// runtime/backends/ascend/device_profile.cc: SoC name + device attributes -> ChipProfile.
#include "backends/ascend/device_profile.h"

#include "npurt/status.h"

namespace npurt::ascend {

namespace {

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

std::string builtin_profile_name_for_soc(const std::string& soc_name) {
  // Atlas A3 (Ascend910_93xx) share one profile; the suffix is the SKU.
  if (starts_with(soc_name, "Ascend910_93")) return "Ascend910_93";
  // 310P variants share the AI Core design (UB/L1/L0 sizes); core counts come
  // from the device attributes.
  if (starts_with(soc_name, "Ascend310P")) return "Ascend310P3";
  // Atlas A2: Ascend910B1..B4 plus variants such as B2C / B4-1 with the same core.
  if (starts_with(soc_name, "Ascend910B") && soc_name.size() >= 11) {
    char model = soc_name[10];
    if (model >= '1' && model <= '4') return soc_name.substr(0, 11);
  }
  return "";
}

ChipProfile device_chip_profile(const std::string& soc_name, const DeviceAttributes& attrs) {
  const std::string builtin = builtin_profile_name_for_soc(soc_name);
  if (builtin.empty()) {
    throw Unavailable("ascend: SoC '" + soc_name +
                      "' has no npurt chip profile (supported: Ascend910B1-B4, Ascend910_93xx, "
                      "Ascend310P*); tiling cannot run without its buffer sizes");
  }
  ChipProfile p = chip_profile(builtin);
  p.name = soc_name;
  if (p.separated) {
    if (attrs.cube_cores > 0) p.cube_cores = static_cast<uint32_t>(attrs.cube_cores);
    if (attrs.vector_cores > 0) p.vector_cores = static_cast<uint32_t>(attrs.vector_cores);
  } else if (attrs.aicore_cores > 0) {
    // Coupled arch: one AI Core runs both; GetCoreNumAic/Aiv return the AI Core count.
    p.cube_cores = p.vector_cores = static_cast<uint32_t>(attrs.aicore_cores);
  }
  if (attrs.global_mem > 0) p.hbm_bytes = static_cast<uint64_t>(attrs.global_mem);
  if (attrs.l2_bytes > 0) p.l2_bytes = static_cast<uint64_t>(attrs.l2_bytes);
  return p;
}

}  // namespace npurt::ascend
