// kernels/linalg/jacobi_kernel.cc: eigenvalues (and eigenvectors) of every
// symmetric matrix of a batch (device code) by the cyclic Jacobi method, or
// (flag kQl, the op's default) by eigh_ql.h's tridiagonalization + QL.
//
// The matrix is read from its lower triangle (numpy's UPLO='L'; the upper one
// is never read) into the work copy A; each sweep visits every pair p < q and
// rotates planes p, q to zero A[p][q] (Rutishauser's formulas: the diagonal is
// updated by t * A[p][q], the rotation angle is <= pi/4), accumulating the
// rotations in V. A pair is skipped when |A[p][q]| <= eps sqrt(|A[p][p] A[q][q]|)
// (relative: no longer changes the diagonal) or below eps ||A||_F / (10 n)
// (normwise negligible); a sweep without rotation ends the iteration, which
// converges quadratically (5-15 sweeps); kMaxSweeps sweeps without that gives
// info -1. Eigenvalues are then sorted ascending with their vectors (columns).
// A is x scaled by a power of two (PowerOfTwoScale: exact, no overflow or
// underflow of the squares for huge or tiny entries); w is scaled back.
// Work area: A (n*n), V (n*n) when vectors are asked for. A NaN or inf in
// the lower triangle gives NaN results and info kInfoNonFinite (numpy's
// syevd reports non-convergence for it from n = 3 on).
//
// With kQl in the flags the same kernel runs Householder tridiagonalization
// + implicit QL instead (eigh_ql.h) on the same scaled, symmetrized matrix.
#include <cstdint>

#include "common/gm_scalar.h"
#include "kernel_operator.h"
#include "linalg/eigh_ql.h"
#include "linalg/jacobi_work.h"
#include "npurt/backend.h"
#include "npurt/dtype.h"

