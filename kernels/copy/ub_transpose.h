// kernels/copy/ub_transpose.h: transposes a block inside UB with the vector
// TransDataTo5HD instruction (device code, used by the copy kernel's
// kTranspose mode).
//
// Layout: `in` holds A, n rows (j) of in_pitch elements (i); `out` receives
// A^T, in_pitch rows (i) of out_pitch elements (j). Requirements (the caller's
// tiling keeps them): in_pitch a multiple of 32 / sizeof(U) (one 32-B block)
// and, for 1-byte U, of 32; out_pitch a multiple of kTransJ<U> (16, or 32 for
// 1-byte U); both buffers 32-B aligned and big enough. Output columns
// j in [n, out_pitch) and rows i past the caller's valid rows hold filler
// (copies of valid data), never read-before-write garbage: a partial group of
// j rows repeats row n-1 instead of reading past A.
// This is how Ascend's own transpose kernels use TransDataTo5HD: 16 source
// rows per instruction, repeats walking along j (<= 255 per instruction).
#pragma once

#include "kernel_operator.h"
#ifndef NPURT_ASCEND_DEVICE_BUILD
// The sim's TransDataTo5HD (kernel_operator.h also includes it through
// aicore/vector_api.h; naming it here keeps this header self-describing).
#include "aicore/vec_transpose.h"
#endif

namespace npurt::kernels {

// j (columns of the result) covered by one repeat.
template <class U> constexpr uint32_t kTransJ = sizeof(U) == 1 ? 32 : 16;
// i (rows of the result) covered by one instruction's source blocks.
template <class U> constexpr uint32_t kTransI = sizeof(U) == 1 ? 32 : 32 / sizeof(U);

template <class U>
class UbTranspose {
 public:
  __aicore__ inline UbTranspose(const AscendC::LocalTensor<U>& in, const AscendC::LocalTensor<U>& out, uint32_t n,
                                uint32_t in_pitch, uint32_t out_pitch)
      : in_(in.GetPhyAddr()), out_(out.GetPhyAddr()), n_(n), in_pitch_(in_pitch), out_pitch_(out_pitch) {}

  __aicore__ inline void Run() {
    const uint32_t groups = n_ / kTransJ<U>;
    for (uint32_t i0 = 0; i0 < in_pitch_; i0 += kTransI<U>) {
      for (uint32_t g = 0; g < groups; g += 255) {
        uint32_t reps = groups - g < 255 ? groups - g : 255;
        Instr(i0, g * kTransJ<U>, reps, n_);
      }
      if (n_ % kTransJ<U> != 0) Instr(i0, groups * kTransJ<U>, 1, n_);
    }
  }

 private:
  // Address of A[j][i] / A^T[i][j] (UB byte addresses, as GetPhyAddr gives).
  __aicore__ inline uint64_t InAt(uint32_t j, uint32_t i) const {
    return in_ + (uint64_t{j} * in_pitch_ + i) * sizeof(U);
  }
  __aicore__ inline uint64_t OutAt(uint32_t i, uint32_t j) const {
    return out_ + (uint64_t{i} * out_pitch_ + j) * sizeof(U);
  }
  __aicore__ inline uint32_t RowOr(uint32_t j, uint32_t last) const { return j < last ? j : last - 1; }

  // One instruction (or four for bytes) for result rows [i0, i0 + kTransI)
  // and `reps` groups of kTransJ result columns from j0; source rows past
  // `last` repeat row last-1 (only when reps == 1).
  __aicore__ inline void Instr(uint32_t i0, uint32_t j0, uint32_t reps, uint32_t last) {
    uint64_t src[16], dst[16];
    AscendC::TransDataTo5HDParams p;
    p.repeatTimes = static_cast<uint8_t>(reps);
    if constexpr (sizeof(U) == 2) {
      for (uint32_t k = 0; k < 16; ++k) {
        src[k] = InAt(RowOr(j0 + k, last), i0);
        dst[k] = OutAt(i0 + k, j0);
      }
      p.srcRepStride = static_cast<uint16_t>(in_pitch_);  // 16 rows of A = in_pitch blocks
      p.dstRepStride = 1;
      AscendC::TransDataTo5HD<U>(dst, src, p);
    } else if constexpr (sizeof(U) == 4) {
      for (uint32_t k = 0; k < 16; ++k) {
        src[k] = InAt(RowOr(j0 + k, last), i0);
        dst[k] = OutAt(i0 + k / 2, j0 + 8 * (k % 2));
      }
      p.srcRepStride = static_cast<uint16_t>(2 * in_pitch_);
      p.dstRepStride = 2;
      AscendC::TransDataTo5HD<U>(dst, src, p);
    } else {
      p.srcRepStride = static_cast<uint16_t>(in_pitch_);  // 32 rows of A = in_pitch blocks
      p.dstRepStride = 1;
      for (uint32_t sh = 0; sh < 2; ++sh) {
        for (uint32_t dh = 0; dh < 2; ++dh) {
          for (uint32_t k = 0; k < 16; ++k) {
            src[k] = InAt(RowOr(j0 + 16 * dh + k, last), i0);
            dst[k] = OutAt(i0 + 16 * sh + k, j0);
          }
          p.srcHighHalf = sh != 0;
          p.dstHighHalf = dh != 0;
          AscendC::TransDataTo5HD<U>(dst, src, p);
        }
      }
    }
  }

  uint64_t in_, out_;
  uint32_t n_, in_pitch_, out_pitch_;
};

}  // namespace npurt::kernels
