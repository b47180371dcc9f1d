// aicore/vec_brcb.h: AscendC::Brcb, the per-element block broadcast of the
// vector unit (A2/A3: int16/uint16/int32/uint32/half/bfloat16/float).
//
// Semantics (Ascend C API reference, "Brcb"): repeat r reads the 8 consecutive
// source elements src[8 r .. 8 r + 7] and fills 8 destination 32-byte blocks,
// block j with copies of src[8 r + j]; block j of repeat r starts at byte
// (r * dstRepStride + j * dstBlkStride) * 32 of dst. Kernels use it to turn one
// value per row into a row-broadcast operand (a float row scale becomes 8
// copies in a block, then one level-0 Mul with src1BlkStride 0 scales every
// row), instead of one scalar instruction per row.
// Invariants: repeatTime 0 is a NOP; the source holds >= 8 * repeatTime
// elements; source and destination must not overlap (the reference forbids
// the same address; any overlap is refused here); dstBlkStride 0 is a
// parameter diagnostic (as in vec_repeat.h); when repeats overlap (small
// dstRepStride) later blocks overwrite earlier ones, in repeat order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "aicore/vec_brcb_raw.h"
#include "aicore/vec_common.h"
#include "aicore/vec_reduce.h"

namespace AscendC {

struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint16_t dstBlkStride = 1;
  uint16_t dstRepStride = 8;
};

template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
                            const BrcbRepeatParams& repeatParams) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t> ||
                    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> ||
                    std::is_same_v<T, uint32_t>,
                "Brcb supports 16- and 32-bit element types on A2/A3");
  namespace va = npurt::sim::vecapi;
  if (repeatTime == 0) return;
  constexpr uint64_t B = va::kBlockElems<T>;
  const uint64_t blk = repeatParams.dstBlkStride, rep = repeatParams.dstRepStride;
  if (blk == 0) npurt::sim::vec_fault("Brcb", "dstBlkStride 0 is undefined on the vector unit");
  const uint64_t n = 8ull * repeatTime;
  // Strides are unsigned: the last repeat's block 7 starts furthest from dst.
  const uint64_t last = (repeatTime - 1) * rep + 7 * blk;
  const uint64_t extent = (last + 1) * B;
  const T* s = va::src_operand("Brcb", src0, n);
  T* d = va::dst_operand("Brcb", dst, extent);
  const auto sb = reinterpret_cast<uintptr_t>(s), db = reinterpret_cast<uintptr_t>(d);
  if (db < sb + n * sizeof(T) && sb < db + extent * sizeof(T))
    npurt::sim::vec_fault("Brcb", "dst and src0 overlap; the vector unit needs them disjoint");
  if (blk == 1) {  // adjacent blocks: the host's vector stores (aicore/vec_brcb_raw.h)
    npurt::aicore::vec::brcb_adjacent_blocks(d, s, repeatTime, rep * 32, sizeof(T));
    return;
  }
  for (uint64_t r = 0; r < repeatTime; ++r) {
    for (uint64_t j = 0; j < 8; ++j) {
      const T v = s[8 * r + j];
      T* out = d + (r * rep + j * blk) * B;
      for (uint64_t e = 0; e < B; ++e) out[e] = v;
    }
  }
}

}  // namespace AscendC
