// kernels/linalg/cholesky_kernel.cc: the batched Cholesky factorization
// A = L L^T of symmetric positive-definite matrices (device code), reading
// A's lower triangle only (numpy's and LAPACK potrf's 'L'). The strict upper
// triangle of the result is zero; with the tiling's `upper` the kernel writes
// U = L^T instead (upper=True of the standard).
//
// Algorithm: Cholesky-Banachiewicz, row by row of L: l(j, j) = sqrt(a(j, j) -
// sum l(j, k)^2) and l(i, j) = (a(i, j) - sum l(i, k) l(j, k)) / l(j, j),
// in place over the working copy. A diagonal that is not > 0 (or is NaN)
// stops the matrix: info[b] = j + 1 (potrf's info), 0 when it succeeded; the
// caller raises. Where the matrix is worked is the tiling's in_ub; float32 in
// UB from kVectorFrom columns on runs the vector form below.
#include <cmath>
#include <cstdint>

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

// sum over k < j of a(r, k) * a(s, k)
template <class T, class M>
__aicore__ inline T RowDot(const M& a, uint64_t r, uint64_t s, uint64_t j) {
  T acc = T(0);
  for (uint64_t k = 0; k < j; ++k) acc += a.Get(r, k) * a.Get(s, k);
  return acc;
}

// Factors `a` in place (lower L, zero strict upper; transposed when upper).
// Returns potrf's info.
template <class T, class M>
__aicore__ int32_t Factor(const M& a, uint64_t n, bool upper) {
  for (uint64_t j = 0; j < n; ++j) {
    const T s = a.Get(j, j) - RowDot<T>(a, j, j, j);
    if (!(s > T(0))) return static_cast<int32_t>(j + 1);
    const T d = std::sqrt(s);
    a.Set(j, j, d);
    for (uint64_t i = j + 1; i < n; ++i) a.Set(i, j, (a.Get(i, j) - RowDot<T>(a, i, j, j)) / d);
  }
  for (uint64_t i = 0; i < n; ++i)
    for (uint64_t j = i + 1; j < n; ++j) {
      a.Set(i, j, upper ? a.Get(j, i) : T(0));
      if (upper) a.Set(j, i, T(0));
    }
  return 0;
}

// The same for a float32 matrix in UB, on the vector unit: the outer-product
// form on the upper triangle (U = L^T, row k of U scales by 1 / u(k, k) on the
// scalar unit, then every later row i takes -u(k, i) * row k with one Axpy).
// The lower triangle is first mirrored into the upper one; a row update
// starts at the multiple of 8 at or before its diagonal (vector ops start
// 32-B aligned), so it also writes a few columns left of the diagonal: the
// strict lower triangle is scratch until the end, which writes the factor
// where `upper` wants it and zeros the other triangle. Barriers order each
// step's scalar writes before its vector reads and back.
// Below kVectorFrom columns the scalar form is as fast or faster (sim, CPU
// time, medians of 31: a 64 x 16 x 16 batch 0.28 ms scalar vs 0.35 ms vector,
// 64 x 24 x 24 0.68 ms either way).
constexpr uint64_t kVectorFrom = 24;

template <class T>
__aicore__ int32_t Factor(const UbMatrix<float>& a, uint64_t n, bool upper) {
  if (n < kVectorFrom) return Factor<float, UbMatrix<float>>(a, n, upper);
  for (uint64_t i = 1; i < n; ++i)
    for (uint64_t j = 0; j < i; ++j) a.Set(j, i, a.Get(i, j));
  for (uint64_t k = 0; k < n; ++k) {
    AscendC::PipeBarrier<PIPE_ALL>();
    const float s = a.Get(k, k);
    if (!(s > 0.0f)) return static_cast<int32_t>(k + 1);
    const float d = std::sqrt(s);
    a.Set(k, k, d);
    for (uint64_t j = k + 1; j < n; ++j) a.Set(k, j, a.Get(k, j) / d);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint64_t i = k + 1; i < n; ++i) {
      const uint64_t a0 = i / 8 * 8;
      AscendC::Axpy(a.data[static_cast<uint32_t>(i * a.ld + a0)], a.data[static_cast<uint32_t>(k * a.ld + a0)],
                    -a.Get(k, i), static_cast<int32_t>(n - a0));
    }
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  for (uint64_t i = 1; i < n; ++i)
    for (uint64_t j = 0; j < i; ++j) {
      a.Set(i, j, upper ? 0.0f : a.Get(j, i));
      if (!upper) a.Set(j, i, 0.0f);
    }
  return 0;
}

template <class T>
class CholeskyRun {
 public:
  __aicore__ CholeskyRun(GM_ADDR a, GM_ADDR l, GM_ADDR info, const LuTiling& t)
      : t_(t), r_(CoreUnits(t.per_core, t.batch)) {
    const uint64_t nn = t.n * t.n;
    a_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), t.batch * nn);
    l_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(l), t.batch * nn);
    info_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(info), t.batch);
    if (t.in_ub && nn > 0) pipe_.InitBuffer(buf_, static_cast<uint32_t>(t.n * UbLd<T>(t.n) * sizeof(T)));
    info_out_.Init(pipe_, kStageBytes / sizeof(int32_t), info_, r_.first);
  }

  // info leaves through UB (gm_stage.h): no GM SetValue in the UB path.
  __aicore__ void Run() {
    for (uint64_t b = r_.first; b < r_.last; ++b) info_out_.Put(t_.n == 0 ? 0 : FactorOne(b));
    info_out_.Flush();
  }

 private:
  __aicore__ int32_t FactorOne(uint64_t b) {
    const uint64_t nn = t_.n * t_.n, n = t_.n;
    const bool upper = t_.upper != 0;
    return WorkMatrix<T>(t_.in_ub != 0, buf_, l_[b * nn], a_[b * nn], n, n,
                         [&](const auto& m) { return Factor<T>(m, n, upper); });
  }

  const LuTiling& t_;
  const UnitRange r_;  // the block's matrices
  AscendC::GlobalTensor<T> a_, l_;
  AscendC::GlobalTensor<int32_t> info_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
  StagedOut<int32_t> info_out_;
};

}  // namespace
}  // namespace npurt::kernels::linalg

extern "C" __global__ __aicore__ void npurt_cholesky_kernel(GM_ADDR a, GM_ADDR l, GM_ADDR info, GM_ADDR workspace,
                                                            GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(LuTiling, t, tiling);
  linalg::RunReal<linalg::CholeskyRun>(t.dtype, a, l, info, t);
  WriteBackScalarGm(info);  // the GM path's factors: SetValue
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kCholeskyEntry = NPURT_SIM_ENTRY(npurt_cholesky_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD
