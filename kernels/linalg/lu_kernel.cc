// kernels/linalg/lu_kernel.cc: the batched LU factorization with partial
// pivoting (device code), P A = L U, LAPACK getrf's result layout: the unit
// lower L (below the diagonal) and U (on and above it) share the output
// matrix; pivots[k] is the row swapped with row k at step k. The same pass
// gives the determinant as sign * exp(logabsdet) (numpy's det), so det,
// slogdet, solve and inv all start from this one kernel.
//
// Algorithm (right-looking, one column per step): pick the largest |a(i, k)|
// of rows i >= k (the first on ties, like LAPACK's i?amax), swap, scale the
// column by the pivot and update the trailing matrix. A zero pivot (an
// exactly singular matrix) leaves its column as it is, as getrf does, and
// makes the sign 0 and logabsdet -inf. Where the matrix is worked is the
// tiling's (lu_tiling.h): in UB (float32 rows updated on the vector unit,
// Eliminate), in GM on the scalar unit (float64 past the UB), or, for
// float32 past the UB, FactorMixed: the first steps' rows streamed through
// UB, then the trailing block in UB.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "common/kernel_util.h"
#include "common/gm_scalar.h"
#include "common/gm_stage.h"
#include "kernel_operator.h"
#include "linalg/matrix_view.h"
#include "linalg/lu_tiling.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"

