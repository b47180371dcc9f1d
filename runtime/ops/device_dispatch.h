// runtime/ops/device_dispatch.h: launching registered ops on a device backend
// whose kernels are CANN-built binaries (ascend), not sim entry points.
//
// The dispatcher's sim path stays in dispatcher.cc; for any other device type
// it calls these two functions:
//   - check_device_launchable() right after the plan is resolved and BEFORE any
//     output or workspace is allocated (resolve_plan has already refused the
//     dtypes an input declares sim-only: dispatch_checks.cc): refuses an op
//     whose device kernel no loaded binary exports, naming the op and the
//     kernel. It resolves the device function through Backend::kernel_function
//     (cached per device by the ascend launcher), so a refusal leaves nothing
//     allocated and the runtime usable.
//   - bind_device_kernel() sets the launch's kernel_name = device_kernel_name()
//     and device_function; everything else of the KernelLaunch (argument slots
//     in kernel order, strided inputs of non-strided kernels made contiguous
//     first by the copy op on the same stream, tiling bytes, workspace = system
//     workspace of the device's chip profile + op workspace, num_blocks of the
//     plan, which was tiled with that device's ChipProfile) is built by the
//     dispatcher exactly as for sim.
//
// Device kernel naming, one rule for every op: the device kernel of an op is
// its KernelBinding::ascend_kernel_name when set (OpDefBuilder::ascend_kernel,
// for plugins whose device symbol differs), else its sim kernel name. The sim
// kernel name given to .sim_kernel(name, NPURT_SIM_ENTRY(fn)) is the
// `extern "C" __global__ __aicore__` entry fn itself, which is also the symbol
// cmake/ascend_kernels.cmake's device build exports (the NPURT_SIM_ENTRY thunk
// is compiled out there). tests/runtime/backends/ascend/dispatch checks the
// rule for every built-in op against the entries in kernels/.
#pragma once

#include "npurt/backend.h"
#include "npurt/device.h"
#include "npurt/op_def.h"
#include "tiling_cache.h"

namespace npurt {

// The symbol the op's device kernel binary exports ("" when the op has none).
const char* device_kernel_name(const OpDef& def);

// Throws (NotFound, or Unimplemented when the op names no device kernel) unless
// the op's device kernel can be launched on `device`.
void check_device_launchable(const RegisteredOp& op, Device device);

// Points `launch` at the op's device kernel on `device` (which passed
// check_device_launchable): kernel_name and device_function.
void bind_device_kernel(const OpDef& def, Device device, KernelLaunch& launch);

}  // namespace npurt
