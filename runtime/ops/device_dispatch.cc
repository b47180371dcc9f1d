// runtime/ops/device_dispatch.cc: the dispatcher's path for backends that run
// CANN-built kernel binaries (see device_dispatch.h). Not on the sim hot path.
#include "device_dispatch.h"

#include <string>

#include "npurt/dispatch.h"
#include "npurt/runtime.h"
#include "npurt/sim_check.h"
#include "npurt/status.h"

namespace npurt {

namespace {

const OpHandle& device_copy_op() {
  static const OpHandle h = OpHandle::find("copy");
  return h;
}

}  // namespace

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

KernelLaunch build_device_launch(const RegisteredOp& op, const TilingPlan& plan, Span<const Tensor> inputs,
                                 Span<const Tensor> outputs, const Stream& stream, void* workspace,
                                 uint64_t ws_bytes, std::vector<Tensor>* temps) {
  const OpDef& def = op.def;
  const Device device = stream.device();
  KernelLaunch launch;
  launch.kernel_name = device_kernel_name(def);
  // Resolved (and cached) by check_device_launchable: a map lookup here.
  launch.device_function = device_context(device).backend().kernel_function(device.index, launch.kernel_name);
  launch.num_blocks = plan.num_blocks;
  temps->reserve(def.inputs.size());  // pointers into temps stay valid below
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    if (i >= inputs.size() || !inputs[i].defined()) {
      launch.args.push_back(nullptr);
      continue;
    }
    const Tensor* t = &inputs[i];
    if (!def.inputs[i].strided && !t->is_contiguous()) {  // the copy kernel runs on the device too
      Tensor out[1];
      dispatch(device_copy_op(), Span<const Tensor>(t, 1), {}, stream, Span<Tensor>(out, 1));
      temps->push_back(out[0]);
      t = &temps->back();
    }
    if (t->storage() && t->stream() != stream) t->storage()->record_stream(stream);
    launch.args.push_back(t->data());
  }
  for (const Tensor& o : outputs) launch.args.push_back(o.data());
  launch.tiling.assign(plan.tiling.begin(), plan.tiling.end());
  launch.workspace = workspace;
  launch.workspace_bytes = static_cast<size_t>(ws_bytes);
  return launch;
}

}  // namespace npurt
