// kernels/matmul/matmul_tiling.h: the tiling data of the `matmul` op, shared by
// the host tiling (matmul_op.cc) and the kernel (matmul_kernel.cc).
//
// y[b] = a[b] x op(b[b]) with a [batch, M, K], op(b) = b [K, N] or b^T for b
// [N, K] (trans_b); b_batch_stride 0 broadcasts one b over the batch. The
// output is cut into baseM x baseN tiles, (batch, tile row, tile col) in
// row-major order; block i computes tiles i, i + numBlocks, ... Each tile
// walks K in steps of kStep (matmul_tile.h).
// Invariants: baseM, baseN, kStep multiples of 16 with the L0/L1 footprints of
// one tile within the profile's capacities; M, N <= 4095 per Mmad is kept by
// baseM/baseN <= 128; K, N < 65536 (Nd2Nz strides are 16-bit).
#pragma once

#include <cstdint>

namespace npurt_kernels {

enum class MatmulDType : uint32_t { kF32 = 0, kF16 = 1, kBF16 = 2 };

struct MatmulTiling {
  uint32_t dtype;        // MatmulDType
  uint32_t batch, M, N, K;
  uint32_t baseM, baseN, kStep;
  uint32_t tilesM, tilesN;
  uint32_t transB;
  uint32_t bBatched;     // 0: b is shared by every batch entry
};

}  // namespace npurt_kernels
