// kernels/common/strided_load.h: device-side CopyIn of a strided (broadcast,
// transposed, sliced, negative-stride) view into a UB tile, shared by the
// elementwise family (elementwise/ew_kernel.h) and the fused kernel
// (fused/fused_kernel.cc). Nothing is materialised in GM: the view's elements
// [first, first + n) in output order are read run by run along the innermost
// axis.
//
// Invariants: the GlobalTensor's window starts at the view's lowest element
// (`base` elements below the view's origin; StridedExtent gives its length);
// DataCopyPad is used only where its 32-B-rounded UB write cannot reach the
// next run (the last run of the tile, or a run of whole 32-B blocks), so MTE2
// and the scalar unit never write the same block; broadcast runs (stride 0)
// read one element and, when aligned, fill with Duplicate (pipe V); anything
// else goes through the scalar unit. A consumer on the scalar unit must wait
// for V (SetFlag/WaitFlag V_S) before reading the tile.
#pragma once

#include <type_traits>

#include "kernel_operator.h"

namespace npurt::kernels {

// Element types AscendC::Duplicate takes (docs/aicore-vector.md).
template <class U>
constexpr bool kDuplicable = std::is_same<U, int16_t>::value || std::is_same<U, uint16_t>::value ||
                             std::is_same<U, int32_t>::value || std::is_same<U, uint32_t>::value ||
                             std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value ||
                             std::is_same<U, float>::value;

// Elements spanned in GM by a view of `ndim` dims (its GM window length).
__aicore__ inline uint64_t StridedExtent(const int64_t* shape, const int64_t* strides, uint32_t ndim) {
  uint64_t extent = 1;
  for (uint32_t d = 0; d < ndim; ++d) {
    const int64_t s = strides[d];
    extent += static_cast<uint64_t>(shape[d] - 1) * static_cast<uint64_t>(s < 0 ? -s : s);
  }
  return extent;
}

// One run of `run` elements of stride `stride` from GM offset `off` to UB position j.
template <class U>
__aicore__ inline void FillRun(const AscendC::LocalTensor<U>& dst, const AscendC::GlobalTensor<U>& src, int64_t off,
                               int64_t stride, uint32_t j, uint32_t run, bool last) {
  const uint32_t bytes = run * static_cast<uint32_t>(sizeof(U));
  const bool aligned = (j * sizeof(U)) % 32 == 0 && (last || bytes % 32 == 0);
  if (stride == 1 && aligned) {
    AscendC::DataCopyExtParams p(1, bytes, 0, 0, 0);
    AscendC::DataCopyPadExtParams<U> pad(false, 0, 0, U{});
    AscendC::DataCopyPad(dst[j], src[static_cast<uint64_t>(off)], p, pad);
  } else if (stride == 0) {  // a broadcast run: one read, then Duplicate where the vector unit has it
    const U v = src.GetValue(static_cast<uint64_t>(off));
    if constexpr (kDuplicable<U>) {
      if (aligned) {
        AscendC::Duplicate(dst[j], v, static_cast<int32_t>(run));
        return;
      }
    }
    for (uint32_t k = 0; k < run; ++k) dst.SetValue(j + k, v);
  } else {
    for (uint32_t k = 0; k < run; ++k)
      dst.SetValue(j + k, src.GetValue(static_cast<uint64_t>(off + static_cast<int64_t>(k) * stride)));
  }
}

// Elements [first, first + n) (row-major order over `shape`) of the view with
// `strides` whose GM window `src` starts `base` elements below its origin.
template <int kMaxDims, class U>
__aicore__ inline void GatherStrided(const AscendC::LocalTensor<U>& dst, const AscendC::GlobalTensor<U>& src,
                                     const int64_t* shape, const int64_t* st, int64_t base, int nd, uint64_t first,
                                     uint32_t n) {
  int64_t idx[kMaxDims];
  int64_t off = -base;
  uint64_t rem = first;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = static_cast<int64_t>(rem % static_cast<uint64_t>(shape[d]));
    rem /= static_cast<uint64_t>(shape[d]);
    off += idx[d] * st[d];
  }
  const int64_t inner = shape[nd - 1], s_in = st[nd - 1];
  for (uint32_t j = 0; j < n;) {
    const uint32_t run =
        static_cast<uint32_t>(inner - idx[nd - 1] < static_cast<int64_t>(n - j) ? inner - idx[nd - 1] : n - j);
    FillRun(dst, src, off, s_in, j, run, j + run == n);
    j += run;
    off += s_in * run;
    idx[nd - 1] += run;
    for (int d = nd - 1; d > 0 && idx[d] == shape[d]; --d) {
      off += st[d - 1] - idx[d] * st[d];
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

}  // namespace npurt::kernels
