// kernels/attention/attention_bwd_kernel.cc: the flash-attention backward
// kernel (`attention_backward`), flash-attention-2 style: probabilities are
// recomputed from the saved lse, P = exp(scale * Q K^T + bias - lse), never
// stored beyond one tile. With Dr = rowsum(dO * O) and dS = P * (dO V^T - Dr):
//   dQ = scale * dS K,  dK = scale * dS^T Q,  dV = P^T dO.
// Two kinds of work items in one launch, so no block ever adds into another
// block's output (deterministic, no atomics): dQ items (bh, q tile) stream the
// kv tiles; dK/dV items (bh, kv tile) stream the q tiles and work on the
// transposed tiles S^T = K Q^T (so the cube's A operand is always row-major).
// Fully masked rows (lse = -inf) have P = 0 and contribute nothing.
#include "attention/attention_rows.h"
#include "attention/attention_scores.h"
#include "attention/attention_tiling.h"
#include "attention/attention_workspace.h"
#include "kernel_operator.h"
#include "matmul/matmul_tile.h"
#include "npurt/backend.h"

namespace npurt_kernels {
namespace {

template <class T>
class AttnBackward {
 public:
  __aicore__ void Init(GM_ADDR const* gm, GM_ADDR workspace, const AttnTiling& t) {
    t_ = t;
    const uint64_t qn = uint64_t{t.batchHeads} * t.sq * t.d, kn = uint64_t{t.batchHeads} * t.skv * t.d;
    dout_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm[0]), qn);
    q_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm[1]), qn);
    k_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm[2]), kn);
    v_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm[3]), kn);
    out_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm[4]), qn);
    lse_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gm[5]), uint64_t{t.batchHeads} * t.sq);
    mask_ = gm[6];
    dq_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm[7]), qn);
    dk_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm[8]), kn);
    dv_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm[9]), kn);
    ws_.Init(workspace, t);
    const uint32_t tt = t.tile * t.tile, td = t.tile * t.dp;
    cube_.Init(pipe_, {t.tile, t.tile > t.dp ? t.tile : t.dp, t.kStep});
    pipe_.InitBuffer(sBuf_, tt * 4);
    pipe_.InitBuffer(dpBuf_, tt * 4);
    pipe_.InitBuffer(castBuf_, std::is_same_v<T, float> ? 32 : tt * sizeof(T));
    for (auto* b : {&accA_, &accB_, &xBuf_, &doBuf_, &oBuf_}) pipe_.InitBuffer(*b, td * 4);
    pipe_.InitBuffer(stageBuf_, std::is_same_v<T, float> ? 32 : td * sizeof(T));
    pipe_.InitBuffer(rowBuf_, 4 * t.tile * 4);
    pipe_.InitBuffer(workBuf_, 64 * 4);
    if (t.maskKind != static_cast<uint32_t>(AttnMask::kNone)) masker_.Init(pipe_, t.tile);
  }

  __aicore__ void Process() {
    const uint64_t dqItems = t_.dqBlocks, items = dqItems + uint64_t{t_.batchHeads} * t_.kvTiles;
    const uint64_t bhs = t_.batchHeads;
    for (uint64_t w = AscendC::GetBlockIdx(); w < items; w += AscendC::GetBlockNum()) {
      const uint64_t v = w < dqItems ? w : w - dqItems;
      if (t_.causal) {
        // Heads fastest, heaviest first (as the forward): dQ item qt streams
        // qt + 1 kv tiles, dK/dV item kt streams qTiles - kt q tiles.
        if (w < dqItems) DqItem(static_cast<uint32_t>(v % bhs), t_.qTiles - 1 - static_cast<uint32_t>(v / bhs));
        else DkvItem(static_cast<uint32_t>(v % bhs), static_cast<uint32_t>(v / bhs));
      } else if (w < dqItems) {
        DqItem(static_cast<uint32_t>(v / t_.qTiles), static_cast<uint32_t>(v % t_.qTiles));
      } else {
        DkvItem(static_cast<uint32_t>(v / t_.kvTiles), static_cast<uint32_t>(v % t_.kvTiles));
      }
    }
  }

 private:
  __aicore__ uint32_t Rows(uint32_t n, uint32_t i) const { return n - i * t_.tile < t_.tile ? n - i * t_.tile : t_.tile; }
  __aicore__ uint64_t QOff(uint32_t bh, uint32_t qt) const { return (uint64_t{bh} * t_.sq + qt * t_.tile) * t_.d; }
  __aicore__ uint64_t KOff(uint32_t bh, uint32_t kt) const { return (uint64_t{bh} * t_.skv + kt * t_.tile) * t_.d; }

  // dvec[0..tile) = rowsum(dO * O) of the q tile (0 past its rows); lseUse =
  // lse with -inf (fully masked rows) replaced by 0 so exp(-inf - 0) = 0.
  __aicore__ void RowTerms(uint32_t bh, uint32_t qt, uint32_t rows) {
    AscendC::LocalTensor<float> dO = doBuf_.Get<float>(), o = oBuf_.Get<float>(), rowv = rowBuf_.Get<float>();
    AscendC::LocalTensor<float> lseUse = rowv, dvec = rowv[t_.tile], red = rowv[2 * t_.tile];
    AscendC::LocalTensor<T> stage = stageBuf_.Get<T>();
    LoadRowsAsFloat(dO, stage, dout_[QOff(bh, qt)], rows, t_.d, t_.dp);
    LoadRowsAsFloat(o, stage, out_[QOff(bh, qt)], rows, t_.d, t_.dp);
    AscendC::Mul(o, o, dO, static_cast<int32_t>(rows * t_.dp));
    AscendC::Duplicate(rowv, 0.0f, static_cast<int32_t>(2 * t_.tile));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<float> work = workBuf_.Get<float>();
    for (uint32_t r = 0; r < rows; ++r) {
      AscendC::ReduceSum(red, o[r * t_.dp], work, static_cast<int32_t>(t_.dp));
      AscendC::PipeBarrier<PIPE_ALL>();
      dvec.SetValue(r, red.GetValue(0));
    }
    AscendC::DataCopyExtParams lp(1, rows * 4, 0, 0, 0);
    AscendC::DataCopyPadExtParams<float> zpad(true, 0, static_cast<uint8_t>(AttnRound8(rows) - rows), 0.0f);
    AscendC::DataCopyPad(lseUse, lse_[uint64_t{bh} * t_.sq + qt * t_.tile], lp, zpad);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t r = 0; r < rows; ++r)
      if (lseUse.GetValue(r) == -kAttnInf) lseUse.SetValue(r, 0.0f);
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // Scores of (q tile, kv tile), or their transpose, scaled and masked in sBuf_.
  __aicore__ void Scores(uint32_t bh, uint32_t qt, uint32_t kt, uint32_t qRows, uint32_t kRows, bool tr) {
    AscendC::LocalTensor<float> s = sBuf_.Get<float>();
    const uint32_t rows = tr ? kRows : qRows, cols = tr ? qRows : kRows;
    if (tr) cube_.Compute(k_[KOff(bh, kt)], t_.d, q_[QOff(bh, qt)], t_.d, true, ws_.s, t_.tile, rows, cols, t_.d);
    else cube_.Compute(q_[QOff(bh, qt)], t_.d, k_[KOff(bh, kt)], t_.d, true, ws_.s, t_.tile, rows, cols, t_.d);
    LoadScaledScores(s, ws_.s, t_.tile, rows, cols, t_.scale);
    if (t_.maskKind != static_cast<uint32_t>(AttnMask::kNone)) {
      const uint32_t b = bh / t_.heads, h = bh % t_.heads;
      const int64_t base = int64_t(b) * t_.maskStrideB + int64_t(h) * t_.maskStrideH +
                           int64_t(qt) * t_.tile * t_.maskStrideQ + int64_t(kt) * t_.tile * t_.maskStrideK;
      MaskView mv = tr ? MaskView{base, t_.maskStrideK, t_.maskStrideQ} : MaskView{base, t_.maskStrideQ, t_.maskStrideK};
      masker_.AddMask(s, t_.tile, rows, cols, mask_, static_cast<AttnMask>(t_.maskKind), mv);
    }
    if (t_.causal && kt == qt) ScoreMasker::Causal(s, t_.tile, rows, cols, tr);
  }

  // s -> P = exp(s - lse) in place: lse per row (dQ items) or per column (transposed).
  __aicore__ void Probabilities(uint32_t rows, bool tr) {
    AscendC::LocalTensor<float> s = sBuf_.Get<float>(), lseUse = rowBuf_.Get<float>();
    for (uint32_t r = 0; r < rows; ++r) {
      AscendC::LocalTensor<float> srow = s[r * t_.tile];
      if (tr) AscendC::Sub(srow, srow, lseUse, static_cast<int32_t>(t_.tile));
      else AscendC::Adds(srow, srow, -lseUse.GetValue(r), static_cast<int32_t>(t_.tile));
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Exp(s, s, static_cast<int32_t>(rows * t_.tile));
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // dS = P * (dP - Dr) in dpBuf_ from the raw dP tile in ws_.s; Dr per row or per column.
  __aicore__ void DScores(uint32_t rows, uint32_t cols, bool tr) {
    AscendC::LocalTensor<float> dp = dpBuf_.Get<float>(), s = sBuf_.Get<float>();
    AscendC::LocalTensor<float> dvec = rowBuf_.Get<float>()[t_.tile];
    LoadScaledScores(dp, ws_.s, t_.tile, rows, cols, 1.0f);
    for (uint32_t r = 0; r < rows; ++r) {
      AscendC::LocalTensor<float> row = dp[r * t_.tile];
      // Padding columns hold -inf; P there is 0, so clamp them to keep 0 * x finite.
      if (tr) AscendC::Sub(row, row, dvec, static_cast<int32_t>(cols));
      else AscendC::Adds(row, row, -dvec.GetValue(r), static_cast<int32_t>(cols));
      if (cols < t_.tile) ZeroTail(row, cols);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Mul(dp, dp, s, static_cast<int32_t>(rows * t_.tile));
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  __aicore__ void ZeroTail(const AscendC::LocalTensor<float>& row, uint32_t cols) {
    AscendC::PipeBarrier<PIPE_ALL>();
    const uint32_t c8 = AttnRound8(cols);
    for (uint32_t c = cols; c < c8; ++c) row.SetValue(c, 0.0f);
    if (c8 < t_.tile) AscendC::Duplicate(row[c8], 0.0f, static_cast<int32_t>(t_.tile - c8));
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // ws_.p = src rounded to T (the cube's A operand), rows x tile.
  __aicore__ void StageA(const AscendC::LocalTensor<float>& src, uint32_t rows) {
    if constexpr (std::is_same_v<T, float>) {
      AscendC::DataCopy(ws_.p, src, rows * t_.tile);
    } else {
      AscendC::LocalTensor<T> c = castBuf_.Get<T>();
      AscendC::Cast(c, src, AscendC::RoundMode::CAST_RINT, rows * t_.tile);
      AscendC::PipeBarrier<PIPE_ALL>();
      AscendC::DataCopy(ws_.p, c, rows * t_.tile);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // acc[rows, dp] += ws_.p[rows, kc] x b[kc, D].
  __aicore__ void AccumulateProduct(const AscendC::LocalTensor<float>& acc, const AscendC::GlobalTensor<T>& b,
                                    uint32_t rows, uint32_t kc) {
    cube_.Compute(ws_.p, t_.tile, b, t_.d, false, ws_.x, t_.dp, rows, t_.d, kc);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<float> x = xBuf_.Get<float>();
    AscendC::DataCopy(x, ws_.x, rows * t_.dp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(acc, acc, x, static_cast<int32_t>(rows * t_.dp));
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  __aicore__ void DqItem(uint32_t bh, uint32_t qt) {
    const uint32_t qRows = Rows(t_.sq, qt);
    AscendC::LocalTensor<float> acc = accA_.Get<float>();
    RowTerms(bh, qt, qRows);
    AscendC::Duplicate(acc, 0.0f, static_cast<int32_t>(qRows * t_.dp));
    const uint32_t kvEnd = t_.causal && qt + 1 < t_.kvTiles ? qt + 1 : t_.kvTiles;
    for (uint32_t kt = 0; kt < kvEnd; ++kt) {
      const uint32_t kRows = Rows(t_.skv, kt);
      Scores(bh, qt, kt, qRows, kRows, false);
      Probabilities(qRows, false);
      cube_.Compute(dout_[QOff(bh, qt)], t_.d, v_[KOff(bh, kt)], t_.d, true, ws_.s, t_.tile, qRows, kRows, t_.d);
      DScores(qRows, kRows, false);
      StageA(dpBuf_.Get<float>(), qRows);
      AccumulateProduct(acc, k_[KOff(bh, kt)], qRows, kRows);
    }
    AscendC::Muls(acc, acc, t_.scale, static_cast<int32_t>(qRows * t_.dp));
    StoreRowsFromFloat(dq_[QOff(bh, qt)], acc, stageBuf_.Get<T>(), qRows, t_.d, t_.dp);
  }

  __aicore__ void DkvItem(uint32_t bh, uint32_t kt) {
    const uint32_t kRows = Rows(t_.skv, kt);
    AscendC::LocalTensor<float> dk = accA_.Get<float>(), dv = accB_.Get<float>();
    AscendC::Duplicate(dk, 0.0f, static_cast<int32_t>(kRows * t_.dp));
    AscendC::Duplicate(dv, 0.0f, static_cast<int32_t>(kRows * t_.dp));
    for (uint32_t qt = t_.causal ? kt : 0; qt < t_.qTiles; ++qt) {
      const uint32_t qRows = Rows(t_.sq, qt);
      RowTerms(bh, qt, qRows);
      Scores(bh, qt, kt, qRows, kRows, true);
      Probabilities(kRows, true);
      StageA(sBuf_.Get<float>(), kRows);
      AccumulateProduct(dv, dout_[QOff(bh, qt)], kRows, qRows);
      cube_.Compute(v_[KOff(bh, kt)], t_.d, dout_[QOff(bh, qt)], t_.d, true, ws_.s, t_.tile, kRows, qRows, t_.d);
      DScores(kRows, qRows, true);
      StageA(dpBuf_.Get<float>(), kRows);
      AccumulateProduct(dk, q_[QOff(bh, qt)], kRows, qRows);
    }
    AscendC::Muls(dk, dk, t_.scale, static_cast<int32_t>(kRows * t_.dp));
    StoreRowsFromFloat(dk_[KOff(bh, kt)], dk, stageBuf_.Get<T>(), kRows, t_.d, t_.dp);
    StoreRowsFromFloat(dv_[KOff(bh, kt)], dv, stageBuf_.Get<T>(), kRows, t_.d, t_.dp);
  }

  AttnTiling t_{};
  GM_ADDR mask_ = nullptr;
  AscendC::TPipe pipe_;
  CubeTile<T, float> cube_;
  AttnWorkspace<T> ws_;
  ScoreMasker masker_;
  AscendC::GlobalTensor<T> dout_, q_, k_, v_, out_, dq_, dk_, dv_;
  AscendC::GlobalTensor<float> lse_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> sBuf_, dpBuf_, castBuf_, accA_, accB_, xBuf_, doBuf_, oBuf_, stageBuf_,
      rowBuf_, workBuf_;
};

}  // namespace

extern "C" __global__ __aicore__ void npurt_attention_backward_kernel(GM_ADDR dout, GM_ADDR q, GM_ADDR k, GM_ADDR v,
                                                                      GM_ADDR out, GM_ADDR lse, GM_ADDR mask,
                                                                      GM_ADDR dq, GM_ADDR dk, GM_ADDR dv,
                                                                      GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(AttnTiling, t, tiling);
  GM_ADDR gm[10] = {dout, q, k, v, out, lse, mask, dq, dk, dv};
  switch (static_cast<AttnDType>(t.dtype)) {
    case AttnDType::kF32: { AttnBackward<float> op; op.Init(gm, workspace, t); op.Process(); break; }
    case AttnDType::kF16: { AttnBackward<half> op; op.Init(gm, workspace, t); op.Process(); break; }
    case AttnDType::kBF16: { AttnBackward<bfloat16_t> op; op.Init(gm, workspace, t); op.Process(); break; }
  }
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
npurt::SimKernelEntry npurt_attention_backward_entry() { return NPURT_SIM_ENTRY(npurt_attention_backward_kernel); }
#endif  // NPURT_ASCEND_DEVICE_BUILD

}  // namespace npurt_kernels
