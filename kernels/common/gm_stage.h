// kernels/common/gm_stage.h: results the scalar unit computes reach GM through
// a UB buffer and the MTE3 copy instead of GlobalTensor::SetValue.
//
// Why: scalar GM writes go through the core's 64 B DCache (common/gm_scalar.h):
// the line must be cleaned, and no other block may scalar-write a byte of it,
// which outputs placed by data (after a prefix sum of per-block counts) or
// scattered by an index cannot promise. DataCopy / DataCopyPad bypass the
// DCache and write exactly their bytes, so blocks may write neighbouring bytes
// of one line.
//  - StagedOut<T>: a sequential output gm[first], gm[first + 1], ... collected
//    in UB and copied out when the buffer is full and at Flush().
//  - StagedScatter<T>: elements to arbitrary GM offsets. An element whose GM
//    offset follows the previous one's extends that run; a new run starts at
//    the next 32-byte aligned UB offset (DataCopyPad reads UB from 32-byte
//    aligned addresses) and is recorded as (GM offset, UB offset, length);
//    Flush() issues one DataCopyPad per run in Put order, each after a
//    PipeBarrier<PIPE_MTE3>, so the last write of a GM element wins, as it did
//    with SetValue.
// Invariants: the scalar unit writes a staging buffer only after the previous
// flush's copies are done (MTE3 -> S hand-off) and MTE3 reads it only after the
// scalar writes (S -> MTE3); both are empty after Flush(). Callers Flush()
// before the kernel ends and before they write the same GM any other way.
#pragma once

#include <cstdint>

#include "common/kernel_util.h"
#include "kernel_operator.h"

namespace npurt::kernels {

template <AscendC::HardEvent E>
__aicore__ inline void StageHandoff() {
  AscendC::SetFlag<E>(static_cast<event_t>(0));
  AscendC::WaitFlag<E>(static_cast<event_t>(0));
}

template <class T>
class StagedOut {
 public:
  // cap: elements the UB buffer holds (> 0); gm[first] is the first output.
  __aicore__ void Init(AscendC::TPipe& pipe, uint32_t cap, const AscendC::GlobalTensor<T>& gm, uint64_t first) {
    pipe.InitBuffer(buf_, cap * static_cast<uint32_t>(sizeof(T)));
    ub_ = buf_.template Get<T>();
    cap_ = cap, gm_ = gm, next_ = first;
  }

  __aicore__ void Put(T v) {
    ub_.SetValue(k_, v);
    if (++k_ == cap_) Flush();
  }

  __aicore__ void Flush() {
    if (k_ == 0) return;
    StageHandoff<AscendC::HardEvent::S_MTE3>();
    CopyOut(gm_[next_], ub_, k_);
    StageHandoff<AscendC::HardEvent::MTE3_S>();
    next_ += k_, k_ = 0;
  }

 private:
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
  AscendC::LocalTensor<T> ub_;
  AscendC::GlobalTensor<T> gm_;
  uint32_t cap_ = 0, k_ = 0;
  uint64_t next_ = 0;
};

template <class T>
class StagedScatter {
 public:
  // bytes: UB for the staged elements and the run records (half each, >= 64).
  __aicore__ void Init(AscendC::TPipe& pipe, uint32_t bytes, const AscendC::GlobalTensor<T>& gm) {
    data_bytes_ = bytes / 2 / 32 * 32;
    max_runs_ = bytes / 2 / 16;
    pipe.InitBuffer(data_buf_, data_bytes_);
    pipe.InitBuffer(run_buf_, max_runs_ * 16);
    data_ = data_buf_.template Get<T>();
    runs_ = run_buf_.template Get<uint64_t>();
    gm_ = gm;
  }

  // gm[dst] = v.
  __aicore__ void Put(uint64_t dst, T v) {
    if (len_ == 0 || dst != dst_ + len_ || off_ + (len_ + 1) * sizeof(T) > data_bytes_) StartRun(dst);
    data_.SetValue(static_cast<uint32_t>(off_ / sizeof(T) + len_), v);
    ++len_;
  }

  // gm[dst + k] = src[pos + k] for k < run.
  __aicore__ void Put(uint64_t dst, const AscendC::LocalTensor<T>& src, uint32_t pos, uint32_t run) {
    for (uint32_t k = 0; k < run; ++k) Put(dst + k, src.GetValue(pos + k));
  }

  __aicore__ void Flush() {
    Close();
    if (nruns_ == 0) return;
    StageHandoff<AscendC::HardEvent::S_MTE3>();
    for (uint32_t r = 0; r < nruns_; ++r) {
      const uint64_t dst = runs_.GetValue(2 * r), where = runs_.GetValue(2 * r + 1);
      const uint32_t off = static_cast<uint32_t>(where >> 32), len = static_cast<uint32_t>(where);
      AscendC::DataCopyExtParams p(1, len * static_cast<uint32_t>(sizeof(T)), 0, 0, 0);
      // Runs may target GM an earlier copy (of this flush or of the caller)
      // writes, e.g. a repeated index: the DMA may complete two copies out of
      // order, so each waits for the earlier ones (gm_order.h).
      AscendC::PipeBarrier<PIPE_MTE3>();
      AscendC::DataCopyPad(gm_[dst], data_[off / static_cast<uint32_t>(sizeof(T))], p);
    }
    StageHandoff<AscendC::HardEvent::MTE3_S>();
    nruns_ = 0, used_ = 0;
  }

 private:
  // Records the open run and opens one for gm[dst] at the next aligned UB offset
  // (flushing first when the data or the records are full).
  __aicore__ void StartRun(uint64_t dst) {
    Close();
    if (nruns_ == max_runs_ || used_ + sizeof(T) > data_bytes_) Flush();
    dst_ = dst, off_ = used_;
  }

  __aicore__ void Close() {
    if (len_ == 0) return;
    runs_.SetValue(2 * nruns_, dst_);
    runs_.SetValue(2 * nruns_ + 1, (uint64_t{off_} << 32) | len_);
    ++nruns_;
    used_ = (off_ + len_ * static_cast<uint32_t>(sizeof(T)) + 31) / 32 * 32;
    len_ = 0;
  }

  AscendC::TBuf<AscendC::TPosition::VECCALC> data_buf_, run_buf_;
  AscendC::LocalTensor<T> data_;
  AscendC::LocalTensor<uint64_t> runs_;
  AscendC::GlobalTensor<T> gm_;
  uint32_t data_bytes_ = 0, max_runs_ = 0, nruns_ = 0;
  uint32_t used_ = 0;            // UB bytes taken by recorded runs (32-byte aligned)
  uint64_t dst_ = 0;             // the open run: GM offset, UB byte offset, length
  uint32_t off_ = 0, len_ = 0;
};

}  // namespace npurt::kernels
