// kernels/linalg/matrix_view.h: the one matrix view of every kernel of
// kernels/linalg/: the two places a matrix is worked, UB (UbMatrix, a window
// on a LocalTensor) or GM (GmMatrix, a window on a GlobalTensor), with the
// same element accessors, so each algorithm (LU, triangular solves, Cholesky,
// QR, Jacobi / QL eigh, Jacobi SVD) is written once as a template over the
// place and runs on either; the place is picked once per launch (RunReal,
// RunPlaced), not per access.
//
// Both are row-major with leading dimension `ld` (elements): element (i, j)
// lies at i * ld + j; Get(k) / Set(k, v) address the storage linearly (the
// spectral kernels lay out several arrays in one work area, jacobi_work.h).
// Accesses are scalar-unit accesses; the caller puts the pipe barriers around
// the DataCopy moves that fill or drain a UbMatrix.
#pragma once

#include <cstdint>

#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/dtype.h"

// The views' element accessors are the algorithms' inner loops: on the sim
// each is a checked scalar access (LocalTensor/GlobalTensor GetValue), whose
// check GCC stopped inlining into the QL loops once the spectral kernels took
// the view as a template parameter (eigh 200 x 200 float64: 107-112 -> 158 ms
// CPU); flatten inlines it into the accessor (121-127 ms; always_inline on top
// made it 160, always_inline alone 148-152). The device build is left to its
// compiler.
#if defined(__GNUC__) && !defined(NPURT_ASCEND_DEVICE_BUILD)
#define NPURT_LINALG_ACCESS __aicore__ inline __attribute__((flatten))
#else
#define NPURT_LINALG_ACCESS __aicore__ inline
#endif

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
  NPURT_LINALG_ACCESS T Get(uint64_t i, uint64_t j) const { return data.GetValue(At(i, j)); }
  NPURT_LINALG_ACCESS void Set(uint64_t i, uint64_t j, T v) const { data.SetValue(At(i, j), v); }
  NPURT_LINALG_ACCESS T Get(uint64_t k) const { return data.GetValue(static_cast<uint32_t>(k)); }
  NPURT_LINALG_ACCESS void Set(uint64_t k, T v) const { data.SetValue(static_cast<uint32_t>(k), v); }
};

template <class T>
struct GmMatrix {
  AscendC::GlobalTensor<T> data;
  uint64_t ld = 0;
  uint64_t c0 = 0;  // always 0: the whole matrix
  NPURT_LINALG_ACCESS T Get(uint64_t i, uint64_t j) const { return data.GetValue(i * ld + j); }
  NPURT_LINALG_ACCESS void Set(uint64_t i, uint64_t j, T v) const { data.SetValue(i * ld + j, v); }
  NPURT_LINALG_ACCESS T Get(uint64_t k) const { return data.GetValue(k); }
  NPURT_LINALG_ACCESS void Set(uint64_t k, T v) const { data.SetValue(k, v); }
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

// Columns starting at storage offsets p and q (row stride ld, `rows` rows)
// of a view of either place become (c p - s q, s p + c q): a plane rotation
// applied from the right.
template <class M, class T>
__aicore__ inline void RotateColumns(const M& w, uint64_t p, uint64_t q, uint64_t ld, uint64_t rows, T c, T s) {
  for (uint64_t i = 0; i < rows; ++i) {
    const T a = w.Get(p + i * ld), b = w.Get(q + i * ld);
    w.Set(p + i * ld, c * a - s * b);
    w.Set(q + i * ld, s * a + c * b);
  }
}

// Swaps the columns starting at storage offsets p and q (row stride ld).
template <class M>
__aicore__ inline void SwapColumns(const M& w, uint64_t p, uint64_t q, uint64_t ld, uint64_t rows) {
  for (uint64_t i = 0; i < rows; ++i) {
    const auto a = w.Get(p + i * ld);
    w.Set(p + i * ld, w.Get(q + i * ld));
    w.Set(q + i * ld, a);
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

// A kernel class template K<T, Matrix> with the place fixed: RunReal picks
// T, RunPlaced the place (RunPlaced<K>(in_ub, dtype, args...)).
template <template <class, class> class K, template <class> class Place>
struct Placed {
  template <class T>
  using Kernel = K<T, Place<T>>;
};

template <template <class, class> class K, class... Args>
__aicore__ inline void RunPlaced(bool in_ub, uint32_t dtype, Args... args) {
  if (in_ub) RunReal<Placed<K, UbMatrix>::template Kernel>(dtype, args...);
  else RunReal<Placed<K, GmMatrix>::template Kernel>(dtype, args...);
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
