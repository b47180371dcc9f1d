// kernels/copy/copy_kernel.cc: strided view -> contiguous tensor (or into a
// strided output view's window, copy_tiling.h), any dtype (device code).
#include "common/kernel_util.h"
#include "copy/copy_tiling.h"
#include "copy/ub_transpose.h"
#include "kernel_operator.h"
#include "npurt/backend.h"

namespace npurt::kernels {
namespace {

// Offset (units) of the first element of `row` along `stride` (the source's or the output's).
__aicore__ inline int64_t RowOffset(const CopyTiling& t, const int64_t* stride, uint64_t row) {
  int64_t off = 0;
  for (int d = static_cast<int>(t.ndim) - 2; d >= 0; --d) {
    uint64_t extent = static_cast<uint64_t>(t.shape[d]);
    off += static_cast<int64_t>(row % extent) * stride[d];
    row /= extent;
  }
  return off;
}

// Source offset (units) of the first element of `row`.
__aicore__ inline int64_t RowOffset(const CopyTiling& t, uint64_t row) { return t.src_base + RowOffset(t, t.stride, row); }

// How many rows from `row` on are evenly spaced by stride[ndim-2] in the source.
__aicore__ inline uint64_t RunOfRows(const CopyTiling& t, uint64_t row) {
  if (t.ndim < 2) return 1;
  uint64_t extent = static_cast<uint64_t>(t.shape[t.ndim - 2]);
  return extent - row % extent;
}

template <class U>
class CopyKernel {
 public:
  __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, const CopyTiling& t) {
    t_ = t;
    src_ = reinterpret_cast<__gm__ U*>(x);
    uint64_t r0 = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.rows_per_core;
    if (r0 >= t.rows) return;
    uint64_t r1 = t.rows - r0 < t.rows_per_core ? t.rows : r0 + t.rows_per_core;
    if (t.out_mode == 0) {
      out_.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(y) + r0 * t.row_len, (r1 - r0) * t.row_len);
      out_base_ = r0 * t.row_len;
    } else {  // the output view's window: rows land anywhere in it
      out_.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(y), t.out_len);
    }
    if (t.out_mode == 2) pipe_.InitBuffer(spread_q_, 1, t.tile_bytes);
    if (t.mode == 2) {  // MTE2 -> V -> MTE3: one VECIN and one VECOUT buffer
      pipe_.InitBuffer(in_q_, 1, t.tile_bytes);
      pipe_.InitBuffer(out_q_, 1, t.tile_bytes);
    } else {
      pipe_.InitBuffer(q_, 2, t.tile_bytes);
    }
    tile_ = t.tile_bytes / static_cast<uint32_t>(sizeof(U));
    for (uint64_t row = r0; row < r1;) {
      if (t.mode == 0) row += CopyRows(row, r1);
      else if (t.mode == 2) row += TransposeRows(row, r1);
      else row += GatherRow(row);
    }
  }

 private:
  // Mode kRows: k whole short rows per transfer, or one chunked long row.
  __aicore__ inline uint64_t CopyRows(uint64_t row, uint64_t end) {
    const uint64_t len = t_.row_len;
    const uint64_t row_bytes = len * sizeof(U);
    const int64_t outer = t_.ndim >= 2 ? t_.stride[t_.ndim - 2] : 0;
    uint64_t k = 1;
    if (row_bytes <= 32 * 1024 && outer >= static_cast<int64_t>(len) && t_.out_mode != 2 &&
        (t_.out_mode == 0 || OutGap() < (uint64_t{1} << 32))) {
      uint64_t fit = t_.tile_bytes / ((row_bytes + 31) / 32 * 32);
      uint64_t run = RunOfRows(t_, row);
      k = fit < run ? fit : run;
      if (k > end - row) k = end - row;
      if (k > 4095) k = 4095;
      if (k < 1) k = 1;
    }
    if (k > 1 || row_bytes <= t_.tile_bytes) {
      AscendC::GlobalTensor<U> src;
      src.SetGlobalBuffer(src_ + RowOffset(t_, row));
      AscendC::LocalTensor<U> b = q_.template AllocTensor<U>();
      uint32_t gap = static_cast<uint32_t>((outer - static_cast<int64_t>(len)) * static_cast<int64_t>(sizeof(U)));
      AscendC::DataCopyExtParams in(static_cast<uint16_t>(k), static_cast<uint32_t>(row_bytes), k > 1 ? gap : 0, 0, 0);
      AscendC::DataCopyPad(b, src, in, AscendC::DataCopyPadExtParams<U>(false, 0, 0, U{}));
      q_.EnQue(b);
      b = q_.template DeQue<U>();
      if (t_.out_mode == 2) {  // k == 1: the row's units are scattered
        Store(row, 0, b, static_cast<uint32_t>(len));
      } else {
        const uint32_t out_gap = t_.out_mode == 0 ? 0 : static_cast<uint32_t>(OutGap());
        AscendC::DataCopyExtParams out(static_cast<uint16_t>(k), static_cast<uint32_t>(row_bytes), 0, out_gap, 0);
        AscendC::DataCopyPad(out_[OutRow(row)], b, out);
      }
      q_.FreeTensor(b);
      return k;
    }
    for (uint64_t c = 0; c < len; c += tile_) {  // a row longer than the tile
      uint32_t n = static_cast<uint32_t>(len - c < tile_ ? len - c : tile_);
      AscendC::GlobalTensor<U> src;
      src.SetGlobalBuffer(src_ + RowOffset(t_, row) + static_cast<int64_t>(c));
      AscendC::LocalTensor<U> b = q_.template AllocTensor<U>();
      CopyIn(b, src, n);
      q_.EnQue(b);
      b = q_.template DeQue<U>();
      Store(row, c, b, n);
      q_.FreeTensor(b);
    }
    return 1;
  }

  // Mode kTranspose: the next-outer dim has stride 1, so B consecutive output
  // rows are B adjacent source elements per column. One DataCopyPad brings a
  // C x B block (C strided runs of B elements) into UB, a UB-local transpose
  // (vector TransDataTo5HD; scalar moves for 8-byte units, which it lacks)
  // makes it B x C, one DataCopyPad writes B output row pieces.
  __aicore__ inline uint64_t TransposeRows(uint64_t row, uint64_t end) {
    const uint64_t len = t_.row_len;
    const uint64_t s = static_cast<uint64_t>(t_.stride[t_.ndim - 1]);
    uint64_t b = RunOfRows(t_, row);
    if (b > end - row) b = end - row;
    if (b > s) b = s;  // the GM-side gap between runs must not be negative
    if (b > t_.block_rows) b = t_.block_rows;
    const uint32_t per_block = 32 / static_cast<uint32_t>(sizeof(U));
    const uint32_t i_gran = sizeof(U) == 8 ? per_block : kTransI<U>;
    const uint32_t j_gran = sizeof(U) == 8 ? per_block : kTransJ<U>;
    const uint32_t in_pitch = static_cast<uint32_t>((b + i_gran - 1) / i_gran * i_gran);
    uint64_t c_max = tile_ / in_pitch;  // A rows per block; the result (in_pitch x c_max) fits too
    if (c_max > 4095) c_max = 4095;
    c_max = c_max / j_gran * j_gran;
    const int64_t base = RowOffset(t_, row);
    for (uint64_t c = 0; c < len; c += c_max) {
      uint32_t n = static_cast<uint32_t>(len - c < c_max ? len - c : c_max);
      uint32_t out_pitch = (n + j_gran - 1) / j_gran * j_gran;
      AscendC::GlobalTensor<U> src;
      src.SetGlobalBuffer(src_ + base + static_cast<int64_t>(c * s));
      AscendC::LocalTensor<U> in = in_q_.template AllocTensor<U>();
      // Runs of b elements, each padded in UB to in_pitch (a whole number of blocks).
      AscendC::DataCopyExtParams rd(static_cast<uint16_t>(n), static_cast<uint32_t>(b * sizeof(U)),
                                    static_cast<uint32_t>((s - b) * sizeof(U)),
                                    (in_pitch - (b + per_block - 1) / per_block * per_block) / per_block, 0);
      AscendC::DataCopyPad(in, src, rd, AscendC::DataCopyPadExtParams<U>(false, 0, 0, U{}));
      in_q_.EnQue(in);
      in = in_q_.template DeQue<U>();
      AscendC::LocalTensor<U> out = out_q_.template AllocTensor<U>();
      if constexpr (sizeof(U) == 8) {
        for (uint32_t j = 0; j < n; ++j)
          for (uint32_t i = 0; i < b; ++i) out.SetValue(i * out_pitch + j, in.GetValue(j * in_pitch + i));
      } else {
        UbTranspose<U>(in, out, n, in_pitch, out_pitch).Run();
      }
      out_q_.EnQue(out);
      in_q_.FreeTensor(in);
      out = out_q_.template DeQue<U>();
      AscendC::DataCopyExtParams wr(static_cast<uint16_t>(b), n * static_cast<uint32_t>(sizeof(U)),
                                    (out_pitch - (n + per_block - 1) / per_block * per_block) / per_block,
                                    static_cast<uint32_t>((len - n) * sizeof(U)), 0);
      AscendC::DataCopyPad(out_[row * len + c - out_base_], out, wr);
      out_q_.FreeTensor(out);
    }
    return b;
  }

  // Mode kGather: scalar reads of a strided row into UB, then one contiguous write.
  __aicore__ inline uint64_t GatherRow(uint64_t row) {
    const uint64_t len = t_.row_len;
    const int64_t s = t_.stride[t_.ndim - 1];
    for (uint64_t c = 0; c < len; c += tile_) {
      uint32_t n = static_cast<uint32_t>(len - c < tile_ ? len - c : tile_);
      // Base at the lowest address the chunk touches, so indices stay non-negative.
      int64_t first = RowOffset(t_, row) + static_cast<int64_t>(c) * s;
      int64_t low = s >= 0 ? first : first + static_cast<int64_t>(n - 1) * s;
      AscendC::GlobalTensor<U> src;
      src.SetGlobalBuffer(src_ + low);
      AscendC::LocalTensor<U> b = q_.template AllocTensor<U>();
      for (uint32_t j = 0; j < n; ++j) {
        int64_t idx = s >= 0 ? static_cast<int64_t>(j) * s : static_cast<int64_t>(n - 1 - j) * -s;
        b.SetValue(j, src.GetValue(static_cast<uint64_t>(idx)));
      }
      q_.EnQue(b);
      b = q_.template DeQue<U>();
      Store(row, c, b, n, true);
      q_.FreeTensor(b);
    }
    return 1;
  }

  // Output offset (units in out_) of the first element of `row`.
  __aicore__ inline uint64_t OutRow(uint64_t row) const {
    if (t_.out_mode == 0) return row * t_.row_len - out_base_;
    return static_cast<uint64_t>(RowOffset(t_, t_.out_stride, row));
  }

  // GM bytes between consecutive rows of the next-outer dim in a strided output (unit inner stride).
  __aicore__ inline uint64_t OutGap() const {
    const int64_t outer = t_.ndim >= 2 ? t_.out_stride[t_.ndim - 2] : 0;
    return static_cast<uint64_t>(outer - static_cast<int64_t>(t_.row_len)) * sizeof(U);
  }

  // Units [c, c + n) of `row`, held in b[0, n) (written by MTE2, or by the scalar unit when by_scalar), to the output.
  __aicore__ inline void Store(uint64_t row, uint64_t c, const AscendC::LocalTensor<U>& b, uint32_t n,
                               bool by_scalar = false) {
    if (t_.out_mode == 0) {
      CopyOut(out_[row * t_.row_len + c - out_base_], b, n);
    } else if (t_.out_mode == 1) {  // exact bytes: the window's rows need not be 32-byte aligned
      AscendC::DataCopyPad(out_[OutRow(row) + c], b, AscendC::DataCopyExtParams(1, n * static_cast<uint32_t>(sizeof(U)), 0, 0, 0));
    } else {
      Scatter(OutRow(row) + c * static_cast<uint64_t>(t_.out_stride[t_.ndim - 1]), b, n, by_scalar);
    }
  }

  // out_mode 2: b[0, n) to the output at stride out_stride[ndim-1], each unit
  // spread to its own 32-byte UB block so one DataCopyPad writes a batch.
  __aicore__ inline void Scatter(uint64_t at, const AscendC::LocalTensor<U>& b, uint32_t n, bool by_scalar) {
    const uint64_t s = static_cast<uint64_t>(t_.out_stride[t_.ndim - 1]);
    const uint32_t per_block = 32 / static_cast<uint32_t>(sizeof(U));
    uint32_t batch = t_.tile_bytes / 32;
    if (batch > 4080) batch = 4080;  // < 4096 DataCopyPad blocks
    if (batch >= 16) batch = batch / 16 * 16;  // keeps b[j] 32-byte aligned for Brcb
    const uint64_t gap = (s - 1) * sizeof(U);
    if (gap >= (uint64_t{1} << 32)) batch = 1;  // DataCopyPad's GM gap is 32-bit
    for (uint32_t j = 0; j < n; j += batch) {
      const uint32_t m = n - j < batch ? n - j : batch;
      AscendC::LocalTensor<U> sp = spread_q_.template AllocTensor<U>();
      uint32_t i = 0;
      if constexpr (sizeof(U) == 2 || sizeof(U) == 4) {
        // Vector spread: Brcb fills block k of sp with b[j + k], 8 units per repeat.
        // b came through the VECIN/VECOUT bind queue (synced for MTE3 only), written
        // by MTE2 or, in kGather, by the scalar unit: the vector unit waits for it.
        const uint32_t whole = m / 8 * 8;
        if (j == 0 && whole != 0) {
          if (by_scalar) {
            AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
          } else {
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
          }
        }
        for (; i < whole;) {
          uint32_t r = (whole - i) / 8 < 254 ? (whole - i) / 8 : 254;
          AscendC::Brcb(sp[i * per_block], b[j + i], static_cast<uint8_t>(r), AscendC::BrcbRepeatParams(1, 8));
          i += r * 8;
        }
      }
      for (; i < m; ++i) sp.SetValue(i * per_block, b.GetValue(j + i));
      spread_q_.EnQue(sp);
      sp = spread_q_.template DeQue<U>();
      AscendC::DataCopyExtParams p(static_cast<uint16_t>(m), static_cast<uint32_t>(sizeof(U)), 0,
                                   m > 1 ? static_cast<uint32_t>(gap) : 0, 0);
      AscendC::DataCopyPad(out_[at + static_cast<uint64_t>(j) * s], sp, p);
      spread_q_.FreeTensor(sp);
    }
  }

  CopyTiling t_;
  __gm__ U* src_ = nullptr;
  AscendC::GlobalTensor<U> out_;
  uint64_t out_base_ = 0;
  uint32_t tile_ = 0;
  AscendC::TPipe pipe_;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> q_;  // kRows, kGather
  AscendC::TQue<AscendC::TPosition::VECIN, 1> in_q_;                                 // kTranspose
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> out_q_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> spread_q_;                            // out_mode 2
};

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_copy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(CopyTiling, t, tiling);
  switch (t.unit) {
    case 1: { CopyKernel<uint8_t> k; k.Run(x, y, t); break; }
    case 2: { CopyKernel<uint16_t> k; k.Run(x, y, t); break; }
    case 4: { CopyKernel<uint32_t> k; k.Run(x, y, t); break; }
    default: { CopyKernel<uint64_t> k; k.Run(x, y, t); break; }
  }
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kCopyKernelEntry = NPURT_SIM_ENTRY(npurt_copy_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
