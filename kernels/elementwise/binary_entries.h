// kernels/elementwise/binary_entries.h: sim entry points of the binary family,
// shared between the device code (binary_kernels.cc) and the registration.
#pragma once

#include "npurt/backend.h"

namespace npurt::kernels {
extern const SimKernelEntry kAddKernelEntry;
extern const SimKernelEntry kMulKernelEntry;
}  // namespace npurt::kernels
