// kernels/attention/attention_row_scale.h: x[r, :d] = x[r, :d] op v_r (op: *,
// / or -) for a float tile [rows, pitch] in UB (the forward's accumulator or
// score tile), where v_r is a row statistic in the forward's slot layout (row
// r at stat[kAttnStatLane r]).
//
// Why: the accumulator's rescale (alpha per row), Finish's 1 / l per row and
// the per-row reference subtraction of the softmax were one Muls / Adds per
// row, 128 scalar-operand instructions per tile. Here `Brcb`
// turns the statistics into one 32-B block per row (8 copies of v_r) and one
// level-0 Mul / Div / Sub per 64 columns handles every row: the block is read with
// src1BlkStride 0 (the same 8 values for every block of the repeat) and
// src1RepStride 16 (the next row's block), one repeat per row.
// Brcb reads 8 consecutive statistics per repeat: repeat 2r reads row r's slot
// (lanes 16 r .. 16 r + 7) and writes 8 blocks, of which block 0 (v_r) is
// used; the other blocks carry the slot's unused lanes and are never read.
// Invariants: stat lanes 16 r .. 16 r + 15 defined for r < rows (the
// forward's statistics are written whole); pitch a multiple of 16 and <= 256
// (repeat strides in blocks fit uint8); `scratch` holds scratchElems floats,
// >= 128 (one row per Brcb chunk; a 16-row tile's S buffer has 256), disjoint from stat and x; all 32-B aligned.
#pragma once

#include <cstdint>

#include "attention/attention_tiling.h"
#include "kernel_operator.h"

namespace npurt_kernels {

static_assert(kAttnStatLane == 16, "AttnScaleRows reads a row's value at repeat 2 r of Brcb");

enum class AttnRowOp { kMul, kDiv, kSub };

template <AttnRowOp kOp>
__aicore__ inline void AttnScaleRows(const AscendC::LocalTensor<float>& x, uint32_t pitch, uint32_t d, uint32_t rows,
                                     const AscendC::LocalTensor<float>& stat, const AscendC::LocalTensor<float>& scratch,
                                     uint32_t scratchElems) {
  constexpr uint32_t kPerRow = 8 * kAttnStatLane;  // Brcb output floats per row: 2 repeats of 8 blocks of 8
  uint32_t chunk = scratchElems / kPerRow;
  chunk = chunk > 64 ? 64 : chunk;  // 2 * chunk Brcb repeats <= 255
  const uint8_t pitchBlocks = static_cast<uint8_t>(pitch / 8);
  const AscendC::BinaryRepeatParams rp(1, 1, 0, pitchBlocks, pitchBlocks, kPerRow / 8);  // row r's block: 16 r
  for (uint32_t r0 = 0; r0 < rows; r0 += chunk) {
    const uint32_t n = rows - r0 < chunk ? rows - r0 : chunk;
    AscendC::Brcb(scratch, stat[kAttnStatLane * r0], static_cast<uint8_t>(2 * n), AscendC::BrcbRepeatParams(1, 8));
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t c0 = 0; c0 < d; c0 += 64) {
      const uint64_t mask = d - c0 < 64 ? d - c0 : 64;
      const AscendC::LocalTensor<float> xs = x[r0 * pitch + c0];
      if constexpr (kOp == AttnRowOp::kDiv) AscendC::Div(xs, xs, scratch, mask, static_cast<uint8_t>(n), rp);
      else if constexpr (kOp == AttnRowOp::kSub) AscendC::Sub(xs, xs, scratch, mask, static_cast<uint8_t>(n), rp);
      else AscendC::Mul(xs, xs, scratch, mask, static_cast<uint8_t>(n), rp);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

}  // namespace npurt_kernels
