// kernels/matmul/matmul_tile.h: the cube tile engine used by the matmul
// kernels, CubeTile / CubeOperand / CubeTileShape; it lives with the
// high-level Matmul API it also drives (lib/matmul/cube_tile.h).
#pragma once

#include "lib/matmul/cube_tile.h"

namespace npurt_kernels {
using AscendC::matmul_impl::CubeOperand;
using AscendC::matmul_impl::CubeTile;
using AscendC::matmul_impl::CubeTileShape;
}  // namespace npurt_kernels
