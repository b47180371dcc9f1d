// kernels/elementwise/binary_kernels.cc: the kernel entries of the binary family
// (device code; one line each, the body is RunBinary<Op>).
#include "elementwise/binary_kernel.h"

extern "C" __global__ __aicore__ void npurt_add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                       GM_ADDR tiling) {
  (void)workspace;
  npurt::kernels::RunBinary<npurt::kernels::AddOp>(x, y, z, tiling);
}

extern "C" __global__ __aicore__ void npurt_mul_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                       GM_ADDR tiling) {
  (void)workspace;
  npurt::kernels::RunBinary<npurt::kernels::MulOp>(x, y, z, tiling);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
// The sim entries the registration binds (a C++ function pointer per kernel).
#include "elementwise/binary_entries.h"
namespace npurt::kernels {
const SimKernelEntry kAddKernelEntry = NPURT_SIM_ENTRY(npurt_add_kernel);
const SimKernelEntry kMulKernelEntry = NPURT_SIM_ENTRY(npurt_mul_kernel);
}  // namespace npurt::kernels
#endif  // NPURT_ASCEND_DEVICE_BUILD
