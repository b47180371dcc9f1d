// kernels/common/kernel_util.h: device-side helpers shared by the built-in
// kernels: moving a run of n elements between GM and UB whatever n is.
//
// DataCopy moves whole 32-byte blocks only (the NPU silently rounds the count
// down); runs that are not a 32-byte multiple go through DataCopyPad, which
// moves exact byte counts (UB side lands 32-byte aligned).
#pragma once

#include "kernel_operator.h"

namespace npurt::kernels {

template <class T>
__aicore__ inline void CopyIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                              uint32_t n) {
  uint32_t bytes = n * static_cast<uint32_t>(sizeof(T));
  if (bytes % 32 == 0) {
    AscendC::DataCopy(dst, src, n);
  } else {
    AscendC::DataCopyExtParams p(1, bytes, 0, 0, 0);
    AscendC::DataCopyPadExtParams<T> pad(false, 0, 0, T{});
    AscendC::DataCopyPad(dst, src, p, pad);
  }
}

template <class T>
__aicore__ inline void CopyOut(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                               uint32_t n) {
  uint32_t bytes = n * static_cast<uint32_t>(sizeof(T));
  if (bytes % 32 == 0) {
    AscendC::DataCopy(dst, src, n);
  } else {
    AscendC::DataCopyExtParams p(1, bytes, 0, 0, 0);
    AscendC::DataCopyPad(dst, src, p);
  }
}

}  // namespace npurt::kernels
