// kernels/attention/attention_row_sums.h: the row sums (AttnRowSums) and row
// maxima (AttnRowMaxes) of a float score tile [rows, pitch] in UB, written one
// per row slot (row r at out[kAttnStatLane r], the layout of the forward's row
// statistics), in two or three whole-tile instructions instead of one level-2
// ReduceSum / ReduceMax per row.
//
// Why: the attention forward sums every P tile by rows; 128 ReduceSum calls
// per [128, 128] tile cost more in per-call work than in arithmetic (each is
// a level-2 reduction of only 128 elements). The repeat forms do the same sums
// in whole-tile instructions, all real Ascend C (A2) forms:
//   pitch <= 64: one WholeReduceSum, one repeat per row (mask = pitch),
//     repeat r's sum at out[16 r] (dstRepStride 16).
//   pitch == 128: WholeReduceSum over the 64-float halves (full mask,
//     back-to-back repeats) with dstRepStride 8, so row r's halves land at
//     half[16 r] and half[16 r + 8]; then one level-2 Add of half and half[8]
//     puts their sum at out[16 r]. The lanes in between receive sums of
//     whatever `half` held there: defined, unused (the caller's invariant).
// The maxima: pitch <= 64 as the sums (WholeReduceMax, ORDER_ONLY_VALUE: one
// value per repeat); pitch 128 first takes the elementwise Max of each row's
// two halves (a level-0 Max, one repeat per row) into `half`, then one
// WholeReduceMax repeat per row. Only out[16 r] is written (the lanes between
// keep their contents, as with a per-row ReduceMax); a NaN in a row wins both
// the Max of the halves and the repeat's max, as in ReduceMax.
// Numerics: each half is a tree sum of 64 floats, then the two halves add;
// the level-2 ReduceSum also sums pairwise, so results agree to float rounding.
// Invariants: pitch is 16, 32, 64 or 128 (the attention tile); rows <= 128
// (repeats <= 255 per call); `half` holds 16 * rows + 8 floats (AttnRowSums:
// all written at least once before the first call, the Add reads every lane)
// and 64 * rows floats (AttnRowMaxes, pitch 128); out holds
// 16 * rows floats, only out[16 r] is meaningful; sources 32-B aligned.
#pragma once

#include <cstdint>

#include "attention/attention_tiling.h"
#include "kernel_operator.h"

namespace npurt_kernels {

static_assert(kAttnStatLane == 16, "AttnRowSums places the sums of 64-float halves 8 floats apart");

__aicore__ inline void AttnRowSums(const AscendC::LocalTensor<float>& out, const AscendC::LocalTensor<float>& s,
                                   const AscendC::LocalTensor<float>& half, uint32_t rows, uint32_t pitch) {
  if (rows == 0) return;
  if (pitch <= 64) {
    AscendC::WholeReduceSum(out, s, static_cast<int32_t>(pitch), static_cast<int32_t>(rows),
                            static_cast<int32_t>(kAttnStatLane), 1, static_cast<int32_t>(pitch / 8));
    AscendC::PipeBarrier<PIPE_ALL>();
    return;
  }
  for (uint32_t r0 = 0; r0 < rows; r0 += 64) {  // <= 255 repeats per call
    const uint32_t n = rows - r0 < 64 ? rows - r0 : 64;
    AscendC::WholeReduceSum(half[16 * r0], s[r0 * pitch], 64, static_cast<int32_t>(2 * n), 8, 1, 8);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::Add(out, half, half[8], static_cast<int32_t>(16 * rows));
  AscendC::PipeBarrier<PIPE_ALL>();
}

// Row maxima, same layout and invariants as AttnRowSums (the max of a row is
// exact: no rounding, so it equals the per-row ReduceMax bit for bit).
__aicore__ inline void AttnRowMaxes(const AscendC::LocalTensor<float>& out, const AscendC::LocalTensor<float>& s,
                                    const AscendC::LocalTensor<float>& half, uint32_t rows, uint32_t pitch) {
  if (rows == 0) return;
  constexpr AscendC::ReduceOrder kValue = AscendC::ReduceOrder::ORDER_ONLY_VALUE;
  if (pitch <= 64) {
    AscendC::WholeReduceMax(out, s, static_cast<int32_t>(pitch), static_cast<int32_t>(rows),
                            static_cast<int32_t>(kAttnStatLane), 1, static_cast<int32_t>(pitch / 8), kValue);
    AscendC::PipeBarrier<PIPE_ALL>();
    return;
  }
  // pitch 128: the larger of each row's 64-float halves (one dense repeat per
  // row), then one value-only WholeReduceMax per row straight into its slot:
  // half as many repeat scans as reducing the halves, and no lane-0 Max.
  const AscendC::BinaryRepeatParams rp(1, 1, 1, 8, 16, 16);
  AscendC::Max(half, s, s[64], uint64_t{64}, static_cast<uint8_t>(rows), rp);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::WholeReduceMax(out, half, 64, static_cast<int32_t>(rows), static_cast<int32_t>(kAttnStatLane), 1, 8, kValue);
  AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace npurt_kernels
