// kernels/fill/fill_kernel.cc: fill a contiguous tensor with one value (device code).
//
// One UB tile is filled with the element pattern (Duplicate on 16/32-bit words
// for 1/2/4-byte elements; scalar writes for 8/16-byte ones, once per core),
// then copied to every tile of the core's range. A strided output (a view's
// window, fill_tiling.h) gets the same tile, written run by run: one
// DataCopyPad puts up to max_runs runs at their GM gap, each read from its own
// 32-byte-aligned UB block (every block starts with pattern[0], as itemsize
// divides 32), so no scalar GM write and no byte outside the view is touched.
#include <cstring>

#include "common/kernel_util.h"
#include "fill/fill_tiling.h"
#include "kernel_operator.h"
#include "npurt/backend.h"

namespace npurt::kernels {
namespace {

__aicore__ inline void FillPattern(const AscendC::LocalTensor<uint8_t>& buf, const FillTiling& t) {
  uint32_t bytes = t.tile_bytes;
  if (t.itemsize == 1 || t.itemsize == 2) {
    uint16_t w;
    if (t.itemsize == 1) w = static_cast<uint16_t>(t.pattern[0] | (t.pattern[0] << 8));
    else std::memcpy(&w, t.pattern, 2);
    AscendC::Duplicate(buf.ReinterpretCast<uint16_t>(), w, static_cast<int32_t>(bytes / 2));
  } else if (t.itemsize == 4) {
    uint32_t w;
    std::memcpy(&w, t.pattern, 4);
    AscendC::Duplicate(buf.ReinterpretCast<uint32_t>(), w, static_cast<int32_t>(bytes / 4));
  } else {  // 8 or 16 bytes: the vector unit has no 64-bit Duplicate
    AscendC::LocalTensor<uint32_t> words = buf.ReinterpretCast<uint32_t>();
    uint32_t period = t.itemsize / 4;
    for (uint32_t i = 0; i < bytes / 4; ++i) {
      uint32_t w;
      std::memcpy(&w, t.pattern + 4 * (i % period), 4);
      words.SetValue(i, w);
    }
  }
}

// Runs [r0, r1) of the strided output y (the view's window) from the pattern tile.
__aicore__ inline void FillRuns(const AscendC::GlobalTensor<uint8_t>& y, const AscendC::LocalTensor<uint8_t>& buf,
                                const FillTiling& t, uint64_t r0, uint64_t r1) {
  const int nd = static_cast<int>(t.ndim);
  int64_t idx[kFillMaxDims];
  int64_t off = 0;  // elements from the window's start
  uint64_t rem = r0;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = static_cast<int64_t>(rem % static_cast<uint64_t>(t.shape[d]));
    rem /= static_cast<uint64_t>(t.shape[d]);
    off += idx[d] * t.stride[d];
  }
  const int64_t last = t.shape[nd - 1], s_last = t.stride[nd - 1];
  for (uint64_t r = r0; r < r1;) {
    uint64_t k = static_cast<uint64_t>(last - idx[nd - 1]);
    if (k > r1 - r) k = r1 - r;
    if (k > t.max_runs) k = t.max_runs;
    const uint64_t at = static_cast<uint64_t>(off) * t.itemsize;
    if (t.run_bytes <= t.tile_bytes) {
      AscendC::DataCopyExtParams p(static_cast<uint16_t>(k), static_cast<uint32_t>(t.run_bytes), 0, k > 1 ? t.gap_bytes : 0, 0);
      AscendC::DataCopyPad(y[at], buf, p);
    } else {  // one run longer than the tile (k == 1): tile-sized pieces
      for (uint64_t c = 0; c < t.run_bytes; c += t.tile_bytes) {
        const uint32_t n = static_cast<uint32_t>(t.run_bytes - c < t.tile_bytes ? t.run_bytes - c : t.tile_bytes);
        AscendC::DataCopyPad(y[at + c], buf, AscendC::DataCopyExtParams(1, n, 0, 0, 0));
      }
    }
    r += k;
    off += static_cast<int64_t>(k) * s_last;
    idx[nd - 1] += static_cast<int64_t>(k);
    for (int d = nd - 1; d > 0 && idx[d] == t.shape[d]; --d) {
      off += t.stride[d - 1] - idx[d] * t.stride[d];
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_fill_kernel(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(FillTiling, t, tiling);
  // This core's share: bytes [begin, begin + count) of a dense y, or runs [begin, begin + count) of a strided one.
  const uint64_t total = t.ndim > 0 ? t.runs : t.total_bytes;
  const uint64_t per_core = t.ndim > 0 ? t.runs_per_core : t.per_core_bytes;
  const uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * per_core;
  if (begin >= total) return;
  const uint64_t count = total - begin < per_core ? total - begin : per_core;
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, t.tile_bytes);
  AscendC::LocalTensor<uint8_t> buf = q.AllocTensor<uint8_t>();
  FillPattern(buf, t);
  q.EnQue(buf);
  buf = q.DeQue<uint8_t>();
  AscendC::GlobalTensor<uint8_t> out;
  if (t.ndim > 0) {
    out.SetGlobalBuffer(y, t.total_bytes);  // the whole window: runs land anywhere in it
    FillRuns(out, buf, t, begin, begin + count);
  } else {
    out.SetGlobalBuffer(y + begin, count);
    for (uint64_t off = 0; off < count; off += t.tile_bytes) {
      uint32_t n = static_cast<uint32_t>(count - off < t.tile_bytes ? count - off : t.tile_bytes);
      CopyOut(out[off], buf, n);
    }
  }
  q.FreeTensor(buf);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kFillKernelEntry = NPURT_SIM_ENTRY(npurt_fill_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
