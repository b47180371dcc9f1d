// kernels/elementwise/ew_act_tiling.h: tiling facts of the activation ops
// shared by host and kernel: gelu's form codes (EwTiling::variant) and the
// two-pass tiling of swiglu_backward.
//
// Invariant: SwigluBackwardTiling's passes cover the same iteration space
// (dy's shape) with the same core split; pass da writes dx[..., :h]
// (out_offset 0), pass db writes dx[..., h:] (out_offset h), both with
// out_row = h and out_pitch = 2h.
#pragma once

#include <cstdint>

#include "elementwise/ew_tiling.h"

namespace npurt::kernels::ew {

constexpr uint32_t kGeluErf = 0;
constexpr uint32_t kGeluTanh = 1;

struct SwigluBackwardTiling {
  EwTiling da;
  EwTiling db;
};

}  // namespace npurt::kernels::ew
