// runtime/ops/device_dispatch.cc: the dispatcher's path for backends that run
// CANN-built kernel binaries (see device_dispatch.h). Not on the sim hot path.
#include "device_dispatch.h"

#include <string>

#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt {

const char* device_kernel_name(const OpDef& def) {
  const std::string& name =
      def.kernel.ascend_kernel_name.empty() ? def.kernel.sim_kernel_name : def.kernel.ascend_kernel_name;
  return name.c_str();
}

void check_device_launchable(const RegisteredOp& op, Device device) {
  const OpDef& def = op.def;
  const char* name = device_kernel_name(def);
  if (name[0] == '\0')
    throw Error(StatusCode::kUnimplemented, op.where + ": the op has no device kernel for the " +
                                                device_type_name(device.type) + " backend (sim-only op)");
  try {
    device_context(device).backend().kernel_function(device.index, name);  // cached per device
  } catch (const Error& e) {
    throw_error(e.code(), op.where + ": device kernel '" + name + "' cannot be loaded on " + device.str() + ": " +
                              e.what());  // same code, so the same Error subclass
  }
}

void bind_device_kernel(const OpDef& def, Device device, KernelLaunch& launch) {
  launch.kernel_name = device_kernel_name(def);
  // Resolved (and cached) by check_device_launchable: a map lookup here.
  launch.device_function = device_context(device).backend().kernel_function(device.index, launch.kernel_name);
}

}  // namespace npurt
