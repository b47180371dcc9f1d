// sdk_python/bindings/mask_assign.h: x[mask] = values from C++ (mask_assign.cpp),
// for indexing.cpp's fast path.
#pragma once

#include "npurt/tensor.h"

namespace npurt::python {

// x[mask] = values for a contiguous, writable x on the current device, a bool
// mask on x's device whose shape is x's leading shape (ndim >= 1), values of
// x's dtype, contiguous, not in x's storage. One element (any shape up to
// x's rank): one in-place `where` (no compaction, no host read) where that
// op takes x's dtype on x's device, else as below with the element repeated.
// Otherwise: mask_count, cumsum of the 64 block counts, one 8-byte read of
// the total (numpy checks the values against it at the call), mask_positions
// and one scatter. False (nothing written) when values' shape is not
// (count,) + x.shape[mask.ndim:] or one element: the Python path raises.
bool mask_assign(const Tensor& x, const Tensor& mask, const Tensor& values);

}  // namespace npurt::python
