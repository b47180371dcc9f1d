// kernels/linalg/lu_solve_kernel.cc: solves A X = B for a batch of LU
// factorizations (lu_kernel.cc's layout: P A = L U with unit lower L, the
// pivots as row swaps) and n x m right-hand sides B (device code). inv is
// this kernel with B = I; solve with the caller's B.
//
// Algorithm: X = B with the pivots' row swaps applied in order, then the
// forward substitution with L (unit diagonal) and the back substitution with
// U, row by row (each step subtracts multiples of earlier rows of X: row
// operations, the layout's contiguous direction). A zero on U's diagonal
// divides by zero (inf/NaN results, no fault): the callers refuse singular
// matrices first (npurt::ops::lu_solve documents it).
#include <cstdint>

#include "common/kernel_util.h"
#include "common/gm_scalar.h"
#include "kernel_operator.h"
#include "linalg/matrix_view.h"
#include "linalg/lu_tiling.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"

namespace npurt::kernels::linalg {
namespace {

// x(r, :) -= f * x(s, :) over m columns.
template <class T, class M>
__aicore__ inline void SubtractRow(const M& x, uint64_t r, uint64_t s, T f, uint64_t m) {
  for (uint64_t j = 0; j < m; ++j) x.Set(r, j, x.Get(r, j) - f * x.Get(s, j));
}

// Overwrites x (n x m, holding B) with the solution of (P^T L U) X = B.
template <class T, class F, class M>
__aicore__ void Substitute(const F& lu, const AscendC::GlobalTensor<int32_t>& piv, const M& x, uint64_t n,
                           uint64_t m) {
  for (uint64_t k = 0; k < n; ++k) {
    const uint64_t p = static_cast<uint64_t>(piv.GetValue(k));
    if (p != k) SwapRows(x, k, p, m);
  }
  for (uint64_t i = 1; i < n; ++i)  // L y = P b
    for (uint64_t k = 0; k < i; ++k) SubtractRow<T>(x, i, k, lu.Get(i, k), m);
  for (uint64_t i = n; i-- > 0;) {  // U x = y
    for (uint64_t k = i + 1; k < n; ++k) SubtractRow<T>(x, i, k, lu.Get(i, k), m);
    const T d = lu.Get(i, i);
    for (uint64_t j = 0; j < m; ++j) x.Set(i, j, x.Get(i, j) / d);
  }
}

// The same for float32 right-hand sides in UB: each row operation is one
// Axpy over a whole row of X (rows start 32-B aligned, matrix_view.h UbLd); the
// diagonal division stays scalar (exact division, as the scalar path), with
// barriers between the vector and scalar touches of a row.
// Narrower X stays scalar: an Axpy of a few elements costs more than their
// scalar updates (see docs/performance.md, wave 12).
constexpr uint64_t kVectorFrom = 8;

template <class T, class F>
__aicore__ void Substitute(const F& lu, const AscendC::GlobalTensor<int32_t>& piv, const UbMatrix<float>& x,
                           uint64_t n, uint64_t m) {
  if (m < kVectorFrom) return Substitute<T, F, UbMatrix<float>>(lu, piv, x, n, m);
  for (uint64_t k = 0; k < n; ++k) {
    const uint64_t p = static_cast<uint64_t>(piv.GetValue(k));
    if (p != k) SwapRows(x, k, p, m);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  auto row = [&](uint64_t i) { return x.data[static_cast<uint32_t>(i * x.ld)]; };
  const int32_t count = static_cast<int32_t>(m);
  for (uint64_t i = 1; i < n; ++i)  // L y = P b
    for (uint64_t k = 0; k < i; ++k) AscendC::Axpy(row(i), row(k), -lu.Get(i, k), count);
  for (uint64_t i = n; i-- > 0;) {  // U x = y
    for (uint64_t k = i + 1; k < n; ++k) AscendC::Axpy(row(i), row(k), -lu.Get(i, k), count);
    AscendC::PipeBarrier<PIPE_ALL>();
    const float d = lu.Get(i, i);
    for (uint64_t j = 0; j < m; ++j) x.Set(i, j, x.Get(i, j) / d);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

template <class T>
class SolveRun {
 public:
  __aicore__ SolveRun(GM_ADDR lu, GM_ADDR piv, GM_ADDR b, GM_ADDR x, const LuTiling& t) : t_(t) {
    lu_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(lu), t.batch * t.n * t.n);
    piv_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(piv), t.batch * t.n);
    b_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), t.batch * t.n * t.m);
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.batch * t.n * t.m);
    if (t.in_ub && t.n * t.m > 0) pipe_.InitBuffer(xb_, static_cast<uint32_t>(t.n * UbLd<T>(t.m) * sizeof(T)));
    if (!t.in_ub && t.ub_cap > 0) pipe_.InitBuffer(xb_, static_cast<uint32_t>(t.ub_cap * sizeof(T)));
  }

