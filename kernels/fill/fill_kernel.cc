// kernels/fill/fill_kernel.cc: fill a contiguous tensor with one value (device code).
//
// One UB tile is filled with the element pattern (Duplicate on 16/32-bit words
// for 1/2/4-byte elements; scalar writes for 8/16-byte ones, once per core),
// then copied to every tile of the core's range.
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

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_fill_kernel(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(FillTiling, t, tiling);
  uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core_bytes;
  if (begin >= t.total_bytes) return;
  uint64_t count = t.total_bytes - begin < t.per_core_bytes ? t.total_bytes - begin : t.per_core_bytes;
  AscendC::GlobalTensor<uint8_t> out;
  out.SetGlobalBuffer(y + begin, count);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, t.tile_bytes);
  AscendC::LocalTensor<uint8_t> buf = q.AllocTensor<uint8_t>();
  FillPattern(buf, t);
  q.EnQue(buf);
  buf = q.DeQue<uint8_t>();
  for (uint64_t off = 0; off < count; off += t.tile_bytes) {
    uint32_t n = static_cast<uint32_t>(count - off < t.tile_bytes ? count - off : t.tile_bytes);
    CopyOut(out[off], buf, n);
  }
  q.FreeTensor(buf);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kFillKernelEntry = NPURT_SIM_ENTRY(npurt_fill_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
