// kernels/attention/attention_scores.h: the score tile of the attention
// kernels, S = scale * Q K^T + bias in UB (forward and backward), and its
// masking (attn_mask rows, the causal rule).
//
// A score tile lives in UB as float [rows, tile] (row pitch `tile`, so every
// row starts 32-B aligned). Columns past the valid count hold -inf after
// LoadScores, so row maxima and sums over the whole pitch are exact. In the
// transposed form (dK/dV pass) rows are keys and columns are queries; the mask
// and the causal rule are applied transposed. The mask is never expanded in GM:
// each row is read with its broadcast strides (stride 0 dims read once).
// Invariants: the caller put the raw Q K^T tile in GM workspace with row pitch
// `tile` and issued a barrier; rows <= tile, cols <= tile.
#pragma once

#include <cstdint>
#include <limits>

#include "attention/attention_tiling.h"
#include "kernel_operator.h"

namespace npurt_kernels {

constexpr float kAttnInf = std::numeric_limits<float>::infinity();

__aicore__ inline uint32_t AttnRound8(uint32_t x) { return (x + 7) / 8 * 8; }

// Where a tile of the mask starts and how rows/columns step through it.
struct MaskView {
  int64_t base;       // element offset of (row 0, col 0) of the tile
  int64_t rowStride;  // elements between consecutive tile rows
  int64_t colStride;  // elements between consecutive tile columns (0 or 1 untransposed)
};

class ScoreMasker {
 public:
  // UB scratch: `stage` >= tile * 4 bytes (raw mask row), `half` >= tile * 2 bytes,
  // `row` >= tile floats, `bits` a bit per column.
  __aicore__ void Init(AscendC::TPipe& pipe, uint32_t tile) {
    pipe.InitBuffer(stage_, tile * 4);
    pipe.InitBuffer(half_, tile * 2 + 32);
    pipe.InitBuffer(row_, tile * 4);
    pipe.InitBuffer(bits_, tile / 8 + 32);
  }

