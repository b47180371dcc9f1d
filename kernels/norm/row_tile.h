// kernels/norm/row_tile.h: device-side helpers of the row-wise kernels (norm
// and softmax families): moving a tile of [n rows, len columns] between a
// row-major GM matrix and UB (LoadRows/StoreRows, through queues with
// QueueLoad/QueueStore), converting it to and from float32, the forward
// kernels' x -> float32 -> y staging (RowStage), reading a vector result on
// the scalar unit (ReadScalar) and the row reductions (RowReducer). Shared by
// norm_kernel.cc, norm_backward_kernel.cc, softmax_kernel.cc and
// softmax_backward_kernel.cc: none of them repeats these pieces.
//
// Layout invariant (from npurt/tiling.h): in UB a tile row starts every `ls`
// elements, ls = len rounded up to the plan's align_elems, so every buffer's
// rows are 32-byte aligned whatever its element type. Loads fill each row up
// to its 32-byte block end (DataCopyPad), so whole-tile vector ops over n * ls
// lanes only ever read initialised UB; pad lanes carry junk that no result
// uses (only lanes [0, len) of a row are stored or reduced).
#pragma once

#include <type_traits>

#include "kernel_operator.h"
#include "npurt/tiling.h"

namespace npurt::kernels::rows {

using AscendC::GlobalTensor;
using AscendC::HardEvent;
using AscendC::LocalTensor;

__aicore__ inline uint32_t RoundUp(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

// Row stride in UB for a chunk of `len` columns.
__aicore__ inline uint32_t LocalStride(const npurt::tiling::RowTilingData& d, uint32_t len) {
  return d.num_chunks == 1 && d.split == 0 ? d.chunk_stride : RoundUp(len, d.align_elems);
}

// GM rows [0, n) x columns [0, len) at `src` (rows `pitch` elements apart) -> UB rows `ls` apart.
template <class T>
__aicore__ inline void LoadRows(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t n, uint32_t len,
                                uint64_t pitch, uint32_t ls) {
  const uint32_t bytes = len * sizeof(T);
  AscendC::DataCopyExtParams p(static_cast<uint16_t>(n), bytes, static_cast<uint32_t>((pitch - len) * sizeof(T)),
                               (ls * static_cast<uint32_t>(sizeof(T)) - RoundUp(bytes, 32)) / 32, 0);
  AscendC::DataCopyPad(dst, src, p, AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}));
}

// UB rows `ls` apart -> GM rows [0, n) x columns [0, len) at `dst`.
template <class T>
__aicore__ inline void StoreRows(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t n, uint32_t len,
                                 uint64_t pitch, uint32_t ls) {
  const uint32_t bytes = len * sizeof(T);
  AscendC::DataCopyExtParams p(static_cast<uint16_t>(n), bytes,
                               (ls * static_cast<uint32_t>(sizeof(T)) - RoundUp(bytes, 32)) / 32,
                               static_cast<uint32_t>((pitch - len) * sizeof(T)), 0);
  AscendC::DataCopyPad(dst, src, p);
}

// A tile loaded through a VECIN queue (Alloc -> DataCopyPad -> EnQue -> DeQue).
template <class T, class Q>
__aicore__ inline LocalTensor<T> QueueLoad(Q& q, const GlobalTensor<T>& src, uint32_t n, uint32_t len, uint64_t pitch,
                                           uint32_t ls) {
  LocalTensor<T> t = q.template AllocTensor<T>();
  LoadRows(t, src, n, len, pitch, ls);
  q.EnQue(t);
  return q.template DeQue<T>();
}

// A finished tile stored through a VECOUT queue (EnQue -> DeQue -> DataCopyPad -> Free).
template <class T, class Q>
__aicore__ inline void QueueStore(Q& q, LocalTensor<T>& t, const GlobalTensor<T>& dst, uint32_t n, uint32_t len,
                                  uint64_t pitch, uint32_t ls) {
  q.EnQue(t);
  t = q.template DeQue<T>();
  StoreRows(dst, t, n, len, pitch, ls);
  q.FreeTensor(t);
}

