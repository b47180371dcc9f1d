// kernels/linalg/lu_matrix.h: the two places a kernel of kernels/linalg/
// works a matrix: UB (UbMatrix, a window on a LocalTensor) or GM (GmMatrix, a
// window on a GlobalTensor), with the same element accessors, so each
// algorithm (LU, triangular solves, Cholesky) is written once as a template
// over the place and runs on either.
//
// Both are row-major with leading dimension `ld` (elements): element (i, j)
// lies at i * ld + j. Accesses are scalar-unit accesses; the caller puts the
// pipe barriers around the DataCopy moves that fill or drain a UbMatrix.
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace npurt::kernels::linalg {

template <class T>
struct UbMatrix {
  AscendC::LocalTensor<T> data;
  uint64_t ld = 0;
  __aicore__ inline T Get(uint64_t i, uint64_t j) const {
    return data.GetValue(static_cast<uint32_t>(i * ld + j));
  }
  __aicore__ inline void Set(uint64_t i, uint64_t j, T v) const {
    data.SetValue(static_cast<uint32_t>(i * ld + j), v);
  }
};

template <class T>
struct GmMatrix {
  AscendC::GlobalTensor<T> data;
  uint64_t ld = 0;
  __aicore__ inline T Get(uint64_t i, uint64_t j) const { return data.GetValue(i * ld + j); }
  __aicore__ inline void Set(uint64_t i, uint64_t j, T v) const { data.SetValue(i * ld + j, v); }
};

// Swaps rows r and s (columns [0, cols)) of a matrix of either place.
template <class M>
__aicore__ inline void SwapRows(const M& a, uint64_t r, uint64_t s, uint64_t cols) {
  for (uint64_t j = 0; j < cols; ++j) {
    const auto v = a.Get(r, j);
    a.Set(r, j, a.Get(s, j));
    a.Set(s, j, v);
  }
}

}  // namespace npurt::kernels::linalg

namespace npurt::kernels::linalg {

// dst[0, count) = src[0, count) on the scalar unit, GM to GM: how the GM
// place starts, the output buffer becoming the working matrix.
template <class T>
__aicore__ inline void CopyGm(const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                              uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) dst.SetValue(i, src.GetValue(i));
}

// Units [first, last) of core GetBlockIdx() under `per_core` units per core.
struct UnitRange {
  uint64_t first = 0, last = 0;
};
__aicore__ inline UnitRange CoreUnits(uint64_t per_core, uint64_t total) {
  UnitRange r;
  r.first = static_cast<uint64_t>(AscendC::GetBlockIdx()) * per_core;
  r.last = r.first + per_core < total ? r.first + per_core : total;
  if (r.first > r.last) r.first = r.last;
  return r;
}

}  // namespace npurt::kernels::linalg
