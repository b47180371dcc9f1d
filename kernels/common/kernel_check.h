// kernels/common/kernel_check.h: what a kernel does when data it reads from GM
// break its op's contract (an index outside its axis). Tiling and shapes are
// checked on the host before the launch; device data are not: the host cannot
// read them without a synchronization and a device-to-host copy per call. So
// the kernel checks and stops, as PyTorch's CUDA kernels do with device-side
// asserts (CuPy does not check: it wraps out-of-bounds indices):
//   - sim: a KernelFault (code ErrorParam: the kernel's input is invalid)
//     whose detail reads like a host argument error, e.g. "npurt.ops.gather:
//     ErrorParam: argument 'indices': index 7 (flat position 2) is out of
//     range for axis 0 of size 3". Like every kernel fault it is raised when
//     the launch runs, so Python sees it at the next synchronization of the
//     stream (x.numpy(), nr.synchronize());
//   - device build (CANN): trap() stops the core (what CANN's own kernel
//     assert does after printing); the runtime reports the ACL error
//     (ACL_ERROR_RT_AICORE_TRAP_EXCEPTION) as a KernelFault.
// The failure path is out of line and cold: the checking loops keep one
// compare and a never-taken branch per index.
#pragma once

#include <cstdint>

#include "kernel_operator.h"

#ifndef NPURT_ASCEND_DEVICE_BUILD
#include <string>
#endif

namespace npurt::kernels {

__attribute__((noinline, cold)) __aicore__ inline void IndexOutOfRange(const char* op, const char* arg, int64_t index,
                                                                         uint64_t position, uint32_t axis,
                                                                         uint64_t size) {
#ifdef NPURT_ASCEND_DEVICE_BUILD
  (void)op, (void)arg, (void)index, (void)position, (void)axis, (void)size;
  trap();
#else
  npurt::sim::raise_fault(npurt::sim::Diag::kParam, op,
                          std::string("argument '") + arg + "': index " + std::to_string(index) +
                              " (flat position " + std::to_string(position) + ") is out of range for axis " +
                              std::to_string(axis) + " of size " + std::to_string(size));
#endif
}

// Stops the kernel (above) unless 0 <= index < size.
__aicore__ inline void CheckIndex(int64_t index, uint64_t size, const char* op, const char* arg, uint64_t position,
                                  uint32_t axis) {
  if (static_cast<uint64_t>(index) >= size) IndexOutOfRange(op, arg, index, position, axis, size);
}

}  // namespace npurt::kernels
