// kernels/attention/attention_tiling.h: the tiling data shared by the host side
// of `attention` / `attention_backward` (attention_op.cc) and their kernels.
//
// Inputs are seen as q [BH, Sq, D], k/v [BH, Skv, D] (BH = batch * heads),
// out [BH, Sq, D], lse [BH, Sq] float32, all contiguous. Queries and keys are
// cut into tiles of `tile` rows (the last one may be shorter); the forward and
// the dQ pass give each block (bh, q tile) work items, the dK/dV pass (bh, kv
// tile) items; block i takes items i, i + numBlocks, ...
// The optional mask is read at maskBase(b, h) + i * maskStrideQ + j * maskStrideK
// with broadcast dimensions at stride 0 (so it is never expanded in GM).
// Invariants (the host guarantees them): tile a multiple of 16 and <= 128,
// dp = D rounded up to 16, every UB / L0 / L1 buffer of one tile within the
// profile; each block owns wsPerBlock bytes of the user workspace.
#pragma once

#include <cstdint>

namespace npurt_kernels {

// Floats per row slot of the forward's row statistics (m, l, ...): row r's value
// at element kAttnStatLane * r, so the row sums of a 128-wide tile arrive
// there from dense whole-tile reductions (attention_row_sums.h).
constexpr uint32_t kAttnStatLane = 16;

enum class AttnDType : uint32_t { kF32 = 0, kF16 = 1, kBF16 = 2 };
// kNone: no mask; kBool: True = keep (uint8 0/1); the others: additive bias.
enum class AttnMask : uint32_t { kNone = 0, kBool = 1, kF32 = 2, kF16 = 3, kBF16 = 4 };

struct AttnTiling {
  uint32_t dtype;        // AttnDType of q, k, v (and dout, out)
  uint32_t maskKind;     // AttnMask
  uint32_t causal;       // 1: key j is kept for query i iff j <= i (top-left aligned)
  uint32_t batchHeads;   // BH
  uint32_t heads;        // H (1 for [B, S, D] inputs): b = bh / heads, h = bh % heads
  uint32_t sq, skv, d, dp;
  uint32_t tile;         // rows of a q tile and of a kv tile
  uint32_t qTiles, kvTiles;
  uint32_t kStep;        // cube K step (CubeTile)
  uint32_t dqBlocks;     // backward: work items of the dQ pass (BH * qTiles); dK/dV items follow
  float scale;
  uint32_t scaleInQ;     // forward: 1 = the kernel multiplies each Q tile by scale once per item
                         // (exact: float, or a power-of-two scale); score tiles skip the scale
  uint32_t kCacheTiles;  // forward: K tiles kt < this keep their L1 image per head (AttnScoreCube)
  uint32_t vCacheTiles;  // forward: V tiles kt < this keep their L1 image per head (AttnValueCube)
  int64_t maskStrideB, maskStrideH, maskStrideQ, maskStrideK;  // elements, 0 = broadcast
  uint64_t wsPerBlock;   // bytes of user workspace per block
};

}  // namespace npurt_kernels