  __aicore__ void Run() {
    if (t_.n * t_.m == 0) return;
    const UnitRange r = CoreUnits(t_.per_core, t_.batch);
    for (uint64_t b = r.first; b < r.last; ++b) SolveOne(b);
  }

 private:
  // X (the output) is the worked matrix, in UB when it fits; the factors are
  // only read on the scalar unit (each multiplier once), so they stay in GM.
  __aicore__ void SolveOne(uint64_t b) {
    const uint64_t nn = t_.n * t_.n, nm = t_.n * t_.m, n = t_.n, m = t_.m;
    const AscendC::GlobalTensor<int32_t> piv = piv_[b * n];
    const GmMatrix<T> lu{lu_[b * nn], n};
    if (!t_.in_ub && t_.ub_cap > 0) return SolveColumnBlocks(lu, piv, b);
    WorkMatrix<T>(t_.in_ub != 0, xb_, x_[b * nm], b_[b * nm], n, m, [&](const auto& x) {
      Substitute<T>(lu, piv, x, n, m);
      return 0;
    });
  }

  // float32 X past the UB: the columns of X are independent systems, so X is
  // solved in column blocks of w (a multiple of 8) that fit the UB, each
  // moved in and out with one strided DataCopyPad and solved on the vector
  // unit.
  __aicore__ void SolveColumnBlocks(const GmMatrix<T>& lu, const AscendC::GlobalTensor<int32_t>& piv, uint64_t b) {
    const uint64_t n = t_.n, m = t_.m, nm = n * m, width = t_.ub_cap / n / 8 * 8;
    AscendC::LocalTensor<T> x = xb_.template Get<T>();
    for (uint64_t j0 = 0; j0 < m; j0 += width) {
      const uint64_t w = m - j0 < width ? m - j0 : width;
      const uint32_t bytes = static_cast<uint32_t>(w * sizeof(T)), gap = static_cast<uint32_t>((m - w) * sizeof(T));
      AscendC::DataCopyExtParams in(static_cast<uint16_t>(n), bytes, gap, 0, 0);
      AscendC::DataCopyPad(x, b_[b * nm + j0], in, AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}));
      AscendC::PipeBarrier<PIPE_ALL>();
      Substitute<T>(lu, piv, UbMatrix<T>{x, UbLd<T>(w)}, n, w);
      AscendC::PipeBarrier<PIPE_ALL>();
      AscendC::DataCopyExtParams out(static_cast<uint16_t>(n), bytes, 0, gap, 0);
      AscendC::DataCopyPad(x_[b * nm + j0], x, out);
      AscendC::PipeBarrier<PIPE_ALL>();  // the next block's copy reuses the buffer
    }
  }

  const LuTiling& t_;
  AscendC::GlobalTensor<T> lu_, b_, x_;
  AscendC::GlobalTensor<int32_t> piv_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> xb_;
};

}  // namespace
}  // namespace npurt::kernels::linalg

extern "C" __global__ __aicore__ void npurt_lu_solve_kernel(GM_ADDR lu, GM_ADDR piv, GM_ADDR b, GM_ADDR x,
                                                            GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(LuTiling, t, tiling);
  linalg::RunReal<linalg::SolveRun>(t.dtype, lu, piv, b, x, t);
  WriteBackScalarGm(x);  // the GM path solves by SetValue
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kLuSolveEntry = NPURT_SIM_ENTRY(npurt_lu_solve_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
