// kernels/attention/attention_rows.h: moving [rows, D] row blocks of q/k/v-like
// tensors between GM and float UB tiles of pitch dp (D rounded up to 16), with
// the cast to/from the input type. Padding columns D..dp-1 are zero after a
// load, so whole-tile vector ops and row sums over them are exact.
// Invariants: dp * sizeof(T) is a multiple of 32; `stage` holds rows * dp T's
// (unused for float); rows <= the tile the buffers were sized for.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"

namespace npurt_kernels {

template <class T>
__aicore__ inline AscendC::DataCopyExtParams AttnRowParams(uint32_t rows, uint32_t d, uint32_t dp) {
  const uint32_t bytes = d * sizeof(T);
  // UB rows start at pitch dp; gaps on the UB side are in 32-B blocks, on the GM side in bytes.
  return AscendC::DataCopyExtParams(static_cast<uint16_t>(rows), bytes, 0, (dp * sizeof(T) - (bytes + 31) / 32 * 32) / 32, 0);
}

template <class T>
__aicore__ inline void LoadRowsAsFloat(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<T>& stage,
                                       const AscendC::GlobalTensor<T>& src, uint32_t rows, uint32_t d, uint32_t dp) {
  const uint32_t bytes = d * sizeof(T);
  const uint8_t padElems = static_cast<uint8_t>(((bytes + 31) / 32 * 32 - bytes) / sizeof(T));
  AscendC::DataCopyPadExtParams<T> pad(true, 0, padElems, T(0.0f));
  const AscendC::LocalTensor<T>& land = [&]() -> const AscendC::LocalTensor<T>& {
    if constexpr (std::is_same_v<T, float>) return dst; else return stage;
  }();
  AscendC::Duplicate(land, T(0.0f), static_cast<int32_t>(rows * dp));  // padding blocks past the copy
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopyPad(land, src, AttnRowParams<T>(rows, d, dp), pad);
  AscendC::PipeBarrier<PIPE_ALL>();
  if constexpr (!std::is_same_v<T, float>) {
    AscendC::Cast(dst, stage, AscendC::RoundMode::CAST_NONE, rows * dp);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

// Writes src[rows, :d] (float, pitch dp) to dst rows of d elements, rounded to T.
template <class T>
__aicore__ inline void StoreRowsFromFloat(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<float>& src,
                                          const AscendC::LocalTensor<T>& stage, uint32_t rows, uint32_t d, uint32_t dp) {
  AscendC::DataCopyExtParams p = AttnRowParams<T>(rows, d, dp);
  p.srcStride = p.dstStride;  // UB -> GM: the UB gap is the source side
  p.dstStride = 0;
  AscendC::PipeBarrier<PIPE_ALL>();
  if constexpr (std::is_same_v<T, float>) {
    AscendC::DataCopyPad(dst, src, p);
  } else {
    AscendC::Cast(stage, src, AscendC::RoundMode::CAST_RINT, rows * dp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(dst, stage, p);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace npurt_kernels
