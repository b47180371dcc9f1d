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

// A UbMatrix may hold only the block of rows >= r0 and columns >= c0 of a
// larger matrix (lu_kernel.cc's trailing block): indices stay the large
// matrix's. c0 is a multiple of 32 / sizeof(T), so rows stay 32-B aligned.
template <class T>
struct UbMatrix {
  AscendC::LocalTensor<T> data;
  uint64_t ld = 0;
  uint64_t r0 = 0, c0 = 0;
  __aicore__ inline uint32_t At(uint64_t i, uint64_t j) const {
    return static_cast<uint32_t>((i - r0) * ld + (j - c0));
  }
  __aicore__ inline T Get(uint64_t i, uint64_t j) const { return data.GetValue(At(i, j)); }
  __aicore__ inline void Set(uint64_t i, uint64_t j, T v) const { data.SetValue(At(i, j), v); }
};

template <class T>
struct GmMatrix {
  AscendC::GlobalTensor<T> data;
  uint64_t ld = 0;
  uint64_t c0 = 0;  // always 0: the whole matrix
  __aicore__ inline T Get(uint64_t i, uint64_t j) const { return data.GetValue(i * ld + j); }
  __aicore__ inline void Set(uint64_t i, uint64_t j, T v) const { data.SetValue(i * ld + j, v); }
};

// Swaps rows r and s (the columns [a.c0, cols) the matrix holds) of a matrix
// of either place.
template <class M>
__aicore__ inline void SwapRows(const M& a, uint64_t r, uint64_t s, uint64_t cols) {
  for (uint64_t j = a.c0; j < cols; ++j) {
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

// The UB leading dimension of rows of `cols` elements of T: every row starts
// 32-B aligned (what DataCopyPad gives each block, and what vector ops need).
// The host side sizes the UB with the same rule (lu_host.h ub_ld).
template <class T>
__aicore__ inline uint64_t UbLd(uint64_t cols) {
  constexpr uint64_t kBlock = 32 / sizeof(T);
  return (cols + kBlock - 1) / kBlock * kBlock;
}

// rows x cols between GM (contiguous rows) and UB (rows UbLd<T>(cols) apart):
// one DataCopyPad of `rows` blocks each way.
template <class T>
__aicore__ inline void CopyRowsIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                  uint64_t rows, uint64_t cols) {
  AscendC::DataCopyExtParams p(static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0);
  AscendC::DataCopyPadExtParams<T> pad(false, 0, 0, T{});
  AscendC::DataCopyPad(dst, src, p, pad);
}
template <class T>
__aicore__ inline void CopyRowsOut(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                   uint64_t rows, uint64_t cols) {
  AscendC::DataCopyExtParams p(static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0);
  AscendC::DataCopyPad(dst, src, p);
}

// Works one rows x cols matrix: copies src to dst and runs work(matrix) on
// it, in UB (one DataCopyPad each way, rows UbLd apart, barriers between the
// phases) when in_ub, else in place in dst's GM (leading dimension cols).
// Returns what work returns; dst holds the worked matrix afterwards.
template <class T, class Work>
__aicore__ inline auto WorkMatrix(bool in_ub, AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                  const AscendC::GlobalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                  uint64_t rows, uint64_t cols, Work&& work) {
  if (!in_ub) {
    CopyGm(dst, src, rows * cols);
    return work(GmMatrix<T>{dst, cols});
  }
  AscendC::LocalTensor<T> m = buf.template Get<T>();
  CopyRowsIn(m, src, rows, cols);
  AscendC::PipeBarrier<PIPE_ALL>();
  auto result = work(UbMatrix<T>{m, UbLd<T>(cols)});
  AscendC::PipeBarrier<PIPE_ALL>();
  CopyRowsOut(dst, m, rows, cols);
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
