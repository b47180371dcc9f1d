// kernels/linalg/staged_out.h: the small per-matrix outputs of the LU family
// (pivots, sign and log|det|, Cholesky's info) written through a UB window
// and DataCopyPad instead of GM SetValue.
//
// Why: scalar GM writes go through the core's data cache, whose write-back
// carries whole 64 B lines, so two blocks must never scalar-write one line
// (gm_scalar.h); with 4-byte items that forced the batch split into units of
// 16 matrices (batch 64 on 4 blocks). A DataCopyPad writes exactly its bytes,
// so with these outputs staged a block may own any run of matrices: the host
// splits per matrix whenever the matrix itself is worked in UB (lu_host.h).
//
// Invariants: a block Sets its items in ascending index order and without
// gaps (Flush copies [first, first + count) whole, so a skipped item would
// carry unwritten UB bytes over another block's GM item; the window restarts
// at an item outside it, after flushing); Flush() before the block ends. The window is kStageBytes of UB per output (lu_tiling.h), which the
// host adds to the kernel's UB plan.
#pragma once

#include <cstdint>

#include "kernel_operator.h"
#include "linalg/lu_tiling.h"

namespace npurt::kernels::linalg {

template <class U>
class StagedOut {
 public:
  __aicore__ inline void Init(AscendC::TPipe& pipe, AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                              const AscendC::GlobalTensor<U>& out) {
    pipe.InitBuffer(buf, kStageBytes);
    ub_ = buf.template Get<U>();
    out_ = out;
  }

  // out[i] = v (on the next Flush).
  __aicore__ inline void Set(uint64_t i, U v) {
    if (count_ > 0 && (i < first_ || i >= first_ + kCap)) Flush();
    if (count_ == 0) first_ = i;
    ub_.SetValue(static_cast<uint32_t>(i - first_), v);
    if (i - first_ + 1 > count_) count_ = i - first_ + 1;
  }

  // Writes the window's items [first, first + count) to GM with one DataCopyPad.
  __aicore__ inline void Flush() {
    if (count_ == 0) return;
    AscendC::PipeBarrier<PIPE_ALL>();  // the scalar UB writes before the copy reads them
    AscendC::DataCopyExtParams p(1, static_cast<uint32_t>(count_ * sizeof(U)), 0, 0, 0);
    AscendC::DataCopyPad(out_[first_], ub_, p);
    AscendC::PipeBarrier<PIPE_ALL>();  // the copy before the window is written again
    count_ = 0;
  }

  // The items [base, ...) of one matrix, with GlobalTensor's SetValue(k, v)
  // (what the algorithms write pivots through).
  struct Slice {
    StagedOut* out;
    uint64_t base;
    __aicore__ inline void SetValue(uint64_t k, U v) const { out->Set(base + k, v); }
  };
  __aicore__ inline Slice At(uint64_t base) { return Slice{this, base}; }

 private:
  static constexpr uint64_t kCap = kStageBytes / sizeof(U);
  AscendC::LocalTensor<U> ub_;
  AscendC::GlobalTensor<U> out_;
  uint64_t first_ = 0, count_ = 0;
};

}  // namespace npurt::kernels::linalg
