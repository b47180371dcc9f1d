// kernels/matmul/matmul_tiling.h: the tiling data of `matmul` and
// `matmul_backward`, shared by the host tiling (matmul_op.cc, matmul_plan.cc)
// and the kernel (matmul_kernel.cc).
//
// A launch solves 1 (forward) or 2 (backward: da, db) problems. A problem is
// C[o] = sum over r of op(X[o, r]) x op(W[o, r]) (+ bias) for every output
// batch index o, with r running over the reduction batch (the broadcast dims a
// gradient sums over; forward: one r). Batch dims are listed outer to inner:
// the first nOut are output dims, the next nRed reduction dims; strideX /
// strideW give each operand's element stride along them (0: broadcast). C is
// contiguous [outCount, M, N]. Each problem's output is cut into baseM x baseN
// tiles, ordered by o, then (tile row, tile col) row-major, or column-major
// when baseN > baseM (matmul_kernel.cc, TileOrderMFast); the tiles of all
// problems form one list and block i takes the i-th contiguous range of it;
// each tile walks K in steps of kStep (matmul_tile.h), copying A and B into
// L1 kL1A / kL1B elements of K at a time (double-buffered).
// Invariants: baseM, baseN, kStep multiples of 16, kL1A / kL1B multiples of
// kStep, with the L0/L1 footprints of one tile within the profile's capacities; baseM/baseN <= 256 (Mmad's m/n
// <= 4095, bias table 256 floats; the plan picks 128x128, 128x256 or 256x128); M, N, K and every ld < 65536 (Nd2Nz
// strides are 16-bit); nOut + nRed <= kMaxBatchDims.
#pragma once

#include <cstdint>

namespace npurt_kernels {

enum class MatmulDType : uint32_t { kF32 = 0, kF16 = 1, kBF16 = 2 };
enum class MatmulBias : uint32_t { kNone = 0, kF32 = 1, kInput = 2 };
constexpr uint32_t kMaxBatchDims = 12;

struct MatmulProblem {
  uint32_t argX, argW, argC;    // kernel argument slots of X, W and C
  uint32_t M, N, K;             // C is M x N; K is the contracted length
  uint32_t transX, transW;      // X stored [K, M] / W stored [N, K]
  uint32_t ldx, ldw;            // stored row lengths
  uint32_t tilesM, tilesN;
  uint32_t nOut, nRed;
  uint64_t outCount, redCount;  // products of the out / reduction dims
  uint64_t sizeX, sizeW;        // elements of the X / W allocations
  uint32_t shape[kMaxBatchDims];
  uint64_t strideX[kMaxBatchDims], strideW[kMaxBatchDims];
};

struct MatmulTiling {
  uint32_t dtype, outDtype;     // MatmulDType of X/W and of C
  uint32_t bias;                // MatmulBias (forward only; arg slot 2)
  uint32_t baseM, baseN, kStep;
  uint32_t kL1A, kL1B;          // K elements of A / B per GM -> L1 copy (multiples of kStep)
  uint32_t nProblems;
  MatmulProblem p[2];
};

}  // namespace npurt_kernels
