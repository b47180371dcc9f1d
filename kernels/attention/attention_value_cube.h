// kernels/attention/attention_value_cube.h: the cube side of the attention
// forward's P V product, acc[rows, d] += P[rows, cols] V[cols, d], accumulated
// in L0C across kv tiles, with the V tiles of the current head kept in L1.
//
// Why not the general CubeTile: a block's work items are consecutive q tiles
// of the same head (non-causal plan), and every one of them multiplies with
// the same V tiles. CubeTile converts V (GM ND -> L1 Nz/slabs) for every
// product; here the L1 image of V tile kt (all its K steps) is kept in a
// per-launch cache slot tagged with its head, so a block converts each V tile
// once per head it visits instead of once per q tile. Only P (new per tile)
// goes GM -> L1 every time. Slots exist for kv tiles kt < cacheTiles (the host
// sizes them from the L1 left over; 0 = plain streaming).
// Layouts as CubeTile (lib/matmul/cube_tile.h): A (P, ND) -> L1 Nz column
// blocks -> L0A Zz; B (V [kc, d] not transposed) -> float: 16-column slabs +
// LoadDataWithTranspose, 16-bit: Nz of the [kc, d] rows + LoadData(ifTranspose).
// Invariants: rows, cols <= tile; d <= dp <= 256; kStep a multiple of 16 with
// [tile, kStep] in L0A and [dp, kStep] in L0B beside the score cube's
// buffers; calls are separated by full barriers (one stage at a time, as the
// rest of this family).
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace npurt_kernels {

template <class T>
class AttnValueCube {
 public:
  static constexpr uint32_t C0 = 32 / sizeof(T);
  static constexpr uint32_t kMaxCacheTiles = 64;  // tag array size; the host caps cacheTiles by it

  __aicore__ void Init(AscendC::TPipe& pipe, uint32_t tile, uint32_t dp, uint32_t kStep, uint32_t cacheTiles) {
    tile16_ = Round16(tile);
    dp16_ = Round16(dp);
    kStep_ = kStep;
    k16_ = Round16(kStep);
    steps_ = (tile + kStep - 1) / kStep;
    cacheTiles_ = cacheTiles < kMaxCacheTiles ? cacheTiles : kMaxCacheTiles;
    pipe.InitBuffer(a1_, tile16_ * k16_ * sizeof(T));
    pipe.InitBuffer(b1_, dp16_ * k16_ * sizeof(T));
    pipe.InitBuffer(a2_, tile16_ * k16_ * sizeof(T));
    pipe.InitBuffer(b2_, dp16_ * k16_ * sizeof(T));
    pipe.InitBuffer(c_, tile16_ * dp16_ * sizeof(float));
    if (cacheTiles_ > 0) pipe.InitBuffer(cache_, cacheTiles_ * SlotElems() * sizeof(T));
    for (uint32_t i = 0; i < kMaxCacheTiles; ++i) tag_[i] = 0;
  }

  // The next Accumulate starts L0C from zero.
  __aicore__ void Begin() { started_ = false; }

  // L0C += P[rows, cols] (GM, row pitch ldp) x V tile kt of head bh ([cols, d], row stride d).
  __aicore__ void Accumulate(const AscendC::GlobalTensor<T>& p, uint32_t ldp, const AscendC::GlobalTensor<T>& v,
                             uint32_t rows, uint32_t d, uint32_t cols, uint32_t bh, uint32_t kt) {
    const bool cached = kt < cacheTiles_;
    const bool fresh = cached && tag_[kt] == bh + 1;
    AscendC::LocalTensor<float> c = c_.Get<float>();
    for (uint32_t st = 0, k0 = 0; k0 < cols; ++st, k0 += kStep_) {
      const uint32_t kc = cols - k0 < kStep_ ? cols - k0 : kStep_;
      LoadP(p[k0], ldp, rows, kc);
      AscendC::LocalTensor<T> b1 = cached ? cache_.Get<T>()[(kt * steps_ + st) * dp16_ * k16_] : b1_.Get<T>();
      if (!fresh) CopyV(b1, v[uint64_t{k0} * d], d, d, kc);
      SplitV(b1, d, kc);
      AscendC::MmadParams mp(static_cast<uint16_t>(rows), static_cast<uint16_t>(d), static_cast<uint16_t>(kc));
      mp.cmatrixInitVal = !started_;
      AscendC::Mmad(c, a2_.Get<T>(), b2_.Get<T>(), mp);
      AscendC::PipeBarrier<PIPE_ALL>();
      started_ = true;
    }
    if (cached) tag_[kt] = bh + 1;
  }

  // Writes the accumulated [rows, d] (row r at x[r * ldx]) and ends the accumulation.
  __aicore__ void Finish(const AscendC::GlobalTensor<float>& x, uint32_t ldx, uint32_t rows, uint32_t d) {
    AscendC::FixpipeParamsV220 fp;
    fp.mSize = static_cast<uint16_t>(rows);
    fp.nSize = static_cast<uint16_t>(d);
    fp.srcStride = static_cast<uint16_t>(Round16(rows));
    fp.dstStride = ldx;
    fp.quantPre = AscendC::QuantMode_t::NoQuant;
    AscendC::Fixpipe(x, c_.Get<float>(), fp);
    AscendC::PipeBarrier<PIPE_ALL>();
    started_ = false;
  }

  // Elements of one cache slot: every K step of one V tile, each [k16, dp16].
  __aicore__ uint32_t SlotElems() const { return steps_ * dp16_ * k16_; }

 private:
  static __aicore__ uint32_t Round16(uint32_t x) { return (x + 15) / 16 * 16; }

  // P [rows, kc] (ND, pitch ld) -> L1 Nz -> L0A Zz: fractal (mb, kb) at mb * kbTotal + kb.
  __aicore__ void LoadP(const AscendC::GlobalTensor<T>& p, uint32_t ld, uint32_t rows, uint32_t kc) {
    AscendC::LocalTensor<T> a1 = a1_.Get<T>(), a2 = a2_.Get<T>();
    AscendC::Nd2NzParams np(1, static_cast<uint16_t>(rows), static_cast<uint16_t>(kc), 0, static_cast<uint16_t>(ld),
                            static_cast<uint16_t>(Round16(rows)), 1, 0);
    AscendC::DataCopy(a1, p, np);
    AscendC::PipeBarrier<PIPE_ALL>();
    const uint32_t m16 = Round16(rows), kb = (kc + C0 - 1) / C0;
    for (uint32_t mb = 0; mb < m16 / 16; ++mb) {
      AscendC::LoadData2dParams lp;
      lp.startIndex = static_cast<uint16_t>(mb);
      lp.repeatTimes = static_cast<uint8_t>(kb);
      lp.srcStride = static_cast<uint16_t>(m16 / 16);
      AscendC::LoadData(a2[mb * kb * 16 * C0], a1, lp);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // V rows [kc, n] (row stride ld) -> L1: float as 16-column slabs (each a
  // row-major [k16][16] block), 16-bit types as Nz column blocks of k16 rows.
  static __aicore__ void CopyV(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint32_t ld,
                               uint32_t n, uint32_t kc) {
    if constexpr (sizeof(T) == 4) {
      const uint32_t full = n / 16, tail = n % 16, slab = Round16(kc) * 16;
      AscendC::Nd2NzParams p(static_cast<uint16_t>(full), static_cast<uint16_t>(kc), 16, 16,
                             static_cast<uint16_t>(ld), 1, 2, static_cast<uint16_t>(slab));
      if (full > 0) AscendC::DataCopy(dst, src, p);
      if (tail > 0) {
        p.ndNum = 1;
        p.dValue = static_cast<uint16_t>(tail);
        AscendC::DataCopy(dst[full * slab], src[full * 16], p);
      }
    } else {
      AscendC::Nd2NzParams p(1, static_cast<uint16_t>(kc), static_cast<uint16_t>(n), 0, static_cast<uint16_t>(ld),
                             static_cast<uint16_t>(Round16(kc)), 1, 0);
      AscendC::DataCopy(dst, src, p);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  // L1 image of V [kc, n] -> L0B Zn: fractal (kb, nb) at kb * nbTotal + nb, each n-major.
  __aicore__ void SplitV(const AscendC::LocalTensor<T>& b1, uint32_t n, uint32_t kc) {
    AscendC::LocalTensor<T> b2 = b2_.Get<T>();
    const uint32_t nb = Round16(n) / 16;
    if constexpr (sizeof(T) == 4) {
      for (uint32_t i = 0; i < (kc + 15) / 16; ++i) {  // 16 x 16 squares -> two 16 x 8 fractals
        AscendC::LoadData2dTransposeParams tp;
        tp.startIndex = static_cast<uint16_t>(2 * i);
        tp.repeatTimes = static_cast<uint8_t>(nb);
        tp.srcStride = static_cast<uint16_t>(Round16(kc) / 8);
        tp.dstFracGap = static_cast<uint16_t>(nb - 1);
        AscendC::LoadDataWithTranspose(b2[2 * i * nb * 16 * C0], b1, tp);
      }
    } else {
      for (uint32_t i = 0; i < (kc + C0 - 1) / C0; ++i) {  // fractal (kb, nb) at nb * k16/16 + kb, transposed
        AscendC::LoadData2dParams lp;
        lp.repeatTimes = static_cast<uint8_t>(nb);
        lp.startIndex = static_cast<uint16_t>(i);
        lp.srcStride = static_cast<uint16_t>(Round16(kc) / 16);
        lp.ifTranspose = true;
        AscendC::LoadData(b2[i * nb * 16 * C0], b1, lp);
      }
    }
    AscendC::PipeBarrier<PIPE_ALL>();
  }

  AscendC::TBuf<AscendC::TPosition::A1> a1_;
  AscendC::TBuf<AscendC::TPosition::B1> b1_, cache_;
  AscendC::TBuf<AscendC::TPosition::A2> a2_;
  AscendC::TBuf<AscendC::TPosition::B2> b2_;
  AscendC::TBuf<AscendC::TPosition::CO1> c_;
  uint32_t tile16_ = 0, dp16_ = 0, kStep_ = 0, k16_ = 0, steps_ = 0, cacheTiles_ = 0;
  bool started_ = false;
  uint32_t tag_[kMaxCacheTiles];  // bh + 1 of the head whose V tile the slot holds (0: empty)
};

}  // namespace npurt_kernels