namespace npurt::kernels::linalg {
namespace {

template <class T, class Matrix>
class JacobiEigh {
 public:
  __aicore__ JacobiEigh(GM_ADDR x, GM_ADDR w, GM_ADDR v, GM_ADDR info, GM_ADDR workspace, const SpectralTiling& t)
      : t_(t), n_(t.n), vectors_((t.flags & kVectors) != 0) {
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.batch * n_ * n_);
    w_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w), t.batch * n_);
    if (vectors_) v_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(v), t.batch * n_ * n_);
    info_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(info), t.batch);
    InitWork(work_, pipe_, buf_, workspace, t);
  }

  __aicore__ void Run() { ForEachOwnedMatrix(t_, [&](uint64_t b) { Solve(b); }); }

 private:
  // One matrix of the batch.
  __aicore__ void Solve(uint64_t b) {
    const T max_abs = LowerMaxAbs(b);
    if (!Finite(max_abs)) {
      FillNan(w_, b * n_, n_);
      if (vectors_) FillNan(v_, b * n_ * n_, n_ * n_);
      info_.SetValue(b, kInfoNonFinite);
      return;
    }
    const T p = PowerOfTwoScale(max_abs);
    if ((t_.flags & kQl) != 0) {
      SolveQl(b, p);
      return;
    }
    const T scale = Load(b, p);
    info_.SetValue(b, IterateSweeps(t_.max_sweeps, [&] { return Sweep(scale); }));
    SortAscending();
    for (uint64_t i = 0; i < n_; ++i) w_.SetValue(b * n_ + i, work_.Get(A(i, i)) / p);
    if (vectors_)
      for (uint64_t i = 0; i < n_ * n_; ++i) v_.SetValue(b * n_ * n_ + i, work_.Get(V(0, 0) + i));
  }

  // eigh_ql.h on the full symmetric matrix (scaled by p) at the work area's start.
  __aicore__ void SolveQl(uint64_t b, T p) {
    TridiagonalQl<T, Matrix> ql(work_, n_, t_.max_sweeps, vectors_);
    for (uint64_t i = 0; i < n_; ++i)
      for (uint64_t j = 0; j < n_; ++j) work_.Set(ql.V(i, j), p * x_.GetValue(b * n_ * n_ + A(i, j)));
    info_.SetValue(b, ql.Run());
    for (uint64_t i = 0; i < n_; ++i) w_.SetValue(b * n_ + i, work_.Get(ql.D(i)) / p);
    if (vectors_)
      for (uint64_t i = 0; i < n_ * n_; ++i) v_.SetValue(b * n_ * n_ + i, work_.Get(i));
  }

  // A is symmetric: only its lower triangle is stored (entry (i, j) and (j, i) at one place).
  __aicore__ uint64_t A(uint64_t i, uint64_t j) const { return i >= j ? i * n_ + j : j * n_ + i; }
  __aicore__ uint64_t V(uint64_t i, uint64_t j) const { return n_ * n_ + i * n_ + j; }

  // Largest |entry| of the lower triangle; NaN when one is NaN or inf.
  __aicore__ T LowerMaxAbs(uint64_t b) const {
    T most = T(0);
    for (uint64_t i = 0; i < n_; ++i) {
      const T row = MaxAbsOrNan(x_, b * n_ * n_ + i * n_, i + 1);
      if (!Finite(row)) return row;
      most = row > most ? row : most;
    }
    return most;
  }

  // A = scale * the symmetric matrix of x's lower triangle, V = I; returns ||A||_F.
  __aicore__ T Load(uint64_t b, T scale) {
    T sum2 = T(0);
    for (uint64_t i = 0; i < n_; ++i)
      for (uint64_t j = 0; j < n_; ++j) {
        const T a = scale * x_.GetValue(b * n_ * n_ + A(i, j));  // x's lower triangle: A's layout
        if (i >= j) work_.Set(A(i, j), a);
        sum2 += a * a;
        if (vectors_) work_.Set(V(i, j), i == j ? T(1) : T(0));
      }
    return std::sqrt(sum2);
  }

  // One cyclic sweep; false when every pair was already negligible.
  __aicore__ bool Sweep(T scale) {
    const T eps = Eps<T>();
    const T floor = eps * scale / T(10 * (n_ > 0 ? n_ : 1));
    bool rotated = false;
    for (uint64_t p = 0; p + 1 < n_; ++p)
      for (uint64_t q = p + 1; q < n_; ++q) {
        const T apq = work_.Get(A(p, q)), app = work_.Get(A(p, p)), aqq = work_.Get(A(q, q));
        if (Abs(apq) <= floor || Abs(apq) <= eps * std::sqrt(Abs(app) * Abs(aqq))) continue;
        Rotate(p, q, apq, app, aqq);
        rotated = true;
      }
    return rotated;
  }

  // A = J^T A J with J the rotation in plane (p, q) that zeroes A[p][q]; V = V J.
  __aicore__ void Rotate(uint64_t p, uint64_t q, T apq, T app, T aqq) {
    const T t = JacobiTan((aqq - app) / (T(2) * apq));
    const T c = T(1) / std::sqrt(T(1) + t * t), s = t * c;
    for (uint64_t k = 0; k < n_; ++k) {
      if (k == p || k == q) continue;
      const T akp = work_.Get(A(k, p)), akq = work_.Get(A(k, q));
      const T np = c * akp - s * akq, nq = s * akp + c * akq;
      work_.Set(A(k, p), np);
      work_.Set(A(k, q), nq);
    }
    work_.Set(A(p, p), app - t * apq);
    work_.Set(A(q, q), aqq + t * apq);
    work_.Set(A(p, q), T(0));
    if (vectors_) RotateColumns(work_, V(0, p), V(0, q), n_, n_, c, s);
  }

  // The diagonal sorted ascending, V's columns carried along.
  __aicore__ void SortAscending() {
    SelectionSort(
        n_, false, [&](uint64_t i) { return work_.Get(A(i, i)); },
        [&](uint64_t i, uint64_t j) {
          const T d = work_.Get(A(i, i));
          work_.Set(A(i, i), work_.Get(A(j, j)));
          work_.Set(A(j, j), d);
          if (vectors_) SwapColumns(work_, V(0, i), V(0, j), n_, n_);
        });
  }

  const SpectralTiling& t_;
  uint64_t n_;
  bool vectors_;
  AscendC::GlobalTensor<T> x_, w_, v_;
  AscendC::GlobalTensor<int32_t> info_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
  Matrix work_;  // the work area (jacobi_work.h InitWork)
};

}  // namespace
}  // namespace npurt::kernels::linalg

extern "C" __global__ __aicore__ void npurt_linalg_eigh_kernel(GM_ADDR x, GM_ADDR w, GM_ADDR v, GM_ADDR info,
                                                               GM_ADDR workspace, GM_ADDR tiling) {
  using namespace npurt::kernels::linalg;
  GET_TILING_DATA_WITH_STRUCT(SpectralTiling, t, tiling);
  RunPlaced<JacobiEigh>(t.in_ub != 0, t.dtype, x, w, v, info, workspace, t);
  npurt::kernels::WriteBackScalarGm(info);  // w, v, info and the GM work area: SetValue
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::linalg {
extern const SimKernelEntry kEighEntry = NPURT_SIM_ENTRY(npurt_linalg_eigh_kernel);
}  // namespace npurt::kernels::linalg
#endif  // NPURT_ASCEND_DEVICE_BUILD
