// kernels/attention/attention_l1_cache.h: the pieces the attention forward's
// two cube stages (AttnScoreCube: S = Q K^T, AttnValueCube: P V) share: the
// per-head L1 tile cache, the L1/L0 staging buffers, the GM ND -> L1 Nz copy,
// the L1 Nz -> L0A split and the L0C -> GM Fixpipe.
//
// Why a cache: a block's work items are consecutive q tiles of one head
// (non-causal plan) and each multiplies with the same K and V tiles, so the
// L1 image of kv tile kt (kt < Tiles(), sized by the host from the L1 left
// over; 0 = plain streaming) is kept in a slot tagged with its head and
// converted once per head instead of once per q tile.
// Invariants: Tiles() <= kMaxTiles (the host caps its request by it); a tag
// is bh + 1 of the head whose tile the slot holds, 0 = empty; every helper
// ends with a full barrier (the one-stage-at-a-time style of this family).
// Only Ascend C APIs that exist on the NPU are used.
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace npurt_kernels {

__aicore__ inline uint32_t AttnRound16(uint32_t x) { return (x + 15) / 16 * 16; }

template <class T>
class AttnL1TileCache {
 public:
  static constexpr uint32_t kMaxTiles = 64;  // tag array size

  // tiles slots of slotElems elements each; call after the stage's own buffers.
  __aicore__ void Init(AscendC::TPipe& pipe, uint32_t tiles, uint32_t slotElems) {
    tiles_ = tiles < kMaxTiles ? tiles : kMaxTiles;
    slotElems_ = slotElems;
    if (tiles_ > 0) pipe.InitBuffer(buf_, tiles_ * slotElems_ * sizeof(T));
    for (uint32_t i = 0; i < kMaxTiles; ++i) tag_[i] = 0;
  }

  __aicore__ bool Has(uint32_t kt) const { return kt < tiles_; }
  // Slot kt already holds kv tile kt of head bh.
  __aicore__ bool Holds(uint32_t kt, uint32_t bh) const { return kt < tiles_ && tag_[kt] == bh + 1; }
  __aicore__ void Mark(uint32_t kt, uint32_t bh) { tag_[kt] = bh + 1; }
  __aicore__ AscendC::LocalTensor<T> Slot(uint32_t kt) { return buf_.Get<T>()[kt * slotElems_]; }

 private:
  AscendC::TBuf<AscendC::TPosition::B1> buf_;
  uint32_t tiles_ = 0, slotElems_ = 0;
  uint32_t tag_[kMaxTiles];
};

// The L1 / L0 staging buffers of one cube stage: A (L1 a1 -> L0A a2), B (L1
// b1 -> L0B b2) and the float L0C accumulator c, sized in elements.
template <class T>
struct AttnCubeBuffers {
  __aicore__ void Init(AscendC::TPipe& pipe, uint32_t aElems, uint32_t bElems, uint32_t cElems) {
    pipe.InitBuffer(a1, aElems * sizeof(T));
    pipe.InitBuffer(b1, bElems * sizeof(T));
    pipe.InitBuffer(a2, aElems * sizeof(T));
    pipe.InitBuffer(b2, bElems * sizeof(T));
    pipe.InitBuffer(c, cElems * sizeof(float));
  }

  AscendC::TBuf<AscendC::TPosition::A1> a1;
  AscendC::TBuf<AscendC::TPosition::B1> b1;
  AscendC::TBuf<AscendC::TPosition::A2> a2;
  AscendC::TBuf<AscendC::TPosition::B2> b2;
  AscendC::TBuf<AscendC::TPosition::CO1> c;
};

// ND rows x cols at src (row stride ld) -> L1 Nz: column blocks of 32 bytes, rows rounded to 16.
template <class T>
__aicore__ inline void AttnNd2Nz(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                 uint32_t ld, uint32_t rows, uint32_t cols) {
  AscendC::Nd2NzParams p(1, static_cast<uint16_t>(rows), static_cast<uint16_t>(cols), 0, static_cast<uint16_t>(ld),
                         static_cast<uint16_t>(AttnRound16(rows)), 1, 0);
  AscendC::DataCopy(dst, src, p);
  AscendC::PipeBarrier<PIPE_ALL>();
}

// L1 Nz image of A [m, kc] -> L0A Zz: fractal (mb, kb) at mb * kbTotal + kb.
template <class T>
__aicore__ inline void AttnSplitA(const AscendC::LocalTensor<T>& a2, const AscendC::LocalTensor<T>& a1, uint32_t m,
                                  uint32_t kc) {
  constexpr uint32_t C0 = 32 / sizeof(T);
  const uint32_t m16 = AttnRound16(m), kb = (kc + C0 - 1) / C0;
  for (uint32_t mb = 0; mb < m16 / 16; ++mb) {
    AscendC::LoadData2dParams lp;
    lp.startIndex = static_cast<uint16_t>(mb);
    lp.repeatTimes = static_cast<uint8_t>(kb);
    lp.srcStride = static_cast<uint16_t>(m16 / 16);
    AscendC::LoadData(a2[mb * kb * 16 * C0], a1, lp);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}

// L0C [rows, cols] (float) -> GM x, row r at x[r * ldx].
__aicore__ inline void AttnFixpipe(const AscendC::GlobalTensor<float>& x, const AscendC::LocalTensor<float>& c,
                                   uint32_t rows, uint32_t cols, uint32_t ldx) {
  AscendC::FixpipeParamsV220 fp;
  fp.mSize = static_cast<uint16_t>(rows);
  fp.nSize = static_cast<uint16_t>(cols);
  fp.srcStride = static_cast<uint16_t>(AttnRound16(rows));
  fp.dstStride = ldx;
  fp.quantPre = AscendC::QuantMode_t::NoQuant;
  AscendC::Fixpipe(x, c, fp);
  AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace npurt_kernels
