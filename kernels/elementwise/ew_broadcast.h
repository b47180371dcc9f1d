// kernels/elementwise/ew_broadcast.h: host-side shape logic of the elementwise
// family: numpy broadcasting of input shapes, and the collapsed iteration
// space (output shape + per-input element strides) the kernel walks.
//
// Invariants of EwLayout: ndim >= 1; no size-1 dims; adjacent dims merged when
// every operand is contiguous across them; strides are 0 on broadcast dims.
#pragma once

#include <cstdint>
#include <string>

#include "elementwise/ew_tiling.h"
#include "npurt/op_def.h"

namespace npurt::kernels::ew {

std::string dims_str(const Dims& d);

// Broadcast shape of a and b; on mismatch returns false and a reason.
bool broadcast_shapes(const Dims& a, const Dims& b, Dims& out, std::string& reason);

struct EwLayout {
  int ndim = 1;
  int64_t shape[kEwMaxDims] = {1};
  int64_t strides[kEwMaxInputs][kEwMaxDims] = {};
};

// Builds the collapsed layout of `num_inputs` specs broadcast to out_shape.
// Returns false when more than kEwMaxDims dims remain after merging.
bool collapse_layout(const Dims& out_shape, const TensorSpec* inputs, int num_inputs, EwLayout& layout);

}  // namespace npurt::kernels::ew
