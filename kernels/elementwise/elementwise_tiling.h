// kernels/elementwise/elementwise_tiling.h: the tiling data of the contiguous
// elementwise family (shared by host tiling and the kernels).
//
// Core b processes elements [b * per_core, min(total, (b + 1) * per_core)) in
// tiles of `tile` elements (a multiple of 32 bytes); per_core is a multiple of
// 32 bytes too, so every core's GM start is 32-byte aligned.
#pragma once

#include <cstdint>

namespace npurt::kernels {

struct ElementwiseTiling {
  uint64_t total = 0;
  uint64_t per_core = 0;
  uint32_t tile = 0;
  uint32_t dtype = 0;      // npurt::DType of the inputs
};

}  // namespace npurt::kernels