namespace npurt::kernels::linalg {
namespace {

template <class T>
struct Determinant {
  T sign = T(1);
  T logabs = T(0);
};

// Step k's elimination below the pivot: a(i, k) = l = a(i, k) / pivot and
// a(i, j) -= l * a(k, j) for i, j > k, on the scalar unit (GM, float64).
template <class T, class M>
__aicore__ inline void Eliminate(const M& a, uint64_t k, uint64_t n, T pivot) {
  for (uint64_t i = k + 1; i < n; ++i) {
    const T l = a.Get(i, k) / pivot;
    a.Set(i, k, l);
    for (uint64_t j = k + 1; j < n; ++j) a.Set(i, j, a.Get(i, j) - l * a.Get(k, j));
  }
}

// The same step for a float32 matrix in UB, rows updated on the vector unit
// (Axpy). A vector op must start 32-B aligned, so each row is updated from
// column a0 = the multiple of 8 at or before k + 1; the pivot row's columns
// [a0, k] (U's pivot and L's multipliers) are zeroed meanwhile, so the
// update leaves those columns of the other rows as they are (x + 0 * l),
// and restored after. Barriers order the scalar writes (the multipliers)
// before the vector reads and the vector writes before the next scalar reads.
__aicore__ inline void Eliminate(const UbMatrix<float>& a, uint64_t k, uint64_t n, float pivot) {
  if (k + 1 >= n) return;
  const uint64_t a0 = a.c0 + (k + 1 - a.c0) / 8 * 8, kept = k + 1 - a0;  // kept <= 7
  float saved[8];
  for (uint64_t j = 0; j < kept; ++j) {
    saved[j] = a.Get(k, a0 + j);
    a.Set(k, a0 + j, 0.0f);
  }
  for (uint64_t i = k + 1; i < n; ++i) a.Set(i, k, a.Get(i, k) / pivot);
  AscendC::PipeBarrier<PIPE_ALL>();
  const AscendC::LocalTensor<float> pivot_row = a.data[a.At(k, a0)];
  const int32_t count = static_cast<int32_t>(n - a0);
  for (uint64_t i = k + 1; i < n; ++i) AscendC::Axpy(a.data[a.At(i, a0)], pivot_row, -a.Get(i, k), count);
  AscendC::PipeBarrier<PIPE_ALL>();
  for (uint64_t j = 0; j < kept; ++j) a.Set(k, a0 + j, saved[j]);
}

// A float32 matrix in GM whose elimination steps stream the rows below the
// pivot through UB (FactorMixed's first steps): element accesses (the pivot
// search, the row swaps) go to GM; `ub` holds the pivot row and a chunk of
// rows, `ub_cap` elements in all.
struct StreamedGm {
  GmMatrix<float> gm;
  AscendC::LocalTensor<float> ub;
  uint64_t ub_cap = 0;
  uint64_t c0 = 0;  // SwapRows: the whole row
  __aicore__ inline float Get(uint64_t i, uint64_t j) const { return gm.Get(i, j); }
  __aicore__ inline void Set(uint64_t i, uint64_t j, float v) const { gm.Set(i, j, v); }
};

// Step k on a StreamedGm: the pivot row's columns [a0, n) (a0 = k rounded
// down to 8, columns a0..k zeroed in the UB copy) and chunks of
// the rows below move into UB with strided DataCopyPads; multipliers on the
// scalar unit, row updates with Axpy (as the UB Eliminate), and back to GM.
__aicore__ inline void Eliminate(const StreamedGm& a, uint64_t k, uint64_t n, float pivot) {
  if (k + 1 >= n) return;
  const uint64_t a0 = k / 8 * 8, cols = n - a0, ld = UbLd<float>(cols);  // column k is in the copied range
  const uint64_t chunk = (a.ub_cap - ld) / ld;  // rows per chunk (the host keeps it >= 1)
  const uint32_t bytes = static_cast<uint32_t>(cols * sizeof(float)), gap = static_cast<uint32_t>(a0 * sizeof(float));
  const AscendC::LocalTensor<float> row = a.ub, rows = a.ub[static_cast<uint32_t>(ld)];
  const AscendC::GlobalTensor<float>& gm = a.gm.data;
  AscendC::PipeBarrier<PIPE_ALL>();  // the scalar GM writes (swap, earlier steps) before the copies read
  CopyRowsIn(row, gm[k * n + a0], 1, cols);
  AscendC::PipeBarrier<PIPE_ALL>();
  for (uint64_t j = a0; j <= k; ++j) row.SetValue(static_cast<uint32_t>(j - a0), 0.0f);
  for (uint64_t r0 = k + 1; r0 < n; r0 += chunk) {
    const uint64_t count = n - r0 < chunk ? n - r0 : chunk;
    AscendC::DataCopyExtParams in(static_cast<uint16_t>(count), bytes, gap, 0, 0);
    AscendC::DataCopyPad(rows, gm[r0 * n + a0], in, AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
    AscendC::PipeBarrier<PIPE_ALL>();
    const UbMatrix<float> block{rows, ld, r0, a0};
    for (uint64_t i = r0; i < r0 + count; ++i) block.Set(i, k, block.Get(i, k) / pivot);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint64_t i = r0; i < r0 + count; ++i)
      AscendC::Axpy(rows[block.At(i, a0)], row, -block.Get(i, k), static_cast<int32_t>(cols));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyExtParams out(static_cast<uint16_t>(count), bytes, 0, gap, 0);
    AscendC::DataCopyPad(gm[r0 * n + a0], rows, out);
    AscendC::PipeBarrier<PIPE_ALL>();  // the next chunk's copy reuses the buffer; the next step reads GM
  }
}

// Steps [k_begin, k_end) of the factorization of the n x n matrix `a`, in
// place, from the determinant so far; pivots go to piv[k] (GM, or staged).
template <class T, class M, class Piv>
__aicore__ Determinant<T> Factor(const M& a, uint64_t n, const Piv& piv, uint64_t k_begin, uint64_t k_end,
                                 Determinant<T> d) {
  for (uint64_t k = k_begin; k < k_end; ++k) {
    uint64_t p = k;
    T best = std::fabs(a.Get(k, k));
    for (uint64_t i = k + 1; i < n; ++i) {
      const T v = std::fabs(a.Get(i, k));
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv.SetValue(k, static_cast<int32_t>(p));
    if (p != k) {
      SwapRows(a, k, p, n);
      d.sign = -d.sign;
    }
    const T pivot = a.Get(k, k);
    if (pivot == T(0)) {  // singular: getrf goes on with the next column
      d.sign = T(0);
      d.logabs = -INFINITY;
      continue;
    }
    if (pivot < T(0)) d.sign = -d.sign;
    d.logabs += std::log(std::fabs(pivot));
    Eliminate(a, k, n, pivot);
  }
  return d;
}

template <class T>
class LuRun {
 public:
  __aicore__ LuRun(GM_ADDR a, GM_ADDR lu, GM_ADDR piv, GM_ADDR sign, GM_ADDR logabs, const LuTiling& t)
      : t_(t), r_(CoreUnits(t.per_core, t.batch)) {
    const uint64_t nn = t.n * t.n;
    a_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), t.batch * nn);
    lu_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(lu), t.batch * nn);
    piv_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(piv), t.batch * t.n);
    sign_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(sign), t.batch);
    logabs_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(logabs), t.batch);
    if (t.in_ub && nn > 0) pipe_.InitBuffer(buf_, static_cast<uint32_t>(t.n * UbLd<T>(t.n) * sizeof(T)));
    if (!t.in_ub && t.ub_cap > 0) pipe_.InitBuffer(buf_, static_cast<uint32_t>(t.ub_cap * sizeof(T)));
    // The small outputs leave through UB (gm_stage.h): the block's matrices in
    // order, so sign/logabsdet from r_.first and (in UB) pivots from r_.first * n.
    sign_out_.Init(pipe_, kStageBytes / sizeof(T), sign_, r_.first);
    logabs_out_.Init(pipe_, kStageBytes / sizeof(T), logabs_, r_.first);
    if (t.in_ub) piv_out_.Init(pipe_, kStageBytes / sizeof(int32_t), piv_, r_.first * t.n);
  }

  __aicore__ void Run() {
    for (uint64_t b = r_.first; b < r_.last; ++b) {
      const Determinant<T> d = t_.n == 0 ? Determinant<T>() : FactorOne(b);
      sign_out_.Put(d.sign);
      logabs_out_.Put(d.logabs);
    }
    sign_out_.Flush();
    logabs_out_.Flush();
    if (t_.in_ub) piv_out_.Flush();
  }

 private:
  // In UB the pivots are staged (no GM SetValue: the batch may split per
  // matrix); the GM paths write them to GM (FactorMixed reads them back).
  __aicore__ Determinant<T> FactorOne(uint64_t b) {
    const uint64_t nn = t_.n * t_.n, n = t_.n;
    if constexpr (std::is_same<T, float>::value) {  // ub_cap is set for float32 only
      if (!t_.in_ub && t_.ub_cap > 0) return FactorMixed(b);
    }
    auto work = [&](const auto& piv) {
      return WorkMatrix<T>(t_.in_ub != 0, buf_, lu_[b * nn], a_[b * nn], n, n,
                           [&](const auto& m) { return Factor<T>(m, n, piv, 0, n, Determinant<T>()); });
    };
    return t_.in_ub ? work(StagedPivots{&piv_out_}) : work(piv_[b * n]);
  }

  // A float32 matrix past the UB: the first k0 steps in GM (rows streamed
  // through UB, StreamedGm), then the trailing
  // block (rows >= k0, columns >= c0, c0 = k0 rounded down to 8) in UB, where
  // the vector unit updates rows; its row swaps reach the columns left of c0
  // (in GM) afterwards, in the same order (LAPACK's laswp).
  __aicore__ Determinant<T> FactorMixed(uint64_t b) {
    const uint64_t nn = t_.n * t_.n, n = t_.n;
    const AscendC::GlobalTensor<int32_t> piv = piv_[b * n];
    const AscendC::GlobalTensor<T> lu = lu_[b * nn];
    uint64_t k0 = 0;
    while ((n - k0) * UbLd<T>(n - k0 / 8 * 8) > t_.ub_cap) ++k0;
    const uint64_t c0 = k0 / 8 * 8, rows = n - k0, cols = n - c0;
    CopyGm(lu, a_[b * nn], nn);
    AscendC::LocalTensor<T> m = buf_.template Get<T>();
    Determinant<T> d = Factor<T>(StreamedGm{GmMatrix<T>{lu, n}, m, t_.ub_cap}, n, piv, 0, k0, Determinant<T>());
    const uint32_t gap = static_cast<uint32_t>(c0 * sizeof(T));  // GM bytes between the block's rows
    AscendC::DataCopyExtParams p(static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), gap, 0, 0);
    AscendC::PipeBarrier<PIPE_ALL>();  // the scalar GM writes before the block is read
    AscendC::DataCopyPad(m, lu[k0 * n + c0], p, AscendC::DataCopyPadExtParams<T>(false, 0, 0, T{}));
    AscendC::PipeBarrier<PIPE_ALL>();
    d = Factor<T>(UbMatrix<T>{m, UbLd<T>(cols), k0, c0}, n, piv, k0, n, d);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyExtParams q(static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, gap, 0);
    AscendC::DataCopyPad(lu[k0 * n + c0], m, q);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint64_t k = k0; k < n; ++k) {
      const uint64_t s = static_cast<uint64_t>(piv.GetValue(k));
      for (uint64_t j = 0; s != k && j < c0; ++j) {
        const T v = lu.GetValue(k * n + j);
        lu.SetValue(k * n + j, lu.GetValue(s * n + j));
        lu.SetValue(s * n + j, v);
      }
    }
    return d;
  }

  // Factor's pivot sink in UB: it calls SetValue(k, p) for k = 0, 1, ... of
  // each matrix, and the block's matrices come in order, so the pivots reach
  // the staged output in GM order.
  struct StagedPivots {
    StagedOut<int32_t>* out;
    __aicore__ void SetValue(uint64_t, int32_t p) const { out->Put(p); }
  };

  const LuTiling& t_;
  const UnitRange r_;  // the block's matrices
  AscendC::GlobalTensor<T> a_, lu_, sign_, logabs_;
  AscendC::GlobalTensor<int32_t> piv_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
  StagedOut<T> sign_out_, logabs_out_;
  StagedOut<int32_t> piv_out_;
};

}  // namespace
}  // namespace npurt::kernels::linalg

extern "C" __global__ __aicore__ void npurt_lu_factor_kernel(GM_ADDR a, GM_ADDR lu, GM_ADDR piv, GM_ADDR sign,
                                                             GM_ADDR logabs, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(LuTiling, t, tiling);
  linalg::RunReal<linalg::LuRun>(t.dtype, a, lu, piv, sign, logabs, t);
  WriteBackScalarGm(piv);  // the GM paths' factors and pivots: SetValue
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kLuFactorEntry = NPURT_SIM_ENTRY(npurt_lu_factor_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
