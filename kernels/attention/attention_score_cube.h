// kernels/attention/attention_score_cube.h: the cube side of the score tile
// S = Q K^T of the attention forward, with the Q tile kept in L0A for the
// whole work item.
//
// Why: a forward work item (bh, q tile) multiplies the same Q tile with every
// kv tile. A general CubeTile reloads both operands per product (GM -> L1 Nz
// -> L0A), so Q was copied and split kvTiles times per item. Here BeginItem
// loads Q once (GM -> L1 -> L0A) and each Scores call only moves the K tile
// (GM -> L1 Nz -> L0B, no transpose: K [cols, D] row-major is already B^T),
// runs one Mmad per K step and one Fixpipe to GM.
// When the head dim does not fit one K step (dp > kStep, large D in float),
// Q cannot stay resident and each step reloads its slice of Q (as CubeTile).
// K tile cache: with Q resident, the L1 Nz image of K tile kt (kt <
// cacheTiles, sized by the host from the L1 left over) stays in a slot tagged
// with its head, so consecutive q tiles of one head (the non-causal plan gives
// each block a contiguous run of items) convert each K tile once per head.
// Invariants: rows, cols <= tile; kStep a multiple of 16 chosen by the host so
// that [tile, kStep] A and [tile, kStep] B buffers fit L0A / L0B beside the
// P V CubeTile; d <= dp; every call is separated by full barriers (the kernel
// is written in the one-stage-at-a-time style of the rest of this family).
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace npurt_kernels {

template <class T>
class AttnScoreCube {
 public:
  static constexpr uint32_t C0 = 32 / sizeof(T);

  static constexpr uint32_t kMaxCacheTiles = 64;  // tag array size; the host caps cacheTiles by it

  __aicore__ void Init(AscendC::TPipe& pipe, uint32_t tile, uint32_t dp, uint32_t kStep, uint32_t cacheTiles) {
    tile16_ = Round16(tile);
    kStep_ = kStep;
    resident_ = dp <= kStep;
    k16_ = Round16(resident_ ? dp : kStep);
    cacheTiles_ = !resident_ ? 0 : cacheTiles < kMaxCacheTiles ? cacheTiles : kMaxCacheTiles;
    pipe.InitBuffer(a1_, tile16_ * k16_ * sizeof(T));
    pipe.InitBuffer(b1_, tile16_ * k16_ * sizeof(T));
    pipe.InitBuffer(a2_, tile16_ * k16_ * sizeof(T));
    pipe.InitBuffer(b2_, tile16_ * k16_ * sizeof(T));
    pipe.InitBuffer(c_, tile16_ * tile16_ * sizeof(float));
    if (cacheTiles_ > 0) pipe.InitBuffer(cache_, cacheTiles_ * tile16_ * k16_ * sizeof(T));
    for (uint32_t i = 0; i < kMaxCacheTiles; ++i) tag_[i] = 0;
  }

  // Q rows [rows, d] (row stride d) of the new item; resident: into L0A now.
  __aicore__ void BeginItem(const AscendC::GlobalTensor<T>& q, uint32_t rows, uint32_t d) {
    q_ = q;
    rows_ = rows;
    if (resident_) LoadA(q, d, rows, d);
  }

  // s[rows, cols] (row pitch ldc, float) = Q K^T for K tile kt of head bh (rows [cols, d]).
  __aicore__ void Scores(const AscendC::GlobalTensor<T>& k, uint32_t cols, uint32_t d,
                         const AscendC::GlobalTensor<float>& s, uint32_t ldc, uint32_t bh, uint32_t kt) {
    AscendC::LocalTensor<float> c = c_.Get<float>();
    const uint32_t step = resident_ ? d : kStep_;
    for (uint32_t k0 = 0; k0 < d; k0 += step) {
      const uint32_t kc = d - k0 < step ? d - k0 : step;
      if (!resident_) LoadA(q_[k0], d, rows_, kc);
      if (kt < cacheTiles_) {  // resident: one step, the whole K tile
        AscendC::LocalTensor<T> slot = cache_.Get<T>()[kt * tile16_ * k16_];
        if (tag_[kt] != bh + 1) Nd2Nz(slot, k, d, cols, kc);
        tag_[kt] = bh + 1;
        SplitB(slot, cols, kc);
      } else {
        LoadB(k[k0], d, cols, kc);
      }
      AscendC::MmadParams mp(static_cast<uint16_t>(rows_), static_cast<uint16_t>(cols), static_cast<uint16_t>(kc));
      mp.cmatrixInitVal = k0 == 0;
      AscendC::Mmad(c, a2_.Get<T>(), b2_.Get<T>(), mp);
      AscendC::PipeBarrier<PIPE_ALL>();
    }
    AscendC::FixpipeParamsV220 fp;
    fp.mSize = static_cast<uint16_t>(rows_);
    fp.nSize = static_cast<uint16_t>(cols);
    fp.srcStride = static_cast<uint16_t>(Round16(rows_));
    fp.dstStride = ldc;
    fp.quantPre = AscendC::QuantMode_t::NoQuant;
    AscendC::Fixpipe(s, c, fp);
    AscendC::PipeBarrier<PIPE_ALL>();
  }

 private:
  static __aicore__ uint32_t Round16(uint32_t x) { return (x + 15) / 16 * 16; }

  // ND rows x cols at src (row stride ld) -> L1 Nz: column blocks of C0, rows rounded to 16.
  static __aicore__ void Nd2Nz(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                               uint32_t ld, uint32_t rows, uint32_t cols) {
    AscendC::Nd2NzParams p(1, static_cast<uint16_t>(rows), static_cast<uint16_t>(cols), 0,
                           static_cast<uint16_t>(ld), static_cast<uint16_t>(Round16(rows)), 1, 0);
    AscendC::DataCopy(dst, src, p);
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // A [m, kc] -> L0A Zz: fractal (mb, kb) at mb * kbTotal + kb.
  __aicore__ void LoadA(const AscendC::GlobalTensor<T>& a, uint32_t ld, uint32_t m, uint32_t kc) {
    AscendC::LocalTensor<T> a1 = a1_.Get<T>(), a2 = a2_.Get<T>();
    Nd2Nz(a1, a, ld, m, kc);
    const uint32_t m16 = Round16(m), kb = (kc + C0 - 1) / C0;
    for (uint32_t mb = 0; mb < m16 / 16; ++mb) {
      AscendC::LoadData2dParams lp;
      lp.startIndex = static_cast<uint16_t>(mb);
      lp.repeatTimes = static_cast<uint8_t>(kb);
      lp.srcStride = static_cast<uint16_t>(m16 / 16);
      AscendC::LoadData(a2[mb * kb * 16 * C0], a1, lp);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // B^T stored [n, kc] (K rows) -> L0B Zn: fractal (kb, nb) at kb * nbTotal + nb,
  // the same order as the L1 Nz copy, so each K block is one LoadData.
  __aicore__ void LoadB(const AscendC::GlobalTensor<T>& b, uint32_t ld, uint32_t n, uint32_t kc) {
    AscendC::LocalTensor<T> b1 = b1_.Get<T>();
    Nd2Nz(b1, b, ld, n, kc);
    SplitB(b1, n, kc);
  }

  // L1 Nz image of B^T [n, kc] -> L0B.
  __aicore__ void SplitB(const AscendC::LocalTensor<T>& b1, uint32_t n, uint32_t kc) {
    AscendC::LocalTensor<T> b2 = b2_.Get<T>();
    const uint32_t nb = Round16(n) / 16, kb = (kc + C0 - 1) / C0;
    for (uint32_t i = 0; i < kb; ++i) {
      AscendC::LoadData2dParams lp;
      lp.startIndex = static_cast<uint16_t>(i * nb);
      lp.repeatTimes = static_cast<uint8_t>(nb);
      lp.srcStride = 1;
      AscendC::LoadData(b2[i * nb * 16 * C0], b1, lp);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  AscendC::TBuf<AscendC::TPosition::A1> a1_;
  AscendC::TBuf<AscendC::TPosition::B1> b1_, cache_;
  AscendC::TBuf<AscendC::TPosition::A2> a2_;
  AscendC::TBuf<AscendC::TPosition::B2> b2_;
  AscendC::TBuf<AscendC::TPosition::CO1> c_;
  AscendC::GlobalTensor<T> q_;
  uint32_t tile16_ = 0, kStep_ = 0, k16_ = 0, rows_ = 0, cacheTiles_ = 0;
  bool resident_ = false;
  uint32_t tag_[kMaxCacheTiles];  // bh + 1 of the head whose K tile the slot holds (0: empty)
};

}  // namespace npurt_kernels