// dst (float) = src over `count` lanes; a copy for float sources.
template <class T>
__aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t count) {
  if constexpr (std::is_same<T, float>::value) {
    if (dst.GetPhyAddr() != src.GetPhyAddr()) AscendC::Adds(dst, src, 0.0f, static_cast<int32_t>(count));
  } else {
    AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, count);
  }
}

// dst (O) = src (float), rounding to nearest even; nothing when O is float and dst is src.
template <class O>
__aicore__ inline void FromFloat(const LocalTensor<O>& dst, const LocalTensor<float>& src, uint32_t count) {
  if constexpr (std::is_same<O, float>::value) {
    if (dst.GetPhyAddr() != src.GetPhyAddr()) AscendC::Adds(dst, src, 0.0f, static_cast<int32_t>(count));
  } else {
    AscendC::Cast(dst, src, AscendC::RoundMode::CAST_RINT, count);
  }
}

// Element i of a vector result, read on the scalar unit (waits for V, and makes
// the next vector write wait for the read).
__aicore__ inline float ReadScalar(const LocalTensor<float>& t, uint32_t i = 0) {
  AscendC::SetFlag<HardEvent::V_S>(EVENT_ID3);
  AscendC::WaitFlag<HardEvent::V_S>(EVENT_ID3);
  const float v = t.GetValue(i);
  AscendC::SetFlag<HardEvent::S_V>(EVENT_ID3);
  AscendC::WaitFlag<HardEvent::S_V>(EVENT_ID3);
  return v;
}

// Scalar writes (SetValue) visible to the vector unit.
__aicore__ inline void ScalarToVector() {
  AscendC::SetFlag<HardEvent::S_V>(EVENT_ID3);
  AscendC::WaitFlag<HardEvent::S_V>(EVENT_ID3);
}

// The staging every forward row kernel does: x tiles of T through a VECIN
// queue, y tiles of O through a VECOUT queue, and a float32 view of the tile:
// `src` (what to read: x itself for float inputs, else x cast into `f`) and
// `f` (where to compute: y itself for float outputs, else a float32 tile cast
// into y on Store). Buffers: x and y with the plan's depth, f when O != float.
// Dense tiles: whole rows contiguous in GM and in UB (len == cols == ls, rows
// of 32-byte multiples) load with one DataCopy of n * len elements, the bytes
// DataCopyPad would bring. The simulator may leave such a copy pending and let
// the vector ops read the rows from GM (copy elision, copy_elision.h, which
// never applies to DataCopyPad): the tile is not first copied into UB, and the
// ops' software prefetch (stream_window.h) fetches the next row while the
// current one computes.
template <class T, class O>
class RowStage {
 public:
  static constexpr bool kFloatIn = std::is_same<T, float>::value;
  static constexpr bool kFloatOut = std::is_same<O, float>::value;

  struct Tile {
    LocalTensor<T> x;
    LocalTensor<O> y;
    LocalTensor<float> f, src;
  };

