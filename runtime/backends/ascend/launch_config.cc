// runtime/backends/ascend/launch_config.cc: see launch_config.h.
#include "backends/ascend/launch_config.h"

#include <string>

#include "npurt/status.h"

namespace npurt::ascend {

namespace {

aclrtLaunchKernelAttr attr(int id) {
  aclrtLaunchKernelAttr a{};  // zeroed: unused bytes of the union stay 0
  a.id = static_cast<aclrtLaunchKernelAttrId>(id);
  return a;
}

}  // namespace

LaunchConfig::LaunchConfig(const AscendLaunchAttrs& in, const char* kernel_name) {
  if (in.engine < -1 || in.engine > acl::kEngineTypeAiv)
    throw_invalid_argument(std::string("ascend launch '") + kernel_name + "'", "ascend.engine",
                           "must be -1 (unset), 0 (AIC) or 1 (AIV), got " + std::to_string(in.engine));
  if (in.schedule_mode) {
    attrs_.push_back(attr(acl::kLaunchAttrSchemMode));
    attrs_.back().value.schemMode = in.schedule_mode;
  }
  if (in.dyn_ubuf_bytes) {
    attrs_.push_back(attr(acl::kLaunchAttrDynUbufSize));
    attrs_.back().value.dynUBufSize = in.dyn_ubuf_bytes;
  }
  if (in.engine >= 0) {
    attrs_.push_back(attr(acl::kLaunchAttrEngineType));
    attrs_.back().value.rsv[0] = static_cast<uint32_t>(in.engine);  // engineType
  }
  if (in.block_dim_offset) {
    attrs_.push_back(attr(acl::kLaunchAttrBlockDimOffset));
    attrs_.back().value.blockDimOffset = in.block_dim_offset;
  }
  if (in.timeout_us) {
    attrs_.push_back(attr(acl::kLaunchAttrTimeoutUs));
    attrs_.back().value.rsv[0] = static_cast<uint32_t>(in.timeout_us);        // timeoutUs.timeoutLow
    attrs_.back().value.rsv[1] = static_cast<uint32_t>(in.timeout_us >> 32);  // timeoutUs.timeoutHigh
  }
  cfg_.attrs = attrs_.data();
  cfg_.numAttrs = attrs_.size();
}

}  // namespace npurt::ascend
