// runtime/backends/ascend/launch_config.h: the aclrtLaunchKernelCfg of one launch.
//
// Built from KernelLaunch::ascend (npurt/backend.h): one aclrtLaunchKernelAttr
// per attribute that is set (non-zero; engine >= 0), in attribute-id order, so
// a launch without attributes passes a null config (AscendCL's defaults).
// Values go into the documented union members (schemMode, dynUBufSize,
// blockDimOffset); engineType and timeoutUs{low, high}, which the backend's own
// declarations do not name, are written to rsv[0..1], which they overlay
// (static_asserted against the real headers in acl_signature_check.cc).
//
// Invariants: get() points into this object: keep it alive until the launch
// call returned (AscendCL copies the attributes at launch). engine is -1, 0
// (AIC) or 1 (AIV); anything else throws InvalidArgument naming the kernel.
#pragma once

#include <vector>

#include "backends/ascend/acl_types.h"
#include "npurt/backend.h"

namespace npurt::ascend {

class LaunchConfig {
 public:
  LaunchConfig(const AscendLaunchAttrs& attrs, const char* kernel_name);
  LaunchConfig(const LaunchConfig&) = delete;
  LaunchConfig& operator=(const LaunchConfig&) = delete;
  // nullptr when no attribute is set.
  aclrtLaunchKernelCfg* get() { return attrs_.empty() ? nullptr : &cfg_; }
  const std::vector<aclrtLaunchKernelAttr>& attrs() const { return attrs_; }

 private:
  std::vector<aclrtLaunchKernelAttr> attrs_;
  aclrtLaunchKernelCfg cfg_{};
};

}  // namespace npurt::ascend
