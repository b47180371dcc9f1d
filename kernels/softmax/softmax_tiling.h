// kernels/softmax/softmax_tiling.h: tiling data of the softmax family
// (softmax, log_softmax and their backward kernels), shared by host and
// device code. The input is viewed as [rows, cols] over the last axis; `plan`
// comes from the tiling engine (npurt/tiling.h), split over rows. A plan with
// num_chunks > 1 is the online (multi-pass) form: pass 1 keeps a running
// max and rescaled sum over the chunks, pass 2 writes the output. A forward op
// over another axis uses the column plan instead (axis_len > 0).
#pragma once

#include <cstdint>

#include "npurt/tiling.h"

namespace npurt::kernels {

enum class SoftmaxKind : uint32_t { kSoftmax = 0, kLogSoftmax = 1 };

struct SoftmaxTiling {
  npurt::tiling::RowTilingData plan;
  uint32_t kind = 0;       // SoftmaxKind
  uint32_t in_dtype = 0;   // npurt::DType of x (forward) or dy and y (backward)
  uint32_t out_dtype = 0;  // npurt::DType of y (forward) or dx (backward)
  uint32_t pad = 0;
  // > 0: the column plan of a forward op over a non-last axis of this length
  // (softmax_columns.h; plan.rows = outer * axis_len, plan.cols = inner).
  uint64_t axis_len = 0;
};

}  // namespace npurt::kernels
