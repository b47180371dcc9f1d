// kernels/attention/attention_stream.h: the P store of the attention forward
// (AttnStoreP) and its streamed softmax try (AttnStreamExp), which runs the
// try's whole chain one band of rows at a time.
//
// Why: the optimistic softmax step of a 128-wide score tile made five passes
// over the whole 64 KiB float tile (the GM -> UB load, Exp, the half-row sums,
// the P cast for 16-bit types, the P store), each too large for the host L1
// of the simulator, so every pass read the tile back from L2. A band of
// kAttnStreamRows rows (16 KiB of float) goes through the same chain while it
// is hot. On the NPU this is the same work in more, shorter instructions.
// Numerics: every step is element-wise or per repeat (a repeat is one half
// row), so the bands give the same P and the same half-row sums, bit for bit,
// as the whole-tile instructions of LoadScaledScores + ExpRows + AttnRowSums
// + the whole-tile store.
// Invariants: tile == 128 (AttnRowSums' pitch-128 layout: row r's half sums
// land at half[16 r] and half[16 r + 8]); rows <= tile; `half` holds 16 rows
// + 8 floats whose unwritten lanes are defined (the caller's invariant, as
// for AttnRowSums); `stage` (16-bit T only) holds a band of T and is disjoint
// from s, half and sums; the raw product tile stays in `raw` (a failed try
// reloads it), P is written to `p` band by band.
#pragma once

#include <cstdint>
#include <type_traits>

#include "attention/attention_scores.h"
#include "kernel_operator.h"

namespace npurt_kernels {

// Rows per band of AttnStreamExp: 32 rows x 128 floats = 16 KiB.
constexpr uint32_t kAttnStreamRows = 32;

// p[off .. off + n) = s[off .. off + n) as T (cast into `stage` first unless T is float).
template <class T>
__aicore__ inline void AttnStoreP(const AscendC::GlobalTensor<T>& p, const AscendC::LocalTensor<float>& s,
                                  const AscendC::LocalTensor<T>& stage, uint32_t off, uint32_t n) {
  if constexpr (std::is_same_v<T, float>) {
    AscendC::DataCopy(p[off], s[off], n);
  } else {
    AscendC::Cast(stage, s[off], AscendC::RoundMode::CAST_RINT, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(p[off], stage, n);
  }
}

// s = exp(raw * scale - ref) band by band (raw: the product tile in GM, cols
// valid columns of each row; the padding becomes exp(-inf) = 0), P stored to
// p, sums[16 r] = the row sums (the lanes between get AttnRowSums' junk).
template <class T>
__aicore__ inline void AttnStreamExp(const AscendC::LocalTensor<float>& s, const AscendC::GlobalTensor<float>& raw,
                                     const AscendC::GlobalTensor<T>& p, const AscendC::LocalTensor<float>& half,
                                     const AscendC::LocalTensor<T>& stage, const AscendC::LocalTensor<float>& sums,
                                     uint32_t rows, uint32_t cols, float scale, float ref) {
  constexpr uint32_t kTile = 128;
  for (uint32_t r0 = 0; r0 < rows; r0 += kAttnStreamRows) {
    const uint32_t n = rows - r0 < kAttnStreamRows ? rows - r0 : kAttnStreamRows;
    const uint32_t off = r0 * kTile;
    const int32_t len = static_cast<int32_t>(n * kTile);
    const AscendC::LocalTensor<float> band = s[off];
    LoadScaledScores(band, raw[off], kTile, n, cols, scale);
    if (ref != 0.0f) {  // s - 0 is s bit for bit: no pass (ExpRows' zero reference)
      AscendC::Adds(band, band, -ref, len);
      AscendC::PipeBarrier<PIPE_ALL>();
    }
    AscendC::Exp(band, band, len);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::WholeReduceSum(half[16 * r0], band, 64, static_cast<int32_t>(2 * n), 8, 1, 8);
    AttnStoreP(p, s, stage, off, n * kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
  AscendC::Add(sums, half, half[8], static_cast<int32_t>(16 * rows));
  AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace npurt_kernels
