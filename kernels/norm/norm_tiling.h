// kernels/norm/norm_tiling.h: tiling data of the norm family (layer_norm,
// rms_norm and their backward kernels), shared by host and device code.
//
// x is viewed as [rows, cols] (cols = last dim). `rows_plan` (split over rows)
// drives the row-wise part: forward y/mean/rstd, backward dx. `cols_plan`
// (split over columns, backward only) drives the cross-row reduction of
// dgamma/dbeta: each core owns a range of columns and sums over every row in
// float32, so no cross-core atomics or synchronisation are needed and the
// result is deterministic. A kernel runs max(rows_plan, cols_plan) blocks;
// a block with no share of one part skips it.
#pragma once

#include <cstdint>

#include "npurt/tiling.h"

namespace npurt::kernels {

enum class NormKind : uint32_t { kLayer = 0, kRms = 1 };

struct NormTiling {
  npurt::tiling::RowTilingData rows_plan;
  npurt::tiling::RowTilingData cols_plan;  // backward only (num_blocks 0 otherwise)
  uint32_t kind = 0;        // NormKind
  uint32_t in_dtype = 0;    // npurt::DType of x (and dy, gamma, beta)
  uint32_t out_dtype = 0;   // npurt::DType of y / dx / dgamma / dbeta
  uint32_t has_gamma = 0;
  uint32_t has_beta = 0;
  float eps = 0.0f;
  float inv_cols = 0.0f;    // 1 / cols
};

}  // namespace npurt::kernels