  // s[r, :cols] += bias of mask rows; kind is the tiling's AttnMask.
  __aicore__ void AddMask(const AscendC::LocalTensor<float>& s, uint32_t pitch, uint32_t rows, uint32_t cols,
                          GM_ADDR mask, AttnMask kind, const MaskView& v) {
    AscendC::LocalTensor<float> row = row_.Get<float>();
    for (uint32_t r = 0; r < rows; ++r) {
      const int64_t off = v.base + int64_t(r) * v.rowStride;
      const bool scalarRow = v.colStride == 0;
      const uint32_t n = scalarRow ? 1 : cols;
      if (v.colStride > 1) GatherRow(row, mask, kind, off, v.colStride, n);
      else LoadRow(row, mask, kind, off, n);
      AscendC::PipeBarrier<PIPE_ALL>();
      AscendC::LocalTensor<float> srow = s[r * pitch];
      if (kind == AttnMask::kBool) KeepWhere(srow, row, scalarRow, cols);
      else if (scalarRow) AscendC::Adds(srow, srow, row.GetValue(0), cols);
      else AscendC::Add(srow, srow, row, cols);
      AscendC::PipeBarrier<PIPE_ALL>();  // the next row reuses `row`
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // Causal on a diagonal tile (row tile == column tile): drop column c of row r
  // when c > r (query rows), or when c < r (transposed: key rows, query columns).
  static __aicore__ void Causal(const AscendC::LocalTensor<float>& s, uint32_t pitch, uint32_t rows,
                                uint32_t cols, bool transposed) {
    for (uint32_t r = 0; r < rows; ++r) {
      AscendC::LocalTensor<float> srow = s[r * pitch];
      const uint32_t lo = transposed ? 0 : r + 1, hi = transposed ? (r < cols ? r : cols) : cols;
      if (lo >= hi) continue;
      // Duplicate needs 32-B aligned starts: whole blocks by vector, the ragged ends by scalar.
      const uint32_t alo = AttnRound8(lo), ahi = hi / 8 * 8;
      if (alo < ahi) {
        AscendC::Duplicate(srow[alo], -kAttnInf, static_cast<int32_t>(ahi - alo));
        AscendC::PipeBarrier<PIPE_ALL>();
      }
      for (uint32_t c = lo; c < hi && c < alo; ++c) srow.SetValue(c, -kAttnInf);
      for (uint32_t c = (ahi > alo ? ahi : alo); c < hi; ++c) srow.SetValue(c, -kAttnInf);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

 private:
  // Bool masks replace dropped scores by -inf (as masked_fill: an inf or NaN
  // score of a dropped key does no harm), keep = row value 1.
  __aicore__ void KeepWhere(const AscendC::LocalTensor<float>& srow, const AscendC::LocalTensor<float>& keep,
                            bool scalarRow, uint32_t cols) {
    if (scalarRow) {
      if (keep.GetValue(0) == 0.0f) AscendC::Duplicate(srow, -kAttnInf, static_cast<int32_t>(cols));
      return;
    }
    AscendC::LocalTensor<uint8_t> bits = bits_.Get<uint8_t>();
    AscendC::CompareScalar(bits, keep, 0.5f, AscendC::CMPMODE::GT, cols);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Select(srow, bits, srow, -kAttnInf, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, cols);
  }

  template <class M>
  __aicore__ void Copy(const AscendC::LocalTensor<M>& dst, GM_ADDR mask, int64_t off, uint32_t n) {
    AscendC::GlobalTensor<M> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ M*>(mask) + off, n);
    AscendC::DataCopyExtParams p(1, n * sizeof(M), 0, 0, 0);
    AscendC::DataCopyPad(dst, g, p, AscendC::DataCopyPadExtParams<M>());
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // Mask row segment (contiguous) -> float row.
  __aicore__ void LoadRow(const AscendC::LocalTensor<float>& row, GM_ADDR mask, AttnMask kind, int64_t off,
                          uint32_t n) {
    AscendC::LocalTensor<half> h = half_.Get<half>();
    switch (kind) {
      case AttnMask::kBool: {
        AscendC::LocalTensor<uint8_t> u = stage_.Get<uint8_t>();
        Copy(u, mask, off, n);
        AscendC::Cast(h, u, AscendC::RoundMode::CAST_NONE, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Cast(row, h, AscendC::RoundMode::CAST_NONE, n);
        break;
      }
      case AttnMask::kF16:
        Copy(h, mask, off, n);
        AscendC::Cast(row, h, AscendC::RoundMode::CAST_NONE, n);
        break;
      case AttnMask::kBF16: {
        AscendC::LocalTensor<bfloat16_t> b = stage_.Get<bfloat16_t>();
        Copy(b, mask, off, n);
        AscendC::Cast(row, b, AscendC::RoundMode::CAST_NONE, n);
        break;
      }
      default: Copy(row, mask, off, n); break;
    }
  }

  // Strided mask row (transposed tiles): element by element on the scalar unit.
  template <class M>
  static __aicore__ float MaskAt(GM_ADDR mask, int64_t e) {
    AscendC::GlobalTensor<M> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ M*>(mask) + e, 1);
    return static_cast<float>(g.GetValue(0));
  }

  __aicore__ void GatherRow(const AscendC::LocalTensor<float>& row, GM_ADDR mask, AttnMask kind, int64_t off,
                            int64_t stride, uint32_t n) {
    for (uint32_t c = 0; c < n; ++c) {
      const int64_t e = off + int64_t(c) * stride;
      float v;
      switch (kind) {
        case AttnMask::kBool: v = MaskAt<uint8_t>(mask, e) != 0.0f ? 1.0f : 0.0f; break;
        case AttnMask::kF16: v = MaskAt<half>(mask, e); break;
        case AttnMask::kBF16: v = MaskAt<bfloat16_t>(mask, e); break;
        default: v = MaskAt<float>(mask, e); break;
      }
      row.SetValue(c, v);
    }
  }

  AscendC::TBuf<AscendC::TPosition::VECCALC> stage_, half_, row_, bits_;
};

}  // namespace npurt_kernels

namespace npurt_kernels {

// The raw product tile ws[rows, cols] (row pitch `tile`, written by Fixpipe)
// -> s in UB, times scale; columns cols..tile-1 become -inf.
__aicore__ inline void LoadScaledScores(const AscendC::LocalTensor<float>& s, const AscendC::GlobalTensor<float>& ws,
                                        uint32_t tile, uint32_t rows, uint32_t cols, float scale) {
  AscendC::PipeBarrier<PIPE_ALL>();
  // Padding takes the value that becomes -inf once scaled.
  const float padv = scale > 0 ? -kAttnInf : kAttnInf;
  const uint32_t c8 = AttnRound8(cols);
  if (cols == tile) {
    AscendC::DataCopy(s, ws, rows * tile);
  } else {
    // The copy pads the ragged end of the last 32-B block; whole blocks after it by Duplicate.
    AscendC::DataCopyExtParams p(static_cast<uint16_t>(rows), cols * 4, (tile - cols) * 4, (tile - c8) / 8, 0);
    AscendC::DataCopyPadExtParams<float> pad(true, 0, static_cast<uint8_t>(c8 - cols), padv);
    AscendC::DataCopyPad(s, ws, p, pad);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t r = 0; c8 < tile && r < rows; ++r)
      AscendC::Duplicate(s[r * tile + c8], padv, static_cast<int32_t>(tile - c8));
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  if (scale == 1.0f) return;  // already scaled (scaleInQ) or a raw product: x * 1 is x
  AscendC::Muls(s, s, scale, rows * tile);
  AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace npurt_kernels
