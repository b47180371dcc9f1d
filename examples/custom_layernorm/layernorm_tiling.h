// examples/custom_layernorm/layernorm_tiling.h: the tiling data shared by the
// host tiling (layernorm_op.cc) and the kernel (layernorm_kernel.cc).
//
// x is [rows, d] (all leading dims flattened). Core b normalizes rows
// [b * rows_per_core, min(rows, (b + 1) * rows_per_core)), `rows_per_tile`
// rows per UB tile. Every row occupies d_aligned floats in UB (d rounded up to
// 32 bytes) so each row starts 32-byte aligned; the x and y queues hold two
// tiles each (double buffering).
#pragma once

#include <cstdint>

struct LayerNormTiling {
  uint64_t rows = 0;
  uint64_t rows_per_core = 0;
  uint32_t d = 0;
  uint32_t d_aligned = 0;
  uint32_t rows_per_tile = 0;
  uint32_t has_gamma = 0;
  uint32_t has_beta = 0;
  float eps = 1e-5f;
};