  __aicore__ void Init(AscendC::TPipe& pipe, const npurt::tiling::RowTilingData& d, GM_ADDR x, GM_ADDR y) {
    d_ = &d;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), d.rows * d.cols);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ O*>(y), d.rows * d.cols);
    const uint32_t tile = d.rows_per_tile * d.chunk_stride;
    pipe.InitBuffer(qx_, d.depth, tile * sizeof(T));
    pipe.InitBuffer(qy_, d.depth, tile * sizeof(O));
    if (!kFloatOut) pipe.InitBuffer(f_, tile * sizeof(float));
  }

  // Rows [r, r + n) x columns [c0, c0 + len), UB rows `ls` apart. With
  // cast == false a non-float x is left uncast: the caller casts each row
  // (ToFloat of row i into f[i * ls]) right before using it, while it is hot
  // in the simulator host's L1 cache (a whole-tile cast streams through L2).
  __aicore__ Tile Load(uint64_t r, uint32_t n, uint64_t c0, uint32_t len, uint32_t ls, bool cast = true) {
    Tile t;
    t.x = qx_.template AllocTensor<T>();
    if (len == d_->cols && ls == len && len * sizeof(T) % 32 == 0)
      AscendC::DataCopy(t.x, x_[r * d_->cols + c0], n * len);  // dense rows: see "Dense tiles" above
    else
      LoadRows(t.x, x_[r * d_->cols + c0], n, len, d_->cols, ls);
    qx_.EnQue(t.x);
    t.x = qx_.template DeQue<T>();
    t.y = qy_.template AllocTensor<O>();
    if constexpr (kFloatOut) t.f = t.y;
    else t.f = f_.template Get<float>();
    if constexpr (kFloatIn) {
      t.src = t.x;
    } else {
      if (cast) ToFloat(t.f, t.x, n * ls);
      t.src = t.f;
    }
    return t;
  }

  // Casts f into y (when O != float; cast == false: the caller cast each row)
  // and writes the tile out.
  __aicore__ void Store(Tile& t, uint64_t r, uint32_t n, uint64_t c0, uint32_t len, uint32_t ls, bool cast = true) {
    if constexpr (!kFloatOut) {
      if (cast) FromFloat(t.y, t.f, n * ls);
    }
    qx_.FreeTensor(t.x);
    QueueStore<O>(qy_, t.y, y_[r * d_->cols + c0], n, len, d_->cols, ls);
  }

  // A tile that was only read (pass 1 of a multi-pass plan).
  __aicore__ void Drop(Tile& t) {
    qx_.FreeTensor(t.x);
    qy_.FreeTensor(t.y);
  }

 private:
  const npurt::tiling::RowTilingData* d_ = nullptr;
  AscendC::GlobalTensor<T> x_;
  AscendC::GlobalTensor<O> y_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qx_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> qy_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> f_;
};

// Elements of the ReduceSum/ReduceMax work buffer for rows of up to `cols` float lanes.
__aicore__ inline uint32_t ReduceWorkElems(uint32_t cols) { return RoundUp(2 * ((cols + 63) / 64), 8) + 8; }

// The row reductions of every row kernel, read back on the scalar unit: owns
// the ReduceSum/ReduceMax work area (rows of up to `max_len` lanes) and a
// 64-byte scalar slot. Init it after the kernel's other buffers: the host
// request lists these two last (row_op_util.h add_reduce_buffers).
class RowReducer {
 public:
  // The two tensors are taken once here: the reductions run several times per
  // row, and a TBuf::Get per call was ~2 % of a float16 layer_norm row.
  __aicore__ void Init(AscendC::TPipe& pipe, uint32_t max_len) {
    pipe.InitBuffer(work_, ReduceWorkElems(max_len) * sizeof(float));
    pipe.InitBuffer(sc_, 64);
    work_t_ = work_.Get<float>();
    slot_ = sc_.Get<float>();
  }

  __aicore__ float Sum(const LocalTensor<float>& v, uint32_t len) {
    AscendC::ReduceSum(slot_, v, work_t_, static_cast<int32_t>(len));
    return ReadScalar(slot_);
  }

  // Sum of v[0, len) into dst[0] without a read-back (dst 8-byte aligned, e.g.
  // one 32-byte slot per row): the caller syncs V -> S once for many rows.
  __aicore__ void SumTo(const LocalTensor<float>& dst, const LocalTensor<float>& v, uint32_t len) {
    AscendC::ReduceSum(dst, v, work_t_, static_cast<int32_t>(len));
  }

  __aicore__ float Max(const LocalTensor<float>& v, uint32_t len) {
    AscendC::ReduceMax(slot_, v, work_t_, static_cast<int32_t>(len), false);
    return ReadScalar(slot_);
  }

  // The 64-byte scalar slot (also for one-lane vector math such as Exp of a scalar).
  __aicore__ const LocalTensor<float>& Slot() const { return slot_; }

 private:
  AscendC::TBuf<AscendC::TPosition::VECCALC> work_, sc_;
  LocalTensor<float> work_t_, slot_;
};

}  // namespace npurt::kernels::rows
