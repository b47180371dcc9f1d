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

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/dtype.h"

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

// Works one matrix of `count` elements (row-major, leading dimension ld):
// copies src to dst and runs work(matrix) on it, in UB (one DataCopy each way,
// barriers between the phases) when in_ub, else in place in dst's GM. Returns
// what work returns; dst holds the worked matrix afterwards either way.
template <class T, class Work>
__aicore__ inline auto WorkMatrix(bool in_ub, AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                  const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                  uint64_t count, uint64_t ld, Work&& work) {
  if (!in_ub) {
    CopyGm(dst, src, count);
    return work(GmMatrix<T>{dst, ld});
  }
  AscendC::LocalTensor<T> m = buf.template Get<T>();
  CopyIn(m, src, static_cast<uint32_t>(count));
  AscendC::PipeBarrier<PIPE_ALL>();
  auto result = work(UbMatrix<T>{m, ld});
  AscendC::PipeBarrier<PIPE_ALL>();
  CopyOut(dst, m, static_cast<uint32_t>(count));
  AscendC::PipeBarrier<PIPE_ALL>();  // the next matrix's CopyIn reuses the buffer
  return result;
}

// The family's entry dispatch: Run<float> or Run<double> by the tiling's dtype.
template <template <class> class Run, class... Args>
__aicore__ inline void RunReal(uint32_t dtype, Args... args) {
  if (dtype == static_cast<uint32_t>(npurt::DType::kFloat64)) {
    Run<double> run(args...);
    run.Run();
  } else {
    Run<float> run(args...);
    run.Run();
  }
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
